import RQLCore
import RQLIR

/// Estimates the fraction of rows a predicate selects, for every kind of comparison.
///
/// A comparison of a column of the object with a constant is estimated from the column's
/// sample (`PropertyStatistics`): equality from how often the value was seen (or `1/distinct`
/// when it was not), ranges by binary search in the sorted sample, string operators and `[c]`/
/// `[d]` by testing a few sampled values, IN lists as the sum of their equalities. Everything
/// else gets a fixed guess by operator (SQLite's approach for terms it cannot analyse):
///
/// | predicate | guess |
/// | --- | --- |
/// | `==` / `!=` | 0.1 / 0.9 |
/// | `<`, `<=`, `>`, `>=` | 1/3 |
/// | BEGINSWITH, ENDSWITH | 0.1 |
/// | CONTAINS, LIKE | 0.2 |
/// | IN a list of k values | min(0.1·k, 0.9) |
/// | TEXT / GEOWITHIN | 0.05 / 0.1 |
///
/// AND multiplies, OR combines as `1 − Π(1 − s)`, NOT is `1 − s` (independence assumed).
struct SelectivityEstimator {
    let context: PassContext

    /// The estimated fraction of rows for which `predicate` holds, in `0 ... 1`.
    func selectivity(of predicate: BoundPredicate) -> Double {
        switch predicate {
        case .constant(let value):
            return value ? 1 : 0
        case .and(let operands):
            return conjunctionSelectivity(operands)
        case .or(let operands):
            return 1 - operands.reduce(1) { $0 * (1 - selectivity(of: $1)) }
        case .not(let operand):
            return 1 - selectivity(of: operand)
        case .comparison(let comparison):
            return selectivity(of: comparison)
        case .fullText:
            return 0.05
        case .geoWithin:
            return 0.1
        case .matches:
            // A regular expression: as unknown as LIKE with wildcards.
            return 0.1
        }
    }

    /// AND multiplies, except that a lower and an upper bound on one column of the object are
    /// one range (`x >= 20 AND x < 30`), estimated together rather than as independent.
    private func conjunctionSelectivity(_ operands: [BoundPredicate]) -> Double {
        var bounds: [Int: (lower: (ComparisonOperator, Value)?, upper: (ComparisonOperator, Value)?)] = [:]
        var paired = Set<Int>()
        for (index, operand) in operands.enumerated() {
            guard let (property, op, value) = directBound(operand) else { continue }
            var current = bounds[property] ?? (nil, nil)
            if op == .greater || op == .greaterOrEqual {
                if current.lower == nil {
                    current.lower = (op, value)
                    paired.insert(index)
                }
            } else if current.upper == nil {
                current.upper = (op, value)
                paired.insert(index)
            }
            bounds[property] = current
        }
        var result = 1.0
        for (index, operand) in operands.enumerated() where !paired.contains(index) {
            result *= selectivity(of: operand)
        }
        for (property, bound) in bounds {
            result *= rangeSelectivity(property: property, lower: bound.lower, upper: bound.upper)
        }
        return result
    }

    /// `column op constant` for an ordered operator on a one-type column of the object that has
    /// statistics, with a constant that is neither null nor NaN.
    private func directBound(_ predicate: BoundPredicate) -> (Int, ComparisonOperator, Value)? {
        guard case .comparison(let comparison) = predicate,
            let term = ColumnTerm(comparison, schema: context.schema, home: context.objectSchema),
            term.column.isDirect, term.column.path.rootClassName == context.objectSchema.name,
            term.column.property.type != .mixed, term.options.isEmpty,
            case .compare(let op, let value) = term.test, op.isOrdered, !value.isNull, !NumericComparison.isNaN(value),
            context.statistics(property: term.column.propertyIndex) != nil
        else { return nil }
        return (term.column.propertyIndex, op, value)
    }

    /// The estimate for a conjunct whose column term is already known (`nil`: not a term).
    func selectivity(of predicate: BoundPredicate, term: ColumnTerm?) -> Double {
        guard case .comparison(let comparison) = predicate else { return selectivity(of: predicate) }
        return selectivity(of: comparison, term: term)
    }

    func selectivity(of comparison: BoundComparison) -> Double {
        selectivity(of: comparison, term: ColumnTerm(comparison, schema: context.schema, home: context.objectSchema))
    }

    private func selectivity(of comparison: BoundComparison, term: ColumnTerm?) -> Double {
        if let term, let unique = primaryKeySelectivity(term) { return unique }
        if let term, term.column.isDirect,
            term.column.path.rootClassName == context.objectSchema.name,
            let statistics = context.statistics(property: term.column.propertyIndex), statistics.sampleSize > 0
        {
            return clamp(estimate(term, statistics))
        }
        return guess(comparison)
    }

    /// `key == v`, `key != v` and `key IN list` on the primary key, which holds each value at
    /// most once: one row per value, known without a sample (a sample of a store file's column
    /// pages in and checks blocks of it that the lookup itself never reads).
    private func primaryKeySelectivity(_ term: ColumnTerm) -> Double? {
        guard term.options.isEmpty, term.column.isDirect,
            term.column.path.rootClassName == context.objectSchema.name,
            context.objectSchema.primaryKey != nil,
            term.column.propertyIndex == context.objectSchema.primaryKeyIndex,
            context.rowCount > 0
        else { return nil }
        let rows = Double(context.rowCount)
        switch term.test {
        case .compare(.equal, _): return 1 / rows
        case .compare(.notEqual, _): return 1 - 1 / rows
        case .member(let values): return Swift.min(1, Double(values.count) / rows)
        case .compare: return nil
        }
    }

