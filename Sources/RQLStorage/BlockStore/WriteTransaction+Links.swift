import RQLCore

/// The physical writes every operation ends in, each keeping backlinks current and recording
/// the change; and the deletion cascade.
extension WriteTransaction {
    /// Registers the links in `value` (property `property` of row `key` of table `t`) in their
    /// targets' backlink indexes. Typed links and links inside mixed values both count, as in
    /// realm-core.
    func addBacklinks(from t: Int, key: Int64, property: Int, value: Value) {
        updateBacklinks(from: t, key: key, property: property, value: value, adding: true)
    }

    func removeBacklinks(from t: Int, key: Int64, property: Int, value: Value) {
        updateBacklinks(from: t, key: key, property: property, value: value, adding: false)
    }

    private func updateBacklinks(from t: Int, key: Int64, property: Int, value: Value, adding: Bool) {
        let schemaProperty = tables[t].objectSchema.properties[property]
        guard schemaProperty.canHoldLinks else { return }
        let origin = BacklinkOrigin(className: className(t), property: schemaProperty.name)
        value.forEachLink { link in
            guard let target = schema.classIndex(named: link.className) else { return }
            tables[target].touch()
            if adding {
                tables[target].backlinks.add(target: link.key.rawValue, origin: origin, source: key)
            } else {
                tables[target].backlinks.remove(target: link.key.rawValue, origin: origin, source: key)
            }
        }
    }

    /// How many writes of a transaction may set their value through a block overlay.
    static let overlayWriteLimit = 64

    /// Sets a whole property value (validated, embedded objects already created).
    func writeValue(_ t: Int, _ key: Int64, _ property: Int, _ value: Value) {
        // A property set through an overlay holds no links: no backlinks to change. Only the
        // first writes of a transaction go through overlays: they spare a small commit the copy
        // of a block, while a transaction that rewrites many blocks (a migration) copies each
        // once, as an overlay per block would keep every block it read mapped until then
        // (measured: a 1M-object migration's resident set +47 MB of file pages with overlays
        // for every write, +0 with this limit).
        if writeCount >= Self.overlayWriteLimit || !tables[t].setThroughOverlay(value, key: key, property: property) {
            let old = tables[t].set(value, key: key, property: property)
            removeBacklinks(from: t, key: key, property: property, value: old)
            addBacklinks(from: t, key: key, property: property, value: value)
        }
        changes.modify(className(t), RowKey(key), tables[t].objectSchema.properties[property].name)
        writeCount += 1
    }

    /// Replaces elements `range` of a collection property with `values` (and map `keys`).
    func spliceElements(
        _ t: Int,
        _ key: Int64,
        _ property: Int,
        _ range: Range<Int>,
        _ values: [Value],
        keys: [String]?
    ) {
        let removed = range.isEmpty ? [] : storedElements(t, key, property, range)
        elementsMoved += tables[t].replaceElements(key: key, property: property, range: range, with: values, keys: keys)
        for value in removed { removeBacklinks(from: t, key: key, property: property, value: value) }
        for value in values { addBacklinks(from: t, key: key, property: property, value: value) }
        changes.modify(className(t), RowKey(key), tables[t].objectSchema.properties[property].name)
        writeCount += 1
    }

    /// Deletes objects with Realm's rules: the embedded objects they own go with them (at any
    /// depth); to-one links and map values pointing at a deleted object become null; list and
    /// set elements pointing at one are removed (a mixed list keeps its shape with a null).
    func deleteObjects(_ roots: [(table: Int, key: Int64)]) {
        var doomed = Set<ObjectLink>()
        var order: [(table: Int, key: Int64)] = []
        var queue = roots
        while let next = queue.popLast() {
            let link = ObjectLink(className: className(next.table), key: RowKey(next.key))
            guard doomed.insert(link).inserted, let values = tables[next.table].rowValues(key: next.key) else {
                continue
            }
            order.append(next)
            for (index, property) in tables[next.table].objectSchema.properties.enumerated()
            where isEmbeddedTarget(property) {
                values[index].forEachLink { child in
                    if let t = schema.classIndex(named: child.className) { queue.append((t, child.key.rawValue)) }
                }
            }
        }
        // Links from surviving objects: null them or take them out.
        for (t, key) in order {
            for (origin, source) in tables[t].backlinks.incoming(target: key) {
                guard let originTable = schema.classIndex(named: origin.className),
                    !doomed.contains(ObjectLink(className: origin.className, key: RowKey(source))),
                    let property = tables[originTable].objectSchema.propertyIndex(named: origin.property)
                else { continue }
                let current = currentValue(originTable, source, property)
                let cleaned = Self.removingLinks(
                    to: doomed,
                    in: current,
                    property: tables[originTable].objectSchema.properties[property]
                )
                if cleaned != current { writeValue(originTable, source, property, cleaned) }
            }
        }
        // The rows themselves, with their outgoing links.
        for (t, key) in order {
            let values = tables[t].remove(key: key)
            for index in values.indices { removeBacklinks(from: t, key: key, property: index, value: values[index]) }
            changes.delete(className(t), RowKey(key))
        }
        writeCount += 1
    }

    /// `value` without links to `doomed`: a to-one link becomes null, link lists and sets lose
    /// the element, maps keep the key with a null, mixed lists keep their shape with a null.
    static func removingLinks(to doomed: Set<ObjectLink>, in value: Value, property: Property) -> Value {
        func isDoomed(_ value: Value) -> Bool {
            if case .link(let link) = value { return doomed.contains(link) }
            return false
        }
        switch value {
        case .link: return isDoomed(value) ? .null : value
        case .list(let items):
            if property.type != .mixed { return .list(items.filter { !isDoomed($0) }) }
            return .list(items.map { removingLinks(to: doomed, in: $0, property: property) })
        case .map(let map):
            return .map(MixedMap(map.map { ($0.key, removingLinks(to: doomed, in: $0.value, property: property)) }))
        default: return value
        }
    }
}

extension Value {
    /// Calls `body` with every link this value holds: a link, each link of a list, set or map,
    /// and links anywhere inside a mixed value (nested ones included), as realm-core counts them
    /// as incoming links of their targets. Mixed nesting is bounded by the write checks.
    func forEachLink(_ body: (ObjectLink) -> Void) {
        switch self {
        case .link(let link): body(link)
        case .list(let items): for item in items { item.forEachLink(body) }
        case .map(let map): for entry in map { entry.value.forEachLink(body) }
        default: break
        }
    }

    /// Whether the value holds no link at any depth.
    var isLinkFree: Bool {
        var found = false
        forEachLink { _ in found = true }
        return !found
    }

    /// A set's elements as the store keeps them: in `ValueOrdering` order, duplicates removed
    /// (the first of equal elements kept).
    static func sortedUnique(_ items: [Value]) -> [Value] {
        guard items.count > 1 else { return items }
        let sorted = items.enumerated().sorted { a, b in
            let order = ValueOrdering.compare(a.element, b.element)
            return order != 0 ? order < 0 : a.offset < b.offset
        }
        var result: [Value] = []
        for (_, item) in sorted where result.last.map({ ValueOrdering.compare($0, item) != 0 }) ?? true {
            result.append(item)
        }
        return result
    }
}

extension Property {
    /// Whether values of the property can hold links (links, collections of links, mixed).
    var canHoldLinks: Bool {
        switch type {
        case .object, .mixed: true
        default: false
        }
    }
}
