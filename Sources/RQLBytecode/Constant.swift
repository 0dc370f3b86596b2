import RQLCore

/// One entry of a program's constant pool (an instruction's P4).
public enum Constant: Hashable, Sendable {
    /// One value: a comparison's constant, a primary key.
    case value(Value)
    /// Several values: an IN list, the keys an index is probed with.
    case values([Value])
    /// A name or text: a class name, a QUERY PLAN row.
    case text(String)
    /// The keys of a SORT or top-N.
    case sortKeys([BoundSortKey])
    /// The paths of a DISTINCT.
    case paths([BoundPath])
    /// The bounds of an index range (`nil`: unbounded on that side).
    case range(lower: Value?, lowerInclusive: Bool, upper: Value?, upperInclusive: Bool)
    /// The test `CountMatching` applies to each element of a collection.
    case elementTest(ElementTest)
    /// The function `AggregateElements` applies; `overMixed` when the elements are mixed values;
    /// `targetColumn` when the collection holds links: the column of each target aggregated
    /// (`items.@sum.price`).
    case aggregate(AggregateFunction, overMixed: Bool, targetColumn: Int? = nil)
    /// The subscripts `LoadElement` applies in turn: `[n]`, `[FIRST]`, `[LAST]`, `['key']`.
    case element([ElementSelector])
    /// The hops, end and reduction of `ReducePath`.
    case pathWalk(PathWalk)
    /// `FilterValueList`'s constant side: a list under its quantifier, and whether the value
    /// register is the comparison's left side (`age > ANY {1, 2}`) or the list is (`ALL {1, 2} < age`).
    case quantifiedList(Quantifier, [Value], valueFirst: Bool)
    /// The terms `FilterText` looks for; `targetColumn` when the column holds links: the string
    /// column of each target searched (`links.text`).
    case textSearch(TextSearch, targetColumn: Int? = nil)
    /// The region `FilterGeoWithin` tests, and the quantifier over the points reached;
    /// `targetColumn` when the column holds links to objects whose to-one link column
    /// `targetColumn` leads to the points (`partners.location`).
    case geoRegion(GeoRegion, quantifier: Quantifier, targetColumn: Int? = nil)
    /// The regular expression `FilterMatches` applies.
    case pattern(RegexPattern)
    /// A SUBQUERY's predicate compiled over the elements' class (`CountSubquery`);
    /// `backlinkProperty` when the elements are the objects of that class linking to the row
    /// through that property (`@links.Person.items`, a `linkingObjects` property).
    case program(Program, backlinkProperty: String? = nil)
    /// The operand `LoadGroups` computes for each row; with `sequences`, every path is followed
    /// separately and in order (an element-wise comparison), otherwise an object reached again
    /// is folded into its first occurrence.
    case groupOperand(GroupOperand, sequences: Bool)
    /// How `CompareGroups` compares two operands' groups.
    case groupComparison(GroupComparison)
    /// The two sides `CompareSequences` compares element-wise (`.path(_, grouped: true)` or
    /// `.values`), and how (`comparison.form` is `.elementwise`).
    case sequenceComparison(lhs: GroupOperand, rhs: GroupOperand, GroupComparison)
    /// A SUBQUERY (`CountSubquery`) whose elements are what `hops` reach from the row (to-one
    /// links, lists, sets and dictionaries of links, backlinks: `SUBQUERY(owners.dogs, $d, …)`),
    /// with the predicate compiled over the last hop's class; `parameters` are the value
    /// registers holding the row's values the predicate reads (a correlated subquery:
    /// `SUBQUERY(dogs, $d, $d.age > age)`), which the program reads with `LoadParameter`.
    /// `start`, when set, is the value register holding per row the link to the object the hops
    /// start from instead of the row: a SUBQUERY over an outside collection inside a correlated
    /// SUBQUERY's program (`SUBQUERY(dogs, $e, $e.age > $d.age)` in `SUBQUERY(dogs, $d, …)`, the
    /// person's link passed in as a parameter).
    case subquery(Program, hops: [PathWalk.Hop], parameters: [Int32], start: Int32? = nil)
}

/// `element op value` (with string options), or its negation: the per-element test of a
/// quantifier. `ALL list > 5` counts the elements failing `> 5` and wants none.
///
///     ElementTest(.greater, .int(5)).passes(.int(7))                  // true
///     ElementTest(.greater, .int(5), negated: true).passes(.null)     // true
public struct ElementTest: Hashable, Sendable {
    public var op: ComparisonOperator
    public var value: Value
    public var options: StringOptions
    public var negated: Bool
    /// When the collection holds links: the column of each target that is tested (`ANY dogs.age >
    /// 5`); links to deleted objects are skipped.
    public var targetColumn: Int?
    /// Whether the element's `@size` is tested instead of the element (`ANY strings.length > 3`,
    /// by `ValueAggregation.reachedSize`); an element without a size neither passes nor fails.
    public var ofSize: Bool
    /// When set, the test is `element MATCHES pattern` (`ANY tags MATCHES 'a.*'`) instead of
    /// `op value`; non-strings never match.
    public var pattern: RegexPattern?

