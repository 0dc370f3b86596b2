import RQLIR

/// A SUBQUERY count that was built over the collection of the count it is nested in, moved
/// down one collection: `SUBQUERY(items, $x, ANY $x.parts.price > 1)` inside a count over
/// `items` becomes `SUBQUERY($outer.parts, $y, $y.price > 1)`, so it counts each item's parts
/// instead of the items again. Key paths are de Bruijn-indexed (0 is the innermost SUBQUERY).
struct ElementSubquery {
    let paths: QueryPaths
    /// The collection both counts were built over (`items`).
    let outer: UnboundKeyPath
    /// How many SUBQUERYs out the outer count's element is from where the nested count sits.
    let depth: Int

    /// The nested count, or an invalid operand naming why there is no next collection.
    func count(_ predicate: UnboundPredicate) -> UnboundExpression {
        guard let next = nextCollection(in: predicate) else {
            return .invalid(
                "a subquery count inside a count over '\(UnboundKeyPath.describe(outer))' needs a key path "
                    + "through another collection of its elements, such as ($0.items.parts.price > 1).count"
            )
        }
        return .subqueryCount(
            collection: UnboundKeyPath(root: .element(depth: depth), next, postfix: nil),
            predicate: moved(predicate, next: next, level: 0)
        )
    }

    /// The components after `outer` up to the first collection an element key path crosses
    /// (and a map's `@values` right after it).
    private func nextCollection(in predicate: UnboundPredicate) -> [UnboundPathComponent]? {
        var found: [UnboundPathComponent]?
        visit(predicate, level: 0) { path, level in
            guard found == nil, path.root == .element(depth: level) else { return }
            let start = outer.components.count
            let full = UnboundKeyPath(outer.components + path.components, postfix: path.postfix)
            guard let first = paths.collections(of: full).first(where: { $0 >= start }) else { return }
            var end = first
            if end + 1 < full.components.count, full.components[end + 1] == .values { end += 1 }
            found = Array(full.components[start...end])
        }
        return found
    }

    private func visit(_ predicate: UnboundPredicate, level: Int, _ body: (UnboundKeyPath, Int) -> Void) {
        func visit(_ expression: UnboundExpression) {
            switch expression {
            case .keyPath(let path): body(path, level)
            case .quantified(_, let inner): visit(inner)
            case .subqueryCount(let collection, let inner):
                body(collection, level)
                self.visit(inner, level: level + 1, body)
            case .constant, .list, .invalid: break
            }
        }
        switch predicate {
        case .constant: break
        case .and(let operands), .or(let operands): for operand in operands { self.visit(operand, level: level, body) }
        case .not(let operand): self.visit(operand, level: level, body)
        case .comparison(let comparison):
            visit(comparison.lhs)
            visit(comparison.rhs)
        case .between(let value, _, _): visit(value)
        case .geoWithin(let path, _): body(path, level)
        }
    }

    private func moved(_ predicate: UnboundPredicate, next: [UnboundPathComponent], level: Int) -> UnboundPredicate {
        switch predicate {
        case .constant: return predicate
        case .and(let operands): return .and(operands.map { moved($0, next: next, level: level) })
        case .or(let operands): return .or(operands.map { moved($0, next: next, level: level) })
        case .not(let operand): return .not(moved(operand, next: next, level: level))
        case .comparison(var comparison):
            comparison.lhs = moved(comparison.lhs, next: next, level: level)
            comparison.rhs = moved(comparison.rhs, next: next, level: level)
            return .comparison(comparison)
        case .between(let value, let lower, let upper):
            return .between(moved(value, next: next, level: level), lower: lower, upper: upper)
        case .geoWithin(let path, let region):
            return .geoWithin(moved(path, next: next, level: level).path, region)
        }
    }

    private func moved(_ expression: UnboundExpression, next: [UnboundPathComponent], level: Int) -> UnboundExpression {
        switch expression {
        case .quantified(.any, .keyPath(let path)):
            let (movedPath, stillCrosses) = moved(path, next: next, level: level)
            return stillCrosses ? .quantified(.any, .keyPath(movedPath)) : .keyPath(movedPath)
        case .keyPath(let path):
            return .keyPath(moved(path, next: next, level: level).path)
        case .quantified(let quantifier, let inner):
            return .quantified(quantifier, moved(inner, next: next, level: level))
        case .subqueryCount(let collection, let inner):
            return .subqueryCount(
                collection: moved(collection, next: next, level: level).path,
                predicate: moved(inner, next: next, level: level + 1)
            )
        case .constant, .list, .invalid:
            return expression
        }
    }

    /// A key path from the old element (an element of `outer`, at `level`): through `next` it
    /// starts at the new element; otherwise it reads the outer count's element, now one
    /// SUBQUERY further out. Whether it still crosses a collection after `next` decides its ANY.
    private func moved(
        _ path: UnboundKeyPath,
        next: [UnboundPathComponent],
        level: Int
    ) -> (path: UnboundKeyPath, stillCrosses: Bool) {
        guard path.root == .element(depth: level) else { return (path, false) }
        let full = UnboundKeyPath(outer.components + path.components, postfix: path.postfix)
        let crossed = paths.collections(of: full)
        if path.components.starts(with: next) {
            let rest = Array(path.components.dropFirst(next.count))
            let stillCrosses = crossed.contains { $0 >= outer.components.count + next.count }
            return (UnboundKeyPath(root: .element(depth: level), rest, postfix: path.postfix), stillCrosses)
        }
        let stillCrosses = crossed.contains { $0 >= outer.components.count }
        return (
            UnboundKeyPath(root: .element(depth: level + 1 + depth), path.components, postfix: path.postfix),
            stillCrosses
        )
    }
}
