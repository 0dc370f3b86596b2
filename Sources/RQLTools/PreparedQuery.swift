import RQLCore
import RQLEngine
import RQLIR
import RQLSema
import RQLStorage
import RQLSyntax

/// What `run` and `check` share: the store, the class, the arguments and the bound query, or
/// the result that reports why there are none.
struct PreparedQuery {
    var store: ColumnStore
    var query: BoundQuery

    static func prepare(
        _ list: ArgumentList,
        command: String,
        environment: CommandEnvironment
    ) -> Result<PreparedQuery, CommandResultError> {
        let className: String
        let dialect: Dialect
        do {
            guard let name = try list.value("--class") else {
                return .failure(CommandResultError(.usageError("\(command) needs --class NAME", command: command)))
            }
            className = name
            dialect = try DialectOption.parse(list)
        } catch {
            return .failure(CommandResultError(.usageError(error.message, command: command)))
        }
        guard list.positionals.count == 1, let text = list.positionals.first else {
            let problem = list.positionals.isEmpty ? "\(command) needs a QUERY" : "\(command) takes one QUERY; quote it"
            return .failure(CommandResultError(.usageError(problem, command: command)))
        }
        let store: ColumnStore
        do {
            store = try DataSource.load(list, environment: environment)
        } catch {
            switch error {
            case .usage(let message): return .failure(CommandResultError(.usageError(message, command: command)))
            case .data(let message): return .failure(CommandResultError(.queryError(message)))
            }
        }
        guard store.schema[className] != nil else {
            let names = store.schema.classes.filter { !$0.isEmbedded }.map(\.name).joined(separator: ", ")
            return .failure(
                CommandResultError(.queryError("error: unknown class '\(className)'; the classes are \(names)\n"))
            )
        }
        var arguments: [QueryArgument] = []
        for (index, json) in list.values("--arg").enumerated() {
            do {
                arguments.append(try ArgumentReader.read(json, store: store))
            } catch {
                return .failure(CommandResultError(.queryError("error: --arg \(index + 1) ($\(index)): \(error)\n")))
            }
        }
        do {
            let query = try QueryEngine.compile(
                text,
                dialect: dialect,
                className: className,
                schema: store.schema,
                arguments: arguments
            )
            return .success(PreparedQuery(store: store, query: query))
        } catch {
            return .failure(CommandResultError(.queryError(error.rendered(in: text) + "\n")))
        }
    }
}

/// A `CommandResult` that ends a command early.
struct CommandResultError: Error {
    var result: CommandResult
    init(_ result: CommandResult) { self.result = result }
}
