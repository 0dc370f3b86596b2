import RQLCore

/// The bytecode's copy of `BoundPredicate` (RQLIR), node for node (see `RowExpression`).
///
/// A predicate over one object of the query's class (or, inside a SUBQUERY, over one element).
public indirect enum RowPredicate: Hashable, Sendable {
    /// TRUEPREDICATE / FALSEPREDICATE, or a predicate the binder decided statically.
    case constant(Bool)
    /// Every operand holds.
    case and([RowPredicate])
    /// At least one operand holds.
    case or([RowPredicate])
    /// The operand does not hold.
    case not(RowPredicate)
    /// Two operands compared under Realm's quantifier rules (see `RowComparison`). IN, BETWEEN and
    /// the comparison spellings are already lowered to these.
    case comparison(RowComparison)
    /// `path TEXT 'terms'`: the string at `path` (ANY over a to-many path) matches the full-text query.
    case fullText(path: RowPath, query: TextSearch)
    /// `path GEOWITHIN shape`: the embedded GeoJSON point(s) at `path` lie in `region`. For a to-many
    /// path the quantifier applies, except that ALL is false for an empty collection.
    case geoWithin(path: RowPath, quantifier: Quantifier, region: GeoRegion)
    /// `operand MATCHES 'pattern'`: the whole string matches the regular expression (compiled
    /// once, when the query is bound). A multi-valued operand is quantified (ANY unless
    /// written); values that are not strings never match.
    case matches(RowOperand, RegexPattern)
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
public struct RowComparison: Hashable, Sendable {
    public var lhs: RowOperand
    public var op: ComparisonOperator
    public var options: StringOptions
    public var rhs: RowOperand

    public init(_ lhs: RowOperand, _ op: ComparisonOperator, _ rhs: RowOperand, options: StringOptions = []) {
        self.lhs = lhs
        self.op = op
        self.options = options
        self.rhs = rhs
    }
}

/// One side of a comparison: an expression, the quantifier written in front of it (nil when none
/// was), and whether it yields several values per object.
public struct RowOperand: Hashable, Sendable {
    public var expression: RowExpression
    public var quantifier: Quantifier?
    /// Whether the expression yields a sequence of values (a to-many path, a list constant,
    /// arithmetic over one) rather than exactly one value.
    public var isMultiValued: Bool

    public init(_ expression: RowExpression, quantifier: Quantifier? = nil, isMultiValued: Bool) {
        self.expression = expression
        self.quantifier = quantifier
        self.isMultiValued = isMultiValued
    }
}

/// A parsed `TEXT` search: every included term must occur; no excluded term may.
public struct TextSearch: Hashable, Sendable {
    /// One search word, lower-cased as the tokenizer lower-cases text.
    public struct Term: Hashable, Sendable {
        public var token: String
        /// `word*`: any token that starts with `token`.
        public var isPrefix: Bool
        /// `-word`: objects containing it are excluded.
        public var isExcluded: Bool

        public init(token: String, isPrefix: Bool = false, isExcluded: Bool = false) {
            self.token = token
            self.isPrefix = isPrefix
            self.isExcluded = isExcluded
        }
    }

    public var terms: [Term]

    public init(terms: [Term]) { self.terms = terms }
}
