import RQLCore

/// An operand before binding.
public indirect enum UnboundExpression: Hashable, Sendable {
    /// A constant (`%@` with one value): already a `Value`, converted to the other side's type by
    /// the binder as any constant is.
    case constant(Value)
    /// A list of constants (`%@` with a list), for `IN`, `ANY … IN`, `ALL … IN`.
    case list([Value])
    /// A key path, possibly ending in `@count` or an aggregate.
    case keyPath(UnboundKeyPath)
    /// `ANY x`, `ALL x`, `NONE x`.
    case quantified(Quantifier, UnboundExpression)
    /// `SUBQUERY(collection, $x, predicate).@count`: inside `predicate`, key paths rooted at
    /// `.element(depth: 0)` start at the collection's element (`$x`); deeper depths reach out to
    /// enclosing SUBQUERYs' elements.
    case subqueryCount(collection: UnboundKeyPath, predicate: UnboundPredicate)
    /// An operand the DSL could not build (a key path to a property that is not persisted, a
    /// constant that cannot be a query value); binding fails with `message`, which names it.
    case invalid(String)
}

/// A key path by property names, with an optional `@count` / aggregate at its end.
///
/// ```swift
/// UnboundKeyPath("dogs", postfix: .aggregate(.avg, property: "age"))  // dogs.@avg.age
/// UnboundKeyPath([.property("map"), .key("Chicago")])                  // map[%@] with "Chicago"
/// ```
public struct UnboundKeyPath: Hashable, Sendable {
    /// Where the path starts.
    public enum Root: Hashable, Sendable {
        /// The object being tested (`SELF` when there are no components: a primitive collection's value).
        case object
        /// The element of the SUBQUERY `depth` levels out (0 is the innermost).
        case element(depth: Int)
    }

    public var root: Root
    public var components: [UnboundPathComponent]
    public var postfix: UnboundPostfix?

    public init(root: Root = .object, _ components: [UnboundPathComponent], postfix: UnboundPostfix? = nil) {
        self.root = root
        self.components = components
        self.postfix = postfix
    }

    /// A path of property names.
    public init(root: Root = .object, _ names: String..., postfix: UnboundPostfix? = nil) {
        self.init(root: root, names.map { .property($0) }, postfix: postfix)
    }
}

/// One step of an unbound key path.
public enum UnboundPathComponent: Hashable, Sendable {
    /// A property by name (the public name, as queries spell it).
    case property(String)
    /// `[n]`: a position in a (mixed) list.
    case index(Int)
    /// `['key']`: a dictionary (or mixed dictionary) value.
    case key(String)
    /// `[*]`: every element of a mixed collection.
    case all
    /// `@keys`: a dictionary's keys.
    case keys
    /// `@values`: a dictionary's values.
    case values
}

/// What ends a key path.
public enum UnboundPostfix: Hashable, Sendable {
    /// `@count`: the number of elements (or the length of a string or binary).
    case count
    /// `@min`, `@max`, `@sum`, `@avg`, optionally of one property of linked objects (`dogs.@avg.age`).
    case aggregate(AggregateFunction, property: String?)
}
