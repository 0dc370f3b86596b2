import RQLBytecode
import RQLCore
import RQLIR

/// SUBQUERY counts that `subqueryCount(for:)` leaves, as a value computed by the walking form
/// of `CountSubquery` and compared like any other value (`Generator+Values.swift`):
///
/// - over a path with to-many hops or backlinks: `SUBQUERY(owners.dogs, $d, $d.age > 2)`;
/// - compared with something other than a constant: `SUBQUERY(dogs, $d, $d.age > 2).@count > age`,
///   `SUBQUERY(…).@count + 1 == SUBQUERY(…).@count`;
/// - correlated, its predicate reading the object being tested (or, nested, an outer
///   SUBQUERY's element): `SUBQUERY(dogs, $d, $d.age > age AND $d.name == owner.name)`. Each
///   part of the predicate that reads only outside values (`age`, `owner.name`) becomes a
///   parameter: the outer program loads it into a value register per row, and the subquery's
///   program reads it with `LoadParameter`. A parameter is a single value of a path of to-one
///   links (`LoadColumn` through `GatherLink`s), which loads for every row; anything else
///   outside (a to-many outer path, arithmetic that may drop a row) is not lowered, nor is a
///   subquery with a part that has no register form.
extension Generator {
    /// One lowered SUBQUERY count.
    struct WalkedSubquery {
        var hops: [PathWalk.Hop]
        /// The predicate compiled over the elements' class, with `$d` as its object.
        var program: Program
        /// What the outer program loads per row for `LoadParameter` n (n is the index).
        var parameters: [ValueExpression]
    }

    /// The walking form of `SUBQUERY(path, $x, predicate).@count`, or nil.
    func walkedSubquery(_ path: BoundPath, _ predicate: BoundPredicate) -> WalkedSubquery? {
        guard let (hops, end, _) = walk(path), end == .objects, let className = Self.className(reachedBy: hops),
            schema[className] != nil
        else { return nil }
        var outer: [BoundExpression] = []
        guard let rebased = Self.parameterized(predicate, level: 0, outer: &outer) else { return nil }
        var parameters: [ValueExpression] = []
        for expression in outer {
            guard let parameter = parameter(expression) else { return nil }
            parameters.append(parameter)
        }
        guard let program = subprogram(rebased, over: className) else { return nil }
        return WalkedSubquery(hops: hops, program: program, parameters: parameters)
    }

    mutating func emit(_ subquery: WalkedSubquery, into register: Int32) -> Int32 {
        let parameters = subquery.parameters.map { emitValue($0, into: register) }
        let v = builder.makeValueRegister()
        builder.emit(
            .countSubquery,
            p1: register,
            p3: v,
            p4: builder.constant(.subquery(subquery.program, hops: subquery.hops, parameters: parameters))
        )
        return v
    }

    /// How an outer value is loaded per row: a parameter of this program passed on, the object
    /// itself, or a value loaded for every row (a column through to-one links, a count, an
    /// aggregate, a path walk, a SUBQUERY count); nil for anything that may drop a row (a
    /// subscript out of range, arithmetic without a result), which would drop the outer row.
    private func parameter(_ expression: BoundExpression) -> ValueExpression? {
        if case .path(let path) = expression {
            guard !path.isMultiValued else { return nil }
            if let n = Self.parameterIndex(path) { return .parameter(n) }
            if path.root == .object && path.steps.isEmpty { return .objectLink }
        }
        guard let value = valueExpression(expression) else { return nil }
        switch value {
        case .load(let gathered):
            guard gathered.links.allSatisfy({ $0.selector == nil }) else { return nil }
            switch gathered.load {
            case .column, .count, .aggregate, .backlinks, .walk: return value
            case .matching, .element, .walkAgainst: return nil
            }
        case .subquery, .parameter, .objectLink:
            return value
        case .constant, .arithmetic, .size, .defaulted:
            return nil
        }
    }

    /// The class of the objects the last hop reaches (nil for no hops).
    static func className(reachedBy hops: [PathWalk.Hop]) -> String? {
        switch hops.last {
        case .link(_, let target)?: target
        case .backlinks(let origin, _)?: origin
        case nil: nil
        }
    }

    /// Whether `operand` is one value per row: a SUBQUERY over a path with to-many hops is marked
    /// multi-valued by the binder, but its count is one value (the reference evaluator compares
    /// the one-element list of it).
    static func isSingle(_ operand: BoundOperand) -> Bool {
        if case .subqueryCount = operand.expression { return true }
        return !operand.isMultiValued
    }

