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

        Options:
        \(StoreFileSource.acceptOlderVersionHelp)
          -h, --help          Show this help.

        """
    static let valuedOptions: Set<String> = []
    static let flags: Set<String> = [StoreFileSource.acceptOlderVersion]

    static func run(_ list: ArgumentList, _ context: CommandContext) throws(CommandFailure) {
        guard list.positionals.count == 1 else { throw .usage("give one store file") }
        let path = list.positionals[0]
        try StoreFileSource.requireRegularFile(path.text)
        if StoreFileSource.isStoreFile(path.text) {
            let snapshot = try StoreFileSource.open(path.text, list, context).snapshot
            let text = DatasetExporter.export(snapshot)
            try StoreFileSource.checkDamage(snapshot)
            try context.output.write(text + "\n")
        } else {
            try context.output.write(
                DatasetExporter.export(try StoreFileSource.loadDataset(path, list, context)) + "\n"
            )
        }
    }
}
