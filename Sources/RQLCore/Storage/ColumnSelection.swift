/// Which columns of a table `TableReader.withBlock(_:columns:_:)` opens: every one, or only
/// those a reader names. Opening a column has a cost per block (a view per column, and in the
/// in-memory store a nested buffer access each), so a scan that reads one column of seven, or
/// an index probe that reads none, asks for just those.
///
/// ```swift
/// let age = table.objectSchema.propertyIndex(named: "age")!
/// table.withBlock(0, columns: ColumnSelection([age])) { block in
///     guard case .int(let ages) = block.columns[age] else { return }
///     print(ages.values.first ?? 0)
/// }
/// ```
///
/// Held as a bit mask of properties `0 ..< 64`, so that making one allocates nothing; a selection
/// naming a property beyond that is every column.
public struct ColumnSelection: Sendable, Hashable {
    /// Bit `p` set: property `p` is opened. Ignored when `isAll`.
    private let mask: UInt64
    /// Every column.
    public let isAll: Bool

    private init(mask: UInt64, isAll: Bool) {
        self.mask = mask
        self.isAll = isAll
    }

    /// Every column of the table.
    public static let all = ColumnSelection(mask: 0, isAll: true)
    /// No column: the block's positions and row keys only.
    public static let none = ColumnSelection(mask: 0, isAll: false)

    /// The columns `properties` (repeats allowed, negative numbers ignored).
    public init(_ properties: some Sequence<Int>) {
        var mask: UInt64 = 0
        for property in properties where property >= 0 {
            guard property < 64 else {
                self = .all
                return
            }
            mask |= 1 << UInt64(property)
        }
        self.init(mask: mask, isAll: false)
    }

    /// This selection and property `property` too.
    public func adding(_ property: Int) -> ColumnSelection {
        guard !isAll, property >= 0 else { return self }
        guard property < 64 else { return .all }
        return ColumnSelection(mask: mask | 1 << UInt64(property), isAll: false)
    }

    /// Whether property `property` is opened.
    public func contains(_ property: Int) -> Bool {
        if isAll { return property >= 0 }
        return property >= 0 && property < 64 && mask & (1 << UInt64(property)) != 0
    }

    /// The opened properties below `count` (a table's property count), ascending.
    public func properties(below count: Int) -> [Int] {
        if isAll { return Array(0..<max(count, 0)) }
        return (0..<min(max(count, 0), 64)).filter { mask & (1 << UInt64($0)) != 0 }
    }

    /// How many entries a block's `columns` array needs: one past the highest opened property
    /// below `count` (0 when none is opened), or `count` for every column.
    public func columnCount(below count: Int) -> Int {
        if isAll { return max(count, 0) }
        let limit = min(max(count, 0), 64)
        let inRange = limit == 64 ? mask : mask & ((1 << UInt64(limit)) &- 1)
        return inRange == 0 ? 0 : 64 - inRange.leadingZeroBitCount
    }
}
