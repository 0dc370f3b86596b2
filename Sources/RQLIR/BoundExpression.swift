import RQLCore

/// A value-producing operand, evaluated per object (or per SUBQUERY element).
public indirect enum BoundExpression: Hashable, Sendable {
    /// A constant, already converted to the type it is compared with (`age == 1.0` binds `.int(1)`).
    case constant(Value)
    /// A list literal or list argument: a multi-valued constant.
    case constantList([Value])
    /// The values a key path reaches: one value, or for a to-many path all of them, flattened.
    case path(BoundPath)
    /// `@count` / `@size` / `[SIZE]` of what `path` reaches: the number of elements of a
    /// collection (counted once per owner), the byte length of a string or binary, or the size of
    /// a mixed value; `@links.@count` is the total number of incoming links.
    case count(BoundPath)
    /// `@type`: the type name of the value `path` reaches, compared with type attributes.
    case type(BoundPath)
    /// `@min` / `@max` / `@sum` / `@avg` over the values `path` reaches (empty: null, or 0 for a sum).
    case aggregate(AggregateFunction, BoundPath)
    /// The number of elements of the to-many `path` for which `predicate` holds, the predicate
    /// being evaluated with the element as its object (`BoundPath.Root.element`).
    case subqueryCount(path: BoundPath, predicate: BoundPredicate)
    /// Arithmetic over numbers; a multi-valued operand maps element-wise.
    case arithmetic(ArithmeticOperator, BoundExpression, BoundExpression)
}
