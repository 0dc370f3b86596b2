import RQLCore
import RQLIR
import RQLSyntax

/// Binds parsed queries to a schema: resolves class and property names, checks types, applies
/// Realm's constant conversions, substitutes arguments and lowers IN / BETWEEN, producing the
/// bound IR that every executor runs. One binder serves both dialects (and, later, the DSL).
///
///     let binder = Binder(schema: store.schema)
///     let bound = try binder.bind(try Parser.parse("age > $0"), className: "Dog", arguments: [.value(.int(2))])
public struct Binder: Sendable {
    public let schema: Schema

    public init(schema: Schema) {
        self.schema = schema
    }

    /// Binds `query` to the objects of `className`.
    ///
    /// - Parameters:
    ///   - arguments: values for `$0, $1, …` (RQL) or, in order, for `%@`-style placeholders (NSPredicate).
    ///   - variables: values for NSPredicate's `$name` variables.
    public func bind(
        _ query: QuerySyntax,
        className: String,
        arguments: [QueryArgument] = [],
        variables: [String: QueryArgument] = [:]
    ) throws(BindError) -> BoundQuery {
        throw BindError(.unknownClass, "the binder is not written yet", at: query.predicate.span)
    }
}
