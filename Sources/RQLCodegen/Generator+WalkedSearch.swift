import RQLBytecode
import RQLCore
import RQLIR

/// TEXT and GEOWITHIN through paths with several to-many hops or backlinks
/// (`ANY owners.dogs.bio TEXT 'good'`, `ANY owners.places.location GEOWITHIN …`), which
/// `FilterText` and `FilterGeoWithin` do not walk, as the walking `CountSubquery`: the objects
/// the hops reach are tested by a program over their class holding the one-object test
/// (`bio TEXT 'good'`, `location GEOWITHIN …`), and the count of those passing is compared with
/// 0. This is the reference evaluator's rule: TEXT holds when some string reached matches (a
/// null or dangling link reaches no string), `ANY … GEOWITHIN` when some point reached is
/// within, `NONE` when none is. `ALL … GEOWITHIN` also fails on a null or dangling link met
/// anywhere on the way, which a count of objects cannot see: it is not lowered here.
extension Generator {
    /// The walked form of a TEXT or GEOWITHIN predicate, or nil.
    func walkedSearch(_ predicate: BoundPredicate) -> SearchTest? {
        switch predicate {
        case .fullText(let path, let query):
            guard path.isMultiValued, let (hops, className, last, property) = walkedOwner(path),
                property.collection == .single, property.type == .string
            else { return nil }
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
            else { return nil }
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
            // The strings reached through links form one group: ANY is some object's string
            // matching, NONE none, ALL none failing.
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
        case .constant, .and, .or, .not, .comparison:
            return nil
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
