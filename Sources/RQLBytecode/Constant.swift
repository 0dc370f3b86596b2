import RQLCore

/// One entry of a program's constant pool (an instruction's P4).
public enum Constant: Hashable, Sendable {
    /// One value: a comparison's constant, a primary key.
    case value(Value)
    /// Several values: an IN list, the keys an index is probed with.
    case values([Value])
    /// A name or text: a class name, a QUERY PLAN row.
    case text(String)
    /// A predicate tested row at a time (`FilterRow`).
    case predicate(RowPredicate)
    /// The keys of a SORT or top-N.
    case sortKeys([RowSortKey])
    /// The paths of a DISTINCT.
    case paths([RowPath])
    /// The bounds of an index range (`nil`: unbounded on that side).
    case range(lower: Value?, lowerInclusive: Bool, upper: Value?, upperInclusive: Bool)
}

/// One key of a SORT, top-N: a single-valued path through to-one links, a direction, and
/// whether strings compare with case folded.
public struct RowSortKey: Hashable, Sendable {
    public var path: RowPath
    public var ascending: Bool
    public var caseInsensitive: Bool

    public init(path: RowPath, ascending: Bool, caseInsensitive: Bool = false) {
        self.path = path
        self.ascending = ascending
        self.caseInsensitive = caseInsensitive
    }
}

/// A program's constants, indexed by P4. Plain values are stored once however often they are
/// used.
///
///     var pool = ConstantPool()
///     let k = pool.add(.value(.int(30)))   // 0
///     pool[k]                              // .value(.int(30))
public struct ConstantPool: Hashable, Sendable {
    public private(set) var entries: [Constant] = []
    private var valueIndex: [Value: Int32] = [:]

    public init() {}

    /// Adds `constant` and returns its index.
    public mutating func add(_ constant: Constant) -> Int32 {
        if case .value(let value) = constant, let index = valueIndex[value] { return index }
        let index = Int32(entries.count)
        entries.append(constant)
        if case .value(let value) = constant { valueIndex[value] = index }
        return index
    }

    public var count: Int { entries.count }

    public subscript(index: Int32) -> Constant { entries[Int(index)] }

    /// Whether `index` names an entry.
    public func contains(_ index: Int32) -> Bool { index >= 0 && Int(index) < entries.count }

    public static func == (lhs: ConstantPool, rhs: ConstantPool) -> Bool { lhs.entries == rhs.entries }
    public func hash(into hasher: inout Hasher) { hasher.combine(entries) }
}
