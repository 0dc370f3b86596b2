import RQLCore

/// The index kinds a property can be given inside a write transaction.
///
/// ```swift
/// try transaction.addIndex(.hash, on: "age", of: "Dog")      // == and ranges on age
/// try transaction.addIndex(.fullText, on: "bio", of: "Person")
/// ```
public enum IndexKind: Hashable, Sendable {
    /// Realm's `indexed`: equality lookups. The store keeps it ordered, so it also answers range
    /// lookups (`TableReader.indexRange`): it is the hash and the sorted index in one tree.
    case hash
    /// A full-text index for `TEXT` on a string property.
    case fullText
}

/// Schema changes inside a write transaction (migrations use them). Each builds the new schema
/// and validates it before touching data, so a refused change changes nothing.
extension WriteTransaction {
    /// Adds a class with no objects.
    public func addClass(_ objectSchema: ObjectSchema) throws(WriteError) {
        try checkOpen()
        guard schema[objectSchema.name] == nil else { throw .classExists(objectSchema.name) }
        let newSchema = try validated(schema.classes + [objectSchema])
        schema = newSchema
        tables.append(TableData(objectSchema: objectSchema))
        changes.schemaChanged = true
        writeCount += 1
    }

    /// Removes a class and its objects (with the usual deletion rules for links into it). The
    /// remaining schema must not refer to it.
    public func removeClass(_ className: String) throws(WriteError) {
        let t = try tableIndex(className)
        var classes = schema.classes
        classes.remove(at: t)
        let newSchema = try validated(classes)
        try deleteAll(className)
        schema = newSchema
        tables.remove(at: t)
        changes.removeClass(className)
        writeCount += 1
    }

    /// Adds a property at the end of a class's properties, every existing object taking
    /// `defaultValue` (the property's default when `nil`: null, zero, empty). An embedded-link
    /// property can only start empty.
    public func addProperty(_ property: Property, to className: String, defaultValue: Value? = nil) throws(WriteError) {
        let t = try tableIndex(className)
        let old = tables[t].objectSchema
        guard old.property(named: property.name) == nil else {
            throw .propertyExists(className: className, property: property.name)
        }
        let objectSchema = ObjectSchema(
            name: old.name,
            properties: old.properties + [property],
            primaryKey: old.primaryKey,
            isEmbedded: old.isEmbedded
        )
        let newSchema = try validated(replacing: t, with: objectSchema)
        var fill = Value.null
        if !property.isBacklink {
            fill = try checked(
                defaultValue ?? property.defaultValue,
                for: property,
                in: className,
                key: nil
            )
            if isEmbeddedTarget(property) && !fill.isLinkFree {
                throw mismatch(property, className, nil, fill)
            }
        }
        let index = old.properties.count
        schema = newSchema
        tables[t].objectSchema = objectSchema
        tables[t].touch()
        let shape = SegmentShape(property)
        for b in tables[t].blocks.indices {
            let count = tables[t].blocks[b].count
            let segment = Segment.build(shape, Array(repeating: fill, count: count), limit: TableBlock.capacity)
            tables[t].mutateBlock(b) { $0.appendColumn(segment) }
            spillFinishedBlock(t, b)
        }
        if TableData.hasIndex(property, index, objectSchema) { tables[t].rebuildIndex(index) }
        if property.isFullText { tables[t].rebuildFullText(index) }
        if !fill.isLinkFree {
            for block in tables[t].blocks {
                for row in 0..<block.count {
                    addBacklinks(from: t, key: block.key(at: row), property: index, value: fill)
                }
            }
        }
        changes.schemaChanged = true
        writeCount += 1
    }

    /// Removes a property and its values. Embedded objects it owned are deleted; a removed
    /// primary key leaves the class without one.
    public func removeProperty(_ name: String, from className: String) throws(WriteError) {
        let t = try tableIndex(className)
        let old = tables[t].objectSchema
        guard let index = old.propertyIndex(named: name) else {
            throw .unknownProperty(className: className, property: name)
        }
        var properties = old.properties
        let property = properties.remove(at: index)
        let objectSchema = ObjectSchema(
            name: old.name,
            properties: properties,
            primaryKey: old.primaryKey == name ? nil : old.primaryKey,
            isEmbedded: old.isEmbedded
        )
        let newSchema = try validated(replacing: t, with: objectSchema)
        // Only a property that can hold links has links to undo. Each pass reads the table a
        // block at a time and drops the block's mapped pages after it: the loop below reads
        // every block again, so a table of a million objects is not kept resident in between.
        if !property.isBacklink && property.canHoldLinks {
            if isEmbeddedTarget(property) {
                var owned: [(table: Int, key: Int64)] = []
                for block in tables[t].blocks {
                    for row in 0..<block.count {
                        block.value(at: row, column: index).forEachLink { child in
                            if let c = schema.classIndex(named: child.className) {
                                owned.append((c, child.key.rawValue))
                            }
                        }
                    }
                    block.releaseMappedPages()
                }
                if !owned.isEmpty { deleteObjects(owned) }
            }
            for block in tables[t].blocks {
                for row in 0..<block.count {
                    removeBacklinks(
                        from: t,
                        key: block.key(at: row),
                        property: index,
                        value: block.value(at: row, column: index)
                    )
                }
                block.releaseMappedPages()
            }
        }
        schema = newSchema
        tables[t].objectSchema = objectSchema
        tables[t].touch()
        for b in tables[t].blocks.indices {
            tables[t].mutateBlock(b) { $0.removeColumn(index) }
            spillFinishedBlock(t, b)
        }
        tables[t].indexes = Self.shifted(tables[t].indexes, removing: index)
        tables[t].fullText = Self.shifted(tables[t].fullText, removing: index)
        changes.removeProperty(className, name)
        writeCount += 1
    }

