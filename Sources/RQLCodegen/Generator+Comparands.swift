import RQLBytecode
import RQLCore
import RQLIR

/// Comparisons whose other side is not one constant: a constant list under a quantifier
/// (`ALL items.price > ANY {1, 2}`, `age > ANY {1, 2}`), a list compared element by element
/// (`scores == {1, 5, 9}`), or a value computed per row (`ANY items.price == fav_item.price`).
extension Generator {
    /// The register form of a multi-valued path compared with a constant list under a written
    /// quantifier (`ALL items.price > ANY {1, 2}`, `NONE others.name == {'a', 'b'}`,
    /// `ANY {5.5} == ALL items.price`); nil for other shapes (two unquantified sides compare
    /// element-wise, in order: `CompareGroups`/`CompareSequences`).
    func listCompared(_ comparison: BoundComparison) -> Gathered? {
        let pathFirst: Bool
        let (pathSide, listSide): (BoundOperand, BoundOperand)
        switch (comparison.lhs.expression, comparison.rhs.expression) {
        case (.path, .constantList):
            (pathSide, listSide, pathFirst) = (comparison.lhs, comparison.rhs, true)
        case (.constantList, .path):
            (pathSide, listSide, pathFirst) = (comparison.rhs, comparison.lhs, false)
        default:
            return nil
        }
        guard pathSide.isMultiValued, case .path(let path) = pathSide.expression, path.isMultiValued,
            case .constantList(let values) = listSide.expression, let (hops, end, toMany) = walk(path)
        else { return nil }
        var reduction: PathWalk.Reduction
        if comparison.lhs.quantifier == nil && comparison.rhs.quantifier == nil {
            // Element by element, in order: every path followed, so at most one to-many hop.
            guard toMany <= 1 else { return nil }
            reduction = .elementwise(
                op: comparison.op,
                values: values,
                options: comparison.options,
                pathFirst: pathFirst
            )
            return Gathered.walk(PathWalk(hops: hops, end: end, reduction: reduction))
        }
        reduction = .quantifiedList(
            path: pathSide.quantifier ?? .any,
            list: listSide.quantifier ?? .any,
            op: comparison.op,
            values: values,
            options: comparison.options,
            pathFirst: pathFirst
        )
        return Gathered.walk(PathWalk(hops: hops, end: end, reduction: reduction))
    }

    /// The register form of one value compared with a constant list under the list's quantifier
    /// (`age > ANY {1, 2}`, `owner.name ENDSWITH {'a', 'b'}`, `id == ALL {1, 2}`,
    /// `NONE {1, 2} < scores[0]`), other than `IN` (`FilterValueIn`); nil for other shapes.
    func singleListCompared(_ comparison: BoundComparison) -> Gathered? {
        let valueFirst: Bool
        let (valueSide, listSide): (BoundOperand, BoundOperand)
        switch (comparison.lhs.expression, comparison.rhs.expression) {
        case (.constantList, .constantList):
            return nil
        case (_, .constantList):
            (valueSide, listSide, valueFirst) = (comparison.lhs, comparison.rhs, true)
        case (.constantList, _):
            (valueSide, listSide, valueFirst) = (comparison.rhs, comparison.lhs, false)
        default:
            return nil
        }
        guard valueSide.quantifier == nil, !valueSide.isMultiValued, case .path = valueSide.expression,
            case .constantList(let values) = listSide.expression,
            var gathered = gathered(valueSide, .equal, .null, [], quantified: false)
        else { return nil }
        switch gathered.load {
        case .column, .element: break
        case .count, .matching, .aggregate, .backlinks, .walk, .walkAgainst: return nil
        }
        gathered.test = .quantifiedList(
            comparison.op,
            listSide.quantifier ?? .any,
            values,
            valueFirst: valueFirst,
            comparison.options
        )
        return gathered
    }

    /// The register form of a multi-valued path compared with one value computed per row
    /// (`ANY items.price == fav_item.price`, `ALL items.price > items.@avg.price`,
    /// `integers == single_int`); nil for other shapes.
    func pathAgainst(_ comparison: BoundComparison) -> Gathered? {
        // The multi-valued side: a path, or the sizes of a collection's elements.
        func walked(_ operand: BoundOperand) -> (hops: [PathWalk.Hop], end: PathWalk.End)? {
            guard operand.isMultiValued else { return nil }
            switch operand.expression {
            case .path(let path):
                guard path.isMultiValued, let (hops, end, _) = walk(path) else { return nil }
                return (hops, end)
            case .count(let path):
                return sizesWalk(path)
            default:
                return nil
            }
        }
        let pathFirst = walked(comparison.lhs) != nil
        let (pathSide, valueSide) = pathFirst ? (comparison.lhs, comparison.rhs) : (comparison.rhs, comparison.lhs)
        guard let (hops, end) = walked(pathSide), valueSide.quantifier == nil, !valueSide.isMultiValued else {
            return nil
        }
        switch valueSide.expression {
        case .path, .count, .aggregate, .backlinkCount: break
        case .constant, .constantList, .list, .type, .subqueryCount, .arithmetic, .object: return nil
        }
        // A value that may not exist (a subscript out of range drops the row) would make ALL over
        // an empty group hold in the reference: only loads that always give a value.
        guard let comparand = gathered(valueSide, .equal, .null, [], quantified: false),
            comparand.links.allSatisfy({ $0.selector == nil })
        else { return nil }
        switch comparand.load {
        case .column, .count, .aggregate, .backlinks, .walk: break
        case .element, .matching, .walkAgainst: return nil
        }
        let reduction = PathWalk.Reduction.quantifiedAgainst(
            pathSide.quantifier ?? .any,
            op: comparison.op,
            options: comparison.options,
            pathFirst: pathFirst
        )
        return Gathered(
            links: [],
            column: 0,
            load: .walkAgainst(PathWalk(hops: hops, end: end, reduction: reduction), comparand),
            op: .greater,
            constant: .int(0),
            options: []
        )
    }
}
