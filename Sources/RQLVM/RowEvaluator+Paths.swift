import RQLBytecode
import RQLCore

/// Walking key paths. A path is evaluated as a list of *reached* things, starting from the root
/// object; each step maps every reached thing to what it leads to. Collections stay whole
/// until a step (or the end of the path) needs their elements, so that `[n]`, `['key']`,
/// `@keys` and `@count` can see the collection of each owner.
extension RowEvaluator {
    /// Something a path has reached so far.
    enum Reached {
        /// An object (a linked, embedded, backlinking or root object).
        case object(ObjectRef)
        /// A value: a scalar, or a mixed value (which may itself be a nested list or map).
        case value(Value)
        /// A collection property of one owner, not yet split into its elements.
        case collection(CollectionValue)
        /// A null (or dangling) to-one link: NULL in a single-valued path, nothing in a
        /// multi-valued one. It stays a null link through the remaining steps.
        case nullLink
    }

    /// The contents of a list, set, map or backlinks property: `.list` or `.map`, whose
    /// elements are `.link`s when the property links to objects.
    struct CollectionValue {
        var contents: Value
        var holdsLinks: Bool

        /// The raw elements: a list's items, a map's values.
        var rawElements: [Value] {
            switch contents {
            case .list(let items): items
            case .map(let map): map.values
            default: []
            }
        }

        var count: Int { ValueAggregation.size(of: contents) ?? 0 }
    }

    /// The object a path starts from (nothing for an element depth outside the SUBQUERY nesting).
    func start(_ root: RowPath.Root, in context: Context) -> [Reached] {
        switch root {
        case .object: [.object(context.object)]
        case .element(let depth): context.element(depth: depth).map { [.object($0)] } ?? []
        }
    }

    /// The values `path` reaches, flattened: objects become `.link` values, collections their
    /// elements; a null link becomes NULL only when the path is single-valued.
    func values(of path: RowPath, in context: Context) -> [Value] {
        flatten(reach(path, in: context), isMultiValued: path.isMultiValued)
    }

    func flatten(_ items: [Reached], isMultiValued: Bool) -> [Value] {
        var result: [Value] = []
        for item in items {
            switch item {
            case .object(let object): result.append(.link(object.link))
            case .value(let value): result.append(value)
            case .collection(let collection): result.append(contentsOf: collection.rawElements)
            case .nullLink: if !isMultiValued { result.append(.null) }
            }
        }
        return result
    }

    /// The elements of a reached collection (links resolved to objects); anything else is its
    /// own single element.
    func elements(of item: Reached) -> [Reached] {
        switch item {
        case .collection(let collection):
            return collection.rawElements.map { element(from: $0, holdsLinks: collection.holdsLinks) }
        case .value(.link(let link)):
            return [resolve(link)]
        case .object, .value, .nullLink:
            return [item]
        }
    }

    /// One element of a collection: an object for a link, otherwise the value itself. A null in
    /// a dictionary of links stays a null *value*: `pets.@values == NULL` sees it, and a
    /// further step (`pets.@values.age`) reaches nothing from it.
    func element(from value: Value, holdsLinks: Bool) -> Reached {
        guard holdsLinks, case .link(let link) = value else { return .value(value) }
        return resolve(link)
    }

    func resolve(_ link: ObjectLink) -> Reached {
        guard let (table, position) = store.resolve(link) else { return .nullLink }
        return .object(ObjectRef(table: table, position: position))
    }

    // MARK: Steps

