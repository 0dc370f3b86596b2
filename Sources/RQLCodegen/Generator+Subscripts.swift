import RQLBytecode
import RQLCore
import RQLIR

/// Subscripts compared as one value: `scores[0] > 5`, `scores[LAST] == 2`, `dict['a'] == 3`,
/// `owner.tags[FIRST] BEGINSWITH 'x'`, `m[0] == 1` (a mixed list), `dict['a'][1] == 2`. The
/// to-one links before the collection are `GatherLink`s; `LoadElement` reads the element.
extension Generator {
    /// The register form of a single-valued subscripted path, or nil for other shapes.
    func subscripted(
        _ operand: BoundOperand,
        _ op: ComparisonOperator,
        _ value: Value,
        _ options: StringOptions
    ) -> Gathered? {
        // The subscripts after the path's last property (those before it pick link elements).
        guard operand.quantifier == nil, !operand.isMultiValued, case .path(let path) = operand.expression,
            !path.isMultiValued, let lastProperty = path.steps.lastIndex(where: { !Self.isSubscript($0) }),
            lastProperty + 1 < path.steps.count
        else { return nil }
        let first = lastProperty + 1
        var selectors: [ElementSelector] = []
        for step in path.steps[first...] {
            switch step {
            case .index(let n): selectors.append(.index(n))
            case .first: selectors.append(.first)
            case .last: selectors.append(.last)
            // A key after a mixed value that holds a link reads the linked object's property of
            // that name: lowered unless some class has a collection of that name, whose elements
            // one value cannot hold. (The first key of a dictionary column is a plain look-up.)
            case .key(let key) where selectors.isEmpty || !namesCollection(key): selectors.append(.key(key))
            default: return nil
            }
        }
        var collection = path
        collection.steps.removeSubrange(first...)
        guard let (links, column, property) = linkPath(collection, endingInLink: true, subscripts: true) else {
            return nil
        }
        switch (property.collection, selectors[0]) {
        case (.list, .index), (.list, .first), (.list, .last), (.map, .key):
            break
        case (.single, .index) where property.type == .mixed, (.single, .first) where property.type == .mixed,
            (.single, .last) where property.type == .mixed:
            break
        case (.single, .key(let key)) where property.type == .mixed && !namesCollection(key):
            break
        default:
            return nil
        }
        return Gathered(
            links: links,
            column: column,
            load: .element(selectors),
            op: op,
            constant: value,
            options: options
        )
    }

    /// Whether some class has a list, set, dictionary or backlinks property named `name`.
    private func namesCollection(_ name: String) -> Bool {
        schema.classes.contains { objectSchema in
            objectSchema.properties.contains { $0.name == name && ($0.isToMany || $0.isBacklink) }
        }
    }

    private static func isSubscript(_ step: PathStep) -> Bool {
        switch step {
        case .index, .first, .last, .key: true
        case .property, .backlinks, .all, .keys, .values: false
        }
    }
}
