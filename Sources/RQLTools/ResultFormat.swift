import RQLCore
import RQLDatasets
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
    /// A header line of property names, then one object a line (RFC 4180; `CSV`).
    case csv

    /// Writes the objects at `keys` as they are produced, so a large result streams and a
    /// closed pipe stops the work. Each object is checked for store damage before it is written
    /// (`StoreFileSource.checkDamage`): a row read from a damaged block is never printed.
    func write<Store: StoreReader>(
        _ keys: [RowKey],
        in table: Store.Table,
        store: Store,
        to output: CommandOutput
    )
        throws(CommandFailure)
    {
        let positions = keys.lazy.compactMap { table.position(of: $0) }
        switch self {
        case .jsonl:
            for position in positions {
                let object = DatasetExporter.object(at: position, in: table, store: store)
                try StoreFileSource.checkDamage(store)
                try output.write(object.serialized() + "\n")
            }
        case .json:
            var first = true
            for position in positions {
                let object = DatasetExporter.object(at: position, in: table, store: store)
                try StoreFileSource.checkDamage(store)
                try output.write((first ? "[\n  " : ",\n  ") + object.serialized(pretty: true, indent: 1))
                first = false
            }
            try output.write(first ? "[]\n" : "\n]\n")
        case .keys:
            for position in positions {
                let key = DatasetExporter.key(at: position, in: table)
                try StoreFileSource.checkDamage(store)
                try output.write(key.serialized() + "\n")
            }
        case .table:
            let text = textTable(Array(positions), in: table, store: store)
            try StoreFileSource.checkDamage(store)
            try output.write(text)
        case .csv:
            try output.write(CSV.header(of: table.objectSchema))
            for position in positions {
                let object = DatasetExporter.object(at: position, in: table, store: store)
                try StoreFileSource.checkDamage(store)
                try output.write(CSV.record(object, of: table.objectSchema))
            }
        }
    }

    /// Columns padded to their widest cell in terminal columns; cells wider than 40 columns are
    /// cut with '…'. Control characters in names and values are shown escaped (`\r`, `\u{1B}`),
    /// so data cannot move the cursor or recolour the terminal.
    private func textTable<Store: StoreReader>(_ positions: [Int], in table: Store.Table, store: Store) -> String {
        let objects: [[JSONMember]] = positions.map { position in
            if case .object(let members) = DatasetExporter.object(at: position, in: table, store: store) {
                members
            } else {
                []
            }
        }
        guard let first = objects.first else { return "(no objects)\n" }
        func cell(_ text: String) -> (text: String, width: Int) {
            let shown = TerminalText.escaped(text)
            let width = DisplayWidth.of(shown)
            guard width > 40 else { return (shown, width) }
            var cut = ""
            var cutWidth = 0
            for character in shown {
                let next = DisplayWidth.of(character)
                if cutWidth + next > 39 { break }
                cut.append(character)
                cutWidth += next
            }
            return (cut + "…", cutWidth + 1)
        }
        let header = first.map { cell($0.key) }
        let rows = objects.map { members in
            members.map { member in
                if case .string(let string) = member.value { cell(string) } else { cell(member.value.serialized()) }
            }
        }
        let widths = header.indices.map { column in
            ([header[column]] + rows.map { column < $0.count ? $0[column] : ("", 0) }).map(\.width).max() ?? 0
        }
        func line(_ cells: [(text: String, width: Int)]) -> String {
            var text = zip(cells, widths).map { $0.text + String(repeating: " ", count: $1 - $0.width) }
                .joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text + "\n"
        }
        let rule = widths.map { (String(repeating: "-", count: $0), $0) }
        return line(header) + line(rule) + rows.map(line).joined() + "(\(positions.count) objects)\n"
    }
}
