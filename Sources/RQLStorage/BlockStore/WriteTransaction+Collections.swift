import RQLCore

/// List, set and map operations. Each changes only the elements it names (the row's element
/// range is spliced in its block); embedded elements are given by their values (a `.map`) and
/// removed ones are deleted.
extension WriteTransaction {
    /// Appends `value` to a list.
    ///
    /// ```swift
    /// try transaction.append(.link(rex), to: "dogs", of: ann)
    /// ```
    public func append(_ value: Value, to property: String, of object: ObjectLink) throws(WriteError) {
        let target = try collection(object, property, .list)
        let count = elements(target).count
        let element = try plannedElement(value, target)
        spliceElements(target.table, target.key, target.index, count..<count, [materializeElement(element)], keys: nil)
    }

    /// Inserts `value` into a list at `index` (`0 ... count`).
    public func insert(_ value: Value, at index: Int, into property: String, of object: ObjectLink) throws(WriteError) {
        let target = try collection(object, property, .list)
        try checkIndex(index, in: target, count: elements(target).count, inserting: true)
        let element = try plannedElement(value, target)
        spliceElements(target.table, target.key, target.index, index..<index, [materializeElement(element)], keys: nil)
    }

    /// Removes the element at `index` of a list (an embedded element is deleted).
    public func remove(at index: Int, from property: String, of object: ObjectLink) throws(WriteError) {
        let target = try collection(object, property, .list)
        let items = elements(target)
        try checkIndex(index, in: target, count: items.count, inserting: false)
        if isEmbeddedTarget(target.property), case .link(let child) = items[index] {
            try delete(child)
        } else {
            spliceElements(target.table, target.key, target.index, index..<index + 1, [], keys: nil)
        }
    }

    /// Moves the element at `from` so that it ends up at `to` (both `0 ..< count`).
    public func move(from: Int, to: Int, in property: String, of object: ObjectLink) throws(WriteError) {
        let target = try collection(object, property, .list)
        let items = elements(target)
        try checkIndex(from, in: target, count: items.count, inserting: false)
        try checkIndex(to, in: target, count: items.count, inserting: false)
        guard from != to else { return }
        let range = Swift.min(from, to)..<Swift.max(from, to) + 1
        var moved = Array(items[range])
        if from < to { moved.append(moved.removeFirst()) } else { moved.insert(moved.removeLast(), at: 0) }
        spliceElements(target.table, target.key, target.index, range, moved, keys: nil)
    }

    /// Replaces the element at `index` of a list (an embedded element is deleted and a new one
    /// created from the `.map` of values).
    public func replace(at index: Int, with value: Value, in property: String, of object: ObjectLink) throws(WriteError)
    {
        let target = try collection(object, property, .list)
        let items = elements(target)
        try checkIndex(index, in: target, count: items.count, inserting: false)
        let element = try plannedElement(value, target)
        if isEmbeddedTarget(target.property), case .link(let child) = items[index] {
            // Deleting the old child takes it out of the list; the new one goes in its place.
            try delete(child)
            spliceElements(
                target.table,
                target.key,
                target.index,
                index..<index,
                [materializeElement(element)],
                keys: nil
            )
        } else {
            spliceElements(
                target.table,
                target.key,
                target.index,
                index..<index + 1,
                [materializeElement(element)],
                keys: nil
            )
        }
    }

    /// Empties a list, set or map (embedded elements are deleted).
    public func removeAll(from property: String, of object: ObjectLink) throws(WriteError) {
        let (t, key) = try locate(object)
        let (index, schemaProperty) = try writableProperty(t, property)
        guard schemaProperty.collection != .single else {
            throw .wrongCollection(className: object.className, property: property, expected: .list)
        }
        if isEmbeddedTarget(schemaProperty) { deleteEmbeddedChildren(t, key, index) }
        let empty: Value = schemaProperty.collection == .map ? .map(MixedMap()) : .list([])
        if currentValue(t, key, index) != empty { writeValue(t, key, index, empty) }
    }

    /// Adds `value` to a set; false if an equal element is already there.
    @discardableResult
    public func insert(_ value: Value, intoSet property: String, of object: ObjectLink) throws(WriteError) -> Bool {
        let target = try collection(object, property, .set)
        try checkElement(value, of: target.property, in: object.className, key: object.key)
        let (position, found) = Self.search(elements(target), value)
        guard !found else { return false }
        spliceElements(target.table, target.key, target.index, position..<position, [value], keys: nil)
        return true
    }

    /// Removes `value` from a set; false if it was not there.
    @discardableResult
    public func remove(_ value: Value, fromSet property: String, of object: ObjectLink) throws(WriteError) -> Bool {
        let target = try collection(object, property, .set)
        try checkElement(value, of: target.property, in: object.className, key: object.key)
        let (position, found) = Self.search(elements(target), value)
        guard found else { return false }
        spliceElements(target.table, target.key, target.index, position..<position + 1, [], keys: nil)
        return true
    }

