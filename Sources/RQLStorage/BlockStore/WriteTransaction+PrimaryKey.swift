import RQLCore

/// Schema changes a migration makes around its block: primary keys dropped during it and set
/// again after it (checked for duplicates then), and classes removed together.
extension WriteTransaction {
    /// Makes `name` the class's primary key (nil: no primary key). Setting one checks that no
    /// two objects share a value, before anything changes; a property that was the primary key
    /// keeps its index only when it is indexed itself.
    ///
    /// ```swift
    /// try transaction.setPrimaryKey(nil, of: "Dog")   // during a migration's block
    /// try transaction.setPrimaryKey("id", of: "Dog")  // after it: .duplicatePrimaryKey if two share one
    /// ```
    public func setPrimaryKey(_ name: String?, of className: String) throws(WriteError) {
        let t = try tableIndex(className)
        let old = tables[t].objectSchema
        guard old.primaryKey != name else { return }
        let objectSchema = ObjectSchema(
            name: old.name,
            properties: old.properties,
            primaryKey: name,
            isEmbedded: old.isEmbedded
        )
        if let name, objectSchema.primaryKeyIndex == nil {
            throw .unknownProperty(className: className, property: name)
        }
        var classes = schema.classes
        classes[t] = objectSchema
        let newSchema: Schema
        do {
            newSchema = try Schema(classes)
        } catch {
            throw .schema(error)
        }
        var index: PropertyIndex?
        if let pk = objectSchema.primaryKeyIndex {
            let built =
                tables[t].indexes[pk] ?? PropertyIndex(for: old.properties[pk], entries: tables[t].entries(of: pk))
            for block in tables[t].blocks {
                for row in 0..<block.count {
                    let value = block.value(at: row, column: pk)
                    if built.rows(equalTo: value, limit: 2).count > 1 {
                        throw .duplicatePrimaryKey(
                            className: className,
                            property: old.properties[pk].name,
                            key: RowKey(block.key(at: row)),
                            value: value
                        )
                    }
                }
            }
            index = built
        }
        schema = newSchema
        tables[t].objectSchema = objectSchema
        tables[t].touch()
        if let oldPK = old.primaryKeyIndex, !old.properties[oldPK].isIndexed { tables[t].indexes[oldPK] = nil }
        if let pk = objectSchema.primaryKeyIndex { tables[t].indexes[pk] = index }
        changes.schemaChanged = true
        writeCount += 1
    }

    /// Removes several classes and their objects at once, so that classes linking to each other
    /// can go together; the remaining schema must not refer to them.
    public func removeClasses(_ classNames: [String]) throws(WriteError) {
        var removed: [Int] = []
        for className in classNames { removed.append(try tableIndex(className)) }
        let remaining = schema.classes.indices.filter { !removed.contains($0) }.map { schema.classes[$0] }
        let newSchema: Schema
        do {
            newSchema = try Schema(remaining)
        } catch {
            throw .schema(error)
        }
        for className in classNames { try deleteAll(className) }
        schema = newSchema
        for t in removed.sorted(by: >) { tables.remove(at: t) }
        for className in classNames { changes.removeClass(className) }
        writeCount += 1
    }
}
