import RQLCore
import RQLIR

/// The constants of the cost model and the per-row cost of testing a predicate.
///
/// Costs are relative: testing one row of a plain numeric column in a scan is 1 (the VM's
/// typed kernels do that in well under a nanosecond a row, vectorized). The other constants say
/// how much more a thing costs than that, and were chosen from what the work involves:
///
/// - a full scan visits every row (`scanRow` each) and runs the residual over all of them;
/// - an index path pays `probe` per lookup, then per candidate `hashEntry` (postings are
///   already ascending) or `rangeEntry` (a range's positions are sorted or gathered through a
///   bitmap), and runs the residual on scattered candidates, `candidateTestFactor` times dearer
///   than on contiguous blocks.
///
/// With these, a range over one column pays off below about a fifth of the table, an equality
/// on a hash index almost always. Plans are compared by `total = access + Σ rows·cost(condition)`,
/// the rows shrinking by each condition's selectivity in order.
///
/// ```swift
/// var model = CostModel()
/// model.rangeEntry = 6   // a VM with a cheaper range gather
/// ```
public struct CostModel: Hashable, Sendable {
    /// Visiting one row in a full scan (block iteration, row keys).
    public var scanRow: Double = 1
    /// One lookup in a hash or sorted index (a hash, or two binary searches).
    public var probe: Double = 20
    /// One candidate from a hash index or the primary key.
    public var hashEntry: Double = 3
    /// One candidate from a sorted-index range.
    public var rangeEntry: Double = 10
    /// How much dearer a residual test is on index candidates than in a scan.
    public var candidateTestFactor: Double = 2

    public init() {}

    // MARK: Cost of a predicate, per row tested

    /// The cost of testing `predicate` on one row (AND and OR count every operand: the VM
    /// evaluates operands over whole batches).
    public func cost(of predicate: BoundPredicate) -> Double {
        switch predicate {
        case .constant: 0
        case .and(let operands), .or(let operands): operands.reduce(0) { $0 + cost(of: $1) }
        case .not(let operand): cost(of: operand)
        case .comparison(let comparison): cost(of: comparison)
        case .fullText(let path, _): 10 + cost(of: path)
        case .geoWithin(let path, _, _): 20 + cost(of: path)
        case .matches(let operand, _): 20 + cost(of: operand.expression)
        }
    }

    func cost(of comparison: BoundComparison) -> Double {
        let operands = cost(of: comparison.lhs.expression) + cost(of: comparison.rhs.expression)
        var test: Double
        switch comparison.op {
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            test = Swift.max(valueCost(comparison.lhs.expression), valueCost(comparison.rhs.expression))
            if case .constantList = comparison.rhs.expression { test += 1 }  // a hash probe per value
        case .beginsWith: test = 2
        case .endsWith: test = 3
        case .contains: test = 4
        case .like, .in, .text, .matches: test = 6
        }
        if comparison.options.contains(.caseInsensitive) { test *= 2 }
        if comparison.options.contains(.diacriticInsensitive) { test *= 3 }
        return operands + test
    }

    /// The cost of producing an operand's values for one row, beyond reading a plain column.
    func cost(of expression: BoundExpression) -> Double {
        switch expression {
        case .constant, .constantList: 0
        case .list: 1
        case .object: 1
        case .path(let path): cost(of: path)
        case .count(let path), .type(let path): cost(of: path) + 1
        case .aggregate(_, let path): cost(of: path) + 4
        case .backlinkCount(let path): cost(of: path) + 4
        case .subqueryCount(let path, let predicate): cost(of: path) + 8 + 4 * cost(of: predicate)
        case .arithmetic(_, let lhs, let rhs): cost(of: lhs) + cost(of: rhs) + 1
        }
    }

    /// Reading a path: free for a column of the object, 2 per further step (a link gather), and
    /// four times that past a to-many step (several elements per row).
    func cost(of path: BoundPath) -> Double {
        var cost: Double = 0
        var fanOut: Double = 1
        for (index, step) in path.steps.enumerated() where index > 0 || path.root != .object {
            cost += 2 * fanOut
            switch step {
            case .property, .index, .first, .last, .key: break
            case .backlinks, .all, .keys, .values: fanOut *= 4
            }
        }
        if path.isMultiValued { cost += 2 * fanOut }
        return cost
    }

    /// Comparing one pair of values of the operand's type.
    private func valueCost(_ expression: BoundExpression) -> Double {
        switch expression {
        case .path(let path):
            switch path.valueType {
            case .int, .bool, .float, .double, .date, .objectId, .uuid: 1
            case .string, .data: 2
            case .decimal128: 3
            case .mixed, .object, .linkingObjects: 2
            }
        case .constant(.string), .constant(.data): 2
        case .constant(.decimal): 3
        default: 1
        }
    }
}
