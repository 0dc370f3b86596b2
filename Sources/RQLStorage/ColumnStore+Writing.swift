import RQLCore

/// Why building or changing a `ColumnStore` through its Swift API was refused; nothing is
/// changed. (Loading JSON reports `DatasetError` instead.)
public enum StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The schema has no class of this name.
    case unknownClass(String)
    /// Embedded objects are deleted through their parent, not directly.
    case embeddedClass(String)
    /// No object of the class has this key.
    case unknownObject(className: String, key: RowKey)
    /// The class has no property of this name (or it is a computed backlink).
    case unknownProperty(className: String, property: String)
    /// A column has a different number of rows than the class's other columns.
    case rowCountMismatch(className: String, property: String, expected: Int, found: Int)
    /// The value at `row` does not fit the property's type (or is null in a required property).
    case typeMismatch(className: String, property: String, row: Int)
    /// The primary key at `row` repeats an earlier row's.
    case duplicatePrimaryKey(className: String, property: String, row: Int)
    /// The link at `row` points at no object.
    case danglingLink(className: String, property: String, row: Int)

    public var description: String {
        switch self {
        case .unknownClass(let name): "unknown class '\(name)'"
        case .embeddedClass(let name): "class '\(name)' is embedded; delete or replace its parent's link instead"
        case .unknownObject(let name, let key): "class '\(name)' has no object \(key)"
        case .unknownProperty(let c, let p): "class '\(c)' has no stored property '\(p)'"
        case .rowCountMismatch(let c, let p, let expected, let found):
            "\(c).\(p): \(found) rows where the other columns have \(expected)"
        case .typeMismatch(let c, let p, let row): "\(c)[\(row)].\(p): value does not fit the property's type"
        case .duplicatePrimaryKey(let c, let p, let row): "\(c)[\(row)].\(p): duplicate primary key"
        case .danglingLink(let c, let p, let row): "\(c)[\(row)].\(p): link to an object that does not exist"
        }
    }
}

extension ColumnStore {
    /// Deletes objects of a top-level class in one commit and returns the new snapshot with
    /// `version + 1`. The embedded objects they own are deleted with them; to-one links and map
    /// values pointing at deleted objects become null, and list and set elements pointing at
    /// them are removed. Remaining objects keep their row keys.
    ///
    /// ```swift
    /// let next = try store.deleting([RowKey(0)], from: "Dog")
    /// next.table(named: "Dog")?.position(of: RowKey(0))  // nil
    /// ```
    public func deleting(_ keys: [RowKey], from className: String) throws(StoreError) -> ColumnStore {
        guard let objectSchema = schema[className], let table = table(named: className) else {
            throw .unknownClass(className)
        }
        guard !objectSchema.isEmbedded else { throw .embeddedClass(className) }
        for key in keys where table.position(of: key) == nil { throw .unknownObject(className: className, key: key) }
        var contents = allRows()
        var doomed: [String: Set<RowKey>] = [className: Set(keys)]
        // Cascade to owned embedded objects, breadth first.
        var queue = keys.map { ObjectLink(className: className, key: $0) }
        while let next = queue.popLast() {
            guard let (owner, position) = resolve(next) else { continue }
            for (column, property) in owner.objectSchema.properties.enumerated() {
                guard case .object(let target) = property.type, schema[target]?.isEmbedded == true else { continue }
                ColumnStore.forEachLink(in: owner.value(at: position, property: column)) { link in
                    if doomed[link.className, default: []].insert(link.key).inserted { queue.append(link) }
                }
            }
        }
        for (name, removed) in doomed {
            guard var rows = contents[name] else { continue }
            let kept = rows.keys.indices.filter { !removed.contains(rows.keys[$0]) }
            rows.keys = kept.map { rows.keys[$0] }
            rows.rows = kept.map { rows.rows[$0] }
            contents[name] = rows
        }
        for objectSchema in schema.classes {
            guard var rows = contents[objectSchema.name] else { continue }
            for (column, property) in objectSchema.properties.enumerated() {
                switch property.type {
                case .object, .mixed: break
                default: continue
                }
                for row in rows.rows.indices where column < rows.rows[row].count {
                    rows.rows[row][column] = ColumnStore.removingLinks(
                        to: doomed,
                        in: rows.rows[row][column],
                        property: property
                    )
                }
            }
            contents[objectSchema.name] = rows
        }
        return ColumnStore(schema: schema, contents: contents, version: version + 1)
    }

    package func allRows() -> [String: TableRows] {
        Dictionary(uniqueKeysWithValues: schema.classes.map { ($0.name, rows(of: $0.name)) })
    }

    static func forEachLink(in value: Value, _ body: (ObjectLink) -> Void) {
        switch value {
        case .link(let link): body(link)
        case .list(let items): for item in items { forEachLink(in: item, body) }
        case .map(let map): for entry in map { forEachLink(in: entry.value, body) }
        default: break
        }
    }

    private static func removingLinks(to doomed: [String: Set<RowKey>], in value: Value, property: Property) -> Value {
        func isDoomed(_ value: Value) -> Bool {
            if case .link(let link) = value { return doomed[link.className]?.contains(link.key) ?? false }
            return false
        }
        switch value {
        case .link: return isDoomed(value) ? .null : value
        case .list(let items):
            // Link lists and sets drop the element; a mixed list keeps its shape with a null.
            if property.type != .mixed && !property.isBacklink { return .list(items.filter { !isDoomed($0) }) }
            return .list(items.map { removingLinks(to: doomed, in: $0, property: property) })
        case .map(let map):
            return .map(MixedMap(map.map { ($0.key, removingLinks(to: doomed, in: $0.value, property: property)) }))
        default: return value
        }
    }
}
