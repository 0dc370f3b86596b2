import RQLCore
import RQLIR

/// A type-safe query expression, built by the closure passed to `where` and lowered straight
/// into the unbound IR (no query string is printed and parsed again). The binder then binds it
/// exactly as it binds query text, so a closure and the equivalent string run identically.
///
/// `T` is the type of the sub-expression: the object being queried, a property's type, or
/// `Bool` for a finished predicate. Operators exist only where `T` supports them, which is
/// where the type safety comes from.
///
/// ```swift
/// let puppies = realm.objects(Dog.self).where {
///     $0.age < 2 && $0.name.starts(with: "R", options: .caseInsensitive)
/// }
/// let tennis = dogs.where { $0.favoriteToy.name == "Tennis ball" }  // through an optional link
/// let busy = people.where { ($0.dogs.age > 5).count > 2 }           // a SUBQUERY count
/// ```
///
/// Supported: `==`, `!=` (also between two key paths), `<`, `<=`, `>`, `>=` on numbers, dates,
/// strings and mixed values, `&&`, `||`, `!`, `in(_:)`, `contains(_:)` on ranges (BETWEEN),
/// strings (`contains`, `starts(with:)`, `ends(with:)`, `equals`, `notEquals`, `like`, with
/// `StringOptions`), collections (`count`, `min`, `max`, `avg`, `sum`, `contains`, `containsAny(in:)`,
/// `containsAll(in:)`), maps (`keys`, `values`, subscripts), mixed values (subscripts, `any`),
/// enums (`rawValue`), `geoWithin`, and SUBQUERY counts (`(predicate).count`).
@dynamicMemberLookup
public struct Query<T> {
    let node: QueryNode
    /// Where each key path built so far crosses collections (see `QueryPaths`).
    let paths: QueryPaths

    init(_ node: QueryNode, paths: QueryPaths = QueryPaths()) {
        self.node = node
        self.paths = paths
    }

    /// Every key path this query holds, with where it crosses collections.
    var allPaths: QueryPaths {
        var all = paths
        if case .keyPath(let path) = node { all.record(path) }
        return all
    }

    /// The root of a query over objects (`$0`), or with `isPrimitive` over a collection of plain
    /// values, where `$0` is the value itself (`SELF`).
    ///
    /// ```swift
    /// let query = Query<Dog>()  // what a where closure receives as $0
    /// ```
    @_spi(RQL)
    public init(isPrimitive: Bool = false) {
        self.node = .keyPath(QueryKeyPath())
        self.paths = QueryPaths()
    }

    /// The operand this query stands for (a key path, a SUBQUERY count, …) in the unbound IR.
    @_spi(RQL)
    public var _rqlExpression: UnboundExpression { node.expression }

    // MARK: Equality

    /// `keyPath == value`.
    public static func == (_ lhs: Query, _ rhs: T) -> Query<Bool> {
        lhs.compare(.equal, QueryConstant.expression(rhs))
    }

    /// `keyPath == otherKeyPath`.
    public static func == (_ lhs: Query, _ rhs: Query) -> Query<Bool> {
        lhs.compare(.equal, rhs)
    }

    /// `keyPath != value`.
    public static func != (_ lhs: Query, _ rhs: T) -> Query<Bool> {
        lhs.compare(.notEqual, QueryConstant.expression(rhs))
    }

    /// `keyPath != otherKeyPath`.
    public static func != (_ lhs: Query, _ rhs: Query) -> Query<Bool> {
        lhs.compare(.notEqual, rhs)
    }

    /// `keyPath IN {values}`: the value is one of `collection`'s.
    ///
    /// ```swift
    /// dogs.where { $0.name.in(["Rex", "Fido"]) }
    /// ```
    public func `in`<U: Sequence>(_ collection: U) -> Query<Bool> where U.Element == T {
        compare(.in, QueryConstant.list(collection))
    }

    // MARK: Key paths

    /// `$0.property`: a persisted property of the object.
    ///
    /// ```swift
    /// dogs.where { $0.favoriteToy.name == "Ball" }  // $0.favoriteToy is a member lookup
    /// ```
    public subscript<V>(dynamicMember member: KeyPath<T, V>) -> Query<V> where T: _QueryObjectBase {
        Query<V>(node.appending(T._rqlQueryPropertyName(for: member), of: T.self, type: V.self), paths: paths)
    }

    // MARK: Building

    /// `self op rhs` with a constant (or other non-key-path) right side.
    func compare(
        _ op: ComparisonOperator,
        _ rhs: UnboundExpression,
        options: StringOptions = []
    ) -> Query<Bool> {
        Query<Bool>(
            .predicate(.comparison(UnboundComparison(node.expression, op, rhs, options: options.core))),
            paths: allPaths
        )
    }

    /// `self op rhs` with a key path (or any query) on the right.
    func compare<U>(_ op: ComparisonOperator, _ rhs: Query<U>, options: StringOptions = []) -> Query<Bool> {
        Query<Bool>(
            .predicate(.comparison(UnboundComparison(node.expression, op, rhs.node.expression, options: options.core))),
            paths: allPaths.merging(rhs.allPaths)
        )
    }

    /// A query over the same key path with the node changed (the type may change with it).
    func with<U>(_ node: QueryNode) -> Query<U> {
        Query<U>(node, paths: paths)
    }
}

extension Query where T == Bool {
    /// The predicate this query stands for.
    @_spi(RQL)
    public var _rqlPredicate: UnboundPredicate { node.predicate }
}

extension QueryNode {
    /// The node with one more property step; `name` is nil when the key path does not read a
    /// persisted property.
    func appending<Root, V>(_ name: String?, of root: Root.Type, type: V.Type) -> QueryNode {
        guard let name else {
            return .operand(
                .invalid(
                    "a key path of type '\(V.self)' on '\(Root.self)' does not read a persisted (@Persisted) property"
                )
            )
        }
        let isCollection = V.self is any _QueryCollection.Type || V.self is any _QueryKeyedCollection.Type
        return mapPath(for: "'.\(name)'") { (path) throws(QueryBuildError) in
            try path.append(property: name, isCollection: isCollection)
        }
    }
}

// MARK: Reaching through links and collections

extension Query where T: OptionalProtocol {
    /// `$0.link.property`: a property of the object an optional to-one link points at (a null
    /// link makes the comparison see null).
    public subscript<V>(dynamicMember member: KeyPath<T.Wrapped, V>) -> Query<V> where T.Wrapped: _QueryObjectBase {
        Query<V>(
            node.appending(T.Wrapped._rqlQueryPropertyName(for: member), of: T.Wrapped.self, type: V.self),
            paths: paths
        )
    }
}

extension Query where T: _QueryCollection {
    /// `$0.list.property`: a property of each object in a collection; comparing it means ANY.
    public subscript<V>(dynamicMember member: KeyPath<T.Element, V>) -> Query<V> where T.Element: _QueryObjectBase {
        Query<V>(
            node.appending(T.Element._rqlQueryPropertyName(for: member), of: T.Element.self, type: V.self),
            paths: paths
        )
    }
}
