import RQLBytecode
import RQLCore
import RQLIR

/// Paths through several to-many hops or backlinks, as one `ReducePath` each:
/// `ANY dogs.toys.name == 'x'`, `ALL owners.dogs.scores > 1`, `@links.Dog.owner.age > 3`,
/// `ANY dict.@keys == 'a'`, `owners.dogs.@count > 2`, `@links.Dog.owner.@sum.age > 5`,
/// `dogs.@links.@count == 0`. Quantified comparisons become the number of groups the
/// quantifier holds in, compared `> 0`; counts and aggregates are compared as they are.
extension Generator {
    /// The register form of `operand op value` as a path walk, or nil for other shapes.
    func walked(
        _ operand: BoundOperand,
        _ op: ComparisonOperator,
        _ value: Value,
        _ options: StringOptions,
        quantified: Bool
    ) -> Gathered? {
        func reduced(_ walk: PathWalk, _ op: ComparisonOperator, _ value: Value, _ options: StringOptions) -> Gathered {
            Gathered(links: [], column: 0, load: .walk(walk), op: op, constant: value, options: options)
        }
        switch operand.expression {
        case .path(let path):
            guard quantified, operand.isMultiValued, path.isMultiValued, let (hops, end, _) = walk(path) else {
                return nil
            }
            switch end {
            case .column, .elements, .keys, .element, .objects:
                let test = ElementTest(op, value, options: options)
                let walk = PathWalk(hops: hops, end: end, reduction: .quantified(operand.quantifier ?? .any, test))
                return reduced(walk, .greater, .int(0), [])
            case .sizes:
                return nil
            }
        case .type(let path):
            // `ANY dict.@type == 'int'`: a type name tested against every value.
            guard quantified, operand.isMultiValued, path.isMultiValued, op == .equal || op == .notEqual,
                options.isEmpty, case .string = value, let (hops, end, _) = walk(path), end != .objects
            else { return nil }
            let reduction = PathWalk.Reduction.quantifiedType(
                operand.quantifier ?? .any,
                name: value,
                equal: op == .equal
            )
            return reduced(PathWalk(hops: hops, end: end, reduction: reduction), .greater, .int(0), [])
        case .count(let path) where quantified && operand.isMultiValued && path.steps.last == .all:
            // `ANY strings[*].@size > 3` through to-many hops: the sizes of the elements.
            guard let (hops, end) = sizesWalk(path) else { return nil }
            let test = ElementTest(op, value, options: options)
            let walk = PathWalk(hops: hops, end: end, reduction: .quantified(operand.quantifier ?? .any, test))
            return reduced(walk, .greater, .int(0), [])
        case .count(let path):
            // `list.integers.@count > 1`: one count per linked object's collection.
            if quantified, operand.isMultiValued, path.steps.last != .all,
                let perOwner = perOwner(nil, path, operand, op, value, options)
            {
                return perOwner
            }
            // Links counted through to-many hops (`owners.dogs.@count`, `@links.Dog.owner.@count`);
            // (`children[*].@count` counts only the links that resolve: `LoadGroups`).
            guard operand.quantifier == nil, path.steps.last != .all, let (hops, end, _) = walk(path), !hops.isEmpty,
                end == .objects
            else { return nil }
            return reduced(PathWalk(hops: hops, end: .objects, reduction: .linkCount), op, value, options)
        case .aggregate(let function, let path):
            // `list.integers.@sum > 1`: one aggregate per linked object's collection.
            if quantified, operand.isMultiValued, let perOwner = perOwner(function, path, operand, op, value, options) {
                return perOwner
            }
            // One group: exactly one to-many hop (per owner of the last collection otherwise).
            guard operand.quantifier == nil, !operand.isMultiValued, let (hops, end, toMany) = walk(path),
                toMany == 1, case .column = end
            else { return nil }
            let reduction = PathWalk.Reduction.aggregate(function, overMixed: path.valueType == .mixed)
            return reduced(PathWalk(hops: hops, end: end, reduction: reduction), op, value, options)
        case .backlinkCount(let path):
            guard operand.quantifier == nil, path.root == .object, let (hops, end, _) = walk(path), !hops.isEmpty,
                end == .objects
            else { return nil }
            return reduced(PathWalk(hops: hops, end: .objects, reduction: .backlinkCount), op, value, options)
        case .constant, .constantList, .list, .subqueryCount, .arithmetic, .object:
            return nil
        }
    }

