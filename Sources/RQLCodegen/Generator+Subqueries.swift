import RQLBytecode
import RQLCore
import RQLIR

/// `SUBQUERY(dogs, $d, $d.age > 2 AND $d.name BEGINSWITH 'R').@count > 1` as register
/// instructions: the subquery's predicate is compiled on its own, as a program over the elements'
/// class in which `$d` is the object tested (so its comparisons get the same typed filters,
/// gathers and nested SUBQUERYs as any query), and `CountSubquery` runs it over each batch's
/// elements and stores the per-row counts in a value register that `FilterValue` compares.
///
/// The collection is a list or set of links of the object, or of one reached through to-one
/// links. A predicate that reads anything but its own element (the query's object, an outer
/// SUBQUERY's element: a correlated subquery), a path with to-many hops, and a count compared
/// with anything but a constant are lowered by `Generator+WalkedSubqueries.swift` instead.
extension Generator {
    /// One lowered SUBQUERY count compared with a constant.
    struct SubqueryCount {
        var links: [LinkHop]
        /// The link list or set.
        var column: Int32
        var targetClass: String
        /// When the elements are the objects of `targetClass` linking to the object reached
        /// through that property (`@links.Person.items`, a `linkingObjects` property); the column
        /// is then unused.
        var backlinkProperty: String?
        /// The predicate with `$d` as the object (`BoundPath.Root.object`).
        var predicate: BoundPredicate
        var op: ComparisonOperator
        var constant: Value
        var options: StringOptions
    }

    /// The register form of `SUBQUERY(...).@count op constant` (either side first), or nil.
    func subqueryCount(for comparison: BoundComparison) -> SubqueryCount? {
        func lowered(
            _ count: BoundOperand,
            _ op: ComparisonOperator,
            _ other: BoundOperand
        ) -> SubqueryCount? {
            guard count.quantifier == nil, !count.isMultiValued, other.quantifier == nil, !other.isMultiValued,
                case .subqueryCount(let path, let predicate) = count.expression,
                case .constant(let value) = other.expression,
                let elements = subqueryElements(path), schema[elements.targetClass] != nil,
                let rebased = Self.rebased(predicate, level: 0)
            else { return nil }
            return SubqueryCount(
                links: elements.links,
                column: elements.column,
                targetClass: elements.targetClass,
                backlinkProperty: elements.backlinkProperty,
                predicate: rebased,
                op: op,
                constant: value,
                options: comparison.options
            )
        }
        if let count = lowered(comparison.lhs, comparison.op, comparison.rhs) { return count }
        guard let flipped = comparison.op.flipped else { return nil }
        return lowered(comparison.rhs, flipped, comparison.lhs)
    }

    /// Where a SUBQUERY's elements come from: a list or set of links, or the backlinks of one
    /// property, of the object or of one reached through to-one links.
    private func subqueryElements(
        _ path: BoundPath
    ) -> (links: [LinkHop], column: Int32, targetClass: String, backlinkProperty: String?)? {
        guard path.root == .object, let last = path.steps.last else { return nil }
        var prefix = path
        prefix.steps.removeLast()
        // The to-one links before the last step, and the class they reach.
        var links: [LinkHop] = []
        var owner = objectSchema
        if !prefix.steps.isEmpty {
            guard let (before, column, link) = linkPath(prefix, endingInLink: true), link.isLink,
                link.collection == .single, let name = link.type.targetClassName, let next = schema[name]
            else { return nil }
            links = before + [(column, name, nil)]
            owner = next
        }
        switch last {
        case .backlinks(let className, let property):
            return (links, 0, className, property)
        case .property(let className, let index, _):
            guard className == owner.name, index >= 0, index < owner.properties.count else { return nil }
            let property = owner.properties[index]
            if case .linkingObjects(let origin, let originProperty) = property.type {
                return (links, 0, origin, originProperty)
            }
            guard property.isLink, property.collection == .list || property.collection == .set,
                let target = property.type.targetClassName
            else { return nil }
            return (links, Int32(index), target, nil)
        case .index, .first, .last, .all, .key, .keys, .values:
            return nil
        }
    }

