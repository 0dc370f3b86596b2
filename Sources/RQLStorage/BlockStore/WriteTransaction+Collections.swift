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
        // The row is looked up once, by the append itself, which also counts its elements (a
        // loop of appends is the common way to fill a list). Embedded elements are created by
        // their planning, so the object is known to exist first.
        let embedded = lastCollection?.isEmbedded ?? true
        let target = try collection(object, property, .list, knownToExist: !embedded)
        let element = materializeElement(try plannedElement(value, target))
        guard tables[target.table].appendElement(key: target.key, property: target.index, value: element) else {
            throw .unknownObject(className: object.className, key: object.key)
        }
        addBacklinks(from: target.table, key: target.key, property: target.index, value: element)
        changes.modify(object.className, RowKey(target.key), target.property.name)
        writeCount += 1
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
        if target.isEmbedded, case .link(let child) = element(target, at: index) {
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
        if target.isEmbedded, case .link(let child) = element(target, at: index) {
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
        let target = try stagingTarget(object, property, .set)
        try checkElement(value, of: target.property, in: object.className, key: object.key)
        if stages(target) {
            if staged(target)?.elements.contains(value) == true || position(ofElement: value, target).1 {
                return false
            }
            stage(target).elements.insert(value)
            stagedWrite(target, added: value)
            return true
        }
        mergeStaged()
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
        let target = try stagingTarget(object, property, .map)
        try checkMapKey(mapKey, target.property, object.className, object.key)
        if stages(target) {
            // Not embedded: the value is written as it is, once checked.
            try checkElement(value, of: target.property, in: object.className, key: object.key)
            let element = value
            let key = UTF8Key(mapKey)
            if let current = staged(target), let old = current.entries[key] {
                current.entries[key] = element
                removeBacklinks(from: target.table, key: target.key, property: target.index, value: old)
                stagedWrite(target, added: element)
                return
            }
            let (position, found) = position(ofKey: mapKey, target)
            if !found {
                stage(target).entries[key] = element
                stagedWrite(target, added: element)
                return
            }
            // A key the block has: its value is replaced in place, moving nothing.
            spliceElements(target.table, target.key, target.index, position..<position + 1, [element], keys: [mapKey])
            return
        }
        let planned = try plan(
            .map(MixedMap([(mapKey, value)])),
            for: target.property,
            in: object.className,
            key: object.key
        )
        mergeStaged()
        var (position, found) = position(ofKey: mapKey, target)
        if found, target.isEmbedded, case .link(let child) = element(target, at: position) {
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
        if target.isEmbedded, case .link(let child) = element(target, at: position) {
            try delete(child)
            (position, found) = self.position(ofKey: mapKey, target)
        }
        spliceElements(target.table, target.key, target.index, position..<position + 1, [], keys: [])
        return true
    }

    // MARK: Staging

    /// Whether new elements of the target's property are staged rather than spliced into the
    /// block one by one: sets and maps, whose elements are kept sorted, so that each insert
    /// among them moved every element after it (a scattered fill of n elements was O(n²)). Not
    /// for embedded objects (created in place), nor for sets whose elements `Value`'s hashing
    /// would tell apart where their ordering does not (mixed, decimal and floating-point
    /// numbers).
    private func stages(_ target: CollectionTarget) -> Bool {
        let property = target.property
        switch property.collection {
        case .map:
            return !target.isEmbedded
        case .set:
            switch property.type {
            case .mixed, .decimal128, .float, .double: return false
            default: return true
            }
        case .list, .single: return false
        }
    }

    /// The target of a staging operation, found without merging what is staged.
    private func stagingTarget(
        _ object: ObjectLink,
        _ name: String,
        _ kind: CollectionKind
    ) throws(WriteError) -> CollectionTarget {
        keepsStaged = true
        defer { keepsStaged = false }
        return try collection(object, name, kind)
    }

    /// Whether the object exists, without merging what is staged (which adds no objects).
    public func contains(_ link: ObjectLink) -> Bool {
        let known = lastCollection.flatMap { $0.object.className == link.className ? $0.table : nil }
        guard isActive, let t = known ?? schema.classIndex(named: link.className), t < tables.count else {
            return false
        }
        return tables[t].locate(key: link.key.rawValue) != nil
    }

    // Reads of one staged collection: they see its staged elements without merging them, so
    // that a fill reading the count or a key between inserts merges nothing (a merge after each
    // insert moved the elements after it: a scattered fill that read as it went was quadratic).
    // Each answers nil when nothing of that collection is staged (read the `reader` then).

    /// The number of elements of collection `property` of object `key` of table `t`, staged
    /// ones included; nil when none of its elements are staged.
    public func stagedElementCount(table t: Int, key: Int64, property: Int) -> Int? {
        guard let staged = staged(t, key, property) else { return nil }
        return elementCount(t, key, property) + staged.entries.count + staged.elements.count
    }

    /// The value under `mapKey` of map `property` of object `key` of table `t`, staged entries
    /// included (`.some(nil)`: no such key); nil when none of its entries are staged.
    public func stagedMapValue(forKey mapKey: String, table t: Int, key: Int64, property: Int) -> Value?? {
        guard let staged = staged(t, key, property) else { return nil }
        if let value = staged.entries[UTF8Key(mapKey)] { return .some(value) }
        guard let (b, row) = tables[t].locate(key: key) else { return .some(nil) }
        let block = tables[t].blocks[b]
        let (index, found) = block.position(ofKey: mapKey, row: row, column: property)
        return .some(found ? block.element(row: row, column: property, at: index) : nil)
    }

    /// The staged elements of collection `property` of object `key` of table `t`, if any.
    private func staged(_ t: Int, _ key: Int64, _ property: Int) -> StagedCollection? {
        guard isActive, let staged, staged.table == t, staged.key == key, staged.property == property else {
            return nil
        }
        return staged
    }

    /// The staged elements, if they are `target`'s.
    private func staged(_ target: CollectionTarget) -> StagedCollection? {
        guard let staged, staged.table == target.table, staged.key == target.key, staged.property == target.index
        else { return nil }
        return staged
    }

    /// The staged elements of `target`, begun now (after merging another collection's).
    private func stage(_ target: CollectionTarget) -> StagedCollection {
        if let current = staged(target) { return current }
        mergeStaged()
        let new = StagedCollection(table: target.table, key: target.key, property: target.index)
        staged = new
        return new
    }

    /// What a splice records for a written element, done when it is staged.
    private func stagedWrite(_ target: CollectionTarget, added value: Value) {
        addBacklinks(from: target.table, key: target.key, property: target.index, value: value)
        changes.modify(target.object.className, RowKey(target.key), target.property.name)
        writeCount += 1
    }

    /// Merges the staged elements into their collection's block: sorted once, then the row's
    /// elements rewritten in one splice (O(n + k log k) for k staged among n).
    func mergeStaged() {
        guard let staged else { return }
        self.staged = nil
        let (t, key, property) = (staged.table, staged.key, staged.property)
        guard let (b, row) = tables[t].locate(key: key) else { return }
        let block = tables[t].blocks[b]
        let count = block.elementCount(row: row, column: property)
        let stagedCount = staged.entries.count + staged.elements.count
        if stagedCount <= Self.spliceLimit {
            // A read between inserts merges after each one: a full merge would compare every
            // element each time (a fill that reads as it goes was quadratic in comparisons), a
            // splice finds its place by binary search and moves the tail once.
            spliceStaged(staged, t, key, property)
            return
        }
        let old = block.elements(row: row, column: property, range: 0..<count)
        elementsMoved += count + stagedCount
        var merged: [Value] = []
        merged.reserveCapacity(count + staged.entries.count + staged.elements.count)
        if staged.entries.isEmpty {
            let added = staged.elements.sorted { ValueOrdering.compare($0, $1) < 0 }
            var i = 0
            for value in old {
                while i < added.count, ValueOrdering.compare(added[i], value) < 0 {
                    merged.append(added[i])
                    i += 1
                }
                merged.append(value)
            }
            merged += added[i...]
            tables[t].replaceElements(key: key, property: property, range: 0..<count, with: merged, keys: nil)
            return
        }
        let oldKeys = (0..<count).map { block.mapKey(row: row, column: property, at: $0) }
        // Sorted as `MixedMap` sorts (by each key's first eight bytes as one integer first):
        // the staged keys are distinct, so none is dropped.
        let added = MixedMap(staged.entries.map { ($0.key.text, $0.value) }).entries.map { ($0.key, $0.value) }
        var keys: [String] = []
        keys.reserveCapacity(merged.capacity)
        var i = 0
        for (j, oldKey) in oldKeys.enumerated() {
            while i < added.count, compareUTF8(added[i].0, oldKey) < 0 {
                keys.append(added[i].0)
                merged.append(added[i].1)
                i += 1
            }
            keys.append(oldKey)
            merged.append(old[j])
        }
        for (addedKey, value) in added[i...] {
            keys.append(addedKey)
            merged.append(value)
        }
        tables[t].replaceElements(key: key, property: property, range: 0..<count, with: merged, keys: keys)
    }

    /// At most this many staged elements are spliced one by one rather than merged.
    static let spliceLimit = 16

    /// Splices each staged element into its place, found by binary search.
    private func spliceStaged(_ staged: StagedCollection, _ t: Int, _ key: Int64, _ property: Int) {
        for value in staged.elements {
            guard splice(value, mapKey: nil, t, key, property) else { return }
        }
        for (mapKey, value) in staged.entries {
            guard splice(value, mapKey: mapKey.text, t, key, property) else { return }
        }
    }

    /// Inserts one set element (`mapKey` nil) or map entry at its place in the collection of row
    /// `key`; false when the row is gone.
    private func splice(_ value: Value, mapKey: String?, _ t: Int, _ key: Int64, _ property: Int) -> Bool {
        guard let (b, row) = tables[t].locate(key: key) else { return false }
        let block = tables[t].blocks[b]
        let position =
            mapKey.map { block.position(ofKey: $0, row: row, column: property).index }
            ?? block.position(ofElement: value, row: row, column: property).index
        elementsMoved += block.elementCount(row: row, column: property) - position + 1
        tables[t].replaceElements(
            key: key,
            property: property,
            range: position..<position,
            with: [value],
            keys: mapKey.map { [$0] }
        )
        return true
    }

    // MARK: Helpers

    struct CollectionTarget {
        let table: Int
        let key: Int64
        let index: Int
        let property: Property
        let object: ObjectLink
        /// Whether the property's elements are embedded objects (`isEmbeddedTarget`, found once).
        let isEmbedded: Bool
    }

    /// The collection property `name` of an existing object. The property found last is kept
    /// (until the schema changes): a loop writing one collection finds its class and property
    /// by name once. `knownToExist`: the caller finds the object's row itself before it changes
    /// anything (and throws `unknownObject` when there is none), so the kept property's target
    /// is returned without looking it up here.
    private func collection(
        _ object: ObjectLink,
        _ name: String,
        _ kind: CollectionKind,
        knownToExist: Bool = false
    ) throws(WriteError) -> CollectionTarget {
        if let last = lastCollection, last.object.className == object.className, last.property.name == name {
            try checkOpen()
            guard knownToExist || tables[last.table].locate(key: object.key.rawValue) != nil else {
                throw .unknownObject(className: object.className, key: object.key)
            }
            guard last.property.collection == kind else {
                throw .wrongCollection(className: object.className, property: name, expected: kind)
            }
            return CollectionTarget(
                table: last.table,
                key: object.key.rawValue,
                index: last.index,
                property: last.property,
                object: object,
                isEmbedded: last.isEmbedded
            )
        }
        let (t, key) = try locate(object)
        let (index, property) = try writableProperty(t, name)
        guard property.collection == kind else {
            throw .wrongCollection(className: object.className, property: name, expected: kind)
        }
        let target = CollectionTarget(
            table: t,
            key: key,
            index: index,
            property: property,
            object: object,
            isEmbedded: isEmbeddedTarget(property)
        )
        lastCollection = target
        return target
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

    /// One list element, validated (an embedded one planned for creation). Other elements are
    /// checked alone, without the one-element list a plan of the property takes.
    private func plannedElement(_ value: Value, _ target: CollectionTarget) throws(WriteError) -> PlannedValue {
        guard target.isEmbedded else {
            try checkElement(value, of: target.property, in: target.object.className, key: target.object.key)
            return .value(value)
        }
        return try plan(.list([value]), for: target.property, in: target.object.className, key: target.object.key)
    }

    /// The element `plannedElement` planned: a checked value as it is, an embedded one created.
    private func materializeElement(_ planned: PlannedValue) -> Value {
        if case .value(let value) = planned { return value }
        if case .list(let items) = materialize(planned), let first = items.first { return first }
        return .null
    }
}

/// New elements of one set or map, kept by a write transaction until another operation needs
/// the collection whole (`WriteTransaction.mergeStaged`): none of them is in the block yet.
/// Their backlinks and change records are written when they are staged.
final class StagedCollection {
    let table: Int
    let key: Int64
    let property: Int
    /// A map's new keys and their values.
    var entries: [UTF8Key: Value] = [:]
    /// A set's new elements.
    var elements: Set<Value> = []

    init(table: Int, key: Int64, property: Int) {
        self.table = table
        self.key = key
        self.property = property
    }
}
