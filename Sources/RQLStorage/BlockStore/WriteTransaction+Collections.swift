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
        let count = elementCount(target)
        let element = try plannedElement(value, target)
        spliceElements(target.table, target.key, target.index, count..<count, [materializeElement(element)], keys: nil)
    }

    /// Inserts `value` into a list at `index` (`0 ... count`).
    public func insert(_ value: Value, at index: Int, into property: String, of object: ObjectLink) throws(WriteError) {
        let target = try collection(object, property, .list)
        try checkIndex(index, in: target, count: elementCount(target), inserting: true)
        let element = try plannedElement(value, target)
        spliceElements(target.table, target.key, target.index, index..<index, [materializeElement(element)], keys: nil)
    }

    /// Removes the element at `index` of a list (an embedded element is deleted).
    public func remove(at index: Int, from property: String, of object: ObjectLink) throws(WriteError) {
        let target = try collection(object, property, .list)
        try checkIndex(index, in: target, count: elementCount(target), inserting: false)
        if isEmbeddedTarget(target.property), case .link(let child) = element(target, at: index) {
            try delete(child)
        } else {
            spliceElements(target.table, target.key, target.index, index..<index + 1, [], keys: nil)
        }
    }

    /// Moves the element at `from` so that it ends up at `to` (both `0 ..< count`).
    public func move(from: Int, to: Int, in property: String, of object: ObjectLink) throws(WriteError) {
        let target = try collection(object, property, .list)
        let count = elementCount(target)
        try checkIndex(from, in: target, count: count, inserting: false)
        try checkIndex(to, in: target, count: count, inserting: false)
        guard from != to else { return }
        let range = Swift.min(from, to)..<Swift.max(from, to) + 1
        var moved = elements(target, range)
        if from < to { moved.append(moved.removeFirst()) } else { moved.insert(moved.removeLast(), at: 0) }
        spliceElements(target.table, target.key, target.index, range, moved, keys: nil)
    }

    /// Replaces the element at `index` of a list (an embedded element is deleted and a new one
    /// created from the `.map` of values).
    public func replace(at index: Int, with value: Value, in property: String, of object: ObjectLink) throws(WriteError)
    {
        let target = try collection(object, property, .list)
        try checkIndex(index, in: target, count: elementCount(target), inserting: false)
        let planned = try plannedElement(value, target)
        if isEmbeddedTarget(target.property), case .link(let child) = element(target, at: index) {
            // Deleting the old child takes it out of the list; the new one goes in its place.
            try delete(child)
            spliceElements(
                target.table,
                target.key,
                target.index,
                index..<index,
                [materializeElement(planned)],
                keys: nil
            )
        } else {
            spliceElements(
                target.table,
                target.key,
                target.index,
                index..<index + 1,
                [materializeElement(planned)],
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
        if elementCount(t, key, index) > 0 { writeValue(t, key, index, empty) }
    }

    /// Adds `value` to a set; false if an equal element is already there.
    @discardableResult
    public func insert(_ value: Value, intoSet property: String, of object: ObjectLink) throws(WriteError) -> Bool {
        let target = try collection(object, property, .set)
        try checkElement(value, of: target.property, in: object.className, key: object.key)
        let (position, found) = position(ofElement: value, target)
        guard !found else { return false }
        spliceElements(target.table, target.key, target.index, position..<position, [value], keys: nil)
        return true
    }

    /// Removes `value` from a set; false if it was not there.
    @discardableResult
    public func remove(_ value: Value, fromSet property: String, of object: ObjectLink) throws(WriteError) -> Bool {
        let target = try collection(object, property, .set)
        try checkElement(value, of: target.property, in: object.className, key: object.key)
        let (position, found) = position(ofElement: value, target)
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
        var (position, found) = position(ofKey: mapKey, target)
        if found, isEmbeddedTarget(target.property), case .link(let child) = element(target, at: position) {
            try delete(child)
            (position, found) = self.position(ofKey: mapKey, target)
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
        var (position, found) = position(ofKey: mapKey, target)
        guard found else { return false }
        if isEmbeddedTarget(target.property), case .link(let child) = element(target, at: position) {
            try delete(child)
            (position, found) = self.position(ofKey: mapKey, target)
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

    // Each read below finds the row, reads what it needs and lets go of the block before the
    // caller writes: a block or array still referenced here would make the write copy it.

    private func elementCount(_ target: CollectionTarget) -> Int {
        elementCount(target.table, target.key, target.index)
    }

    func elementCount(_ t: Int, _ key: Int64, _ property: Int) -> Int {
        guard let (b, row) = tables[t].locate(key: key) else { return 0 }
        return tables[t].blocks[b].elementCount(row: row, column: property)
    }

    private func element(_ target: CollectionTarget, at index: Int) -> Value {
        guard let (b, row) = tables[target.table].locate(key: target.key) else { return .null }
        return tables[target.table].blocks[b].element(row: row, column: target.index, at: index)
    }

    private func elements(_ target: CollectionTarget, _ range: Range<Int>) -> [Value] {
        storedElements(target.table, target.key, target.index, range)
    }

    /// Elements `range` of a collection property (a map's values, in key order).
    func storedElements(_ t: Int, _ key: Int64, _ property: Int, _ range: Range<Int>) -> [Value] {
        guard let (b, row) = tables[t].locate(key: key) else { return [] }
        return tables[t].blocks[b].elements(row: row, column: property, range: range)
    }

    private func position(ofElement value: Value, _ target: CollectionTarget) -> (Int, Bool) {
        guard let (b, row) = tables[target.table].locate(key: target.key) else { return (0, false) }
        let (index, found) = tables[target.table].blocks[b].position(ofElement: value, row: row, column: target.index)
        return (index, found)
    }

    private func position(ofKey key: String, _ target: CollectionTarget) -> (Int, Bool) {
        guard let (b, row) = tables[target.table].locate(key: target.key) else { return (0, false) }
        let (index, found) = tables[target.table].blocks[b].position(ofKey: key, row: row, column: target.index)
        return (index, found)
    }

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
}