    mutating func emit(_ count: SubqueryCount, into register: Int32, comment: String) {
        let source = emitGathers(count.links, into: register)
        guard let program = subprogram(count.predicate, over: count.targetClass) else {
            return noRegisterForm(count.predicate)
        }
        let v = builder.makeValueRegister()
        builder.emit(
            .countSubquery,
            p1: register,
            p2: count.column,
            p3: v,
            p4: builder.constant(.program(program, backlinkProperty: count.backlinkProperty)),
            p5: source
        )
        builder.emit(
            .filterValue,
            p1: register,
            p2: v,
            p3: count.op.code,
            p4: builder.constant(.value(count.constant)),
            p5: UInt16(count.options.rawValue),
            comment: comment
        )
    }

    /// The program testing `predicate` on the objects of `className` it is run over; nil when a
    /// part of `predicate` has no register form.
    func subprogram(_ predicate: BoundPredicate, over className: String) -> Program? {
        guard let objectSchema = schema[className] else {
            // subqueryCount(for:) checked the class; a missing one is a bug in this file.
            fatalError("SUBQUERY over unknown class \(className)")
        }
        let residual: [ResidualCondition] =
            if case .constant(true) = predicate { [] } else { [ResidualCondition(predicate: predicate)] }
        let plan = PhysicalPlan(className: className, access: .fullScan, residual: residual, result: [])
        var generator = Generator(plan: plan, schema: schema, objectSchema: objectSchema, planRows: false)
        let program = generator.generate()
        return generator.unlowered == nil ? program : nil
    }

    // MARK: Rebasing on the element

    /// `predicate` of the SUBQUERY `level` levels inside the one being lowered, with that
    /// SUBQUERY's element (`.element(depth: level)`) as the object; nil when it reads the query's
    /// object or an element further out.
    static func rebased(_ predicate: BoundPredicate, level: Int) -> BoundPredicate? {
        switch predicate {
        case .constant:
            return predicate
        case .and(let operands):
            let mapped = operands.compactMap { rebased($0, level: level) }
            return mapped.count == operands.count ? .and(mapped) : nil
        case .or(let operands):
            let mapped = operands.compactMap { rebased($0, level: level) }
            return mapped.count == operands.count ? .or(mapped) : nil
        case .not(let operand):
            return rebased(operand, level: level).map { .not($0) }
        case .comparison(var comparison):
            guard let lhs = rebased(comparison.lhs.expression, level: level),
                let rhs = rebased(comparison.rhs.expression, level: level)
            else { return nil }
            comparison.lhs.expression = lhs
            comparison.rhs.expression = rhs
            return .comparison(comparison)
        case .fullText(let path, let query):
            return rebased(path, level: level).map { .fullText(path: $0, query: query) }
        case .geoWithin(let path, let quantifier, let region):
            return rebased(path, level: level).map { .geoWithin(path: $0, quantifier: quantifier, region: region) }
        case .matches(var operand, let pattern):
            guard let expression = rebased(operand.expression, level: level) else { return nil }
            operand.expression = expression
            return .matches(operand, pattern)
        }
    }

    private static func rebased(_ expression: BoundExpression, level: Int) -> BoundExpression? {
        switch expression {
        case .constant, .constantList, .object:
            return expression
        case .list(let elements):
            let mapped = elements.compactMap { rebased($0, level: level) }
            return mapped.count == elements.count ? .list(mapped) : nil
        case .path(let path): return rebased(path, level: level).map { .path($0) }
        case .count(let path): return rebased(path, level: level).map { .count($0) }
        case .type(let path): return rebased(path, level: level).map { .type($0) }
        case .backlinkCount(let path): return rebased(path, level: level).map { .backlinkCount($0) }
        case .aggregate(let function, let path): return rebased(path, level: level).map { .aggregate(function, $0) }
        case .subqueryCount(let path, let predicate):
            guard let path = rebased(path, level: level), let predicate = rebased(predicate, level: level + 1) else {
                return nil
            }
            return .subqueryCount(path: path, predicate: predicate)
        case .arithmetic(let op, let lhs, let rhs):
            guard let l = rebased(lhs, level: level), let r = rebased(rhs, level: level) else { return nil }
            return .arithmetic(op, l, r)
        }
    }

    private static func rebased(_ path: BoundPath, level: Int) -> BoundPath? {
        // A negative depth is a correlated subquery's parameter (`Generator+WalkedSubqueries.swift`).
        guard case .element(let depth) = path.root, depth >= 0, depth <= level else { return nil }
        var result = path
        if depth == level { result.root = .object }
        return result
    }
}
