import RQLCore
import RQLStorage

/// How `rqlc run` prints matching objects.
enum ResultFormat: String, CaseIterable {
    /// One object per line as JSON in the dataset format (the default when not on a terminal).
    case jsonl
    /// A text table with one column per property (the default on a terminal).
    case table
    /// One JSON array of objects.
    case json
    /// One key per line: the primary key as JSON, or the position in the class's array.
    case keys

    func render(_ keys: [RowKey], in table: ColumnTable, store: ColumnStore) -> String {
        let positions = keys.compactMap { table.position(of: $0) }
        switch self {
        case .jsonl:
            return positions.map { DatasetExporter.object(at: $0, in: table, store: store).serialized() + "\n" }
                .joined()
        case .json:
            let objects = positions.map { DatasetExporter.object(at: $0, in: table, store: store) }
            return JSONValue.array(objects).serialized(pretty: true) + "\n"
        case .keys:
            return positions.map { DatasetExporter.key(at: $0, in: table).serialized() + "\n" }.joined()
        case .table:
            return textTable(positions, in: table, store: store)
        }
    }

    /// Columns padded to their widest cell; cells longer than 40 characters are cut with '…'.
    private func textTable(_ positions: [Int], in table: ColumnTable, store: ColumnStore) -> String {
        let objects: [[JSONMember]] = positions.map { position in
            if case .object(let members) = DatasetExporter.object(at: position, in: table, store: store) {
                members
            } else {
                []
            }
        }
        guard let first = objects.first else { return "(no objects)\n" }
        let header = first.map(\.key)
        let rows = objects.map { members in
            members.map { member in
                let text: String
                if case .string(let string) = member.value { text = string } else { text = member.value.serialized() }
                return text.count > 40 ? String(text.prefix(39)) + "…" : text
            }
        }
        let widths = header.indices.map { column in
            ([header[column]] + rows.map { column < $0.count ? $0[column] : "" }).map(\.count).max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(separator: "  ")
                .replacingTrailingSpaces() + "\n"
        }
        let rule = widths.map { String(repeating: "-", count: $0) }
        return line(header) + line(rule) + rows.map(line).joined() + "(\(positions.count) objects)\n"
    }
}

extension String {
    fileprivate func replacingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
