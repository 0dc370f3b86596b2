import RQLBytecode
import RQLCore

/// The value of a SORT or DISTINCT key for one object.
enum ResultKey {
    /// The path reached this value (null when the value itself is null).
    case value(Value)
    /// A to-one link before the last step was null, so there is no value at all.
    case crossesNullLink

    /// Ascending order of two keys: values by `ValueOrdering`, a crossed null link last.
    static func compare(_ a: ResultKey, _ b: ResultKey, caseInsensitive: Bool = false) -> Int {
        switch (a, b) {
        case (.crossesNullLink, .crossesNullLink): 0
        case (.crossesNullLink, .value): 1
        case (.value, .crossesNullLink): -1
        case (.value(let x), .value(let y)): ValueOrdering.compare(x, y, caseInsensitive: caseInsensitive)
        }
    }
}

/// Sort and distinct keys that are not a plain column of the class (`owner.age`, `dict['a']`,
/// `mixed['k']`): read object by object, step by step, with the reference evaluator's rules
/// for key paths (`ReferenceEvaluator.keyValue`): a null link before the last step means no
/// key, a null link as the last step is a null value, and a path reaching several things keeps
/// the first. The binder allows only to-one steps in a key path, so each walk is short.
extension Execution {
    /// What a key path has reached so far in one object.
    enum KeyReach {
        /// An object: its table and position.
        case object(Store.Table, Int)
        /// A scalar or mixed value (a mixed value may hold a nested list or map).
        case value(Value)
        /// A collection property of one object, not split into its elements: its contents, and
        /// whether they are links.
        case collection(Value, holdsLinks: Bool)
        /// A null or dangling to-one link.
        case nullLink
    }

    /// The key `path` gives the object at `position` of `table`.
    func keyValue(of path: RowPath, table: Store.Table, position: Int) -> ResultKey {
        // A key path starts at the object; no SUBQUERY element is in scope.
        guard path.root == .object else { return .value(.null) }
        var items: [KeyReach] = [.object(table, position)]
        for (index, step) in path.steps.enumerated() {
            items = items.flatMap { apply(step, to: $0) }
            let isLast = index == path.steps.count - 1
            if !isLast, items.contains(where: { if case .nullLink = $0 { true } else { false } }) {
                return .crossesNullLink
            }
        }
        switch items.first {
        case .object(let table, let position)?:
            return .value(.link(ObjectLink(className: table.objectSchema.name, key: table.rowKey(at: position))))
        case .value(let value)?: return .value(value)
        case .collection(let contents, _)?: return .value(contents)
        case .nullLink?, nil: return .value(.null)
        }
    }

    private func apply(_ step: RowStep, to item: KeyReach) -> [KeyReach] {
        if case .nullLink = item { return [.nullLink] }
        switch step {
        case .property(let className, let index, let name):
            return onObjects(item) { table, position in
                read(className: className, index: index, name: name, of: table, at: position).map { [$0] } ?? []
            }
        case .backlinks(let className, let property):
            return onObjects(item) { table, position in
                let links = table.backlinks(at: position, fromClass: className, property: property).map {
                    Value.link(ObjectLink(className: className, key: $0))
                }
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
                // `.name` after a mixed value holding a link reads the linked object's property.
                return onObjects(item) { table, position in
                    guard let column = table.objectSchema.propertyIndex(named: key) else { return [] }
                    let className = table.objectSchema.name
                    return read(className: className, index: column, name: key, of: table, at: position).map { [$0] }
                        ?? []
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

    /// The elements of a collection (links resolved to objects); a mixed link, its object;
    /// anything else is its own single element.
    private func elements(of item: KeyReach) -> [KeyReach] {
        switch item {
        case .collection(let contents, let holdsLinks):
            let raw: [Value] =
                switch contents {
                case .list(let items): items
                case .map(let map): map.values
                default: []
                }
            return raw.map { element(from: $0, holdsLinks: holdsLinks) }
        case .value(.link(let link)):
            return [resolved(link)]
        case .object, .value, .nullLink:
            return [item]
        }
    }

    /// One element of a collection: an object for a link, otherwise the value (a null in a
    /// dictionary of links stays a null value).
    private func element(from value: Value, holdsLinks: Bool) -> KeyReach {
        guard holdsLinks, case .link(let link) = value else { return .value(value) }
        return resolved(link)
    }

    private func resolved(_ link: ObjectLink) -> KeyReach {
        guard let (table, position) = store.resolve(link) else { return .nullLink }
        return .object(table, position)
    }

    /// Applies an object step to every object `item` stands for.
    private func onObjects(_ item: KeyReach, _ body: (Store.Table, Int) -> [KeyReach]) -> [KeyReach] {
        switch item {
        case .object(let table, let position): return body(table, position)
        case .nullLink: return [.nullLink]
        case .collection, .value(.link):
            return elements(of: item).flatMap { element -> [KeyReach] in
                switch element {
                case .object(let table, let position): return body(table, position)
                case .nullLink: return [.nullLink]
                case .value, .collection: return []
                }
            }
        case .value: return []
        }
    }

    /// `[n]`, `[FIRST]`, `[LAST]` of a list or of a nested mixed list.
    private func positional(_ item: KeyReach, _ pick: ([Value]) -> Value?) -> [KeyReach] {
        switch item {
        case .collection(.list(let items), let holdsLinks):
            return pick(items).map { [element(from: $0, holdsLinks: holdsLinks)] } ?? []
        case .value(.list(let items)):
            return pick(items).map { [.value($0)] } ?? []
        case .collection, .object, .value, .nullLink:
            return []
        }
    }

    /// One property of one object: by index when the object is of the step's class, else by
    /// name (a mixed link to another class); nil when the object has no such property.
    private func read(
        className: String,
        index: Int,
        name: String,
        of table: Store.Table,
        at position: Int
    )
        -> KeyReach?
    {
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
        if property.isToMany || property.isBacklink {
            return .collection(value, holdsLinks: property.isLink)
        }
        if property.isLink {
            guard case .link(let link) = value else { return .nullLink }
            return resolved(link)
        }
        return .value(value)
    }
}
