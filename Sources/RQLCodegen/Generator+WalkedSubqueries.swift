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
///   SUBQUERY's element): `SUBQUERY(dogs, $d, $d.age > age AND $d.name == owner.name)`,
///   `SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price IN $d.scores).@count > 0)`. Each part of
///   the predicate that reads only outside values becomes a parameter
///   (`Generator+SubqueryParameters.swift`): the outer program loads it into a value register per
///   row, and the subquery's program reads it with `LoadParameter`. A single value that always
///   loads (`age`, `owner.name`, `dogs.@count`) is passed as itself; any other outside operand (a
///   to-many path, a subscript that may reach nothing, `@type` or arithmetic of them) as its
///   groups, computed by `LoadGroups` as the reference evaluator groups it, which the subquery's
///   `CompareGroups` reads (`Generator+ParameterGroups.swift`). A subquery with a part that
///   has no register form is not lowered.
/// - inside a correlated SUBQUERY's program, over an outside collection: `SUBQUERY(dogs, $e,
///   $e.age > $d.age)` in `SUBQUERY(dogs, $d, …)` ("the dogs of greatest age") walks the person's
///   dogs from the person's link, passed in as a parameter (`LoadObjectLink` outside,
///   `LoadParameter` inside) and named as the walk's start register.
extension Generator {
    /// One lowered SUBQUERY count.
    struct WalkedSubquery {
        var hops: [PathWalk.Hop]
        /// The predicate compiled over the elements' class, with `$d` as its object.
        var program: Program
        /// What the outer program loads per row for `LoadParameter` n (n is the index).
        var parameters: [LoadedParameter]
        /// The parameter of the program being generated holding the link the hops start from,
        /// when they do not start from the row (`startParameterized`).
        var start: Int? = nil
    }

    /// How the outer program loads one parameter of a correlated SUBQUERY's program.
    enum LoadedParameter {
        /// One value per row (`LoadColumn`, `LoadParameter` passing one on, …).
        case value(ValueExpression)
        /// The groups of an operand (`LoadGroups`), with the single values it reads loaded first.
        case groups(GroupsLoad)
    }

    /// The walking form of `SUBQUERY(path, $x, predicate).@count`, or nil.
    func walkedSubquery(_ path: BoundPath, _ predicate: BoundPredicate) -> WalkedSubquery? {
        var walker = self
        var walked = path
        let start = Self.startParameterIndex(path)
        if start != nil {
            // Walked from the link in a parameter: the hops of the path from the link's class.
            guard let origin = schema[path.rootClassName] else { return nil }
            let plan = PhysicalPlan(className: origin.name, access: .fullScan, residual: [], result: [])
            walker = Generator(plan: plan, schema: schema, objectSchema: origin, planRows: false)
            walked.root = .object
        }
        guard let (hops, end, _) = walker.walk(walked), end == .objects, !hops.isEmpty,
            let className = Self.className(reachedBy: hops), schema[className] != nil
        else { return nil }
        var outer: [Parameter] = []
        guard let rebased = parameterized(predicate, level: 0, outer: &outer) else { return nil }
        var parameters: [LoadedParameter] = []
        for parameter in outer {
            guard let loaded = load(parameter) else { return nil }
            parameters.append(loaded)
        }
        guard let program = subprogram(rebased, over: className) else { return nil }
        return WalkedSubquery(hops: hops, program: program, parameters: parameters, start: start)
    }

    mutating func emit(_ subquery: WalkedSubquery, into register: Int32) -> Int32 {
        let parameters = subquery.parameters.map { parameter in
            switch parameter {
            case .value(let value): emitValue(value, into: register)
            case .groups(let groups): emitGroups(groups, into: register)
            }
        }
        let start = subquery.start.map { emitValue(.parameter($0), into: register) }
        let v = builder.makeValueRegister()
        builder.emit(
            .countSubquery,
            p1: register,
            p3: v,
            p4: builder.constant(
                .subquery(subquery.program, hops: subquery.hops, parameters: parameters, start: start)
            )
        )
        return v
    }

    /// How an outer single value is loaded per row: a parameter of this program passed on, the object
    /// itself, or a value loaded for every row (a column through to-one links, a count, an
    /// aggregate, a path walk, a SUBQUERY count); nil for anything that may drop a row (a
    /// subscript out of range, arithmetic without a result), which would drop the outer row.
    func parameter(_ expression: BoundExpression) -> ValueExpression? {
        if case .path(let path) = expression {
            // A placeholder is passed on whichever kind it is (one value, or groups as one value).
            if let n = Self.parameterIndex(path) { return .parameter(n) }
            guard !path.isMultiValued else { return nil }
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
        return !operand.isMultiValued && !readsGroupsInArithmetic(operand.expression)
    }

    /// Whether arithmetic in `expression` reads groups passed in as a parameter (`$t.price +
    /// $d.scores[0]`: a subscript that may reach nothing), which only `LoadGroups` can compute.
    static func readsGroupsInArithmetic(_ expression: BoundExpression) -> Bool {
        switch expression {
        case .path(let path): groupsParameterIndex(path) != nil
        case .arithmetic(_, let lhs, let rhs): readsGroupsInArithmetic(lhs) || readsGroupsInArithmetic(rhs)
        default: false
        }
    }

    /// Whether either side of `comparison` is a SUBQUERY count.
    static func readsSubquery(_ comparison: BoundComparison) -> Bool {
        for operand in [comparison.lhs, comparison.rhs] {
            if case .subqueryCount = operand.expression { return true }
        }
        return false
    }
}
