import RQLBytecode
import RQLCore
import RQLIR

/// The parameters of a correlated SUBQUERY's program: each part of its predicate that reads only
/// outside it (the object being tested, an outer SUBQUERY's element, a parameter of the program
/// being generated) is replaced by a placeholder path, and the outer program loads the part per
/// row for `LoadParameter`. The outside part is constant while the subquery's program runs over
/// one row's elements, so the reference evaluator's answer depends only on what the part yields:
///
/// - a single value that always loads (`$d.age`, `age`, `owner.name`, `dogs.@count`, a SUBQUERY
///   count of the outside): the value itself (`LoadedParameter.value`);
/// - any other operand read only from outside (`$d.scores`, `pals.age`, `$d.toys[0].price`,
///   `$d.scores * 2`, `ALL $d.scores`): its groups as the reference evaluator quantifies them,
///   computed by `LoadGroups` (element by element when the comparison is element-wise), which
///   the subquery's `CompareGroups` reads as one side (`Generator+ParameterGroups.swift`);
/// - MATCHES of such an operand (`ANY pals.name MATCHES 'R.*'`): whether each of its values
///   matches, in its groups (`GroupOperand.matching`), which the subquery's `CompareGroups`
///   quantifies against `true`.
///
/// `SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price IN $d.scores).@count > 0)`: Person's
/// program has no parameter (`$d` is its SUBQUERY's element); Dog's program loads the groups of
/// `scores` per dog and passes them to Toy's, whose `price IN <groups>` is a `CompareGroups`.
extension Generator {
    /// One part of a subquery's predicate read from outside, as the outer program loads it.
    enum Parameter: Equatable {
        /// A single value (`parameter(_:)`); a placeholder of the outer program is passed on this
        /// way, whichever kind it is.
        case value(BoundExpression)
        /// The groups of an operand (`LoadGroups`), element by element with `sequences`.
        case groups(BoundOperand, sequences: Bool)
        /// Whether each value of an operand matches a pattern, in the operand's groups
        /// (`GroupOperand.matching`): MATCHES of an outside operand that is not one value.
        case matching(BoundOperand, RegexPattern)
        /// Whether each string an outside path reaches has the terms (`GroupOperand.searchingText`).
        case searchingText(BoundPath, TextSearch)
        /// Whether each thing an outside path reaches is a point within the region
        /// (`GroupOperand.withinRegion`: a null or dangling link met on the way is `false`).
        case withinRegion(BoundPath, GeoRegion)
    }

    /// How the outer program loads `parameter`, or nil when it has no register form for it.
    func load(_ parameter: Parameter) -> LoadedParameter? {
        switch parameter {
        case .value(let expression):
            return self.parameter(expression).map { .value($0) }
        case .groups(let operand, let sequences):
            // The operand's `LoadGroups` form, as a comparison of it in that form would load it.
            let other =
                sequences
                ? BoundOperand(.constantList([]), isMultiValued: true)
                : BoundOperand(.constant(.null), isMultiValued: false)
            guard let compared = groupCompared(for: BoundComparison(operand, .equal, other)),
                compared.sequences == sequences
            else { return nil }
            return .groups(GroupsLoad(operand: compared.lhs, loads: compared.loads, sequences: sequences))
        case .matching(let operand, let pattern):
            var loads: [ValueExpression] = []
            guard let (values, isType) = groupOperand(operand, &loads), !isType else { return nil }
            return .groups(GroupsLoad(operand: .matching(values, pattern), loads: loads, sequences: false))
        case .searchingText(let path, let query):
            guard path.root == .object else { return nil }
            let operand = GroupOperand.searchingText(path, TextSearch(normalizing: query))
            return .groups(GroupsLoad(operand: operand, loads: [], sequences: false))
        case .withinRegion(let path, let region):
            guard path.root == .object else { return nil }
            let operand = GroupOperand.withinRegion(path, region)
            return .groups(GroupsLoad(operand: operand, loads: [], sequences: false))
        }
    }

    // MARK: Placeholders

