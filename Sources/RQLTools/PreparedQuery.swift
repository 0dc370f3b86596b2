import RQLCore
import RQLDatasets
import RQLEngine
import RQLStorage

/// What `run`, `check` and `explain` share: the store, the query text, its class, dialect and
/// arguments, and the engine the options describe.
struct PreparedQuery {
    var data: CommandData
    var text: String
    var dialect: Dialect
    var className: String
    var arguments: [QueryArgument]
    var engine: QueryEngine

    /// The options of a command that prepares a query.
    static let valuedOptions = DataSource.options.union(QueryInput.options).union(["--class", "--arg", "--dialect"])
        .union(EngineFlags.valuedOptions)

    /// Reads the query, its arguments, the engine options and the data source. With `need` at
    /// `.schema` no objects are read, unless an argument links to an object (`$link`), which
    /// needs them to resolve.
    static func prepare(
        _ list: ArgumentList,
        need: DataSource.Need,
        recordsTrace: Bool = false,
        _ context: CommandContext
    ) throws(CommandFailure) -> PreparedQuery {
        guard let className = try list.value("--class") else { throw .usage("\(context.command) needs --class NAME") }
        let dialect = try DialectOption.parse(list)
        // A command compiles its one query once: a cache would only cost the set-up of its tables
        // (the first dictionary of a key type costs a search of the runtime's conformance records).
        let engine = try EngineFlags.engine(list, recordsTrace: recordsTrace, cache: CompiledQueryCache(capacity: 0))
        let text = try QueryInput.read(list, context)
        var argumentJSON: [JSONValue] = []
        for (index, argument) in list.values("--arg").enumerated() {
            do {
                argumentJSON.append(try ArgumentDecoder.parse(argument.bytes))
            } catch {
                throw argumentFailure(index, error)
            }
        }
        let needsObjects = need == .objects || argumentJSON.contains(where: linksToAnObject)
        let data = try DataSource.load(list, need: needsObjects ? .objects : .schema, context)
        let store = data.reader
        guard store.schema[className] != nil else { throw unknownClass(className, in: store.schema) }
        var arguments: [QueryArgument] = []
        for (index, json) in argumentJSON.enumerated() {
            do {
                arguments.append(try ArgumentReader.read(json, store: store))
            } catch {
                throw argumentFailure(index, error)
            }
        }
        return PreparedQuery(
            data: data,
            text: text,
            dialect: dialect,
            className: className,
            arguments: arguments,
            engine: engine
        )
    }

    /// The query parsed and bound (no optimization): what `check` needs.
    func bind() throws(CommandFailure) -> BoundQuery {
        do {
            return try engine.bind(
                text,
                dialect: dialect,
                className: className,
                schema: data.reader.schema,
                arguments: arguments
            )
        } catch {
            throw .invalidInput(error.rendered(in: text) + "\n")
        }
    }

    /// The query compiled by the engine, for the store.
    func compile() throws(CommandFailure) -> CompiledQuery {
        do {
            return try engine.compile(
                text,
                dialect: dialect,
                className: className,
                store: data.reader,
                arguments: arguments
            )
        } catch {
            throw .invalidInput(error.rendered(in: text) + "\n")
        }
    }

    private static func argumentFailure(_ index: Int, _ error: ArgumentError) -> CommandFailure {
        .invalidInput("error: --arg \(index + 1) ($\(index)): \(TerminalText.escaped(error.description))\n")
    }

    static func unknownClass(_ name: String, in schema: Schema) -> CommandFailure {
        let names = schema.classes.filter { !$0.isEmbedded }.map(\.name)
        let known =
            names.isEmpty
            ? (schema.classes.isEmpty ? "the schema has no classes" : "the schema has only embedded classes")
            : "the classes are " + names.map { "'\($0)'" }.joined(separator: ", ")
        return .invalidInput("error: unknown class '\(name)'; \(known)\n".escapedForTerminal)
    }

    /// Whether a JSON argument holds a `{"$link": …}` anywhere.
    private static func linksToAnObject(_ json: JSONValue) -> Bool {
        switch json {
        case .array(let elements): return elements.contains(where: linksToAnObject)
        case .object(let members):
            return members.contains { $0.key == "$link" || linksToAnObject($0.value) }
        default: return false
        }
    }
}

extension String {
    /// The text with control characters escaped, line breaks kept.
    var escapedForTerminal: String {
        split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escaped($0) }
            .joined(separator: "\n")
    }
}
