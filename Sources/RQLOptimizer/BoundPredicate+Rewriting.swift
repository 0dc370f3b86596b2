import RQLIR

/// Bottom-up rewriting of predicates, SUBQUERY predicates included, so that every logical pass
/// applies its rules wherever a predicate occurs (the rules hold for any object a predicate is
/// evaluated on, a SUBQUERY element as much as the query's object).
extension BoundPredicate {
    /// The predicate with `transform` applied to every node, children before parents.
    func rewritten(_ transform: (BoundPredicate) -> BoundPredicate) -> BoundPredicate {
        let rebuilt: BoundPredicate
        switch self {
        case .constant, .fullText, .geoWithin, .matches:
            rebuilt = self
        case .and(let operands):
            rebuilt = .and(operands.map { $0.rewritten(transform) })
        case .or(let operands):
            rebuilt = .or(operands.map { $0.rewritten(transform) })
        case .not(let operand):
            rebuilt = .not(operand.rewritten(transform))
        case .comparison(var comparison):
            if comparison.lhs.expression.containsSubquery {
                comparison.lhs.expression = comparison.lhs.expression.rewritingSubqueries(transform)
            }
            if comparison.rhs.expression.containsSubquery {
                comparison.rhs.expression = comparison.rhs.expression.rewritingSubqueries(transform)
            }
            rebuilt = .comparison(comparison)
        }
        return transform(rebuilt)
    }
}

extension BoundExpression {
    /// Whether a SUBQUERY occurs in the expression.
    var containsSubquery: Bool {
        switch self {
        case .subqueryCount: true
        case .arithmetic(_, let lhs, let rhs): lhs.containsSubquery || rhs.containsSubquery
        case .constant, .constantList, .list, .path, .count, .type, .aggregate, .object, .backlinkCount: false
        }
    }

    /// The expression with every SUBQUERY predicate rewritten by `transform`.
    func rewritingSubqueries(_ transform: (BoundPredicate) -> BoundPredicate) -> BoundExpression {
        switch self {
        case .subqueryCount(let path, let predicate):
            .subqueryCount(path: path, predicate: predicate.rewritten(transform))
        case .arithmetic(let op, let lhs, let rhs):
            .arithmetic(op, lhs.rewritingSubqueries(transform), rhs.rewritingSubqueries(transform))
        case .constant, .constantList, .list, .path, .count, .type, .aggregate, .object, .backlinkCount:
            self
        }
    }
}

extension LogicalPlan {
    /// The plan with every filter's predicate rewritten by `transform` (bottom-up).
    func rewritingFilters(_ transform: (BoundPredicate) -> BoundPredicate) -> LogicalPlan {
        var result = self
        result.operators = operators.map { op in
            switch op {
            case .filter(let predicate): .filter(predicate.rewritten(transform))
            case .clause: op
            }
        }
        return result
    }
}

extension OptimizerPlan {
    /// Applies a predicate rewrite to every filter of a logical plan; returns whether it changed
    /// anything. A physical plan is left alone (logical passes run before lowering). `needed`
    /// is a cheap test that the rewrite can apply to a filter at all: most queries need few of
    /// the rewrites, and skipping the rebuild keeps compiling them fast.
    mutating func rewriteFilters(
        where needed: (BoundPredicate) -> Bool,
        _ transform: (BoundPredicate) -> BoundPredicate
    ) -> Bool {
        guard case .logical(let logical) = self,
            logical.operators.contains(where: { if case .filter(let p) = $0 { needed(p) } else { false } })
        else { return false }
        let rewritten = logical.rewritingFilters(transform)
        guard rewritten != logical else { return false }
        self = .logical(rewritten)
        return true
    }
}