    /// A parameter's placeholder in a subquery's predicate: a path without steps from the root
    /// `.element(depth: -1 - n)`, which no SUBQUERY nesting has (depths are 0 or more), so no
    /// other lowering takes it for a path it knows. A placeholder standing for groups is marked
    /// multi-valued; one for a single value is not.
    static func placeholder(_ n: Int, groups: Bool, className: String, valueType: PropertyType) -> BoundPath {
        BoundPath(
            root: .element(depth: -1 - n),
            steps: [],
            isMultiValued: groups,
            rootClassName: className,
            valueType: valueType
        )
    }

    /// The parameter number of a placeholder, or nil for any other path.
    static func parameterIndex(_ path: BoundPath) -> Int? {
        guard case .element(let depth) = path.root, depth < 0, path.steps.isEmpty else { return nil }
        return -1 - depth
    }

    /// The parameter number of a placeholder standing for groups, or nil for any other path.
    static func groupsParameterIndex(_ path: BoundPath) -> Int? {
        path.isMultiValued ? parameterIndex(path) : nil
    }

    /// The placeholder of `parameter`, numbered by its place in `outer` (added when new).
    private static func placeholder(
        for parameter: Parameter,
        groups: Bool,
        like path: BoundPath?,
        _ outer: inout [Parameter]
    ) -> BoundPath {
        let n = outer.firstIndex(of: parameter) ?? outer.count
        if n == outer.count { outer.append(parameter) }
        return placeholder(
            n,
            groups: groups,
            className: path?.rootClassName ?? "",
            valueType: path?.valueType ?? .mixed
        )
    }

    // MARK: Parameterizing a predicate

