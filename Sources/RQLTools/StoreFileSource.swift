import Foundation
import RQLCore
import RQLDatasets
import RQLStorage

#if canImport(Glibc)
import Glibc
#endif

/// Store files on the command line: `--data STORE` (recognised by its magic bytes, whatever its
/// name) and the `import`, `export`, `info` and `verify` commands.
enum StoreFileSource {
    /// Whether `path` names a regular file that starts with the store file magic. Pipes, FIFOs
    /// and `-` are never store files (a store is mapped, not streamed), so nothing is consumed.
    static func isStoreFile(_ path: String) -> Bool {
        guard path != "-" else { return false }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var prefix = [UInt8](repeating: 0, count: 8)
        let n = prefix.withUnsafeMutableBytes { read(fd, $0.baseAddress, 8) }
        return n == 8 && BlockStore.isStoreFile(prefix: prefix)
    }

    /// The flag by which the user consents to use the intact older version of a store file
    /// whose newest version cannot be read (`BlockStore.fallback`).
    static let acceptOlderVersion = "--accept-older-version"

    /// Its help lines, shared by every command that reads a store file.
    static let acceptOlderVersionHelp = """
          --accept-older-version
                              When a store file's newest version cannot be read (a damaged
                              or cut-short last commit), use the intact version before it
                              (a warning names both) instead of failing with exit 1.
        """

    /// The options section of the store commands' help: `--accept-older-version` and `--help`.
    static let optionsHelp = """
        Options:
        \(acceptOlderVersionHelp)
          -h, --help          Show this help.
        """

    /// Opens the store file at `path`; a damaged file is the data's fault (exit 1), a file that
    /// cannot be opened the command line's (exit 2). A store whose newest version could not be
    /// read is refused unless the command line has `--accept-older-version`.
    static func open(
        _ path: String,
        readOnly: Bool = true,
        _ list: ArgumentList,
        _ context: CommandContext
    ) throws(CommandFailure) -> BlockStore {
        try opened(list, context) { () throws(StoreFileError) in try BlockStore.open(path: path, readOnly: readOnly) }
    }

    /// The store `open` opens, its problem as the command's (see `failure`), refused when its
    /// newest version could not be read unless the command line accepts the older one.
    static func opened(
        _ list: ArgumentList,
        _ context: CommandContext,
        _ open: () throws(StoreFileError) -> BlockStore
    ) throws(CommandFailure) -> BlockStore {
        let store: BlockStore
        do {
            store = try open()
        } catch {
            throw failure(error)
        }
        try checkFallback(store.fallback, list, context)
        store.acceptOlderVersion()
        return store
    }

    /// Throws `fallback` (exit 1) unless the command line accepts it; then writes it to
    /// standard error as a warning.
    static func checkFallback(
        _ fallback: StoreFileError?,
        _ list: ArgumentList,
        _ context: CommandContext
    ) throws(CommandFailure) {
        guard let fallback else { return }
        let text = TerminalText.escaped(fallback.description)
        guard list.has(acceptOlderVersion) else {
            throw .invalidInput("error: \(text)\n(\(acceptOlderVersion) uses the intact version)\n")
        }
        try context.errors?.write("warning: \(text); using the intact version (\(acceptOlderVersion))\n")
    }

    /// The exit a store file's problem ends with: 2 when the path names nothing a store can be
    /// (missing, a directory, a FIFO), 1 when the file is wrong (bad magic, damage, empty) or a
    /// read or write failed under way (a full disk).
    static func failure(_ error: StoreFileError) -> CommandFailure {
        switch error.problem {
        case .io("open", _), .notRegularFile: .io(error.description)
        case .io: .failed(error.description)
        default: .invalidInput("error: \(TerminalText.escaped(error.description))\n")
        }
    }

    /// Refuses, as a store, whatever is not a regular file (a FIFO would be waited on forever, a
    /// device read without end); `-` and a missing path pass, for the caller to report.
    static func requireRegularFile(_ path: String) throws(CommandFailure) {
        guard path != "-" else { return }
        do {
            try BlockStore.checkRegularFile(path: path)
        } catch {
            throw failure(error)
        }
    }

