import Foundation
import RQLCore
import RQLStorage

/// `rqlc import DATASET.json STORE`: creates STORE from a dataset, or adds the dataset's objects
/// to an existing store, in one transaction.
enum ImportCommand: Command {
    static let name = "import"
    static let summary = "Create a store file from a JSON dataset, or add a dataset's objects to one."
    static let help = """
        Usage: rqlc import DATASET STORE

        Reads DATASET (the JSON dataset format, or another store file; '-' is standard input)
        and writes its objects to the store file STORE in one transaction. A missing STORE is
        created with the dataset's schema; an existing one gets the dataset's classes it lacks
        and then the objects (the classes it has must have the same properties). Prints the
        new version and the number of objects. A STORE whose newest version cannot be read
        is refused (exit 1); with --accept-older-version the objects are committed on top of
        the intact version before it, which replaces the unreadable one for good.

        Options:
        \(StoreFileSource.acceptOlderVersionHelp)
          -h, --help          Show this help.

        """
    static let valuedOptions: Set<String> = []
    static let flags: Set<String> = [StoreFileSource.acceptOlderVersion]

    static func run(_ list: ArgumentList, _ context: CommandContext) throws(CommandFailure) {
        guard list.positionals.count == 2 else { throw .usage("give a dataset and a store file") }
        let source = try StoreFileSource.loadDataset(list.positionals[0], list, context)
        defer { source.keepOpen() }
        let dataset = source.reader
        let path = list.positionals[1].text
        let store: BlockStore
        do {
            // Created whole with the dataset's schema, or opened (another process may create it
            // first); an empty file becomes a store.
            store = try BlockStore.open(path: path, creatingWith: dataset.schema)
        } catch {
            throw StoreFileSource.failure(error)
        }
        try StoreFileSource.checkFallback(store.fallback, list, context)
        store.acceptOlderVersion()
        let transaction = store.beginWrite()
        let result: CommitResult
        do {
            for objectSchema in dataset.schema.classes where transaction.schema[objectSchema.name] == nil {
                try transaction.addClass(objectSchema)
            }
            try transaction.importObjects(from: dataset)
        } catch {
            transaction.rollback()
            // Rows of a damaged source block read as empty values (a repeated primary key):
            // the damage is the cause to report.
            try StoreFileSource.checkDamage(dataset)
            throw importFailure(error, path)
        }
        do {
            // A source store file's damaged block read as empty rows: they are not its objects.
            try StoreFileSource.checkDamage(dataset)
        } catch {
            transaction.rollback()
            throw error
        }
        do {
            result = try transaction.commit()
        } catch {
            transaction.rollback()
            throw importFailure(error, path)
        }
        try context.output.write(
            "\(TerminalText.escaped(path)): version \(result.snapshot.version), \(result.snapshot.objectCount) objects\n"
        )
    }

    private static func importFailure(_ error: WriteError, _ path: String) -> CommandFailure {
        if case .file(let fileError) = error { return StoreFileSource.failure(fileError) }
        return .invalidInput("error: \(TerminalText.escaped(path)): \(TerminalText.escaped(error.description))\n")
    }
}