    public init(
        _ op: ComparisonOperator,
        _ value: Value,
        options: StringOptions = [],
        negated: Bool = false,
        targetColumn: Int? = nil,
        ofSize: Bool = false
    ) {
        self.op = op
        self.value = value
        self.options = options
        self.negated = negated
        self.targetColumn = targetColumn
        self.ofSize = ofSize
    }

    /// Whether `element` passes, by `ValueComparison`, the one comparison every executor uses.
    /// An element without a size, under `ofSize`, is not counted either way.
    @inlinable
    public func passes(_ element: Value) -> Bool {
        if let pattern { return pattern.matches(element) != negated }
        guard ofSize else { return ValueComparison.evaluate(element, op, value, options: options) != negated }
        guard let size = ValueAggregation.reachedSize(of: element) else { return false }
        return ValueComparison.evaluate(.int(Int64(size)), op, value, options: options) != negated
    }
}

extension EqualityKey {
    /// Whether `value` is in `set` (the keys of an IN list): Realm equality, so numbers match by
    /// value and NaN matches nothing. The VM's `FilterValueIn` calls this.
    ///
    ///     EqualityKey.isMember(.double(1), of: [EqualityKey(.int(1))])   // true
    @inlinable
    public static func isMember(_ value: Value, of set: Set<EqualityKey>) -> Bool {
        !NumericComparison.isNaN(value) && set.contains(EqualityKey(value))
    }
}

extension AggregateFunction {
    /// `@min`/`@max`/`@sum`/`@avg` of `values` (duplicates count each time): nulls are ignored;
    /// nothing left gives null, or 0 for a sum. Over mixed values numbers of every type are
    /// summed together in decimal (`ValueAggregation`). The VM's `AggregateElements` and its row
    /// evaluator both call this.
    ///
    ///     AggregateFunction.sum.apply(to: [.int(1), .int(2)], overMixed: false)   // .int(3)
    public func apply(to values: some Sequence<Value>, overMixed: Bool) -> Value {
        switch self {
        case .min: ValueAggregation.minimum(values)
        case .max: ValueAggregation.maximum(values)
        case .sum: ValueAggregation.sum(values, overMixed: overMixed)
        case .avg: ValueAggregation.average(values, overMixed: overMixed)
        }
    }
}

/// A program's constants, indexed by P4. Plain values are stored once however often they are
/// used.
///
///     var pool = ConstantPool()
///     let k = pool.add(.value(.int(30)))   // 0
///     pool[k]                              // .value(.int(30))
public struct ConstantPool: Hashable, Sendable {
    public private(set) var entries: [Constant] = []
    /// The index of each plain value, once the pool is too long to search (`searchLimit`).
    private var valueIndex: [Value: Int32] = [:]
    private var isIndexed = false
    /// Most programs hold a handful of constants: finding a repeated value among them by
    /// comparison costs less than hashing it into a dictionary.
    private static let searchLimit = 16

    public init() {
        // Room for a typical program's constants: growing from empty reallocated per constant.
        entries.reserveCapacity(4)
    }

    /// Adds `constant` and returns its index.
    public mutating func add(_ constant: Constant) -> Int32 {
        if case .value(let value) = constant, let index = index(of: value) { return index }
        let index = Int32(entries.count)
        entries.append(constant)
        if entries.count > Self.searchLimit {
            if !isIndexed {
                isIndexed = true
                for (position, entry) in entries.enumerated() {
                    if case .value(let value) = entry { valueIndex[value] = Int32(position) }
                }
            } else if case .value(let value) = constant {
                valueIndex[value] = index
            }
        }
        return index
    }

    /// Where the plain value `value` already is.
    private func index(of value: Value) -> Int32? {
        if isIndexed { return valueIndex[value] }
        for (position, entry) in entries.enumerated() {
            if case .value(let existing) = entry, existing == value { return Int32(position) }
        }
        return nil
    }

    public var count: Int { entries.count }

    public subscript(index: Int32) -> Constant { entries[Int(index)] }

    /// Whether `index` names an entry.
    public func contains(_ index: Int32) -> Bool { index >= 0 && Int(index) < entries.count }

    public static func == (lhs: ConstantPool, rhs: ConstantPool) -> Bool { lhs.entries == rhs.entries }
    public func hash(into hasher: inout Hasher) { hasher.combine(entries) }
}
