import Foundation

extension Property {
    /// Whether `value` can be stored in this property: the right kind for the type (any kind
    /// for `mixed`), null only when optional, a `.list` for lists and sets and a `.map` for maps
    /// with every element acceptable, and links to the right class. Backlinks accept nothing:
    /// they are computed.
    ///
    /// ```swift
    /// let tags = try Property(name: "tags", typeSyntax: "list<string?>", className: "A")
    /// tags.accepts(.list([.string("x"), .null]))  // true
    /// Property(name: "age", type: .int).accepts(.double(3))  // false
    /// ```
    public func accepts(_ value: Value) -> Bool {
        if isBacklink { return false }
        switch (collection, value) {
        case (.single, _): return acceptsElement(value)
        case (.list, .list(let items)), (.set, .list(let items)): return items.allSatisfy(acceptsElement)
        case (.map, .map(let map)): return map.values.allSatisfy(acceptsElement)
        default: return false
        }
    }

    /// Whether `value` fits one element (or the single value) of this property.
    public func acceptsElement(_ value: Value) -> Bool {
        if case .null = value { return isOptional }
        switch (type, value) {
        case (.mixed, _): return true
        case (.bool, .bool), (.int, .int), (.float, .float), (.double, .double), (.string, .string), (.data, .data),
            (.date, .date), (.decimal128, .decimal), (.objectId, .objectId), (.uuid, .uuid):
            return true
        case (.object(let target), .link(let link)): return link.className == target
        default: return false
        }
    }

    /// The value a property has when none is given: null when optional (and for `mixed`, links
    /// and backlinks), an empty list or map for collections, zero, false or empty otherwise.
    package var defaultValue: Value {
        switch collection {
        case .list, .set: return .list([])
        case .map: return .map(MixedMap())
        case .single: break
        }
        if isOptional { return .null }
        switch type {
        case .bool: return .bool(false)
        case .int: return .int(0)
        case .float: return .float(0)
        case .double: return .double(0)
        case .string: return .string("")
        case .data: return .data([])
        case .date: return .date(.epoch)
        case .decimal128: return .decimal(.zero)
        case .objectId: return .objectId(.zero)
        case .uuid: return .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .mixed, .object, .linkingObjects: return .null
        }
    }
}