    /// Whether either side of `comparison` is a SUBQUERY count.
    static func readsSubquery(_ comparison: BoundComparison) -> Bool {
        for operand in [comparison.lhs, comparison.rhs] {
            if case .subqueryCount = operand.expression { return true }
        }
        return false
    }

    // MARK: Parameters

    /// A parameter's placeholder in a subquery's predicate: a path without steps from the root
    /// `.element(depth: -1 - n)`, which no SUBQUERY nesting has (depths are 0 or more), so no
    /// other lowering takes it for a path it knows.
    static func placeholder(_ n: Int, for path: BoundPath) -> BoundExpression {
        .path(
            BoundPath(
                root: .element(depth: -1 - n),
                steps: [],
                isMultiValued: false,
                rootClassName: path.rootClassName,
                valueType: path.valueType
            )
        )
    }

    /// The parameter number of a placeholder, or nil for any other path.
    static func parameterIndex(_ path: BoundPath) -> Int? {
        guard case .element(let depth) = path.root, depth < 0, path.steps.isEmpty else { return nil }
        return -1 - depth
    }

    /// `predicate` of the SUBQUERY `level` levels inside the one being lowered, with that
    /// SUBQUERY's element as the object and every single value read from outside it (the
    /// object being tested, a parameter of this program) replaced by a placeholder whose
    /// expression is appended to `outer`; nil when an outside read is not a single value.
    static func parameterized(
        _ predicate: BoundPredicate,
        level: Int,
        outer: inout [BoundExpression]
    ) -> BoundPredicate? {
        switch predicate {
        case .constant:
            return predicate
        case .and(let operands), .or(let operands):
            var mapped: [BoundPredicate] = []
            for operand in operands {
                guard let rebased = parameterized(operand, level: level, outer: &outer) else { return nil }
                mapped.append(rebased)
            }
            if case .and = predicate { return .and(mapped) }
            return .or(mapped)
        case .not(let operand):
            return parameterized(operand, level: level, outer: &outer).map { .not($0) }
        case .comparison(var comparison):
            guard let lhs = parameterized(comparison.lhs, level: level, outer: &outer),
                let rhs = parameterized(comparison.rhs, level: level, outer: &outer)
            else { return nil }
            comparison.lhs = lhs
            comparison.rhs = rhs
            return .comparison(comparison)
        case .fullText(let path, let query):
            return inner(path, level: level).map { .fullText(path: $0, query: query) }
        case .geoWithin(let path, let quantifier, let region):
            return inner(path, level: level).map { .geoWithin(path: $0, quantifier: quantifier, region: region) }
        case .matches(var operand, let pattern):
            guard let rebased = parameterized(operand, level: level, outer: &outer) else { return nil }
            operand = rebased
            return .matches(operand, pattern)
        }
    }

    /// One operand: a single value read only from outside becomes a placeholder.
    private static func parameterized(
        _ operand: BoundOperand,
        level: Int,
        outer: inout [BoundExpression]
    )
        -> BoundOperand?
    {
        var result = operand
        if case .path(let path) = operand.expression, reads(path, level: level) == .outside {
            guard !operand.isMultiValued, operand.quantifier == nil, !path.isMultiValued else { return nil }
            let n = outer.firstIndex(of: operand.expression) ?? outer.count
            if n == outer.count { outer.append(operand.expression) }
            result.expression = placeholder(n, for: path)
            return result
        }
        // A count, aggregate or SUBQUERY of the outside only (`dogs.@count`): one value too.
        if !operand.isMultiValued, operand.quantifier == nil, let path = outsidePath(operand.expression, level: level) {
            let n = outer.firstIndex(of: operand.expression) ?? outer.count
            if n == outer.count { outer.append(operand.expression) }
            result.expression = placeholder(n, for: path)
            return result
        }
        guard
            let expression = parameterized(
                operand.expression,
                level: level,
                outer: &outer,
                single: !operand.isMultiValued
            )
        else { return nil }
        result.expression = expression
        return result
    }

