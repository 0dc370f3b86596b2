import RQLCore

/// One class's rows while they are loaded: row keys and a column builder per stored property.
package final class TableBuilder {
    package private(set) var keys: [RowKey] = []
    private let columns: [ColumnBuilder?]

    package init(_ objectSchema: ObjectSchema) {
        columns = objectSchema.properties.map { $0.isBacklink ? nil : ColumnBuilder($0) }
    }

    /// The last key given, -1 before the first row.
    package var lastKey: Int64 { keys.last?.rawValue ?? -1 }

    package func append(_ row: [Value], key: RowKey) {
        keys.append(key)
        for (index, column) in columns.enumerated() { column?.append(index < row.count ? row[index] : .null) }
    }

    package func input() -> TableInput {
        TableInput(keys: keys, columns: columns.map { $0?.build() })
    }
}
