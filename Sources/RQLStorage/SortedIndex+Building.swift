import Foundation
import RQLCore

/// Building a sorted index: from a whole-column view (the in-memory store), or from values and
/// their positions (a store that gathers its blocks, or rebuilds after a commit).
extension SortedIndex {
    /// The index of a column of `rowCount` rows, or `nil` for a column that has no order (links
    /// and collections). Positions are the view's row numbers plus `firstPosition`.
    ///
    /// ```swift
    /// let index = table.withColumn(score) { SortedIndex(column: $0, rowCount: table.rowCount) }
    /// ```
    public init?(column: ColumnView, rowCount: Int, firstPosition: Int = 0) {
        let total = firstPosition + rowCount
        switch column {
        case .int(let view):
            let (keys, positions) = Self.sorted(view, rowCount, firstPosition, include: { _ in true }, by: <)
            self.init(keys: .int(keys), positions: positions, rowCount: total)
        case .double(let view):
            let (keys, positions) = Self.sorted(view, rowCount, firstPosition, include: { !$0.isNaN }, by: <)
            self.init(keys: .double(keys), positions: positions, rowCount: total)
        case .float(let view):
            let (floats, positions) = Self.sorted(view, rowCount, firstPosition, include: { !$0.isNaN }, by: <)
            self.init(keys: .double(floats.map { Double($0) }), positions: positions, rowCount: total)
        case .decimal(let view):
            let (keys, positions) = Self.sorted(view, rowCount, firstPosition, include: { !$0.isNaN }, by: <)
            self.init(keys: .decimal(keys), positions: positions, rowCount: total)
        case .date(let view):
            let (keys, positions) = Self.sorted(view, rowCount, firstPosition, include: { _ in true }, by: <)
            self.init(keys: .date(keys), positions: positions, rowCount: total)
        case .objectId(let view):
            let (keys, positions) = Self.sorted(view, rowCount, firstPosition, include: { _ in true }, by: <)
            self.init(keys: .objectId(keys), positions: positions, rowCount: total)
        case .uuid(let view):
            let (keys, positions) = Self.sorted(
                view,
                rowCount,
                firstPosition,
                include: { _ in true },
                by: { ValueComparison.compareUUID($0, $1) < 0 }
            )
            self.init(keys: .uuid(keys), positions: positions, rowCount: total)
        case .bool(let view):
            let (keys, positions) = Self.sorted(
                view,
                rowCount,
                firstPosition,
                include: { _ in true },
                by: { !$0 && $1 }
            )
            self.init(keys: .bool(keys), positions: positions, rowCount: total)
        case .string(let view):
            var pairs: [(String, Int32)] = []
            for row in 0..<rowCount where !view.nulls.isNull(row) {
                pairs.append((String(decoding: view.bytes(at: row), as: UTF8.self), Int32(firstPosition + row)))
            }
            pairs.sort { compareUTF8($0.0, $1.0) < 0 }
            self.init(keys: .string(pairs.map(\.0)), positions: pairs.map(\.1), rowCount: total)
        case .mixed(let view):
            let values = (0..<rowCount).map { view.values[$0] }
            self.init(values: values, positions: (0..<rowCount).map { firstPosition + $0 }, rowCount: total)
        case .data, .link, .collection:
            return nil
        }
    }

    /// The index of arbitrary values: `values[i]` is the value of the row at `positions[i]`,
    /// every position below `rowCount`. Nulls, NaNs, links and collections are left out. Values
    /// of one type are stored typed; values of several types (a mixed column) in `ValueOrdering`.
    public init(values: [Value], positions: [Int], rowCount: Int) {
        var kinds = Set<ValueKind>()
        for value in values where !value.isNull && !NumericComparison.isNaN(value) { kinds.insert(value.kind) }
        // One fixed-width type: sort machine values, as a column view does.
        if kinds.count == 1, let kind = kinds.first, let keys = Self.typed(values, positions, kind, rowCount) {
            self = keys
            return
        }
        var pairs: [(Value, Int32)] = []
        pairs.reserveCapacity(values.count)
        for (value, position) in zip(values, positions) {
            switch value {
            case .null, .link, .list, .map: continue
            default:
                if NumericComparison.isNaN(value) { continue }
                pairs.append((value, Int32(position)))
            }
        }
        pairs.sort {
            let order = ValueOrdering.compare($0.0, $1.0)
            return order < 0 || (order == 0 && $0.1 < $1.1)
        }
        let sortedValues = pairs.map(\.0)
        let keys: Keys
        if kinds.count == 1, let kind = kinds.first {
            keys = Self.typedKeys(sortedValues, kind: kind) ?? .values(sortedValues)
        } else {
            keys = .values(sortedValues)
        }
        self.init(keys: keys, positions: pairs.map(\.1), rowCount: rowCount)
    }

