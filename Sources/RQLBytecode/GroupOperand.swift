import RQLCore

/// One side of a comparison of two multi-valued operands, as `LoadGroups` computes it for each
/// row: the values, split into the groups realm-core quantifies separately (one per owner of a
/// collection of values, one per mixed list or dictionary a `[*]`, `@keys` or `@values` opens;
/// links flatten). Every operand other than a grouped path is one group.
///
///     // items.price * 2 from Person: one group, each price doubled
///     GroupOperand.arithmetic(.multiply, .path(itemsPrice, grouped: false), .constant(.int(2)))
///     // value[*][*] = dict[*][*]: one group per inner list
///     GroupOperand.path(valueAllAll, grouped: true)
public indirect enum GroupOperand: Hashable, Sendable {
    /// One value.
    case constant(Value)
    /// A constant list (`{1, 2, 3}`): its values, in order.
    case values([Value])
    /// `obj('dog', 'pluto')`: a link to the object of `className` with that primary key, or null
    /// when there is none (looked up once a run).
    case object(className: String, primaryKey: Value)
    /// A list literal with elements other than constants (`{obj('dog', 'a'), NULL}`): the values
    /// of its elements, one after another.
    case list([GroupOperand])
    /// The values a key path reaches from the row; with `grouped`, in the groups quantifiers
    /// apply to, otherwise all in one group (a path inside arithmetic or a list).
    case path(BoundPath, grouped: Bool)
    /// `lhs op rhs` for every pair of their values (`ValueArithmetic`); a pair without a result
    /// (a non-number, integer division by zero) gives nothing.
    case arithmetic(ArithmeticOperator, GroupOperand, GroupOperand)
    /// The row's value in value register N, loaded by an earlier instruction (`items.@sum.price`,
    /// `dogs.@count`): one value.
    case valueRegister(Int)
    /// The values of the groups held in value register N (a correlated SUBQUERY's parameter,
    /// loaded by `LoadParameter`), all in one list: an outside operand that is not one value,
    /// inside arithmetic with inside values (`$t.price + $d.scores` in `SUBQUERY($d.toys, $t, …)`).
    case parameterGroups(Int)
    /// `@count` / `@size` of what a path reaches, as the reference evaluator counts
    /// (`ReferenceEvaluator.counts`): the links a path of links reaches, as one total; otherwise
    /// one count per collection (`friends.scores.@count`), a string's or mixed value's size.
    case count(BoundPath)
    /// `@min/@max/@sum/@avg` per owner of the path's last collection (`friends.scores.@max`),
    /// as the reference evaluator aggregates (`ReferenceEvaluator.aggregates`).
    case aggregate(AggregateFunction, BoundPath)
    /// `path GEOWITHIN region` tested on each thing the path reaches, as the reference evaluator
    /// tests it (`ReferenceEvaluator.geoWithinHolds`): `true` for a point within the region,
    /// `false` for a point outside, an object that is not a point, and a null or dangling link
    /// met anywhere on the way (which is why `ALL … GEOWITHIN` through to-many hops is loaded
    /// this way: a count of the objects passing cannot see the null links). One group.
    case withinRegion(BoundPath, GeoRegion)
    /// Whether each value of the operand is a string the pattern matches (`MATCHES`), in the
    /// operand's groups: `ANY friends.friends.tags MATCHES 'a.*'` quantifies per owner of `tags`.
    case matching(GroupOperand, RegexPattern)
    /// Whether each value `path` reaches has the full-text terms (`TEXT`, as
    /// `ReferenceEvaluator.fullTextHolds` reads it: a null string has no tokens, a value that is
    /// not a string matches nothing), in one group.
    case searchingText(BoundPath, TextSearch)

    /// `items.price * 2`, for EXPLAIN.
    public var text: String {
        switch self {
        case .constant(let value): value.description
        case .values(let values): "{" + values.prefix(6).map(\.description).joined(separator: ", ") + "}"
        case .object(let className, let primaryKey): "obj(\(className), \(primaryKey))"
        case .list(let elements): "{" + elements.map(\.text).joined(separator: ", ") + "}"
        case .path(let path, _): path.dottedName
        case .arithmetic(let op, let lhs, let rhs): "\(lhs.text) \(op.rawValue) \(rhs.text)"
        case .valueRegister(let v): "v\(v)"
        case .parameterGroups(let v): "v\(v) values"
        case .count(let path): path.dottedName + ".@count"
        case .aggregate(let function, let path): path.dottedName + "." + function.rawValue
        case .withinRegion(let path, _): path.dottedName + " GEOWITHIN region"
        case .matching(let operand, let pattern): operand.text + " MATCHES '\(pattern.source)'"
        case .searchingText(let path, _): path.dottedName + " TEXT terms"
        }
    }
}

