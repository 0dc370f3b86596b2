import RQLCore

/// The bytecode's copy of `BoundExpression` (RQLIR), node for node: what a `FilterRow`
/// constant holds, so that the VM evaluates it without importing the IR. Codegen's `Lowering`
/// converts; the meanings below are the IR's.
///
/// A value-producing operand, evaluated per object (or per SUBQUERY element).
public indirect enum RowExpression: Hashable, Sendable {
    /// A constant, already converted to the type it is compared with (`age == 1.0` binds `.int(1)`).
    case constant(Value)
    /// A list literal or list argument: a multi-valued constant.
    case constantList([Value])
    /// A list literal holding `obj(…)` look-ups (`{obj('Dog', 'rex'), NULL}`): every element is a
    /// `.constant` or an `.object`; multi-valued, exactly like `constantList` once the look-ups
    /// are done.
    case list([RowExpression])
    /// The values a key path reaches: one value, or for a to-many path all of them, flattened.
    case path(RowPath)
    /// `@count` / `@size` / `[SIZE]` of what `path` reaches. When the path's values are links
    /// and it does not end in a dictionary (a to-one link, `self`, a SUBQUERY element, a link
    /// list or set, backlinks), the number of links the whole path reaches, duplicates included,
    /// as one value: 0 or 1 for a to-one link (a null link counts 0), a total through to-many
    /// links (realm-core's `LinkCount`). Otherwise, when the path's last step is a collection
    /// property (primitive list or set, dictionary), the number of its elements, counted once per
    /// owner (so multi-valued only if the path was multi-valued before that step); otherwise
    /// (`strings[*]` for `strings.length`, a string, binary or mixed property) the byte length
    /// of each string or binary value reached, or the size of a mixed collection (other values
    /// yield nothing). A null string, binary or mixed has size 0, and so has a collection behind
    /// a null to-one link (realm-core: `values.length == 0` matches `[null]`,
    /// `link.integers.@count == 0` matches a null link). `@links.@count` is `backlinkCount`.
    case count(RowPath)
    /// `@type`: the type of the value(s) `path` reaches, for a mixed property (or a collection
    /// or a to-many path). The binder compares it with `==` / `!=` only, against
    /// `.constant(.string(name))` or `.constantList` of strings, where every name is already
    /// validated and lower-cased: `.type(p) == .constant(.string(n))` holds for a value `v` iff
    /// `TypeAttribute(n).matches(v)` (`numeric` covers int/float/double/decimal, `collection`
    /// covers list and dictionary). The `@type` of a single-valued property that is not mixed is
    /// bound as that constant name (`int.@type` is `.constant(.string("int"))`, see
    /// `TypeAttribute.name(of:)`), so `mixed.@type == int.@type` is `.type(mixed) == 'int'`.
    /// Two `.type` sides compare value with value: `TypeAttribute.sameType(l, r)`. `!=` is the
    /// negation; quantifiers apply as usual; the type side may appear on either side.
    case type(RowPath)
    /// `@min` / `@max` / `@sum` / `@avg` over the values `path` reaches (empty: null, or 0 for a sum),
    /// one result per owner of the path's last collection (`list.integers.@sum` is one sum per
    /// linked object; `items.@sum.price` one sum over the items).
    case aggregate(AggregateFunction, RowPath)
    /// The number of elements of the to-many `path` for which `predicate` holds, the predicate
    /// being evaluated with the element as its object (`RowPath.Root.element`).
    case subqueryCount(path: RowPath, predicate: RowPredicate)
    /// Arithmetic over numbers; a multi-valued operand maps element-wise.
    case arithmetic(ArithmeticOperator, RowExpression, RowExpression)
    /// `obj('Class', primaryKey)`: a link to the object of `className` whose primary key equals
    /// `primaryKey` (already converted to the primary key's type), looked up in the store when
    /// the query runs (`TableReader.position(ofPrimaryKey:)`); `.null` when there is no such
    /// object. Single-valued.
    case object(className: String, primaryKey: Value)
    /// `@links.@count`: the number of links from every class and property into each object that
    /// `path` reaches (`TableReader.backlinkCount(at:)`), summed over all of them when the path
    /// is multi-valued (`items.@links.@count`); an empty path means the object itself. Always
    /// one value per object (a null to-one link contributes 0).
    case backlinkCount(RowPath)
}
