import RQLCore
import RQLIR

/// The index-backed candidates, and the rules for when an index answers a comparison exactly.
extension AccessPathSelection {
    /// Every index-backed way to produce the candidates of `conjuncts`.
    static func candidates(
        _ terms: [ColumnTerm?],
        conditions: [ResidualCondition],
        context: PassContext,
        estimator: SelectivityEstimator
    ) -> [Candidate] {
        let objectSchema = context.objectSchema
        let rows = Double(context.rowCount)
        let model = context.costModel
        var result: [Candidate] = []
        // Per sorted-indexed column, in order of first mention: its tightest lower and upper bound
        // conjuncts (a short list: queries bound few columns).
        var ranges:
            [(column: Int, lower: (Int, ComparisonOperator, Value)?, upper: (Int, ComparisonOperator, Value)?)] = []
        for (index, term) in terms.enumerated() {
            guard let term, term.options.isEmpty, term.column.isDirect,
                term.column.path.rootClassName == objectSchema.name
            else { continue }
            let selectivity = conditions[index].selectivity ?? 1
            let column = term.column.propertyIndex
            let property = term.column.property
            let name = property.name
            let isPrimaryKey = column == objectSchema.primaryKeyIndex
            switch term.test {
            case .compare(.equal, let value) where isLookupEligible(value, for: property):
                if isPrimaryKey {
                    result.append(
                        Candidate(
                            access: .primaryKey(property: column, name: name, value: value),
                            consumed: [index],
                            rows: 1,
                            cost: model.probe + model.hashEntry
                        )
                    )
                } else if property.isIndexed {
                    let found = rows * selectivity
                    result.append(
                        Candidate(
                            access: .indexEquality(property: column, name: name, value: value),
                            consumed: [index],
                            rows: found,
                            cost: model.probe + found * model.hashEntry
                        )
                    )
                }
            case .member(let values) where values.allSatisfy({ isLookupEligible($0, for: property) }):
                let keys = distinctLookups(values)
                let probes = Double(keys.count) * model.probe
                if isPrimaryKey {
                    let found = Double(keys.count)
                    result.append(
                        Candidate(
                            access: .primaryKeyIn(property: column, name: name, values: keys),
                            consumed: [index],
                            rows: found,
                            cost: probes + found * model.hashEntry
                        )
                    )
                } else if property.isIndexed {
                    let found = Swift.min(rows, rows * selectivity)
                    result.append(
                        Candidate(
                            access: .indexIn(property: column, name: name, values: keys),
                            consumed: [index],
                            rows: found,
                            cost: probes + found * model.hashEntry
                        )
                    )
                }
            case .compare(let op, let value) where op.isOrdered && isRangeEligible(value, for: property):
                let slot: Int
                if let existing = ranges.firstIndex(where: { $0.column == column }) {
                    slot = existing
                } else {
                    slot = ranges.count
                    ranges.append((column, nil, nil))
                }
                if op == .greater || op == .greaterOrEqual {
                    if ranges[slot].lower.map({ isTighter(op, value, than: $0.1, $0.2, lower: true) }) ?? true {
                        ranges[slot].lower = (index, op, value)
                    }
                } else if ranges[slot].upper.map({ isTighter(op, value, than: $0.1, $0.2, lower: false) }) ?? true {
                    ranges[slot].upper = (index, op, value)
                }
            default:
                continue
            }
        }
        for (column, lower, upper) in ranges {
            let bounds = (lower: lower, upper: upper)
            let name = objectSchema.properties[column].name
            let consumed = Set([bounds.lower?.0, bounds.upper?.0].compactMap { $0 })
            let found =
                rows
                * estimator.rangeSelectivity(
                    property: column,
                    lower: bounds.lower.map { ($0.1, $0.2) },
                    upper: bounds.upper.map { ($0.1, $0.2) }
                )
            result.append(
                Candidate(
                    access: .indexRange(
                        property: column,
                        name: name,
                        lower: bounds.lower.map { RangeBound($0.2, inclusive: $0.1 == .greaterOrEqual) },
                        upper: bounds.upper.map { RangeBound($0.2, inclusive: $0.1 == .lessOrEqual) }
                    ),
                    consumed: consumed,
                    rows: found,
                    cost: model.probe + found * model.rangeEntry
                )
            )
        }
        return result
    }

    /// Whether `new` bounds the range more tightly than the current bound; bounds that do not
    /// compare (mixed constant types) keep the first.
    private static func isTighter(
        _ op: ComparisonOperator,
        _ value: Value,
        than currentOp: ComparisonOperator,
        _ current: Value,
        lower: Bool
    ) -> Bool {
        guard let order = ValueComparison.orderedCompare(value, current) else { return false }
        if order == 0 { return op == .greater || op == .less }
        return lower ? order > 0 : order < 0
    }

    /// The values of an IN list with one value per index key: values that are equal under
    /// Realm equality find the same rows.
    static func distinctLookups(_ values: [Value]) -> [Value] {
        var seen = Set<EqualityKey>()
        return values.filter { seen.insert(EqualityKey($0)).inserted }
    }

    /// Whether a lookup of `value` in a hash index (or the primary key) of `property` returns
    /// exactly the rows where `property == value` holds. Lookups find the rows whose
    /// `EqualityKey` equals the value's, which is Realm equality wherever both sides are of one
    /// type, or binary numbers (`int`, `float`, `double`: compared exactly). Decimals against
    /// binary numbers compare through the double's shortest text, where keys and equality can
    /// part beyond 2^53; such comparisons scan. NaN equals nothing; a null finds the null rows.
    static func isLookupEligible(_ value: Value, for property: Property) -> Bool {
        if value.isNull { return true }
        if NumericComparison.isNaN(value) { return false }
        switch property.type {
        case .int, .float, .double:
            return [.int, .float, .double].contains(value.kind)
        case .decimal128:
            return value.kind == .decimal
        case .bool: return value.kind == .bool
        case .string: return value.kind == .string
        case .data: return value.kind == .data
        case .date: return value.kind == .date
        case .objectId: return value.kind == .objectId
        case .uuid: return value.kind == .uuid
        case .mixed:
            // A mixed column may hold a decimal: binary constants must stay where doubles and
            // their shortest decimal text agree (below 2^53), and decimal constants scan.
            switch value {
            case .int, .string, .bool, .date, .objectId, .uuid, .data: return true
            case .double(let d): return abs(d) < 9_007_199_254_740_992
            case .float(let f): return abs(Double(f)) < 9_007_199_254_740_992
            default: return false
            }
        case .object, .linkingObjects:
            return false
        }
    }

    /// Whether a sorted-index range bounded by `value` holds exactly the rows where `property`
    /// compares with `value` as the bound says. The index orders a column of one type as
    /// `ValueComparison` orders it, and compares the bound with the same function; nulls and
    /// NaNs are never in a range, as no ordered comparison matches them.
    static func isRangeEligible(_ value: Value, for property: Property) -> Bool {
        guard property.hasSortedIndex, !value.isNull, !NumericComparison.isNaN(value) else { return false }
        switch property.type {
        case .int, .float, .double, .decimal128: return value.kind.isNumeric
        case .date: return value.kind == .date
        case .objectId: return value.kind == .objectId
        case .uuid: return value.kind == .uuid
        default: return false
        }
    }
}