/// How `CompareGroups` decides a comparison of two operands' groups, as the reference evaluator
/// does (`ReferenceEvaluator.holds(_:in:)`, with `Quantifier.holds(over:)` and
/// `ComparisonOperator.holdsElementwise`): the comparison holds when it holds for some group of
/// the left side and some group of the right side.
///
///     // ALL items.price IN ANY items.price
///     GroupComparison(.equal, form: .quantified(lhs: .all, rhs: .any))
public struct GroupComparison: Hashable, Sendable {
    public enum Form: Hashable, Sendable {
        /// `lhs` quantifies the left group's values `l`, and for each, `rhs` the right group's
        /// values `r` in `l op r` (an unquantified single value is ANY over its one value).
        case quantified(lhs: Quantifier, rhs: Quantifier)
        /// Two unquantified multi-valued sides, element by element in order (`items.price !=
        /// items.price`, `value[*][*] = {3, 2, 1}`).
        case elementwise
        /// `==` against a constant list or list literal under ANY: the other side's values,
        /// under `quantifier`, are members of the list (`EqualityKey.isMember`: Realm equality,
        /// NaN never a member); the list is the right side with `listOnRight`.
        case membership(Quantifier, listOnRight: Bool)
    }

    public var op: ComparisonOperator
    public var options: StringOptions
    public var form: Form
    /// Whether the left (right) side is `@type` of its values: such a side is compared by type
    /// with the other side's type names or, both being `@type`, with its values' types; only
    /// `==` and `!=` can hold then.
    public var lhsIsType: Bool
    public var rhsIsType: Bool

    public init(
        _ op: ComparisonOperator,
        options: StringOptions = [],
        form: Form,
        lhsIsType: Bool = false,
        rhsIsType: Bool = false
    ) {
        self.op = op
        self.options = options
        self.form = form
        self.lhsIsType = lhsIsType
        self.rhsIsType = rhsIsType
    }

    /// One pair of values, as the reference evaluator compares them (`ReferenceEvaluator.compare`):
    /// by `ValueComparison`, or by `TypeAttribute` when a side is `@type` (an unknown type name
    /// matches nothing).
    @inlinable
    public func pair(_ lhs: Value, _ rhs: Value) -> Bool {
        guard lhsIsType || rhsIsType else { return ValueComparison.evaluate(lhs, op, rhs, options: options) }
        let same: Bool
        switch (lhsIsType, rhsIsType) {
        case (true, true): same = TypeAttribute.sameType(lhs, rhs)
        case (true, false): same = TypeAttribute(naming: rhs)?.matches(lhs) ?? false
        case (false, _): same = TypeAttribute(naming: lhs)?.matches(rhs) ?? false
        }
        switch op {
        case .equal: return same
        case .notEqual: return !same
        default: return false
        }
    }

    /// `ALL l == ANY r`, for EXPLAIN.
    public var text: String {
        let op = self.op.rawValue + (options.isEmpty ? "" : "[opts]")
        let l = lhsIsType ? "l.@type" : "l"
        let r = rhsIsType ? "r.@type" : "r"
        switch form {
        case .quantified(let lhs, let rhs): return "\(lhs.rawValue) \(l) \(op) \(rhs.rawValue) \(r)"
        case .elementwise: return "\(l) \(op) \(r) element-wise"
        case .membership(let quantifier, let listOnRight):
            return listOnRight ? "\(quantifier.rawValue) l IN r" : "\(quantifier.rawValue) r IN l"
        }
    }
}

extension GroupOperand {
    /// Whether `LoadGroups` can compute the operand: its paths start at the row's object (there
    /// is no SUBQUERY element to start from).
    public var isWellFormed: Bool {
        switch self {
        case .constant, .values, .object: true
        case .list(let elements): elements.allSatisfy(\.isWellFormed)
        case .path(let path, _), .count(let path), .aggregate(_, let path), .withinRegion(let path, _),
            .searchingText(let path, _):
            path.root == .object
        case .arithmetic(_, let lhs, let rhs): lhs.isWellFormed && rhs.isWellFormed
        case .valueRegister(let v), .parameterGroups(let v): v >= 0
        case .matching(let operand, _): operand.isWellFormed
        }
    }

    /// Whether `CompareSequences` can compare the operand as a sequence: a key path from the
    /// row's object or a constant list.
    public var isSequence: Bool {
        switch self {
        case .path(let path, _): path.root == .object
        case .values: true
        case .constant, .object, .list, .arithmetic, .valueRegister, .parameterGroups, .count, .aggregate,
            .withinRegion, .matching, .searchingText:
            false
        }
    }

    /// The value registers the operand reads.
    public var valueRegisters: [Int] {
        switch self {
        case .constant, .values, .object, .path, .count, .aggregate, .withinRegion, .searchingText: []
        case .list(let elements): elements.flatMap(\.valueRegisters)
        case .arithmetic(_, let lhs, let rhs): lhs.valueRegisters + rhs.valueRegisters
        case .valueRegister(let v), .parameterGroups(let v): [v]
        case .matching(let operand, _): operand.valueRegisters
        }
    }
}
