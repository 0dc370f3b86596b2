import RQLBytecode
import RQLCore
import RQLIR

/// Bound IR → the bytecode's row-operand form, node for node: what `FilterRow`, `Sort`,
/// `TopN` and `Distinct` carry in their constants, so that the VM never sees the IR.
enum Lowering {
    static func predicate(_ predicate: BoundPredicate) -> RowPredicate {
        switch predicate {
        case .constant(let value): .constant(value)
        case .and(let operands): .and(operands.map(Self.predicate))
        case .or(let operands): .or(operands.map(Self.predicate))
        case .not(let operand): .not(Self.predicate(operand))
        case .comparison(let comparison): .comparison(Self.comparison(comparison))
        case .fullText(let path, let query):
            .fullText(
                path: Self.path(path),
                query: TextSearch(
                    terms: query.terms.map {
                        TextSearch.Term(token: $0.token, isPrefix: $0.isPrefix, isExcluded: $0.isExcluded)
                    }
                )
            )
        case .geoWithin(let path, let quantifier, let region):
            .geoWithin(path: Self.path(path), quantifier: quantifier, region: region)
        case .matches(let operand, let pattern): .matches(Self.operand(operand), pattern)
        }
    }

    static func comparison(_ comparison: BoundComparison) -> RowComparison {
        RowComparison(
            operand(comparison.lhs),
            comparison.op,
            operand(comparison.rhs),
            options: comparison.options
        )
    }

    static func operand(_ operand: BoundOperand) -> RowOperand {
        RowOperand(expression(operand.expression), quantifier: operand.quantifier, isMultiValued: operand.isMultiValued)
    }

    static func expression(_ expression: BoundExpression) -> RowExpression {
        switch expression {
        case .constant(let value): .constant(value)
        case .constantList(let values): .constantList(values)
        case .list(let elements): .list(elements.map(Self.expression))
        case .path(let path): .path(Self.path(path))
        case .count(let path): .count(Self.path(path))
        case .type(let path): .type(Self.path(path))
        case .aggregate(let function, let path): .aggregate(function, Self.path(path))
        case .subqueryCount(let path, let predicate):
            .subqueryCount(path: Self.path(path), predicate: Self.predicate(predicate))
        case .arithmetic(let op, let lhs, let rhs): .arithmetic(op, Self.expression(lhs), Self.expression(rhs))
        case .object(let className, let primaryKey): .object(className: className, primaryKey: primaryKey)
        case .backlinkCount(let path): .backlinkCount(Self.path(path))
        }
    }

    static func path(_ path: BoundPath) -> RowPath {
        let root: RowPath.Root =
            switch path.root {
            case .object: .object
            case .element(let depth): .element(depth: depth)
            }
        return RowPath(
            root: root,
            steps: path.steps.map(step),
            isMultiValued: path.isMultiValued,
            rootClassName: path.rootClassName,
            valueType: path.valueType
        )
    }

    static func step(_ step: PathStep) -> RowStep {
        switch step {
        case .property(let className, let index, let name): .property(className: className, index: index, name: name)
        case .backlinks(let className, let property): .backlinks(className: className, property: property)
        case .index(let n): .index(n)
        case .first: .first
        case .last: .last
        case .all: .all
        case .key(let key): .key(key)
        case .keys: .keys
        case .values: .values
        }
    }

    static func sortKey(_ key: BoundSortKey) -> RowSortKey {
        RowSortKey(path: path(key.path), ascending: key.ascending, caseInsensitive: key.caseInsensitive)
    }
}
