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
    /// closed pipe stops the work. Rows are read block by block from the columns printed
    /// (`DatasetObjectWriter`), and each stretch of text is checked for store damage before it
    /// is written (`StoreFileSource.checkDamage`): a row read from a damaged block is never
    /// printed.
    @_specialize(where Store == BlockSnapshot)
    func write<Store: StoreReader>(
        _ keys: [RowKey],
        in table: Store.Table,
        store: Store,
        to output: CommandOutput
    )
        throws(CommandFailure)
    {
        var writer = DatasetObjectWriter(table: table, store: store)
        switch self {
        case .jsonl:
            try Self.stream(keys, &writer, columns: writer.storedColumns, store, output) { writer, block, row in
                writer.writeObject(block, row)
                writer.bytes.append(UInt8(ascii: "\n"))
            }
        case .json:
            var first = true
            try Self.stream(keys, &writer, columns: writer.storedColumns, store, output) { writer, block, row in
                writer.bytes.append(contentsOf: (first ? "[\n  " : ",\n  ").utf8)
                writer.writeObject(block, row, pretty: true, indent: 1)
                first = false
            }
            try output.write(first ? "[]\n" : "\n]\n")
        case .keys:
            // A block's stretch of keys at a time: a key is a few digits, so a call per key
            // would cost more than writing it.
            try Self.stream(keys.count, &writer, store, output) { writer, next, limit in
                writer.write(runsOf: keys, from: next, columns: writer.keyColumns, limit: limit) {
                    writer,
                    block,
                    rows in
                    writer.writeKeyLines(block, rows)
                }
            }
        case .table:
            var cells: [[String]] = []
            try Self.stream(keys, &writer, columns: writer.storedColumns, store, output, holding: true) {
                writer,
                block,
                row in
                cells.append(writer.cells(block, row))
            }
            try output.write(Self.textTable(cells, of: table.objectSchema))
        case .csv:
            try output.write(CSV.header(of: table.objectSchema))
            try Self.stream(keys, &writer, columns: writer.storedColumns, store, output) { writer, block, row in
                CSV.writeRecord(block, row, &writer)
            }
        }
    }

    /// Writes the rows of `keys` through `row` (`DatasetObjectWriter.write(keys:…)`). With
    /// `holding`, the rows are kept by `row` itself (the table, which needs every row's width
    /// first) and only checked.
    private static func stream<Store: StoreReader>(
        _ keys: [RowKey],
        _ writer: inout DatasetObjectWriter<Store>,
        columns: ColumnSelection,
        _ store: Store,
        _ output: CommandOutput,
        holding: Bool = false,
        _ row: (inout DatasetObjectWriter<Store>, TableBlock, Int) -> Void
    ) throws(CommandFailure) {
        try stream(keys.count, &writer, store, output, holding: holding) { writer, next, limit in
            writer.write(keys: keys, from: next, columns: columns, limit: limit, row)
        }
    }

    /// Writes the text of `count` keys, 64 KB at a time: `stretch` writes from a key's index
    /// until the writer holds the limit it is given, and returns the next key's index. Each
    /// stretch is checked for damage, and for an object the writer could not write, before it is
    /// written (with `holding`, only checked).
    private static func stream<Store: StoreReader>(
        _ count: Int,
        _ writer: inout DatasetObjectWriter<Store>,
        _ store: Store,
        _ output: CommandOutput,
        holding: Bool = false,
        _ stretch: (inout DatasetObjectWriter<Store>, Int, Int) -> Int
    ) throws(CommandFailure) {
        var next = 0
        while next < count {
            next = stretch(&writer, next, 1 << 16)
            try StoreFileSource.checkDamage(store, writer)
            if !holding { try output.write(writer.bytes) }
            writer.bytes.removeAll(keepingCapacity: true)
        }
    }

    /// Columns padded to their widest cell in terminal columns; cells wider than 40 columns are
    /// cut with '…'. Control characters in names and values are shown escaped (`\r`, `\u{1B}`),
    /// so data cannot move the cursor or recolour the terminal.
    static func textTable(_ objects: [[String]], of objectSchema: ObjectSchema) -> String {
        guard !objects.isEmpty else { return "(no objects)\n" }
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
        let header = objectSchema.properties.filter { !$0.isBacklink }.map { cell($0.name) }
        let rows = objects.map { $0.map(cell) }
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
        return line(header) + line(rule) + rows.map(line).joined() + "(\(objects.count) objects)\n"
    }
}

extension DatasetObjectWriter {
    /// The text table's cells of the object at `row` of `block`: a string (a link's string key
    /// too) as its characters, anything else as its compact JSON, null as `null`.
    fileprivate mutating func cells(_ block: TableBlock, _ row: Int) -> [String] {
        storedProperties.map { property in
            let start = bytes.count
            if !writeText(block, row, property: property, rawStrings: true) {
                bytes.append(contentsOf: "null".utf8)
            }
            defer { bytes.removeSubrange(start...) }
            return String(decoding: bytes[start...], as: UTF8.self)
        }
    }
}