    /// The store file at `path`, opened read-only at its newest version and read in place: open
    /// reads the header and the root, a query the blocks and index nodes it touches. A damaged
    /// block met on the way reads as empty rows until `checkDamage` throws it.
    static func openData(
        _ path: String,
        _ list: ArgumentList,
        _ context: CommandContext
    ) throws(CommandFailure) -> CommandData {
        let store = try open(path, list, context)
        return CommandData(reader: store.snapshot, file: store)
    }

    /// Throws the damaged block `store`'s reads met, if any: such a block reads as empty rows,
    /// which are not data (exit 1, naming the file and the block). In-memory stores have none.
    static func checkDamage(_ store: some StoreReader) throws(CommandFailure) {
        guard let damage = store.damage else { return }
        if let fileError = damage as? StoreFileError { throw failure(fileError) }
        throw .invalidInput("error: \(TerminalText.escaped(String(describing: damage)))\n")
    }

    /// `checkDamage(store)`, then throws the object `writer` could not write, if any (an
    /// embedded object nested deeper than a store holds them: a damaged store too).
    static func checkDamage<Store: StoreReader>(
        _ store: Store,
        _ writer: DatasetObjectWriter<Store>
    ) throws(CommandFailure) {
        try checkDamage(store)
        guard let failure = writer.failure else { return }
        throw .invalidInput("error: \(TerminalText.escaped(failure.description))\n")
    }

    /// A JSON dataset from `path` through the environment (`-` is standard input), or a store file
    /// read in place.
    static func loadDataset(
        _ path: CommandArgument,
        _ list: ArgumentList,
        _ context: CommandContext
    ) throws(CommandFailure) -> CommandData {
        if isStoreFile(path.text) { return try openData(path.text, list, context) }
        return CommandData(reader: try readDataset(path, context, onlySchema: false))
    }

    /// Reads a JSON dataset (or only its schema) from `path`, streaming: a stream that is not a
    /// dataset (`/dev/zero`, `yes |`) fails at its first wrong byte. A path that cannot be opened
    /// is exit 2; a read that fails under way, or a document that is wrong, exit 1.
    static func readDataset(
        _ path: CommandArgument,
        _ context: CommandContext,
        onlySchema: Bool
    ) throws(CommandFailure) -> BlockSnapshot {
        let input = try openInput(path, context)
        do {
            if onlySchema { return BlockStore(schema: try DatasetLoader.loadSchema(from: input)).snapshot }
            return try DatasetLoader.load(from: input)
        } catch {
            throw datasetFailure(error, path)
        }
    }

    /// Opens the JSON dataset at `path` (`-` is standard input) and reads it up to the end of
    /// its schema, for a command that streams its objects (`rqlc import`).
    static func openDatasetStream(
        _ path: CommandArgument,
        _ context: CommandContext
    ) throws(CommandFailure) -> DatasetStream {
        let input = try openInput(path, context)
        do {
            return try DatasetStream(input)
        } catch {
            throw datasetFailure(error, path)
        }
    }

    /// The bytes of `path` through the environment (`-` is standard input); a path that cannot
    /// be opened is exit 2.
    private static func openInput(
        _ path: CommandArgument,
        _ context: CommandContext
    ) throws(CommandFailure) -> ByteInput {
        do {
            return try context.environment.open(path.bytes)
        } catch {
            throw .io(error.message)
        }
    }

    /// The exit a dataset's problem ends with: 1, naming the file (or standard input); a read
    /// that failed under way is reported as such.
    static func datasetFailure(_ error: DatasetError, _ path: CommandArgument) -> CommandFailure {
        if case .unreadable(let failure) = error { return .failed(failure.message) }
        let name = path.bytes == Array("-".utf8) ? "standard input" : path.text
        return .invalidInput("error: \(TerminalText.escaped(name)): \(TerminalText.escaped(error.description))\n")
    }
}

/// The store commands, listed after the query commands in `rqlc --help`.
enum StoreCommands {
    static let all: [any Command.Type] = [
        ImportCommand.self, ExportCommand.self, InfoCommand.self, VerifyCommand.self,
    ]
}
