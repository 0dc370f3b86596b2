import RQLCore
import RQLDatasets
import RQLStorage
import Synchronization

/// The store a command runs against: `--data FILE` (a JSON dataset; `-` is standard input, and
/// pipes, FIFOs and `/dev/stdin` are read like files), `--schema FILE` (only the schema is read)
/// or `--demo`, the built-in sample database and the default.
enum DataSource {
    static let options: Set<String> = ["--data", "--schema"]
    static let flags: Set<String> = ["--demo", StoreFileSource.acceptOlderVersion]

    /// The help lines for the data options, shared by every command that reads data.
    static let help = """
          --data FILE         A dataset (schema and objects) in the JSON dataset format,
                              or a store file; '-' is standard input.
          --schema FILE       A dataset file of which only the schema is read.
          --demo              The built-in demo database (the default).
        \(StoreFileSource.acceptOlderVersionHelp)
        """

    /// What a command needs from the source: a command that only type-checks reads no objects.
    enum Need {
        case schema
        case objects
    }

    static func load(_ list: ArgumentList, need: Need, _ context: CommandContext) throws(CommandFailure) -> CommandData
    {
        let data = try list.argument("--data")
        let schema = try list.argument("--schema")
        let given = [data != nil, schema != nil, list.has("--demo")].filter { $0 }.count
        guard given <= 1 else { throw .usage("give one of --data, --schema and --demo") }
        let onlySchema = need == .schema || schema != nil
        guard let path = data ?? schema else {
            do {
                return CommandData(
                    reader: onlySchema
                        ? BlockStore(schema: try DatasetLoader.loadSchema(json: DemoDataset.json)).snapshot
                        : try DemoDataset.load()
                )
            } catch {
                throw .invalidInput("error: the demo dataset: \(error)\n")
            }
        }
        if !onlySchema || data != nil, StoreFileSource.isStoreFile(path.text) {
            return try StoreFileSource.openData(path.text, list, context)
        }
        return CommandData(reader: try StoreFileSource.readDataset(path, context, onlySchema: onlySchema))
    }
}

/// The data a command reads, through `StoreReader` whatever it came from: a JSON dataset or the
/// demo loaded into memory, or a store file's newest version read in place (`file` keeps the
/// file open, and that version registered as read, while the command runs).
struct CommandData: Sendable {
    let reader: any StoreReader
    var file: BlockStore? = nil

    /// Keeps `file` open until this call (a `defer` at the start of the command's work).
    func keepOpen() {
        withExtendedLifetime(file) {}
    }

    /// Keeps the data until the process exits when it is about to (`endsProcess`), so the
    /// exit frees it at once: releasing a store file's blocks and indexes one by one costs as
    /// much as the rest of a one-key query. The exit unmaps the file and closes it, and the
    /// kernel drops the reader slot's lock (`ReaderTable`), as for any reader that ends.
    func keepUntilExit(_ environment: CommandEnvironment) {
        guard environment.endsProcess else { return }
        Self.keptUntilExit.withLock { $0.append(self) }
    }

    private static let keptUntilExit = Mutex<[CommandData]>([])
}
