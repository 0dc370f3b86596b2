import RQLCore
import RQLIR
import RQLSema
import RQLSyntax

/// The one entry point from query text to results: parse, bind, run.
///
///     let store = try DemoDataset.load()
///     let query = try QueryEngine.compile("age > $0", className: "Dog", schema: store.schema,
///                                         arguments: [.value(.int(2))])
///     let keys = QueryEngine.run(query, on: store)
///
/// Execution goes through the reference evaluator until the optimizer and the VM exist; the
/// facade's signature will not change when they do.
public enum QueryEngine {
    /// Parses and binds `text` for objects of `className`.
    public static func compile(
        _ text: String,
        dialect: Dialect = .rql,
        className: String,
        schema: Schema,
        arguments: [QueryArgument] = []
    ) throws(QueryError) -> BoundQuery {
        let syntax: QuerySyntax
        do {
            syntax = try Parser.parse(text, dialect: dialect)
        } catch {
            throw .syntax(error)
        }
        do {
            return try Binder(schema: schema).bind(syntax, className: className, arguments: arguments)
        } catch {
            throw .binding(error)
        }
    }

    /// The keys of the matching objects, in result order (after SORT, DISTINCT and LIMIT).
    public static func run<Store: StoreReader>(_ query: BoundQuery, on store: Store) -> [RowKey] {
        ReferenceEvaluator(store: store).run(query)
    }
}
