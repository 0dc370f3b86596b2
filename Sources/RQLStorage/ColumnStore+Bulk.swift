import RQLCore

/// The values of one property for every row of a table, for building a store column by column
/// (benchmarks and generators) without going through JSON or per-row `Value`s.
public enum ColumnValues: Sendable {
    /// `bool` values; `nulls[i]` marks row `i` null (optional properties only).
    case bool([Bool], nulls: [Bool]? = nil)
    /// `int` values; `nulls[i]` marks row `i` null.
    case int([Int64], nulls: [Bool]? = nil)
    /// `float` values; `nulls[i]` marks row `i` null.
    case float([Float], nulls: [Bool]? = nil)
    /// `double` values; `nulls[i]` marks row `i` null.
    case double([Double], nulls: [Bool]? = nil)
    /// `string` values; `nil` is null.
    case string([String?])
    /// Any property, one `Value` per row (links as `.link` with row keys = positions).
    case values([Value])

    var count: Int {
        switch self {
        case .bool(let v, _): v.count
        case .int(let v, _): v.count
        case .float(let v, _): v.count
        case .double(let v, _): v.count
        case .string(let v): v.count
        case .values(let v): v.count
        }
    }
}

extension ColumnStore {
    /// Builds a store at version 1 from columns: `columns[className][propertyName]` holds that
    /// property's values for every row, all columns of a class having the same length. Row keys
    /// are positions. Properties not given take their defaults (null, zero, empty); backlinks are
    /// computed. Types, nulls, primary-key uniqueness and link targets are checked.
    ///
    /// ```swift
    /// let store = try ColumnStore(schema: schema, columns: [
    ///     "Person": ["id": .int([0, 1, 2]), "name": .string(["Ann", "Ben", nil])],
    /// ])
    /// ```
    public init(schema: Schema, columns: [String: [String: ColumnValues]]) throws(StoreError) {
        for className in columns.keys where schema[className] == nil { throw .unknownClass(className) }
        var inputs: [String: TableInput] = [:]
        for objectSchema in schema.classes {
            let given = columns[objectSchema.name] ?? [:]
            for name in given.keys {
                guard let property = objectSchema.property(named: name), !property.isBacklink else {
                    throw .unknownProperty(className: objectSchema.name, property: name)
                }
            }
            // Every column of a class must agree with the first one in schema order.
            let rowCount = objectSchema.properties.lazy.compactMap { given[$0.name]?.count }.first ?? 0
            var input = TableInput(keys: (0..<rowCount).map { RowKey(Int64($0)) }, columns: [])
            for (index, property) in objectSchema.properties.enumerated() {
                guard !property.isBacklink else {
                    input.columns.append(nil)
                    continue
                }
                let values =
                    given[property.name]
                    ?? .values([Value](repeating: property.defaultValue, count: rowCount))
                guard values.count == rowCount else {
                    throw .rowCountMismatch(
                        className: objectSchema.name,
                        property: property.name,
                        expected: rowCount,
                        found: values.count
                    )
                }
                let (column, linkValues) = try ColumnStore.column(values, property, className: objectSchema.name)
                input.columns.append(column)
                if let linkValues { input.linkValues[index] = linkValues }
            }
            if let keyIndex = objectSchema.primaryKeyIndex, let keyColumn = input.columns[keyIndex] {
                var seen = Set<EqualityKey>()
                for row in 0..<rowCount where !seen.insert(EqualityKey(keyColumn.value(at: row))).inserted {
                    throw .duplicatePrimaryKey(
                        className: objectSchema.name,
                        property: objectSchema.properties[keyIndex].name,
                        row: row
                    )
                }
            }
            inputs[objectSchema.name] = input
        }
        for objectSchema in schema.classes {
            for (index, values) in inputs[objectSchema.name]?.linkValues ?? [:] {
                for (row, value) in values.enumerated() {
                    var dangling = false
                    ColumnStore.forEachLink(in: value) { link in
                        let count = inputs[link.className]?.keys.count ?? 0
                        if link.key.rawValue < 0 || link.key.rawValue >= Int64(count) { dangling = true }
                    }
                    if dangling {
                        throw .danglingLink(
                            className: objectSchema.name,
                            property: objectSchema.properties[index].name,
                            row: row
                        )
                    }
                }
            }
        }
        self.init(schema: schema, inputs: inputs, version: 1)
    }

    static func column(
        _ values: ColumnValues,
        _ property: Property,
        className: String
    ) throws(StoreError)
        -> (Column, [Value]?)
    {
        func mismatch(_ row: Int) -> StoreError {
            .typeMismatch(className: className, property: property.name, row: row)
        }
        func nullWords(_ nulls: [Bool]?, count: Int) throws(StoreError) -> [UInt64] {
            guard let nulls else { return property.isOptional ? [UInt64](repeating: 0, count: (count + 63) / 64) : [] }
            guard nulls.count == count else { throw mismatch(min(nulls.count, count)) }
            if !property.isOptional, let row = nulls.firstIndex(of: true) { throw mismatch(row) }
            guard property.isOptional else { return [] }
            var words = [UInt64](repeating: 0, count: (count + 63) / 64)
            for (row, isNull) in nulls.enumerated() where isNull { words[row >> 6] |= 1 << UInt64(row & 63) }
            return words
        }
        let single = property.collection == .single
        switch values {
        case .bool(let v, let nulls):
            guard single, property.type == .bool else { throw mismatch(0) }
            return (.bool(FixedWidthColumn(values: v, nullWords: try nullWords(nulls, count: v.count))), nil)
        case .int(let v, let nulls):
            guard single, property.type == .int else { throw mismatch(0) }
            return (.int(FixedWidthColumn(values: v, nullWords: try nullWords(nulls, count: v.count))), nil)
        case .float(let v, let nulls):
            guard single, property.type == .float else { throw mismatch(0) }
            return (.float(FixedWidthColumn(values: v, nullWords: try nullWords(nulls, count: v.count))), nil)
        case .double(let v, let nulls):
            guard single, property.type == .double else { throw mismatch(0) }
            return (.double(FixedWidthColumn(values: v, nullWords: try nullWords(nulls, count: v.count))), nil)
        case .string(let v):
            guard single, property.type == .string else { throw mismatch(0) }
            var column = BytesColumn()
            column.bytes.reserveCapacity(v.count * 8)
            column.offsets.reserveCapacity(v.count + 1)
            column.nullWords = property.isOptional ? [UInt64](repeating: 0, count: (v.count + 63) / 64) : []
            for (row, string) in v.enumerated() {
                if let string {
                    column.bytes.append(contentsOf: string.utf8)
                } else {
                    guard property.isOptional else { throw mismatch(row) }
                    column.nullWords[row >> 6] |= 1 << UInt64(row & 63)
                }
                column.offsets.append(column.bytes.count)
            }
            return (.string(column), nil)
        case .values(let v):
            if let row = v.firstIndex(where: { !property.accepts($0) }) { throw mismatch(row) }
            return (ColumnBuilder.build(v, for: property), TableInput.canHoldLinks(property) ? v : nil)
        }
    }
}
