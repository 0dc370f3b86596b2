import RQLBytecode
import RQLCore
import RQLIR

/// TEXT, GEOWITHIN and MATCHES through paths with several to-many hops or backlinks
/// (`ANY owners.dogs.bio TEXT 'good'`, `ANY owners.places.location GEOWITHIN …`), which
/// `FilterText` and `FilterGeoWithin` do not walk, as the walking `CountSubquery`: the objects
/// the hops reach are tested by a program over their class holding the one-object test
/// (`bio TEXT 'good'`, `location GEOWITHIN …`), and the count of those passing is compared with
/// 0. This is the reference evaluator's rule: TEXT holds when some string reached matches (a
/// null or dangling link reaches no string), `ANY … GEOWITHIN` when some point reached is
/// within, `NONE` when none is. `ALL … GEOWITHIN` also fails on a null or dangling link met
/// anywhere on the way, which a count of objects cannot see: each thing the path reaches is
/// tested by `LoadGroups` instead (`GroupOperand.withinRegion`: a null link is `false`), and
/// `CompareGroups` keeps the rows where every test is `true` and some test is (ALL is false
/// when nothing is reached). Paths the walk does not take (subscripts on the way:
/// `friends[0].friends.text`, `places[0]`; lists of strings: `friends.tags MATCHES …`) are
/// tested the same way, value by value in the groups the reference quantifies
/// (`.searchingText`, `.withinRegion`, `.matching`).
extension Generator {
    /// The walked or grouped form of a TEXT, GEOWITHIN or MATCHES predicate, or nil.
    func walkedSearch(_ predicate: BoundPredicate) -> SearchTest? {
        switch predicate {
        case .fullText(let path, let query):
            guard path.isMultiValued, let (hops, className, last, property) = walkedOwner(path),
                property.collection == .single, property.type == .string
            else {
                // Any other path (`friends[0].friends.text`): each string reached searched.
                guard path.root == .object else { return nil }
                return .grouped(.searchingText(path, TextSearch(normalizing: query)), [.any])
            }
            let inner = BoundPath(
                root: .object,
                steps: [last],
                isMultiValued: false,
                rootClassName: className,
                valueType: .string
            )
            guard let program = subprogram(.fullText(path: inner, query: query), over: className) else { return nil }
            return .walked(WalkedSubquery(hops: hops, program: program, parameters: []), .greater)
        case .geoWithin(let path, let quantifier, let region):
            guard quantifier != .all, path.isMultiValued, let (hops, className, last, property) = walkedOwner(path),
                property.isLink, property.collection != .map, let pointClass = property.type.targetClassName,
                schema[pointClass] != nil
            else {
                // ALL, and any other path (`friends[0].places`, `places[0]`): each thing reached
                // tested; ALL is every test true and some test (it is false when nothing is
                // reached).
                guard path.root == .object else { return nil }
                return .grouped(
                    .withinRegion(path, region),
                    quantifier == .all ? [.all, .any] : [quantifier]
                )
            }
            let inner = BoundPath(
                root: .object,
                steps: [last],
                isMultiValued: property.collection != .single,
                rootClassName: className,
                valueType: property.type
            )
            guard let program = subprogram(.geoWithin(path: inner, quantifier: .any, region: region), over: className)
            else { return nil }
            return .walked(
                WalkedSubquery(hops: hops, program: program, parameters: []),
                quantifier == .any ? .greater : .equal
            )
        case .matches(let operand, let pattern):
            if let walked = walkedMatches(operand, pattern) { return walked }
            // Any other path (a list of strings through to-many hops, `friends.friends.tags`):
            // each value tested in the groups comparisons quantify, as the reference does.
            var loads: [ValueExpression] = []
            guard case .path = operand.expression, let (values, isType) = groupOperand(operand, &loads), !isType,
                loads.isEmpty
            else { return nil }
            return .grouped(.matching(values, pattern), [operand.quantifier ?? .any])
        case .constant, .and, .or, .not, .comparison:
            return nil
        }
    }

    /// `MATCHES` over the strings of a single-valued property reached through to-many hops: the
    /// strings form one group, so ANY is some object's string matching, NONE none, ALL none
    /// failing, each object tested by a program over its class (`CountSubquery`).
    private func walkedMatches(_ operand: BoundOperand, _ pattern: RegexPattern) -> SearchTest? {
        guard case .path(let path) = operand.expression, operand.isMultiValued, path.isMultiValued,
            let (hops, className, last, property) = walkedOwner(path), property.collection == .single,
            !property.isLink
        else { return nil }
        let inner = BoundPath(
            root: .object,
            steps: [last],
            isMultiValued: false,
            rootClassName: className,
            valueType: path.valueType
        )
        let test = BoundPredicate.matches(BoundOperand(.path(inner), isMultiValued: false), pattern)
        let quantifier = operand.quantifier ?? .any
        guard let program = subprogram(quantifier == .all ? .not(test) : test, over: className) else { return nil }
        return .walked(
            WalkedSubquery(hops: hops, program: program, parameters: []),
            quantifier == .any ? .greater : .equal
        )
    }

    /// The tests `LoadGroups` computes for `operand`, then for each quantifier a `CompareGroups`
    /// keeping the rows where it holds of some group's tests being `true`.
    mutating func emitGrouped(
        _ operand: GroupOperand,
        _ quantifiers: [Quantifier],
        into register: Int32,
        comment: String
    ) {
        let tests = builder.makeValueRegister()
        builder.emit(
            .loadGroups,
            p1: register,
            p3: tests,
            p4: builder.constant(.groupOperand(operand, sequences: false))
        )
        let truth = builder.makeValueRegister()
        builder.emit(
            .loadGroups,
            p1: register,
            p3: truth,
            p4: builder.constant(.groupOperand(.constant(.bool(true)), sequences: false))
        )
        for quantifier in quantifiers {
            builder.emit(
                .compareGroups,
                p1: register,
                p2: tests,
                p4: builder.constant(
                    .groupComparison(GroupComparison(.equal, form: .quantified(lhs: quantifier, rhs: .any)))
                ),
                p5: UInt16(clamping: truth),
                comment: comment
            )
        }
    }

    /// The hops to the objects owning `path`'s last property, their class, that step and its
    /// property: nil unless everything before the last step is hops (links, backlinks).
    private func walkedOwner(
        _ path: BoundPath
    ) -> (hops: [PathWalk.Hop], className: String, last: PathStep, property: Property)? {
        guard path.root == .object, let last = path.steps.last else { return nil }
        var prefix = path
        prefix.steps.removeLast()
        guard let (hops, end, _) = walk(prefix), end == .objects, let className = Self.className(reachedBy: hops),
            let owner = schema[className], let property = Self.property(last, of: owner), !property.isBacklink
        else { return nil }
        return (hops, className, last, property)
    }
}