    /// The fraction of rows of column `property` of the object inside a range: from the
    /// sample, `P(x ⋄ lower) + P(x ⋄ upper) − P(x not null)`, since every non-null row is above
    /// the lower bound or below the upper one; without statistics the product of guesses.
    func rangeSelectivity(
        property: Int,
        lower: (ComparisonOperator, Value)?,
        upper: (ComparisonOperator, Value)?
    ) -> Double {
        guard let statistics = context.statistics(property: property), statistics.sampleSize > 0 else {
            return clamp((lower == nil ? 1 : 1.0 / 3) * (upper == nil ? 1 : 1.0 / 3))
        }
        let present = Double(statistics.sortedSample.count) / Double(statistics.sampleSize)
        let above = lower.map { statistics.fraction(where: $0.0, $0.1) } ?? present
        let below = upper.map { statistics.fraction(where: $0.0, $0.1) } ?? present
        return clamp(above + below - present)
    }

    /// The estimate from a column's sample.
    private func estimate(_ term: ColumnTerm, _ statistics: PropertyStatistics) -> Double {
        switch term.test {
        case .member(let values):
            // Long lists: each value as one distinct value's share, without a search per value.
            if values.count > 64 { return Double(values.count) * unseenEquality(statistics) }
            return values.reduce(0) { $0 + equality($1, statistics) }
        case .compare(let op, let value):
            if !term.options.isEmpty || op.isStringOperator { return sampled(op, value, term.options, statistics) }
            switch op {
            case .equal: return equality(value, statistics)
            case .notEqual: return 1 - equality(value, statistics)
            case .less, .lessOrEqual, .greater, .greaterOrEqual:
                if value.isNull {
                    return op == .lessOrEqual || op == .greaterOrEqual ? statistics.nullFraction : 0
                }
                if NumericComparison.isNaN(value) { return 0 }
                // ValueOrdering ranks types; only a column of one type reads a range off it.
                if term.column.property.type == .mixed { return sampled(op, value, [], statistics) }
                return statistics.fraction(where: op, value)
            case .beginsWith, .endsWith, .contains, .like, .in, .text, .matches:
                return sampled(op, value, term.options, statistics)
            }
        }
    }

    /// `column == value`: the share of the sample equal to it, or for a value not seen, one
    /// distinct value's share, but no more than one row of the sample.
    private func equality(_ value: Value, _ statistics: PropertyStatistics) -> Double {
        if value.isNull { return statistics.nullFraction }
        if NumericComparison.isNaN(value) { return 0 }
        if let observed = statistics.observedFraction(equalTo: value) { return observed }
        return unseenEquality(statistics)
    }

    /// The share of one value the sample did not see.
    private func unseenEquality(_ statistics: PropertyStatistics) -> Double {
        let nonNull = Double(statistics.sortedSample.count) / Double(statistics.sampleSize)
        let perValue = nonNull / Double(Swift.max(statistics.distinctCount, 1))
        return Swift.min(perValue, 1 / Double(statistics.sampleSize + 1))
    }

    /// The operator tested on about 32 sampled values (and on null once, weighted by the nulls).
    private func sampled(
        _ op: ComparisonOperator,
        _ value: Value,
        _ options: StringOptions,
        _ statistics: PropertyStatistics
    ) -> Double {
        let values = statistics.sortedSample
        guard !values.isEmpty else {
            return ValueComparison.evaluate(.null, op, value, options: options) ? statistics.nullFraction : 0
        }
        // A string needle is prepared once (as the VM does), not per sampled value.
        var matcher: StringMatcher?
        if case .string(let needle) = value,
            let operation = StringMatcher.Operation(op) ?? (op == .equal || op == .notEqual ? .equal : nil)
        {
            matcher = StringMatcher(operation, needle: needle, options: options)
        }
        let step = Swift.max(1, values.count / 32)
        var tested = 0
        var matched = 0
        for index in stride(from: 0, to: values.count, by: step) {
            tested += 1
            let holds: Bool
            if let matcher, case .string(let haystack) = values[index] {
                holds = matcher.matches(haystack) != (op == .notEqual)
            } else {
                holds = ValueComparison.evaluate(values[index], op, value, options: options)
            }
            if holds { matched += 1 }
        }
        let nonNull = Double(values.count) / Double(statistics.sampleSize)
        let nullShare = ValueComparison.evaluate(.null, op, value, options: options) ? statistics.nullFraction : 0
        // Half a match keeps an operator that matched no sampled value from looking free.
        return nonNull * (Double(matched) + 0.5) / Double(tested + 1) + nullShare
    }

    /// The fixed guess for a comparison the statistics cannot see.
    private func guess(_ comparison: BoundComparison) -> Double {
        var listCount: Int?
        for operand in [comparison.lhs, comparison.rhs] {
            switch operand.expression {
            case .constantList(let values): listCount = values.count
            case .list(let elements): listCount = elements.count
            default: break
            }
        }
        var estimate: Double
        switch comparison.op {
        case .equal: estimate = listCount.map { Swift.min(0.1 * Double($0), 0.9) } ?? 0.1
        case .notEqual: estimate = 0.9
        case .less, .lessOrEqual, .greater, .greaterOrEqual: estimate = 1.0 / 3
        case .beginsWith, .endsWith: estimate = 0.1
        case .contains, .like, .in, .text, .matches: estimate = 0.2
        }
        switch comparison.lhs.quantifier ?? comparison.rhs.quantifier {
        case .all?: estimate *= estimate
        case .none?: estimate = 1 - estimate
        case .any?, nil: break
        }
        return clamp(estimate)
    }

    /// Keeps an estimate inside `0 ... 1`, never quite zero (a sample can miss a rare value).
    private func clamp(_ value: Double) -> Double {
        let floor = 0.5 / Double(Swift.max(context.rowCount, 1))
        return Swift.min(1, Swift.max(floor, value.isNaN ? 1 : value))
    }
}
