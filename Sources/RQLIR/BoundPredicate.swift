import RQLCore

/// A predicate over one object of the query's class (or, inside a SUBQUERY, over one element).
public indirect enum BoundPredicate: Hashable, Sendable {
    /// TRUEPREDICATE / FALSEPREDICATE, or a predicate the binder decided statically.
    case constant(Bool)
    /// Every operand holds.
    case and([BoundPredicate])
    /// At least one operand holds.
    case or([BoundPredicate])
    /// The operand does not hold.
    case not(BoundPredicate)
    /// Two operands compared under Realm's quantifier rules (see `BoundComparison`). IN, BETWEEN and
    /// the comparison spellings are already lowered to these.
    case comparison(BoundComparison)
    /// `path TEXT 'terms'`: the string at `path` (ANY over a to-many path) matches the full-text query.
    case fullText(path: BoundPath, query: TextSearch)
    /// `path GEOWITHIN shape`: the embedded GeoJSON point(s) at `path` lie in `region`. For a to-many
    /// path the quantifier applies, except that ALL is false for an empty collection.
    case geoWithin(path: BoundPath, quantifier: Quantifier, region: GeoRegion)
    /// `operand MATCHES 'pattern'`: the whole string matches the regular expression (compiled
    /// once, when the query is bound). A multi-valued operand is quantified (ANY unless
    /// written); values that are not strings never match.
    case matches(BoundOperand, RegexPattern)
}

/// `lhs op rhs` with realm-core's semantics for multi-valued operands:
///
/// - each multi-valued side is quantified: its written quantifier, or ANY when none was written;
///   `ANY l ∈ L : ALL r ∈ R : l op r`, where ANY/ALL/NONE are ∃, ∀ and ¬∃ (so an empty
///   collection makes ANY false and ALL/NONE true);
/// - except that when *both* sides are multi-valued and *neither* has a written quantifier, the
///   comparison is element-wise in order over two sequences of equal length;
/// - a multi-valued *path* is quantified per owner of each collection of values it reads, and the
///   comparison holds if it holds for some owner (realm-core's evaluation): `ALL list.integers
///   == 1` holds when some linked object's `integers` are all 1, and `link.list == {4, 5, 6}`
///   compares each linked object's list; links themselves flatten (`ALL items.allergens.name`
///   is over every allergen of every item). See `ReferenceEvaluator.groups(of:in:)`.
public struct BoundComparison: Hashable, Sendable {
    public var lhs: BoundOperand
    public var op: ComparisonOperator
    public var options: StringOptions
    public var rhs: BoundOperand

    public init(_ lhs: BoundOperand, _ op: ComparisonOperator, _ rhs: BoundOperand, options: StringOptions = []) {
        self.lhs = lhs
        self.op = op
        self.options = options
        self.rhs = rhs
    }
}

/// One side of a comparison: an expression, the quantifier written in front of it (nil when none
/// was), and whether it yields several values per object.
public struct BoundOperand: Hashable, Sendable {
    public var expression: BoundExpression
    public var quantifier: Quantifier?
    /// Whether the expression yields a sequence of values (a to-many path, a list constant,
    /// arithmetic over one) rather than exactly one value.
    public var isMultiValued: Bool

    public init(_ expression: BoundExpression, quantifier: Quantifier? = nil, isMultiValued: Bool) {
        self.expression = expression
        self.quantifier = quantifier
        self.isMultiValued = isMultiValued
    }
}
