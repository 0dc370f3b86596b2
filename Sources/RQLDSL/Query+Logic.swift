import RQLCore
import RQLIR

extension Query where T == Bool {
    /// `NOT predicate`; on a bare Bool key path, `keyPath == false`.
    public static prefix func ! (_ query: Query) -> Query<Bool> {
        if case .keyPath = query.node {
            return query.compare(.equal, .constant(.bool(false)))
        }
        return Query(.predicate(.not(query.node.predicate)), paths: query.allPaths)
    }

    /// `lhs AND rhs`.
    ///
    /// ```swift
    /// dogs.where { $0.age > 2 && $0.name.starts(with: "R") }
    /// ```
    public static func && (_ lhs: Query, _ rhs: Query) -> Query<Bool> {
        Query(
            .predicate(.and(lhs.node.predicate.andOperands + rhs.node.predicate.andOperands)),
            paths: lhs.allPaths.merging(rhs.allPaths)
        )
    }

    /// `lhs OR rhs`.
    ///
    /// ```swift
    /// dogs.where { $0.age < 2 || $0.age > 10 }
    /// ```
    public static func || (_ lhs: Query, _ rhs: Query) -> Query<Bool> {
        Query(
            .predicate(.or(lhs.node.predicate.orOperands + rhs.node.predicate.orOperands)),
            paths: lhs.allPaths.merging(rhs.allPaths)
        )
    }

    /// The number of elements of one collection for which the predicate holds, all in the same
    /// element: `SUBQUERY(collection, $x, predicate).@count`.
    ///
    /// The collection is the first one a key path of the predicate crosses; every key path
    /// through it is evaluated on the element, other key paths stay on the queried object.
    /// (Two independent `&&`-joined tests on a list may match different elements; this is how
    /// to ask for one element that passes both.)
    ///
    /// ```swift
    /// // People with more than two dogs that are each older than 5 and named 'R…'
    /// people.where { ($0.dogs.age > 5 && $0.dogs.name.starts(with: "R")).count > 2 }
    /// ```
    public var count: Query<Int> {
        let paths = allPaths
        return Query<Int>(.operand(SubqueryRewriter(paths: paths).subqueryCount(node.predicate)), paths: paths)
    }
}

extension UnboundPredicate {
    /// Flattens nested ANDs so that `a && b && c` is one AND of three.
    fileprivate var andOperands: [UnboundPredicate] {
        if case .and(let operands) = self { return operands }
        return [self]
    }

    fileprivate var orOperands: [UnboundPredicate] {
        if case .or(let operands) = self { return operands }
        return [self]
    }
}

/// Turns a predicate into a SUBQUERY count over the first collection one of its key paths
/// crosses: the key paths through that collection are re-rooted at its element (`dogs.age`
/// becomes `$col1.age`) and keep an `ANY` only if they cross another collection after it.
struct SubqueryRewriter {
    let paths: QueryPaths

    func subqueryCount(_ predicate: UnboundPredicate) -> UnboundExpression {
        if let invalid = firstInvalid(in: predicate) { return .invalid(invalid) }
        guard let collection = firstCollection(in: predicate) else {
            return .invalid(
                "a subquery count needs a predicate on a collection property, such as ($0.dogs.age > 5).count"
            )
        }
        return .subqueryCount(collection: collection, predicate: rewrite(predicate, collection: collection, depth: 0))
    }

    /// The components up to the first collection property the first key path crosses (and a
    /// map's `@values` right after it).
    private func firstCollection(in predicate: UnboundPredicate) -> UnboundKeyPath? {
        var found: UnboundKeyPath?
        visitPaths(in: predicate) { path in
            guard found == nil, path.root == .object, let first = paths.collections(of: path).first else { return }
            var end = first
            if end + 1 < path.components.count, path.components[end + 1] == .values { end += 1 }
            found = UnboundKeyPath(Array(path.components[...end]))
        }
        return found
    }

    private func firstInvalid(in predicate: UnboundPredicate) -> String? {
        var found: String?
        visitExpressions(in: predicate) { expression in
            if found == nil, case .invalid(let message) = expression { found = message }
        }
        return found
    }