    func apply(_ step: RowStep, to item: Reached) -> [Reached] {
        if case .nullLink = item { return [.nullLink] }
        switch step {
        case .property(let className, let index, let name):
            return onObjects(item) { read(className: className, index: index, name: name, of: $0).map { [$0] } ?? [] }
        case .backlinks(let className, let property):
            return onObjects(item) { object in
                let keys = object.table.backlinks(at: object.position, fromClass: className, property: property)
                let links = keys.map { Value.link(ObjectLink(className: className, key: $0)) }
                return [.collection(CollectionValue(contents: .list(links), holdsLinks: true))]
            }
        case .index(let n):
            return positional(item) { n >= 0 && n < $0.count ? $0[n] : nil }
        case .first:
            return positional(item) { $0.first }
        case .last:
            return positional(item) { $0.last }
        case .all:
            switch item {
            case .collection: return elements(of: item)
            case .value(.list(let items)): return items.map { .value($0) }
            case .value(.map(let map)): return map.values.map { .value($0) }
            case .object, .value, .nullLink: return []
            }
        case .key(let key):
            switch item {
            case .collection(let collection):
                guard case .map(let map) = collection.contents else { return [] }
                guard let value = map[key] else { return [collection.holdsLinks ? .nullLink : .value(.null)] }
                // A null link under the key is a null link: NULL in a single-valued path.
                if collection.holdsLinks && value.isNull { return [.nullLink] }
                return [element(from: value, holdsLinks: collection.holdsLinks)]
            case .value(.map(let map)):
                return [.value(map[key] ?? .null)]
            case .object, .value(.link):
                // `.name` after a mixed value that holds a link reads the linked object's property.
                return onObjects(item) { object in
                    guard let column = object.table.objectSchema.propertyIndex(named: key) else { return [] }
                    return read(className: object.className, index: column, name: key, of: object).map { [$0] } ?? []
                }
            case .value, .nullLink:
                return []
            }
        case .keys:
            switch item {
            case .collection(let collection):
                guard case .map(let map) = collection.contents else { return [] }
                return map.keys.map { .value(.string($0)) }
            case .value(.map(let map)): return map.keys.map { .value(.string($0)) }
            case .object, .value, .nullLink: return []
            }
        case .values:
            switch item {
            case .collection(let collection):
                guard case .map = collection.contents else { return [] }
                return elements(of: item)
            case .value(.map(let map)): return map.values.map { .value($0) }
            case .object, .value, .nullLink: return []
            }
        }
    }

    /// Applies an object step to every object `item` stands for: the elements of a collection,
    /// the target of a mixed link; plain values have no properties.
    private func onObjects(_ item: Reached, _ body: (ObjectRef) -> [Reached]) -> [Reached] {
        switch item {
        case .object(let object): return body(object)
        case .nullLink: return [.nullLink]
        case .collection, .value(.link):
            return elements(of: item).flatMap { element -> [Reached] in
                switch element {
                case .object(let object): return body(object)
                case .nullLink: return [.nullLink]
                case .value, .collection: return []
                }
            }
        case .value: return []
        }
    }

    /// `[n]`, `[FIRST]`, `[LAST]` of a list (per owner) or of a nested mixed list; nothing
    /// when out of range or applied to something unordered.
    private func positional(_ item: Reached, _ pick: ([Value]) -> Value?) -> [Reached] {
        switch item {
        case .collection(let collection):
            guard case .list(let items) = collection.contents, let chosen = pick(items) else { return [] }
            return [element(from: chosen, holdsLinks: collection.holdsLinks)]
        case .value(.list(let items)):
            return pick(items).map { [.value($0)] } ?? []
        case .object, .value, .nullLink:
            return []
        }
    }

    /// One property of one object. The index is trusted when the object is of the class the
    /// step names; otherwise (a mixed link to another class) the property is found by name, and
    /// an object without it reaches nothing.
    private func read(className: String, index: Int, name: String, of object: ObjectRef) -> Reached? {
        let schema = object.table.objectSchema
        let column: Int
        if schema.name == className, index >= 0, index < schema.properties.count {
            column = index
        } else if let byName = schema.propertyIndex(named: name) {
            column = byName
        } else {
            return nil
        }
        let property = schema.properties[column]
        let value = object.table.value(at: object.position, property: column)
        if property.isToMany || property.isBacklink {
            return .collection(CollectionValue(contents: value, holdsLinks: property.isLink))
        }
        if property.isLink {
            guard case .link(let link) = value else { return .nullLink }
            return resolve(link)
        }
        return .value(value)
    }
}
