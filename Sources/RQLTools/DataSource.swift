import RQLCore
import RQLStorage

/// The store a command runs against: `--data FILE`, `--schema FILE` (schema only, no objects) or
/// `--demo`, the built-in sample database and the default.
enum DataSource {
    static let options: Set<String> = ["--data", "--schema"]
    static let flags: Set<String> = ["--demo"]

    /// A problem with the data source: a usage error (exit 2) or bad data (exit 1).
    enum Failure: Error {
        case usage(String)
        case data(String)
    }

    static func load(_ list: ArgumentList, environment: CommandEnvironment) throws(Failure) -> ColumnStore {
        let data: String?
        let schema: String?
        do {
            data = try list.value("--data")
            schema = try list.value("--schema")
        } catch {
            throw .usage(error.message)
        }
        let given = [data != nil, schema != nil, list.has("--demo")].filter { $0 }.count
        guard given <= 1 else { throw .usage("give one of --data, --schema and --demo") }
        let text: String
        let path = data ?? schema
        if let path {
            do {
                text = try environment.readFile(path)
            } catch {
                throw .usage("cannot read '\(path)': \(error.localizedDescription)")
            }
        } else {
            text = DemoDataset.json
        }
        do {
            if schema != nil { return ColumnStore(schema: try DatasetLoader.loadSchema(json: text)) }
            return try DatasetLoader.load(json: text)
        } catch {
            throw .data("error: \(path ?? "the demo dataset"): \(error)\n")
        }
    }
}
