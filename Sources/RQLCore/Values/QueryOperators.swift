/// The small vocabularies that the syntax tree, the bound IR and the value rules share, defined
/// once here so that every stage means the same thing by them.

/// How a comparison treats the values of a multi-valued operand.
public enum Quantifier: String, Hashable, Sendable, CaseIterable {
    /// At least one value satisfies the comparison (false when there are none). `SOME` is a synonym.
    case any = "ANY"
    /// Every value does (true when there are none).
    case all = "ALL"
    /// No value does (true when there are none).
    case none = "NONE"
}

/// The four arithmetic operators; the raw value is the spelling.
public enum ArithmeticOperator: String, Hashable, Sendable, CaseIterable {
    /// `+`
    case add = "+"
    /// `-`
    case subtract = "-"
    /// `*`
    case multiply = "*"
    /// `/`
    case divide = "/"
}

/// The aggregates of a collection's values; the raw value is the spelling.
public enum AggregateFunction: String, Hashable, Sendable, CaseIterable {
    /// `@min`: the smallest value in Realm's order; null when there is none.
    case min = "@min"
    /// `@max`: the largest value; null when there is none.
    case max = "@max"
    /// `@sum`: the numeric sum; 0 when there is nothing to add.
    case sum = "@sum"
    /// `@avg`: the numeric mean, in floating point for integers; null when there is nothing.
    case avg = "@avg"
}
