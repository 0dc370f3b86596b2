import Foundation
import RQLCore
import RQLDatasets
import RQLStorage

/// `rqlc import DATASET.json STORE`: creates STORE from a dataset, or adds the dataset's objects
/// to an existing store, in one transaction.
enum ImportCommand: Command {
    static let name = "import"
    static let summary = "Create a store file from a JSON dataset, or add a dataset's objects to one."
    static let help = """
        Usage: rqlc import DATASET STORE

        Reads DATASET (the JSON dataset format, or another store file; '-' is standard input)
        and writes its objects to the store file STORE in one transaction. A JSON dataset is
        streamed: its objects go into STORE's blocks as they are read, so memory does not grow
        with the text; a store file is read in place and copied a block at a time. A missing STORE is created with the dataset's schema once the schema is
        read; an existing one gets the dataset's classes it lacks and then the objects (the
        classes it has must have the same properties). A dataset that fails commits none of its
        objects, and a STORE created for it is removed again. Prints the new version and the
        number of objects; on a terminal, an import that takes more than a second shows its
        progress on standard error meanwhile. A STORE whose newest version cannot be read is
        refused (exit 1); with --accept-older-version the objects are committed on top of the
        intact version before it, which replaces the unreadable one for good.

        \(StoreFileSource.optionsHelp)

        """
    static let valuedOptions: Set<String> = []
    static let flags: Set<String> = [StoreFileSource.acceptOlderVersion]

    static func run(_ list: ArgumentList, _ context: CommandContext) throws(CommandFailure) {
        guard list.positionals.count == 2 else { throw .usage("give a dataset and a store file") }
        let path = list.positionals[1].text
        if StoreFileSource.isStoreFile(list.positionals[0].text) {
            try importStore(list.positionals[0].text, into: path, list, context)
        } else {
            try importDataset(list.positionals[0], into: path, list, context)
        }
        dropCachedPages(path)
    }

    /// A JSON dataset, streamed into the store's transaction as it is read: the schema first
    /// (a stream that is not a dataset fails there, before STORE is created), then the objects,
    /// committed once at the end, so a dataset that fails commits none of them.
    private static func importDataset(
        _ dataset: CommandArgument,
        into path: String,
        _ list: ArgumentList,
        _ context: CommandContext
    ) throws(CommandFailure) {
        let stream = try StoreFileSource.openDatasetStream(dataset, context)
        try withStore(path, schema: stream.schema, list, context) { store throws(CommandFailure) in
            let transaction = store.beginWrite()
            let progress = ImportProgress(context)
            do throws(DatasetError) {
                try stream.load(into: transaction, progress: progress.update)
            } catch {
                progress.clear()
                transaction.rollback()
                throw StoreFileSource.datasetFailure(error, dataset)
            }
            progress.clear()
            try commit(transaction, path, context)
        }
    }

    /// Another store file, read in place and copied block by block: each source block's pages
    /// are dropped once copied and each full block of STORE is written as it fills
    /// (`WriteTransaction.importObjects`), so memory is a block and the indexes, not the file.
    private static func importStore(
        _ sourcePath: String,
        into path: String,
        _ list: ArgumentList,
        _ context: CommandContext
    ) throws(CommandFailure) {
        let source = try StoreFileSource.openData(sourcePath, list, context)
        defer { source.keepOpen() }
        let dataset = source.reader
        try withStore(path, schema: dataset.schema, list, context) { store throws(CommandFailure) in
            let transaction = store.beginWrite()
            do throws(WriteError) {
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
            do throws(CommandFailure) {
                // A source store file's damaged block read as empty rows: they are not its objects.
                try StoreFileSource.checkDamage(dataset)
            } catch {
                transaction.rollback()
                throw error
            }
            try commit(transaction, path, context)
        }
    }

    /// Runs `body` on the store at `path`, created whole with `schema` or opened (another
    /// process may create it first; an empty file becomes a store). When `body` fails and this
    /// import created the file, the file goes, with its log and lock file: like `sqlite3`, a
    /// failed import into a new path leaves nothing there. A file that was there stays, and so
    /// does a created one another process has opened meanwhile.
    private static func withStore(
        _ path: String,
        schema: Schema,
        _ list: ArgumentList,
        _ context: CommandContext,
        _ body: (BlockStore) throws(CommandFailure) -> Void
    ) throws(CommandFailure) {
        var created = false
        let store = try StoreFileSource.opened(list, context) { () throws(StoreFileError) in
            // `create` never replaces a file: it fails with `.exists` when one is there.
            if !FileManager.default.fileExists(atPath: path) {
                do throws(StoreFileError) {
                    let made = try BlockStore.create(path: path, schema: schema)
                    created = true
                    return made
                } catch  where error.problem == .exists {}
            }
            return try BlockStore.open(path: path, creatingWith: schema)
        }
        do throws(CommandFailure) {
            try body(store)
        } catch {
            if created && !store.isOpenElsewhere {
                // The import's failure is what to report; a file that cannot go stays, an empty store.
                _ = try? BlockStore.removeFiles(path: path)
            }
            throw error
        }
    }

    /// Commits and prints the new version and the number of objects.
    private static func commit(
        _ transaction: WriteTransaction,
        _ path: String,
        _ context: CommandContext
    ) throws(CommandFailure) {
        let result: CommitResult
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

    /// The import wrote the whole store through the page cache, which keeps it in large folios: a
    /// query run right after maps a whole folio around each page it reads (a count over one column
    /// of a 1M-object import: 69 MB resident, against 26 MB once the cache is dropped). The commit
    /// has synced the pages and the store is closed (the kernel keeps pages a mapping holds), so the
    /// kernel may drop them; later reads page in what they touch.
    private static func dropCachedPages(_ path: String) {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
    }

    private static func importFailure(_ error: WriteError, _ path: String) -> CommandFailure {
        if case .file(let fileError) = error { return StoreFileSource.failure(fileError) }
        return .invalidInput("error: \(TerminalText.escaped(path)): \(TerminalText.escaped(error.description))\n")
    }
}

/// The progress line of a long import: objects and bytes read and the rate, rewritten in place
/// on standard error when it is a terminal and the import has run for a second; nothing
/// otherwise. Cleared before the result is printed.
final class ImportProgress {
    private let errors: CommandOutput?
    private let start = ContinuousClock.now
    /// Seconds before the first line.
    private let delay: Double
    private var lastShown: ContinuousClock.Instant?

    init(_ context: CommandContext, after delay: Double = 1) {
        errors = context.environment.standardErrorIsTerminal ? context.errors : nil
        self.delay = delay
    }

    func update(_ progress: DatasetLoadProgress) {
        guard let errors else { return }
        let now = ContinuousClock.now
        let elapsed = Self.seconds(start.duration(to: now))
        guard elapsed >= delay, lastShown.map({ Self.seconds($0.duration(to: now)) >= 0.1 }) ?? true else { return }
        lastShown = now
        let megabytes = (Double(progress.bytes) / 1e5).rounded() / 10
        let rate = Int((Double(progress.objects) / max(elapsed, 1e-3)).rounded())
        // A failed write to standard error is not the import's failure: the line is a courtesy.
        try? errors.write("\r\u{1B}[Kimporting: \(progress.objects) objects, \(megabytes) MB read, \(rate) objects/s")
    }

    /// Erases the line, if one was shown.
    func clear() {
        guard lastShown != nil else { return }
        try? errors?.write("\r\u{1B}[K")
        lastShown = nil
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
