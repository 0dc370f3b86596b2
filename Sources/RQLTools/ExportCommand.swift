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

    /// Writes `store` as `DatasetExporter.export(store)` does, followed by a newline, but one
    /// object at a time, class by class: what is held is the object being written and up to
    /// 64 KB of text, never the document. The text is checked for store damage before it goes
    /// out, so a damaged block ends the export (exit 1) with none of its rows printed.
    static func write<Store: StoreReader>(_ store: Store, to output: CommandOutput) throws(CommandFailure) {
        let schema = DatasetExporter.schema(store.schema).serialized(pretty: true, indent: 1)
        var pending = "{\n  \"schema\": " + schema + ",\n  \"objects\": "
        func flush() throws(CommandFailure) {
            try StoreFileSource.checkDamage(store)
            try output.write(pending)
            pending = ""
        }
        var firstClass = true
        for objectSchema in store.schema.classes where !objectSchema.isEmbedded {
            guard let table = store.table(named: objectSchema.name), table.rowCount > 0 else { continue }
            pending += (firstClass ? "{\n    " : ",\n    ") + JSONValue.string(objectSchema.name).serialized() + ": ["
            firstClass = false
            for position in 0..<table.rowCount {
                let object = DatasetExporter.object(at: position, in: table, store: store)
                pending += (position == 0 ? "\n      " : ",\n      ") + object.serialized(pretty: true, indent: 3)
                if pending.utf8.count >= 1 << 16 { try flush() }
            }
            pending += "\n    ]"
        }
        pending += firstClass ? "{}\n}\n" : "\n  }\n}\n"
        try flush()
    }
}
