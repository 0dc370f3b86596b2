import RQLCore
@_spi(RQL) import RQLDSL
import RQLEngine

/// DSL closures → bound queries: builds the closure's unbound IR and binds it with the one
/// binder, against the schema of the realm the query runs on.
///
/// ```swift
/// let predicate = QueryCompiler.predicate(Dog.self) { $0.age > 2 }
/// let bound = try QueryCompiler.bind(UnboundQuery(predicate: predicate), className: "Dog", schema: schema)
/// ```
enum QueryCompiler {
    /// The unbound predicate a `where` closure builds for objects of `type`.
    static func predicate<T>(
        _ type: T.Type,
        isPrimitive: Bool = false,
        _ closure: (Query<T>) -> Query<Bool>
    )
        -> UnboundPredicate
    {
        closure(Query<T>(isPrimitive: isPrimitive))._rqlPredicate
    }

    /// Binds a DSL query; a failure carries the lowered text so that it renders with a caret.
    static func bind(
        _ query: UnboundQuery,
        className: String,
        schema: RQLCore.Schema,
        selfProperty: String? = nil
    ) throws(DSLQueryError) -> BoundQuery {
        let lowered: LoweredQuery
        do {
            lowered = try Binder.lower(query)
        } catch {
            throw DSLQueryError(error: error, text: "")
        }
        do {
            return try Binder(schema: schema, selfProperty: selfProperty)
                .bind(lowered.syntax, className: className, arguments: lowered.arguments)
        } catch {
            throw DSLQueryError(error: error, text: lowered.text)
        }
    }
}

/// A `where` closure that does not bind to the schema, with the query text it lowers to.
struct DSLQueryError: Error, CustomStringConvertible {
    let error: BindError
    /// The NSPredicate-format text the closure lowers to (empty when lowering itself failed).
    let text: String

    /// The message, and the lowered query with a caret under the part it is about.
    var description: String {
        text.isEmpty ? "error: \(error.message)" : error.rendered(in: text)
    }
}

extension Query {
    /// A root query for tests, as in Realm Swift.
    public static func _constructForTesting() -> Query<T> { Query<T>(isPrimitive: false) }

    /// The query in NSPredicate format with its `%@` arguments, as in Realm Swift (for tests and
    /// debugging; queries never go through this text).
    ///
    /// ```swift
    /// (Query<Dog>._constructForTesting().age > 2)._constructPredicate()  // ("age > %@", [2])
    /// ```
    public func _constructPredicate() -> (String, [Any]) {
        let predicate: UnboundPredicate =
            if let query = self as? Query<Bool> {
                query._rqlPredicate
            } else {
                .comparison(UnboundComparison(_rqlExpression, .equal, .constant(.bool(true))))
            }
        guard let lowered = try? Binder.lower(UnboundQuery(predicate: predicate)) else { return ("", []) }
        return (lowered.text, lowered.arguments.map(Self.swiftValue))
    }

    private static func swiftValue(_ argument: QueryArgument) -> Any {
        switch argument {
        case .value(let value): swiftValue(value)
        case .list(let values): values.map(swiftValue)
        case .geo(let region): region
        }
    }

    private static func swiftValue(_ value: RQLCore.Value) -> Any {
        switch value {
        case .null: NSNull()
        case .bool(let v): v
        case .int(let v): Int(truncatingIfNeeded: v)
        case .float(let v): v
        case .double(let v): v
        case .string(let v): v
        case .data(let v): Data(v)
        case .date(let v): Date(timeIntervalSince1970: v.timeIntervalSince1970)
        case .decimal(let v): Decimal128(v)
        case .objectId(let v): ObjectId(v)
        case .uuid(let v): v
        case .link(let v): v
        case .list(let v): v.map(swiftValue)
        case .map(let v):
            Dictionary(v.entries.map { ($0.key, swiftValue($0.value)) }, uniquingKeysWith: { _, last in last })
        }
    }
}