    /// Renames a property; `linkingObjects` that name it as their origin follow.
    public func renameProperty(_ name: String, to newName: String, in className: String) throws(WriteError) {
        let t = try tableIndex(className)
        let old = tables[t].objectSchema
        guard let index = old.propertyIndex(named: name) else {
            throw .unknownProperty(className: className, property: name)
        }
        guard old.property(named: newName) == nil else {
            throw .propertyExists(className: className, property: newName)
        }
        var classes = schema.classes
        for (c, objectSchema) in classes.enumerated() {
            var properties = objectSchema.properties
            for (p, property) in properties.enumerated() {
                if c == t && p == index {
                    properties[p] = Self.renamed(property, to: newName, type: property.type)
                } else if case .linkingObjects(className, name) = property.type {
                    properties[p] = Self.renamed(
                        property,
                        to: property.name,
                        type: .linkingObjects(className: className, property: newName)
                    )
                }
            }
            classes[c] = ObjectSchema(
                name: objectSchema.name,
                properties: properties,
                primaryKey: c == t && objectSchema.primaryKey == name ? newName : objectSchema.primaryKey,
                isEmbedded: objectSchema.isEmbedded
            )
        }
        let newSchema = try validated(classes)
        schema = newSchema
        for c in tables.indices {
            tables[c].objectSchema = newSchema.classes[c]
            tables[c].touch()
            tables[c].backlinks.renameOrigin(
                BacklinkOrigin(className: className, property: name),
                to: BacklinkOrigin(className: className, property: newName)
            )
        }
        changes.renameProperty(className, from: name, to: newName)
        writeCount += 1
    }

    /// Gives a property an index of `kind`, built from its current values. Adding an index it
    /// has does nothing.
    public func addIndex(_ kind: IndexKind, on property: String, of className: String) throws(WriteError) {
        try setIndex(kind, on: property, of: className, to: true)
    }

    /// Drops a property's index of `kind` (a primary key keeps its own).
    public func removeIndex(_ kind: IndexKind, from property: String, of className: String) throws(WriteError) {
        try setIndex(kind, on: property, of: className, to: false)
    }

    private func setIndex(_ kind: IndexKind, on name: String, of className: String, to enabled: Bool) throws(WriteError)
    {
        let t = try tableIndex(className)
        let old = tables[t].objectSchema
        guard let index = old.propertyIndex(named: name) else {
            throw .unknownProperty(className: className, property: name)
        }
        var property = old.properties[index]
        let present = kind == .hash ? property.isIndexed : property.isFullText
        guard present != enabled else { return }
        if kind == .hash { property.isIndexed = enabled } else { property.isFullText = enabled }
        var properties = old.properties
        properties[index] = property
        let objectSchema = ObjectSchema(
            name: old.name,
            properties: properties,
            primaryKey: old.primaryKey,
            isEmbedded: old.isEmbedded
        )
        schema = try validated(replacing: t, with: objectSchema)
        tables[t].objectSchema = objectSchema
        tables[t].touch()
        switch (kind, enabled) {
        case (.hash, true): if tables[t].indexes[index] == nil { tables[t].rebuildIndex(index) }
        case (.hash, false): if index != objectSchema.primaryKeyIndex { tables[t].indexes[index] = nil }
        case (.fullText, true): tables[t].rebuildFullText(index)
        case (.fullText, false): tables[t].fullText[index] = nil
        }
        changes.schemaChanged = true
        writeCount += 1
    }

    private func validated(_ classes: [ObjectSchema]) throws(WriteError) -> Schema {
        do {
            return try Schema(classes)
        } catch {
            throw .schema(error)
        }
    }

    private func validated(replacing t: Int, with objectSchema: ObjectSchema) throws(WriteError) -> Schema {
        var classes = schema.classes
        classes[t] = objectSchema
        return try validated(classes)
    }

    private static func renamed(_ property: Property, to name: String, type: PropertyType) -> Property {
        Property(
            name: name,
            type: type,
            isOptional: property.isOptional,
            collection: property.collection,
            isIndexed: property.isIndexed,
            isFullText: property.isFullText
        )
    }

    /// A property-keyed dictionary after property `removed` is gone: later keys move down.
    private static func shifted<V>(_ dictionary: [Int: V], removing removed: Int) -> [Int: V] {
        var result: [Int: V] = [:]
        for (key, value) in dictionary where key != removed { result[key > removed ? key - 1 : key] = value }
        return result
    }
}
