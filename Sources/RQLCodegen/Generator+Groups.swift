import RQLBytecode
import RQLCore
import RQLIR

/// Comparisons no narrower instruction covers, where both sides can be many values: two
/// multi-valued paths (`items.price != items.price`, `ALL items.price IN ANY items.price`),
/// arithmetic over a to-many path or a constant list (`items.price * 2 > items.price`, `ALL {8,
/// 10} / 2 >= ANY items.price`), `obj(…)` against a dictionary's `@values`, `[*]` over mixed
/// values (`value[*][*] = dict[*][*]`), a collection after a subscripted link list
/// (`link[0].list = {4, 5, 6}`). Each side becomes a `LoadGroups` (its values per row, in the
/// groups the reference evaluator quantifies separately), and one `CompareGroups` applies the
/// reference's rule: element by element when both sides are unquantified and multi-valued,
/// membership for `==` against a list under ANY, otherwise the quantifiers nested.
extension Generator {
    /// Two `LoadGroups` operands and how they compare.
    struct GroupCompared {
        var lhs: GroupOperand
        var rhs: GroupOperand
        var comparison: GroupComparison
        /// Whether every path is followed separately, in order (element-wise comparisons).
        var sequences: Bool
    }

    /// The register form of a comparison through `LoadGroups` and `CompareGroups`, or nil when
    /// a side is something else (`@type`, `@count`, an aggregate, a SUBQUERY count, a path
    /// from a SUBQUERY element).
    func groupCompared(for comparison: BoundComparison) -> GroupCompared? {
        guard let lhs = groupOperand(comparison.lhs), let rhs = groupOperand(comparison.rhs) else { return nil }
        let elementwise =
            comparison.lhs.isMultiValued && comparison.rhs.isMultiValued && comparison.lhs.quantifier == nil
            && comparison.rhs.quantifier == nil
        if elementwise {
            // Every path is followed in order: linear only with at most one to-many hop a path
            // (`owners.dogs.owners.dogs.name == {…}` would be exponential).
            guard fansOutAtMostOnce(comparison.lhs.expression), fansOutAtMostOnce(comparison.rhs.expression) else {
                return nil
            }
            return GroupCompared(
                lhs: lhs,
                rhs: rhs,
                comparison: GroupComparison(comparison.op, options: comparison.options, form: .elementwise),
                sequences: true
            )
        }
        let form: GroupComparison.Form =
            membership(comparison)
            ?? .quantified(lhs: comparison.lhs.quantifier ?? .any, rhs: comparison.rhs.quantifier ?? .any)
        return GroupCompared(
            lhs: lhs,
            rhs: rhs,
            comparison: GroupComparison(comparison.op, options: comparison.options, form: form),
            sequences: false
        )
    }

    mutating func emit(_ compared: GroupCompared, into register: Int32, comment: String) {
        let lhs = builder.makeValueRegister()
        builder.emit(
            .loadGroups,
            p1: register,
            p3: lhs,
            p4: builder.constant(.groupOperand(compared.lhs, sequences: compared.sequences))
        )
        let rhs = builder.makeValueRegister()
        builder.emit(
            .loadGroups,
            p1: register,
            p3: rhs,
            p4: builder.constant(.groupOperand(compared.rhs, sequences: compared.sequences))
        )
        builder.emit(
            .compareGroups,
            p1: register,
            p2: lhs,
            p4: builder.constant(.groupComparison(compared.comparison)),
            p5: UInt16(clamping: rhs),
            comment: comment
        )
    }

    /// `x IN {…}`, `x == ANY {…}`, `ANY {…} == path`: `==` without options against a constant
    /// list or list literal under ANY, the other side not `@type` (the reference evaluator's
    /// `membership`, which tests `EqualityKey`s: NaN is never a member).
    private func membership(_ comparison: BoundComparison) -> GroupComparison.Form? {
        guard comparison.op == .equal, comparison.options.isEmpty else { return nil }
        func isList(_ operand: BoundOperand) -> Bool {
            switch operand.expression {
            case .constantList, .list: true
            default: false
            }
        }
        let (list, other): (BoundOperand, BoundOperand)
        let listOnRight: Bool
        if isList(comparison.rhs) {
            (list, other, listOnRight) = (comparison.rhs, comparison.lhs, true)
        } else if isList(comparison.lhs), comparison.rhs.quantifier ?? .any == .any {
            (list, other, listOnRight) = (comparison.lhs, comparison.rhs, false)
        } else {
            return nil
        }
        guard list.quantifier ?? .any == .any else { return nil }
        return .membership(other.quantifier ?? .any, listOnRight: listOnRight)
    }

    /// The `LoadGroups` form of one side, or nil.
    private func groupOperand(_ operand: BoundOperand) -> GroupOperand? {
        guard let expression = groupOperand(operand.expression) else { return nil }
        if case .path(let path, _) = expression { return .path(path, grouped: operand.isMultiValued) }
        return expression
    }

    private func groupOperand(_ expression: BoundExpression) -> GroupOperand? {
        switch expression {
        case .constant(let value):
            return .constant(value)
        case .constantList(let values):
            return .values(values)
        case .list(let elements):
            var operands: [GroupOperand] = []
            for element in elements {
                guard let operand = groupOperand(element) else { return nil }
                operands.append(operand)
            }
            return .list(operands)
        case .path(let path):
            guard path.root == .object else { return nil }
            return .path(Lowering.path(path), grouped: false)
        case .arithmetic(let op, let lhs, let rhs):
            guard let l = groupOperand(lhs), let r = groupOperand(rhs) else { return nil }
            return .arithmetic(op, l, r)
        case .object(let className, let primaryKey):
            return .object(className: className, primaryKey: primaryKey)
        case .count, .type, .aggregate, .subqueryCount, .backlinkCount:
            return nil
        }
    }

    /// Whether the paths in `expression` each cross at most one to-many link or backlinks.
    private func fansOutAtMostOnce(_ expression: BoundExpression) -> Bool {
        switch expression {
        case .constant, .constantList, .object:
            return true
        case .list(let elements):
            return elements.allSatisfy(fansOutAtMostOnce)
        case .arithmetic(_, let lhs, let rhs):
            return fansOutAtMostOnce(lhs) && fansOutAtMostOnce(rhs)
        case .path(let path):
            var toMany = 0
            for (i, step) in path.steps.enumerated() {
                switch step {
                case .backlinks:
                    toMany += 1
                case .property(let className, let index, _):
                    guard let properties = schema[className]?.properties, index >= 0, index < properties.count else {
                        return false
                    }
                    let property = properties[index]
                    // A subscript right after a link list picks one link (`link[0].list`).
                    var subscripted = false
                    if i + 1 < path.steps.count {
                        switch path.steps[i + 1] {
                        case .index, .first, .last, .key: subscripted = true
                        case .property, .backlinks, .all, .keys, .values: break
                        }
                    }
                    if property.isBacklink || (property.isLink && property.isToMany && !subscripted) { toMany += 1 }
                case .index, .first, .last, .all, .key, .keys, .values:
                    continue
                }
            }
            return toMany <= 1
        case .count, .type, .aggregate, .subqueryCount, .backlinkCount:
            return false
        }
    }
}
