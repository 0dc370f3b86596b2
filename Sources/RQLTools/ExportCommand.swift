import RQLCore
import RQLDatasets
import RQLStorage

/// `rqlc export STORE`: the store's newest version as a JSON dataset on standard output.
enum ExportCommand: Command {
    static let name = "export"
    static let summary = "Print a store file (or dataset) as a JSON dataset."
    static let help = """
        Usage: rqlc export STORE

        Prints the newest version of the store file STORE (a JSON dataset is accepted too) in the
        JSON dataset format: the schema, then every object. `rqlc import` of the output gives the
        same objects.

        \(StoreFileSource.optionsHelp)

        """
    static let valuedOptions: Set<String> = []
    static let flags: Set<String> = [StoreFileSource.acceptOlderVersion]

    static func run(_ list: ArgumentList, _ context: CommandContext) throws(CommandFailure) {
        guard list.positionals.count == 1 else { throw .usage("give one store file") }
        let path = list.positionals[0]
        try StoreFileSource.requireRegularFile(path.text)
        let data = try StoreFileSource.loadDataset(path, list, context)
        defer { data.keepOpen() }
        try write(data.reader, to: context.output)
    }

    /// Writes `store` as `DatasetExporter.export(store)` does, followed by a newline, but a
    /// block of objects at a time, class by class (`DatasetObjectWriter`): what is held is the
    /// block being read and about 64 KB of text, never the document. The text is checked for
    /// store damage before it goes out, so a damaged block ends the export (exit 1) with none of
    /// its rows printed.
    @_specialize(where Store == BlockSnapshot)
    static func write<Store: StoreReader>(_ store: Store, to output: CommandOutput) throws(CommandFailure) {
        let schema = DatasetExporter.schema(store.schema).serialized(pretty: true, indent: 1)
        var pending = Array(("{\n  \"schema\": " + schema + ",\n  \"objects\": ").utf8)
        func flush() throws(CommandFailure) {
            try StoreFileSource.checkDamage(store)
            try output.write(pending)
            pending.removeAll(keepingCapacity: true)
        }
        var firstClass = true
        for objectSchema in store.schema.classes where !objectSchema.isEmbedded {
            guard let table = store.table(named: objectSchema.name), table.rowCount > 0 else { continue }
            let name = JSONValue.string(objectSchema.name).serialized()
            pending += ((firstClass ? "{\n    " : ",\n    ") + name + ": [").utf8
            firstClass = false
            var writer = DatasetObjectWriter(table: table, store: store)
            var next = 0
            while next < table.rowCount {
                swap(&pending, &writer.bytes)
                next = writer.write(positions: next..<table.rowCount, columns: writer.storedColumns, limit: 1 << 16) {
                    writer,
                    block,
                    row in
                    writer.bytes.append(
                        contentsOf: (block.positions.lowerBound + row == 0 ? "\n      " : ",\n      ").utf8
                    )
                    writer.writeObject(block, row, pretty: true, indent: 3)
                }
                swap(&pending, &writer.bytes)
                try StoreFileSource.checkDamage(store, writer)
                if pending.count >= 1 << 16 { try flush() }
            }
            pending += "\n    ]".utf8
        }
        pending += (firstClass ? "{}\n}\n" : "\n  }\n}\n").utf8
        try flush()
    }
}