    /// Sets the value under `key` in a map (adding the key if needed). For `map<Embedded?>`
    /// the value is a new object's values (`.map`) or null; a replaced object is deleted.
    public func setValue(
        _ value: Value,
        forKey mapKey: String,
        inMap property: String,
        of object: ObjectLink
    ) throws(WriteError) {
        let target = try collection(object, property, .map)
        try checkMapKey(mapKey, target.property, object.className, object.key)
        let planned = try plan(
            .map(MixedMap([(mapKey, value)])),
            for: target.property,
            in: object.className,
            key: object.key
        )
        var (position, found) = Self.search(mapKeys(target), mapKey)
        if found, isEmbeddedTarget(target.property), case .link(let child) = mapEntries(target)[position].value {
            try delete(child)
            (position, found) = Self.search(mapKeys(target), mapKey)
        }
        guard case .map(let materialized) = materialize(planned), let element = materialized.values.first else {
            return
        }
        let range = found ? position..<position + 1 : position..<position
        spliceElements(target.table, target.key, target.index, range, [element], keys: [mapKey])
    }

    /// Removes `key` from a map; false if it was not there. An embedded value is deleted.
    @discardableResult
    public func removeValue(
        forKey mapKey: String,
        fromMap property: String,
        of object: ObjectLink
    ) throws(WriteError) -> Bool {
        let target = try collection(object, property, .map)
        var (position, found) = Self.search(mapKeys(target), mapKey)
        guard found else { return false }
        if isEmbeddedTarget(target.property), case .link(let child) = mapEntries(target)[position].value {
            try delete(child)
            (position, found) = Self.search(mapKeys(target), mapKey)
        }
        spliceElements(target.table, target.key, target.index, position..<position + 1, [], keys: [])
        return true
    }

    // MARK: Helpers

    struct CollectionTarget {
        let table: Int
        let key: Int64
        let index: Int
        let property: Property
        let object: ObjectLink
    }

    private func collection(
        _ object: ObjectLink,
        _ name: String,
        _ kind: CollectionKind
    ) throws(WriteError) -> CollectionTarget {
        let (t, key) = try locate(object)
        let (index, property) = try writableProperty(t, name)
        guard property.collection == kind else {
            throw .wrongCollection(className: object.className, property: name, expected: kind)
        }
        return CollectionTarget(table: t, key: key, index: index, property: property, object: object)
    }

    private func elements(_ target: CollectionTarget) -> [Value] {
        if case .list(let items) = currentValue(target.table, target.key, target.index) { return items }
        return []
    }

    private func mapEntries(_ target: CollectionTarget) -> [MixedMap.Entry] {
        if case .map(let map) = currentValue(target.table, target.key, target.index) { return map.entries }
        return []
    }

    private func mapKeys(_ target: CollectionTarget) -> [String] { mapEntries(target).map(\.key) }

    private func checkIndex(_ index: Int, in target: CollectionTarget, count: Int, inserting: Bool) throws(WriteError) {
        guard index >= 0, inserting ? index <= count : index < count else {
            throw .indexOutOfRange(
                className: target.object.className,
                property: target.property.name,
                key: target.object.key,
                index: index,
                count: count
            )
        }
    }

    /// One list element, validated (an embedded one planned for creation).
    private func plannedElement(_ value: Value, _ target: CollectionTarget) throws(WriteError) -> PlannedValue {
        try plan(.list([value]), for: target.property, in: target.object.className, key: target.object.key)
    }

    private func materializeElement(_ planned: PlannedValue) -> Value {
        if case .list(let items) = materialize(planned), let first = items.first { return first }
        return .null
    }

    /// Where `value` is or would go in a set's elements (`ValueOrdering`).
    static func search(_ items: [Value], _ value: Value) -> (Int, Bool) {
        var low = 0
        var high = items.count
        while low < high {
            let mid = (low + high) / 2
            let order = ValueOrdering.compare(items[mid], value)
            if order == 0 { return (mid, true) }
            if order < 0 { low = mid + 1 } else { high = mid }
        }
        return (low, false)
    }

    /// Where `key` is or would go among a map's keys (UTF-8 byte order).
    static func search(_ keys: [String], _ key: String) -> (Int, Bool) {
        var low = 0
        var high = keys.count
        while low < high {
            let mid = (low + high) / 2
            let order = compareUTF8(keys[mid], key)
            if order == 0 { return (mid, true) }
            if order < 0 { low = mid + 1 } else { high = mid }
        }
        return (low, false)
    }
}