    private static func parameterized(
        _ expression: BoundExpression,
        level: Int,
        outer: inout [BoundExpression],
        single: Bool
    ) -> BoundExpression? {
        // A count, aggregate or SUBQUERY of the outside only, inside arithmetic: one value.
        if single, let path = outsidePath(expression, level: level) {
            let n = outer.firstIndex(of: expression) ?? outer.count
            if n == outer.count { outer.append(expression) }
            return placeholder(n, for: path)
        }
        switch expression {
        case .constant, .constantList, .object:
            return expression
        case .list(let elements):
            var mapped: [BoundExpression] = []
            for element in elements {
                guard let rebased = parameterized(element, level: level, outer: &outer, single: false) else {
                    return nil
                }
                mapped.append(rebased)
            }
            return .list(mapped)
        case .path(let path):
            if reads(path, level: level) == .outside {
                // Inside arithmetic: a single value of a path of to-one links only.
                guard single, !path.isMultiValued else { return nil }
                let n = outer.firstIndex(of: expression) ?? outer.count
                if n == outer.count { outer.append(expression) }
                return placeholder(n, for: path)
            }
            return inner(path, level: level).map { .path($0) }
        case .count(let path): return inner(path, level: level).map { .count($0) }
        case .type(let path): return inner(path, level: level).map { .type($0) }
        case .backlinkCount(let path): return inner(path, level: level).map { .backlinkCount($0) }
        case .aggregate(let function, let path): return inner(path, level: level).map { .aggregate(function, $0) }
        case .subqueryCount(let path, let predicate):
            guard let path = inner(path, level: level),
                let predicate = parameterized(predicate, level: level + 1, outer: &outer)
            else { return nil }
            return .subqueryCount(path: path, predicate: predicate)
        case .arithmetic(let op, let lhs, let rhs):
            guard let l = parameterized(lhs, level: level, outer: &outer, single: single),
                let r = parameterized(rhs, level: level, outer: &outer, single: single)
            else { return nil }
            return .arithmetic(op, l, r)
        }
    }

    /// The path of a count, aggregate, backlink count or SUBQUERY count that reads only from
    /// outside (`dogs.@count`, `SUBQUERY(dogs, $x, $x.age > 2).@count` of the object), or nil.
    private static func outsidePath(_ expression: BoundExpression, level: Int) -> BoundPath? {
        switch expression {
        case .count(let path), .aggregate(_, let path), .backlinkCount(let path):
            return reads(path, level: level) == .outside ? path : nil
        case .subqueryCount(let path, let predicate):
            // Its own element is level 0 of its predicate; the one being lowered, level + 1.
            guard reads(path, level: level) == .outside, !reads(predicate, from: 1, through: level + 1) else {
                return nil
            }
            return path
        case .constant, .constantList, .object, .list, .path, .type, .arithmetic:
            return nil
        }
    }

    /// Whether `predicate` reads the element of a SUBQUERY `from` to `through` levels out (its
    /// own element is level 0); inside a nested SUBQUERY both bounds move one level out.
    private static func reads(_ predicate: BoundPredicate, from: Int, through: Int) -> Bool {
        switch predicate {
        case .constant: return false
        case .and(let operands), .or(let operands):
            return operands.contains { reads($0, from: from, through: through) }
        case .not(let operand): return reads(operand, from: from, through: through)
        case .comparison(let comparison):
            return reads(comparison.lhs.expression, from: from, through: through)
                || reads(comparison.rhs.expression, from: from, through: through)
        case .fullText(let path, _), .geoWithin(let path, _, _): return reads(path, from: from, through: through)
        case .matches(let operand, _): return reads(operand.expression, from: from, through: through)
        }
    }

    private static func reads(_ expression: BoundExpression, from: Int, through: Int) -> Bool {
        switch expression {
        case .constant, .constantList, .object: return false
        case .list(let elements): return elements.contains { reads($0, from: from, through: through) }
        case .path(let path), .count(let path), .type(let path), .backlinkCount(let path), .aggregate(_, let path):
            return reads(path, from: from, through: through)
        case .subqueryCount(let path, let predicate):
            return reads(path, from: from, through: through) || reads(predicate, from: from + 1, through: through + 1)
        case .arithmetic(_, let lhs, let rhs):
            return reads(lhs, from: from, through: through) || reads(rhs, from: from, through: through)
        }
    }

    private static func reads(_ path: BoundPath, from: Int, through: Int) -> Bool {
        guard case .element(let depth) = path.root else { return false }
        return depth >= from && depth <= through
    }

    /// Where a path starts, seen from `level` levels inside the SUBQUERY being lowered.
    private enum Origin {
        /// A SUBQUERY element at `level` or inside it.
        case inside
        /// The object being tested, or a parameter of the program being generated.
        case outside
    }

    private static func reads(_ path: BoundPath, level: Int) -> Origin {
        if case .element(let depth) = path.root, depth >= 0, depth <= level { return .inside }
        return .outside
    }

    /// A path from inside, rebased: the element `level` levels in becomes the object; nil for a
    /// path from outside (which only a single-value operand can read, as a parameter).
    private static func inner(_ path: BoundPath, level: Int) -> BoundPath? {
        guard reads(path, level: level) == .inside, case .element(let depth) = path.root else { return nil }
        var result = path
        if depth == level { result.root = .object }
        return result
    }
}