    /// An aggregate (or, for `nil`, the count) of each object's collection of values, quantified.
    private func perOwner(
        _ function: AggregateFunction?,
        _ path: BoundPath,
        _ operand: BoundOperand,
        _ op: ComparisonOperator,
        _ value: Value,
        _ options: StringOptions
    ) -> Gathered? {
        guard let (hops, end, _) = walk(path), case .elements = end, !hops.isEmpty else { return nil }
        let reduction = PathWalk.Reduction.perOwner(
            function,
            overMixed: path.valueType == .mixed,
            operand.quantifier ?? .any,
            ElementTest(op, value, options: options)
        )
        return Gathered.walk(PathWalk(hops: hops, end: end, reduction: reduction))
    }

    /// `strings[*].@size` of a collection of values (not of links, which counts the links).
    func sizesWalk(_ path: BoundPath) -> (hops: [PathWalk.Hop], end: PathWalk.End)? {
        guard path.steps.last == .all, let (hops, end, _) = walk(path), case .elements(let column) = end else {
            return nil
        }
        return (hops, .sizes(column))
    }

    /// The hops of `path` (to-one links, lists and sets of links, backlinks), what it reads at
    /// the end, and how many hops are to-many; nil when the path has another shape.
    func walk(_ path: BoundPath) -> (hops: [PathWalk.Hop], end: PathWalk.End, toMany: Int)? {
        guard path.root == .object else { return nil }
        var current = objectSchema
        var hops: [PathWalk.Hop] = []
        var toMany = 0
        var i = 0
        hopping: while i < path.steps.count {
            let step = path.steps[i]
            switch step {
            case .property:
                guard let property = Self.property(step, of: current) else { return nil }
                if case .linkingObjects(let className, let name) = property.type, let origin = schema[className] {
                    hops.append(.backlinks(className: className, property: name))
                    current = origin
                } else if property.isLink, let target = property.type.targetClassName, let next = schema[target] {
                    // A dictionary of links is a hop through its `@values` only.
                    if property.collection == .map {
                        guard i + 1 < path.steps.count, path.steps[i + 1] == .values else { break hopping }
                        i += 1
                    }
                    hops.append(.link(column: Self.index(step), target: target))
                    current = next
                    // `children[*].name` is `children.name`.
                    if property.collection != .single, i + 1 < path.steps.count, path.steps[i + 1] == .all { i += 1 }
                } else {
                    break hopping
                }
                if property.collection != .single || property.isBacklink { toMany += 1 }
            case .backlinks(let className, let name):
                guard let origin = schema[className] else { return nil }
                hops.append(.backlinks(className: className, property: name))
                current = origin
                toMany += 1
            case .index, .first, .last, .all, .key, .keys, .values:
                break hopping
            }
            i += 1
        }
        let rest = path.steps[i...]
        guard let step = rest.first else { return (hops, .objects, toMany) }
        guard let property = Self.property(step, of: current), !property.isBacklink else { return nil }
        let column = Self.index(step)
        switch (property.collection, Array(rest.dropFirst())) {
        case (.single, []) where !property.isLink:
            return (hops, .column(column), toMany)
        case (.list, []) where !property.isLink, (.set, []) where !property.isLink, (.map, []) where !property.isLink,
            (.map, [.values]) where !property.isLink, (.list, [.all]) where !property.isLink,
            (.set, [.all]) where !property.isLink, (.map, [.all]) where !property.isLink:
            return (hops, .elements(column), toMany)
        case (.map, [.keys]):
            return (hops, .keys(column), toMany)
        case (.list, _) where !property.isLink, (.map, _) where !property.isLink:
            // `links.dict['a']`, `links.list[0][1]`: a key only as the first subscript (see
            // `subscripted`).
            var selectors: [ElementSelector] = []
            for step in rest.dropFirst() {
                switch step {
                case .index(let n): selectors.append(.index(n))
                case .first: selectors.append(.first)
                case .last: selectors.append(.last)
                case .key(let key) where selectors.isEmpty && property.collection == .map: selectors.append(.key(key))
                default: return nil
                }
            }
            switch selectors.first {
            case .index, .first, .last: guard property.collection == .list else { return nil }
            case .key: break
            case nil: return nil
            }
            return (hops, .element(column, selectors), toMany)
        default:
            return nil
        }
    }
}