    /// The index of values that are all of one numeric or date kind (nulls and NaNs skipped),
    /// sorted as machine values; `nil` for other kinds.
    private static func typed(_ values: [Value], _ positions: [Int], _ kind: ValueKind, _ rowCount: Int) -> SortedIndex?
    {
        func build<K>(_ extract: (Value) -> K?, by less: (K, K) -> Bool, as wrap: ([K]) -> Keys) -> SortedIndex {
            var pairs: [(K, Int32)] = []
            pairs.reserveCapacity(values.count)
            for (value, position) in zip(values, positions) {
                if let key = extract(value) { pairs.append((key, Int32(position))) }
            }
            pairs.sort { less($0.0, $1.0) || (!less($1.0, $0.0) && $0.1 < $1.1) }
            return SortedIndex(keys: wrap(pairs.map(\.0)), positions: pairs.map(\.1), rowCount: rowCount)
        }
        switch kind {
        case .int:
            return build({ if case .int(let v) = $0 { v } else { nil } }, by: <, as: Keys.int)
        case .double:
            return build({ if case .double(let v) = $0, !v.isNaN { v } else { nil } }, by: <, as: Keys.double)
        case .float:
            return build({ if case .float(let v) = $0, !v.isNaN { Double(v) } else { nil } }, by: <, as: Keys.double)
        case .date:
            return build({ if case .date(let v) = $0 { v } else { nil } }, by: <, as: Keys.date)
        default:
            return nil
        }
    }

    /// Values all of `kind`, as the typed key array for that kind (floats as doubles).
    private static func typedKeys(_ values: [Value], kind: ValueKind) -> Keys? {
        switch kind {
        case .int: .int(values.compactMap { if case .int(let v) = $0 { v } else { nil } })
        case .float: .double(values.compactMap { if case .float(let v) = $0 { Double(v) } else { nil } })
        case .double: .double(values.compactMap { if case .double(let v) = $0 { v } else { nil } })
        case .decimal: .decimal(values.compactMap { if case .decimal(let v) = $0 { v } else { nil } })
        case .date: .date(values.compactMap { if case .date(let v) = $0 { v } else { nil } })
        case .objectId: .objectId(values.compactMap { if case .objectId(let v) = $0 { v } else { nil } })
        case .uuid: .uuid(values.compactMap { if case .uuid(let v) = $0 { v } else { nil } })
        case .string: .string(values.compactMap { if case .string(let v) = $0 { v } else { nil } })
        case .bool: .bool(values.compactMap { if case .bool(let v) = $0 { v } else { nil } })
        case .null, .data, .link, .list, .map: nil
        }
    }

    /// The non-null rows of a fixed-width view for which `include` holds, sorted by value
    /// (ties by position), as parallel key and position arrays.
    private static func sorted<K>(
        _ view: FixedWidthColumnView<K>,
        _ rowCount: Int,
        _ firstPosition: Int,
        include: (K) -> Bool,
        by less: (K, K) -> Bool
    ) -> ([K], [Int32]) {
        var pairs: [(K, Int32)] = []
        pairs.reserveCapacity(rowCount)
        for row in 0..<rowCount where !view.nulls.isNull(row) {
            let value = view.values[row]
            if include(value) { pairs.append((value, Int32(firstPosition + row))) }
        }
        // Rows went in by ascending position; break ties on it so the order is fully determined.
        pairs.sort { less($0.0, $1.0) || (!less($1.0, $0.0) && $0.1 < $1.1) }
        return (pairs.map(\.0), pairs.map(\.1))
    }
}
