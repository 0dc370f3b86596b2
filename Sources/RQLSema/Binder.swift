import RQLCore
import RQLIR
import RQLSyntax

/// Binds parsed queries to a schema: resolves class and property names, checks types, applies
/// Realm's constant conversions, substitutes arguments and lowers IN / BETWEEN, producing the
/// bound IR that every executor runs. One binder serves both dialects (and, later, the DSL).
///
///     let binder = Binder(schema: store.schema)
///     let bound = try binder.bind(try Parser.parse("age > $0"), className: "Dog", arguments: [.value(.int(2))])
///
/// What the bound IR promises its executors (the decisions are also documented on the IR):
///
/// - Arguments are substituted: a scalar argument is a `.constant` (null is `.constant(.null)`),
///   a list argument a multi-valued `.constantList`, a `.geo` argument a `GeoRegion`; `%K` / `$K0`
///   key-path arguments become ordinary key paths; `list[$0]` / `dict[$0]` become `.index` / `.key`.
/// - Constants are converted to the other side's type with `ValueCoercion` (`age == 1.0` binds
///   `.int(1)`); elements of a list constant that cannot convert are kept as they are.
/// - `obj('Class', pk)` is `BoundExpression.object`, looked up when the query runs; a list literal
///   holding one is `BoundExpression.list`.
/// - `x IN rhs` is `x == rhs` with rhs's written quantifier; `x BETWEEN {a, b}` is
///   `x >= a AND x <= b`; `@type` compares with validated lower-case names or another `@type`, and
///   the `@type` of a property that is not mixed is that name (`BoundExpression.type`);
///   `@links.@count` is `BoundExpression.backlinkCount`; `strings.length` is `.count(strings[*])`.
/// - Inside a SUBQUERY, `$x.p` starts at `.element(depth:)`; in RQL a bare `p` does too (realm-core
///   resolves it on the element's class), in NSPredicate it starts at the query's object.
public struct Binder: Sendable {
    public let schema: Schema
    /// For a query over a collection of plain values: the property of the root class that holds
    /// each element (the collection's elements are that class's rows), which `SELF` reads, as
    /// realm-core's `self` is the element (`self > 5` on a `List<Int>`); nil for objects.
    public let selfProperty: String?

    /// Bounds that keep every executor's recursion and work finite whatever the query: the
    /// evaluator recurses once per arithmetic operator and once per nested SUBQUERY (whose cost
    /// also multiplies with each level). Real queries stay far below both.
    public static let maximumArithmeticDepth = 64
    public static let maximumSubqueryDepth = 8

    public init(schema: Schema, selfProperty: String? = nil) {
        self.schema = schema
        self.selfProperty = selfProperty
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
        guard let objectSchema = schema.lookUpClass(className) else {
            var message = "unknown class '\(className)'"
            if let suggestion = NameSuggestion.closest(to: className, among: schema.classes.map(\.name)) {
                message += "; did you mean '\(suggestion)'?"
            }
            throw BindError(.unknownClass, message, at: query.predicate.span)
        }
        if objectSchema.isEmbedded {
            // As realm-swift refuses `objects(EmbeddedType.self)`: an embedded object has no
            // existence of its own, only as a property of the object that holds it.
            let owners = schema.classes.filter { owner in
                owner.properties.contains { $0.type == .object(className) } && !owner.isEmbedded
            }
            var message =
                "class '\(className)' is embedded: its objects live inside other objects and cannot be"
                + " queried on their own"
            if let owner = owners.first, let property = owner.properties.first(where: { $0.type == .object(className) })
            {
                message += "; query '\(owner.name)' through '\(property.name)' instead"
            }
            throw BindError(.embeddedClass, message, at: query.predicate.span)
        }
        var session = BindingSession(
            schema: schema,
            rootClass: objectSchema,
            arguments: arguments,
            variables: variables,
            dialect: query.dialect
        )
        session.selfProperty = selfProperty
        let predicate = try session.bindPredicate(query.predicate)
        let clauses = try session.bindClauses(query.clauses)
        return BoundQuery(className: className, predicate: predicate, clauses: clauses)
    }
}

/// The state of one `bind` call: the arguments, and the SUBQUERY variables in scope.
struct BindingSession {
    /// A SUBQUERY whose predicate is being bound: its variable (without `$`) and element class.
    struct Scope {
        var variable: String
        var objectSchema: ObjectSchema
    }

    let schema: Schema
    let rootClass: ObjectSchema
    let arguments: [QueryArgument]
    let variables: [String: QueryArgument]
    let dialect: Dialect
    /// Innermost last.
    var scopes: [Scope] = []
    /// The root class's property that `SELF` reads (see `Binder.selfProperty`).
    var selfProperty: String?

    init(
        schema: Schema,
        rootClass: ObjectSchema,
        arguments: [QueryArgument],
        variables: [String: QueryArgument],
        dialect: Dialect
    ) {
        self.schema = schema
        self.rootClass = rootClass
        self.arguments = arguments
        self.variables = variables
        self.dialect = dialect
    }

    /// TRUEPREDICATE, FALSEPREDICATE, AND, OR, NOT; comparisons and the special predicates are
    /// in their own files.
    mutating func bindPredicate(_ predicate: Predicate) throws(BindError) -> BoundPredicate {
        switch predicate.kind {
        case .constant(let value):
            return .constant(value)
        case .and(let operands):
            var bound: [BoundPredicate] = []
            for operand in operands { bound.append(try bindPredicate(operand)) }
            return .and(bound)
        case .or(let operands):
            var bound: [BoundPredicate] = []
            for operand in operands { bound.append(try bindPredicate(operand)) }
            return .or(bound)
        case .not(let operand):
            return .not(try bindPredicate(operand))
        case .comparison(let comparison):
            return try bindComparison(comparison, span: predicate.span)
        case .between(let value, let bounds):
            return try bindBetween(value: value, bounds: bounds, span: predicate.span)
        case .geoWithin(let location, let shape):
            return try bindGeoWithin(location: location, shape: shape, span: predicate.span)
        }
    }
}