    private func visitPaths(in predicate: UnboundPredicate, _ body: (UnboundKeyPath) -> Void) {
        visitExpressions(in: predicate) { expression in
            if case .keyPath(let path) = expression { body(path) }
            if case .subqueryCount(let collection, _) = expression { body(collection) }
        }
    }

    private func visitExpressions(in predicate: UnboundPredicate, _ body: (UnboundExpression) -> Void) {
        func visit(_ expression: UnboundExpression) {
            body(expression)
            if case .quantified(_, let inner) = expression { visit(inner) }
        }
        switch predicate {
        case .constant: break
        case .and(let operands), .or(let operands): for operand in operands { visitExpressions(in: operand, body) }
        case .not(let operand): visitExpressions(in: operand, body)
        case .comparison(let comparison):
            visit(comparison.lhs)
            visit(comparison.rhs)
        case .between(let value, _, _): visit(value)
        case .geoWithin(let path, _): body(.keyPath(path))
        }
    }

    // MARK: Rewriting

    private func rewrite(_ predicate: UnboundPredicate, collection: UnboundKeyPath, depth: Int) -> UnboundPredicate {
        switch predicate {
        case .constant:
            return predicate
        case .and(let operands):
            return .and(operands.map { rewrite($0, collection: collection, depth: depth) })
        case .or(let operands):
            return .or(operands.map { rewrite($0, collection: collection, depth: depth) })
        case .not(let operand):
            return .not(rewrite(operand, collection: collection, depth: depth))
        case .comparison(var comparison):
            comparison.lhs = rewrite(comparison.lhs, collection: collection, depth: depth)
            comparison.rhs = rewrite(comparison.rhs, collection: collection, depth: depth)
            return .comparison(comparison)
        case .between(let value, let lower, let upper):
            return .between(rewrite(value, collection: collection, depth: depth), lower: lower, upper: upper)
        case .geoWithin(let path, let region):
            return .geoWithin(rerooted(path, collection: collection, depth: depth) ?? path, region)
        }
    }

    private func rewrite(_ expression: UnboundExpression, collection: UnboundKeyPath, depth: Int) -> UnboundExpression {
        switch expression {
        case .quantified(.any, .keyPath(let path)):
            guard let rerooted = rerooted(path, collection: collection, depth: depth) else { return expression }
            let stillCrosses = paths.collections(of: path).contains { $0 >= collection.components.count }
            return stillCrosses ? .quantified(.any, .keyPath(rerooted)) : .keyPath(rerooted)
        case .keyPath(let path):
            return rerooted(path, collection: collection, depth: depth).map { .keyPath($0) } ?? expression
        case .quantified(let quantifier, let inner):
            return .quantified(quantifier, rewrite(inner, collection: collection, depth: depth))
        case .subqueryCount(let inner, let predicate):
            if inner == collection {
                // A count built over this very collection (`($0.items.parts.price > 1).count`
                // inside a count over `items`) counts, for each element, the next collection its
                // key paths cross.
                let nested = ElementSubquery(paths: paths, outer: collection, depth: depth)
                guard case .subqueryCount(let next, let nestedPredicate) = nested.count(predicate) else {
                    return nested.count(predicate)
                }
                return .subqueryCount(
                    collection: next,
                    predicate: rewrite(nestedPredicate, collection: collection, depth: depth + 1)
                )
            }
            return .subqueryCount(
                collection: rerooted(inner, collection: collection, depth: depth) ?? inner,
                predicate: rewrite(predicate, collection: collection, depth: depth + 1)
            )
        case .constant, .list, .invalid:
            return expression
        }
    }

    /// `path` re-rooted at the element when it starts with `collection`'s components.
    private func rerooted(_ path: UnboundKeyPath, collection: UnboundKeyPath, depth: Int) -> UnboundKeyPath? {
        let prefix = collection.components.count
        guard path.root == .object, path.components.count >= prefix,
            Array(path.components[..<prefix]) == collection.components
        else { return nil }
        return UnboundKeyPath(root: .element(depth: depth), Array(path.components[prefix...]), postfix: path.postfix)
    }
}
