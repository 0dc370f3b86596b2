import RQLBytecode
import RQLCore

/// One step of a key path applied object by object, with the reference evaluator's rules
/// (`ReferenceEvaluator+Paths.swift`): what `LoadGroups` walks for each row
/// (`Execution+Groups.swift`) and what sort and distinct keys through links read
/// (`Execution+KeyPaths.swift`).
extension Execution {
    /// Something a path has reached so far.
    enum PathItem {
        /// An object: its table and position.
        case object(Store.Table, Int)
        /// A scalar, or a mixed value (which may itself be a nested list or dictionary).
        case value(Value)
        /// A list, set, dictionary or backlinks property of one owner, not yet split into its
        /// elements; `holdsLinks` when its elements are links to objects.
        case collection(Value, holdsLinks: Bool)
        /// A null or dangling to-one link: null in a single-valued path, nothing in a
        /// multi-valued one; it stays a null link through the remaining steps.
        case nullLink
    }

    /// What one step leads to from one reached thing.
    func apply(_ step: PathStep, to item: PathItem) -> [PathItem] {
        if case .nullLink = item { return [.nullLink] }
        switch step {
        case .property(let className, let index, let name):
            return onObjects(item) { table, position in
                read(className: className, index: index, name: name, table: table, position: position).map { [$0] }
                    ?? []
            }
        case .backlinks(let className, let property):
            return onObjects(item) { table, position in
                let keys = table.backlinks(at: position, fromClass: className, property: property)
                let links = keys.map { Value.link(ObjectLink(className: className, key: $0)) }
                return [.collection(.list(links), holdsLinks: true)]
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
            case .collection(let contents, let holdsLinks):
                guard case .map(let map) = contents else { return [] }
                guard let value = map[key] else { return [holdsLinks ? .nullLink : .value(.null)] }
                if holdsLinks && value.isNull { return [.nullLink] }
                return [element(from: value, holdsLinks: holdsLinks)]
            case .value(.map(let map)):
                return [.value(map[key] ?? .null)]
            case .object, .value(.link):
                // `.name` after a mixed value that holds a link reads the linked object's property.
                return onObjects(item) { table, position in
                    guard let column = table.objectSchema.propertyIndex(named: key) else { return [] }
                    return read(
                        className: table.objectSchema.name,
                        index: column,
                        name: key,
                        table: table,
                        position: position
                    ).map { [$0] } ?? []
                }
            case .value, .nullLink:
                return []
            }
        case .keys:
            switch item {
            case .collection(.map(let map), _), .value(.map(let map)): return map.keys.map { .value(.string($0)) }
            case .collection, .object, .value, .nullLink: return []
            }
        case .values:
            switch item {
            case .collection(.map, _): return elements(of: item)
            case .value(.map(let map)): return map.values.map { .value($0) }
            case .collection, .object, .value, .nullLink: return []
            }
        }
    }

    /// An object step on every object `item` stands for: the elements of a collection, the
    /// target of a mixed link; plain values have no properties.
    func onObjects(_ item: PathItem, _ body: (Store.Table, Int) -> [PathItem]) -> [PathItem] {
        switch item {
        case .object(let table, let position): return body(table, position)
        case .nullLink: return [.nullLink]
        case .collection, .value(.link):
            return elements(of: item).flatMap { element -> [PathItem] in
                switch element {
                case .object(let table, let position): return body(table, position)
                case .nullLink: return [.nullLink]
                case .value, .collection: return []
                }
            }
        case .value: return []
        }
    }

    /// `[n]`, `[FIRST]`, `[LAST]` of a list or a nested mixed list; nothing when out of range or
    /// applied to something unordered.
    func positional(_ item: PathItem, _ pick: ([Value]) -> Value?) -> [PathItem] {
        switch item {
        case .collection(let contents, let holdsLinks):
            guard case .list(let items) = contents, let chosen = pick(items) else { return [] }
            return [element(from: chosen, holdsLinks: holdsLinks)]
        case .value(.list(let items)):
            return pick(items).map { [.value($0)] } ?? []
        case .object, .value, .nullLink:
            return []
        }
    }

    /// One property of one object. The index is trusted when the object is of the class the
    /// step names; otherwise (a mixed link to another class) the property is found by name, and
    /// an object without it reaches nothing.
    func read(className: String, index: Int, name: String, table: Store.Table, position: Int) -> PathItem? {
        let schema = table.objectSchema
        let column: Int
        if schema.name == className, index >= 0, index < schema.properties.count {
            column = index
        } else if let byName = schema.propertyIndex(named: name) {
            column = byName
        } else {
            return nil
        }
        let property = schema.properties[column]
        let value = table.value(at: position, property: column)
        if property.isToMany || property.isBacklink { return .collection(value, holdsLinks: property.isLink) }
        if property.isLink {
            guard case .link(let link) = value else { return .nullLink }
            return resolve(link)
        }
        return .value(value)
    }

    /// The elements of a collection (links resolved to objects), the target of a mixed link;
    /// anything else is its own single element.
    func elements(of item: PathItem) -> [PathItem] {
        switch item {
        case .collection(let contents, let holdsLinks):
            return Self.rawElements(of: contents).map { element(from: $0, holdsLinks: holdsLinks) }
        case .value(.link(let link)):
            return [resolve(link)]
        case .object, .value, .nullLink:
            return [item]
        }
    }

    /// A link in a collection of links is its object; a null in a dictionary of links stays a
    /// null value (`pets.@values == NULL` sees it).
    func element(from value: Value, holdsLinks: Bool) -> PathItem {
        guard holdsLinks, case .link(let link) = value else { return .value(value) }
        return resolve(link)
    }

    func resolve(_ link: ObjectLink) -> PathItem {
        guard let (table, position) = store.resolve(link) else { return .nullLink }
        return .object(table, position)
    }
}
