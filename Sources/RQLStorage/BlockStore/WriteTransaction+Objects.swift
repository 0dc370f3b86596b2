import RQLCore

extension WriteTransaction {
    /// Inserts an object of a top-level class and returns its key (the next key of its class).
    ///
    /// `values` maps property names to values; missing properties take their defaults (null,
    /// zero, empty). Links point at existing objects. A property whose class is embedded takes
    /// the new embedded object's own values as a `.map` (a list of them for `list<Embedded>`,
    /// a map of them or null for `map<Embedded?>`); those objects are created with their owner.
    ///
    /// ```swift
    /// let key = try transaction.insert("Person", [
    ///     "name": .string("Ann"),
    ///     "dogs": .list([.link(rex)]),
    ///     "address": .map(MixedMap(["city": .string("Oslo")])),   // embedded Address
    /// ])
    /// ```
    @discardableResult
    public func insert(_ className: String, _ values: [String: Value] = [:]) throws(WriteError) -> RowKey {
        let t = try tableIndex(className)
        guard !tables[t].objectSchema.isEmbedded else { throw .embeddedClass(className) }
        if let row = try plainRow(t, values) {
            if let pk = tables[t].objectSchema.primaryKeyIndex { try checkUniquePrimaryKey(t, row[pk], key: nil) }
            let link = createRow(t, row)
            writeCount += 1
            return link.key
        }
        let planned = try planObject(t, values.map { ($0.key, $0.value) }, key: nil)
        if let pk = tables[t].objectSchema.primaryKeyIndex, case .value(let value) = planned[pk] {
            try checkUniquePrimaryKey(t, value, key: nil)
        }
        let link = create(t, planned)
        writeCount += 1
        return link.key
    }

    /// Sets one property of an existing object. A collection property takes its whole new
    /// content; an embedded property a new object's values (the old embedded object is
    /// deleted). The primary key cannot change (setting the same value is allowed).
    ///
    /// ```swift
    /// try transaction.set("age", of: ObjectLink(className: "Dog", key: rex), to: .int(4))
    /// ```
    public func set(_ property: String, of object: ObjectLink, to value: Value) throws(WriteError) {
        let (t, key) = try locate(object)
        let (index, schemaProperty) = try writableProperty(t, property)
        if index == tables[t].objectSchema.primaryKeyIndex {
            guard value == currentValue(t, key, index) else {
                throw .primaryKeyChanged(className: object.className, property: property, key: object.key)
            }
            return
        }
        let planned = try plan(value, for: schemaProperty, in: object.className, key: object.key)
        if isEmbeddedTarget(schemaProperty) { deleteEmbeddedChildren(t, key, index) }
        writeValue(t, key, index, materialize(planned))
    }

    /// Deletes an object with Realm's rules: its embedded objects go with it; to-one links and
    /// map values pointing at it become null; list and set elements pointing at it are
    /// removed. Deleting an embedded object removes it from its owner.
    ///
    /// ```swift
    /// try transaction.delete(ObjectLink(className: "Dog", key: rex))
    /// ```
    public func delete(_ object: ObjectLink) throws(WriteError) {
        let (t, key) = try locate(object)
        deleteObjects([(t, key)])
    }

    /// Deletes every object of a class (embedded objects through their owners' rules).
    public func deleteAll(_ className: String) throws(WriteError) {
        let t = try tableIndex(className)
        var keys: [(table: Int, key: Int64)] = []
        for block in tables[t].blocks {
            for row in 0..<block.count { keys.append((t, block.key(at: row))) }
        }
        deleteObjects(keys)
    }

    func checkUniquePrimaryKey(_ t: Int, _ value: Value, key: RowKey?) throws(WriteError) {
        guard let pk = tables[t].objectSchema.primaryKeyIndex, let index = tables[t].indexes[pk] else { return }
        if !index.rows(equalTo: value, limit: 1).isEmpty {
            throw .duplicatePrimaryKey(
                className: className(t),
                property: tables[t].objectSchema.properties[pk].name,
                key: key,
                value: value
            )
        }
    }

    /// Deletes the embedded objects that property `index` of row `key` owns.
    func deleteEmbeddedChildren(_ t: Int, _ key: Int64, _ index: Int) {
        var children: [(table: Int, key: Int64)] = []
        currentValue(t, key, index).forEachLink { child in
            if let childTable = schema.classIndex(named: child.className) {
                children.append((childTable, child.key.rawValue))
            }
        }
        if !children.isEmpty { deleteObjects(children) }
    }
}