    /// `predicate` of the SUBQUERY `level` levels inside the one being lowered, with that
    /// SUBQUERY's element as the object and every part read only from outside it replaced by a
    /// placeholder whose parameter is appended to `outer`; nil when an outside part cannot be a
    /// parameter. TEXT and GEOWITHIN of an outside path are passed in as the tests of each thing
    /// reached (`Parameter.searchingText`, `.withinRegion`). Inside arithmetic with inside values, an
    /// outside path that is not one value that always loads (`$t.price + $d.scores > 3`,
    /// `$t.price + $d.scores[0] > 3`) is passed in as its groups, whose values the arithmetic
    /// reads (`GroupOperand.parameterGroups`). MATCHES of an outside operand that is not one
    /// value is passed in as its values' tests, in its groups (`Parameter.matching`). A nested
    /// SUBQUERY over an outside collection whose predicate reads an inside element
    /// (`SUBQUERY($d.toys, $t, SUBQUERY($d.toys, $x, $x.price > $t.price).@count > 1)`) walks
    /// its elements from the link of the collection's owner, passed in as a parameter
    /// (`startParameterized`).
    func parameterized(_ predicate: BoundPredicate, level: Int, outer: inout [Parameter]) -> BoundPredicate? {
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
            // Groups are computed element by element for an element-wise comparison.
            let sequences =
                comparison.lhs.isMultiValued && comparison.rhs.isMultiValued && comparison.lhs.quantifier == nil
                && comparison.rhs.quantifier == nil
            guard
                let lhs = parameterized(comparison.lhs, level: level, groups: true, sequences: sequences, &outer),
                let rhs = parameterized(comparison.rhs, level: level, groups: true, sequences: sequences, &outer)
            else { return nil }
            comparison.lhs = lhs
            comparison.rhs = rhs
            return .comparison(comparison)
        case .fullText(let path, let query):
            if let inner = Self.inner(path, level: level) { return .fullText(path: inner, query: query) }
            // An outside path (`$f.text TEXT 'x'` in `SUBQUERY($f.friends, $g, …)`): the outer
            // program searches each string reached and passes the tests; TEXT holds when some
            // string has the terms, as in `Generator+WalkedSearch.swift`.
            guard Self.readsOnlyOutside(.path(path), level: level) else { return nil }
            let tests = Self.placeholder(for: .searchingText(path, query), groups: true, like: nil, &outer)
            return Self.testsHold(tests, .any)
        case .geoWithin(let path, let quantifier, let region):
            if let inner = Self.inner(path, level: level) {
                return .geoWithin(path: inner, quantifier: quantifier, region: region)
            }
            // An outside path: each thing reached tested by the outer program; ALL is every test
            // true and some test (false when nothing is reached), as in `Generator+WalkedSearch.swift`.
            guard Self.readsOnlyOutside(.path(path), level: level) else { return nil }
            let tests = Self.placeholder(for: .withinRegion(path, region), groups: true, like: nil, &outer)
            return quantifier == .all
                ? .and([Self.testsHold(tests, .all), Self.testsHold(tests, .any)]) : Self.testsHold(tests, quantifier)
        case .matches(var operand, let pattern):
            // A single value passed in is tested here (`FilterMatches`).
            if let rebased = parameterized(operand, level: level, groups: false, sequences: false, &outer) {
                operand = rebased
                return .matches(operand, pattern)
            }
            // An operand read only from outside that is not one value (`ANY pals.name MATCHES
            // 'R.*'`, `$d.toys[0].name MATCHES 'b.*'`): the outer program tests each of its
            // values, in its groups, and passes the tests; here the operand's quantifier holds
            // of them being true in some group, as the reference evaluator quantifies MATCHES.
            guard Self.readsOnlyOutside(operand.expression, level: level) else { return nil }
            let tests = Self.placeholder(for: .matching(operand, pattern), groups: true, like: nil, &outer)
            return Self.testsHold(tests, operand.quantifier ?? .any)
        }
    }

    /// `quantifier` of the tests passed in as groups (`placeholder`) holds of their being true.
    private static func testsHold(_ placeholder: BoundPath, _ quantifier: Quantifier) -> BoundPredicate {
        .comparison(
            BoundComparison(
                BoundOperand(.path(placeholder), quantifier: quantifier, isMultiValued: true),
                .equal,
                BoundOperand(.constant(.bool(true)), isMultiValued: false)
            )
        )
    }

    /// One operand: a part read only from outside becomes a placeholder: a single value when it
    /// always loads, otherwise (with `groups`) the whole operand's groups.
    private func parameterized(
        _ operand: BoundOperand,
        level: Int,
        groups: Bool,
        sequences: Bool,
        _ outer: inout [Parameter]
    ) -> BoundOperand? {
        var result = operand
        if !operand.isMultiValued, operand.quantifier == nil {
            // A path from outside, or a count, aggregate or SUBQUERY of the outside only
            // (`dogs.@count`): one value, when it loads for every row.
            var single: BoundPath?
            if case .path(let path) = operand.expression, Self.reads(path, level: level) == .outside,
                !path.isMultiValued
            {
                single = path
            } else {
                single = Self.outsidePath(operand.expression, level: level)
            }
            if let path = single, Self.parameterIndex(path) != nil || parameter(operand.expression) != nil {
                let placeholder = Self.placeholder(
                    for: .value(operand.expression),
                    groups: Self.groupsParameterIndex(path) != nil,
                    like: path,
                    &outer
                )
                result.expression = .path(placeholder)
                return result
            }
        }
        switch operand.expression {
        case .path(let path) where Self.parameterIndex(path) != nil:
            // A placeholder of the program being generated, standing for groups: passed on.
            let groups = Self.groupsParameterIndex(path) != nil
            result.expression = .path(Self.placeholder(for: .value(.path(path)), groups: groups, like: path, &outer))
            return result
        case .type(let path) where Self.parameterIndex(path) != nil:
            let groups = Self.groupsParameterIndex(path) != nil
            result.expression = .type(Self.placeholder(for: .value(.path(path)), groups: groups, like: path, &outer))
            return result
        default:
            break
        }
        if groups, Self.readsOnlyOutside(operand.expression, level: level) {
            // `$d.scores`, `ALL pals.age`, `$d.toys[0].price`, `$d.scores * 2`: the groups of the
            // whole operand, `@type` kept around the placeholder (the comparison needs to know).
            var path: BoundPath?
            switch operand.expression {
            case .path(let p), .type(let p): path = p
            default: path = nil
            }
            let placeholder = Self.placeholder(
                for: .groups(operand, sequences: sequences),
                groups: true,
                like: path,
                &outer
            )
            if case .type = operand.expression {
                result.expression = .type(placeholder)
            } else {
                result.expression = .path(placeholder)
            }
            return result
        }
        guard
            let expression = parameterized(
                operand.expression,
                level: level,
                single: !operand.isMultiValued,
                sequences: sequences,
                &outer
            )
        else { return nil }
        result.expression = expression
        return result
    }

    /// Inside an operand that also reads inside values: single values from outside only.
    private func parameterized(
        _ expression: BoundExpression,
        level: Int,
        single: Bool,
        inArithmetic: Bool = false,
        sequences: Bool = false,
        _ outer: inout [Parameter]
    ) -> BoundExpression? {
        // A count, aggregate or SUBQUERY of the outside only, inside arithmetic: one value.
        if single, let path = Self.outsidePath(expression, level: level), parameter(expression) != nil {
            return .path(Self.placeholder(for: .value(expression), groups: false, like: path, &outer))
        }
        switch expression {
        case .constant, .constantList, .object:
            return expression
        case .list(let elements):
            var mapped: [BoundExpression] = []
            for element in elements {
                guard let rebased = parameterized(element, level: level, single: false, &outer) else { return nil }
                mapped.append(rebased)
            }
            return .list(mapped)
        case .path(let path):
            if Self.reads(path, level: level) == .outside {
                // Inside arithmetic: a single value that always loads, or a single-value placeholder.
                if Self.parameterIndex(path) != nil {
                    guard Self.groupsParameterIndex(path) == nil else { return nil }
                } else if !single || path.isMultiValued || parameter(expression) == nil {
                    guard inArithmetic else { return nil }
                    // Not one value that always loads (`$d.scores`, `$d.scores[0]`, `pals.age`):
                    // its groups, whose values the arithmetic here reads (`.parameterGroups`), every
                    // path followed in order when the comparison is element-wise.
                    let operand = BoundOperand(expression, isMultiValued: path.isMultiValued)
                    let parameter = Parameter.groups(operand, sequences: sequences && path.isMultiValued)
                    return .path(Self.placeholder(for: parameter, groups: true, like: path, &outer))
                }
                return .path(Self.placeholder(for: .value(expression), groups: false, like: path, &outer))
            }
            return Self.inner(path, level: level).map { .path($0) }
        case .count(let path): return Self.inner(path, level: level).map { .count($0) }
        case .type(let path): return Self.inner(path, level: level).map { .type($0) }
        case .backlinkCount(let path): return Self.inner(path, level: level).map { .backlinkCount($0) }
        case .aggregate(let function, let path):
            return Self.inner(path, level: level).map { .aggregate(function, $0) }
        case .subqueryCount(let path, let predicate):
            // Over an outside collection (`SUBQUERY(dogs, $e, $e.age > $d.age)` in `SUBQUERY(dogs,
            // $d, …)`): walked from the link of the path's root, passed in as a parameter.
            guard let path = Self.inner(path, level: level) ?? startParameterized(path, &outer),
                let predicate = parameterized(predicate, level: level + 1, outer: &outer)
            else { return nil }
            return .subqueryCount(path: path, predicate: predicate)
        case .arithmetic(let op, let lhs, let rhs):
            guard
                let l = parameterized(
                    lhs,
                    level: level,
                    single: single,
                    inArithmetic: true,
                    sequences: sequences,
                    &outer
                ),
                let r = parameterized(
                    rhs,
                    level: level,
                    single: single,
                    inArithmetic: true,
                    sequences: sequences,
                    &outer
                )
            else { return nil }
            return .arithmetic(op, l, r)
        }
    }

    /// A path from outside whose objects a SUBQUERY inside walks, rebased on the link to its root
    /// object passed in as a parameter: `dogs` of the person in `SUBQUERY(dogs, $d,
    /// SUBQUERY(dogs, $e, $e.age > $d.age).@count == 0)` becomes the placeholder of the person's
    /// link (`LoadObjectLink` in the person's program) followed by `dogs`; a placeholder root is
    /// passed on as itself. Nil for any other root (an element further out has no link here).
    private func startParameterized(_ path: BoundPath, _ outer: inout [Parameter]) -> BoundPath? {
        guard !path.steps.isEmpty else { return nil }
        let root = BoundPath(
            root: path.root,
            steps: [],
            isMultiValued: false,
            rootClassName: path.rootClassName,
            valueType: .object(path.rootClassName)
        )
        switch path.root {
        case .object: break
        case .element where Self.parameterIndex(root) != nil: break
        case .element: return nil
        }
        guard parameter(.path(root)) != nil else { return nil }
        var rebased = Self.placeholder(for: .value(.path(root)), groups: false, like: root, &outer)
        rebased.steps = path.steps
        rebased.isMultiValued = path.isMultiValued
        rebased.valueType = path.valueType
        return rebased
    }

    /// The parameter number of a placeholder followed by steps (the start of a walk from a link
    /// passed in: `startParameterized`), or nil for any other path.
    static func startParameterIndex(_ path: BoundPath) -> Int? {
        guard case .element(let depth) = path.root, depth < 0, !path.steps.isEmpty else { return nil }
        return -1 - depth
    }

    /// What an expression or predicate reads, seen from a SUBQUERY some levels in.
    private struct Reads {
        /// The element of that SUBQUERY or of one inside it (up to the level asked about).
        var inside = false
        /// The object being tested, or an element further out.
        var outside = false
        /// A placeholder of the program being generated.
        var placeholder = false
    }

    /// Whether `expression` reads something from outside and nothing from inside the SUBQUERY
    /// `level` levels in (a constant reads neither), and no placeholder (which is passed on as
    /// itself, not loaded again).
    private static func readsOnlyOutside(_ expression: BoundExpression, level: Int) -> Bool {
        var found = Reads()
        scan(expression, from: 0, through: level, &found)
        return found.outside && !found.inside && !found.placeholder
    }

    /// The path of a count, aggregate, backlink count or SUBQUERY count that reads only from
    /// outside (`dogs.@count`, `SUBQUERY(dogs, $x, $x.age > 2).@count` of the object), or nil.
    private static func outsidePath(_ expression: BoundExpression, level: Int) -> BoundPath? {
        switch expression {
        case .count(let path), .aggregate(_, let path), .backlinkCount(let path):
            return reads(path, level: level) == .outside ? path : nil
        case .subqueryCount(let path, let predicate):
            // Its own element is level 0 of its predicate; the one being lowered, level + 1.
            var found = Reads()
            scan(predicate, from: 1, through: level + 1, &found)
            guard reads(path, level: level) == .outside, !found.inside else { return nil }
            return path
        case .constant, .constantList, .object, .list, .path, .type, .arithmetic:
            return nil
        }
    }

    /// Notes in `found` what `predicate` reads, for the SUBQUERY whose element is `from` to
    /// `through` levels out (its own element is level 0); inside a nested SUBQUERY both bounds
    /// move one level out.
    private static func scan(_ predicate: BoundPredicate, from: Int, through: Int, _ found: inout Reads) {
        switch predicate {
        case .constant: break
        case .and(let operands), .or(let operands):
            for operand in operands { scan(operand, from: from, through: through, &found) }
        case .not(let operand): scan(operand, from: from, through: through, &found)
        case .comparison(let comparison):
            scan(comparison.lhs.expression, from: from, through: through, &found)
            scan(comparison.rhs.expression, from: from, through: through, &found)
        case .fullText(let path, _), .geoWithin(let path, _, _): scan(path, from: from, through: through, &found)
        case .matches(let operand, _): scan(operand.expression, from: from, through: through, &found)
        }
    }

    private static func scan(_ expression: BoundExpression, from: Int, through: Int, _ found: inout Reads) {
        switch expression {
        case .constant, .constantList, .object: break
        case .list(let elements):
            for element in elements { scan(element, from: from, through: through, &found) }
        case .path(let path), .count(let path), .type(let path), .backlinkCount(let path), .aggregate(_, let path):
            scan(path, from: from, through: through, &found)
        case .subqueryCount(let path, let predicate):
            scan(path, from: from, through: through, &found)
            scan(predicate, from: from + 1, through: through + 1, &found)
        case .arithmetic(_, let lhs, let rhs):
            scan(lhs, from: from, through: through, &found)
            scan(rhs, from: from, through: through, &found)
        }
    }

    private static func scan(_ path: BoundPath, from: Int, through: Int, _ found: inout Reads) {
        switch path.root {
        case .object: found.outside = true
        case .element(let depth) where depth < 0: found.placeholder = true
        case .element(let depth) where depth > through: found.outside = true
        case .element(let depth) where depth >= from: found.inside = true
        case .element: break  // the element of a SUBQUERY nested in the expression
        }
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
    /// path from outside (which only a parameter can read).
    private static func inner(_ path: BoundPath, level: Int) -> BoundPath? {
        guard reads(path, level: level) == .inside, case .element(let depth) = path.root else { return nil }
        var result = path
        if depth == level { result.root = .object }
        return result
    }
}
