import Foundation
import RQLCore
import RQLDatasets

@testable import RQLStorage

/// The plain model the block store is checked against: per class, rows of `Value`s in key order,
/// changed by the simplest code that follows Realm's rules, and read the way a store is read
/// (`dump`, backlinks and index lookups computed by scanning the rows).
struct DifferentialModel {
    struct Table {
        var keys: [Int64] = []
        var rows: [[Value]] = []
        var nextKey: Int64 = 0
    }

    var schema: Schema
    var tables: [String: Table]

    init(schema: Schema) {
        self.schema = schema
        tables = Dictionary(uniqueKeysWithValues: schema.classes.map { ($0.name, Table()) })
    }

    func position(_ object: ObjectLink) -> Int? {
        tables[object.className]?.keys.firstIndex(of: object.key.rawValue)
    }

    func value(_ object: ObjectLink, _ property: String) -> Value {
        let index = schema[object.className]!.propertyIndex(named: property)!
        return tables[object.className]!.rows[position(object)!][index]
    }

    func objects(_ className: String) -> [ObjectLink] {
        (tables[className]?.keys ?? []).map { ObjectLink(className: className, key: RowKey($0)) }
    }

    /// Every class's rows by key, as `Fixtures.dump` reads a store: the stored values, and for
    /// each backlink property the origin objects' links to the row, one per link, in origin key
    /// order.
    var dump: [String: [RowKey: [Value]]] {
        let links = incomingLinks
        var result: [String: [RowKey: [Value]]] = [:]
        for objectSchema in schema.classes {
            let table = tables[objectSchema.name] ?? Table()
            var rows: [RowKey: [Value]] = [:]
            for (position, key) in table.keys.enumerated() {
                let target = ObjectLink(className: objectSchema.name, key: RowKey(key))
                rows[RowKey(key)] = objectSchema.properties.enumerated().map { index, property in
                    guard case .linkingObjects(let origin, let originProperty) = property.type else {
                        return table.rows[position][index]
                    }
                    let sources = links[target, default: []].filter {
                        $0.origin == BacklinkOrigin(className: origin, property: originProperty)
                    }
                    return .list(sources.map { .link(ObjectLink(className: origin, key: RowKey($0.source))) })
                }
            }
            result[objectSchema.name] = rows
        }
        return result
    }

    /// Per linked object, every link to it: the origin class and property, and the origin
    /// object's key, one entry per link, in origin key order.
    var incomingLinks: [ObjectLink: [(origin: BacklinkOrigin, source: Int64)]] {
        var result: [ObjectLink: [(origin: BacklinkOrigin, source: Int64)]] = [:]
        for objectSchema in schema.classes {
            guard let table = tables[objectSchema.name] else { continue }
            for (index, property) in objectSchema.properties.enumerated() where !property.isBacklink {
                let origin = BacklinkOrigin(className: objectSchema.name, property: property.name)
                for (row, key) in table.keys.enumerated() {
                    table.rows[row][index].forEachLink { result[$0, default: []].append((origin, key)) }
                }
            }
        }
        return result
    }

    /// Per indexed property (or primary key) of each class, by property position, the positions
    /// of each value as an index compares values (`EqualityKey`).
    var indexedPositions: [String: [Int: [EqualityKey: [Int]]]] {
        var result: [String: [Int: [EqualityKey: [Int]]]] = [:]
        for objectSchema in schema.classes {
            guard let table = tables[objectSchema.name] else { continue }
            for (index, property) in objectSchema.properties.enumerated()
            where property.isIndexed || index == objectSchema.primaryKeyIndex {
                var positions: [EqualityKey: [Int]] = [:]
                for (position, row) in table.rows.enumerated() {
                    positions[EqualityKey(row[index]), default: []].append(position)
                }
                result[objectSchema.name, default: [:]][index] = positions
            }
        }
        return result
    }

    // MARK: Objects

    /// A new object from property values, embedded objects given as maps of their values; the
    /// embedded objects are created first, in property order, as the store does.
    @discardableResult
    mutating func insert(_ className: String, _ given: [String: Value]) -> ObjectLink {
        let objectSchema = schema[className]!
        var row: [Value] = []
        for property in objectSchema.properties {
            if property.isBacklink {
                row.append(.null)
            } else {
                row.append(stored(given[property.name] ?? property.defaultValue, for: property))
            }
        }
        let key = tables[className]!.nextKey
        tables[className]!.nextKey += 1
        tables[className]!.keys.append(key)
        tables[className]!.rows.append(row)
        return ObjectLink(className: className, key: RowKey(key))
    }

    /// What a property stores for an input value: embedded objects created, sets ordered.
    mutating func stored(_ value: Value, for property: Property) -> Value {
        if case .object(let target) = property.type, schema[target]!.isEmbedded {
            func child(_ value: Value) -> Value {
                guard case .map(let values) = value else { return .null }
                return .link(insert(target, Dictionary(uniqueKeysWithValues: values.map { ($0.key, $0.value) })))
            }
            switch value {
            case .map(let map) where property.collection == .map:
                return .map(MixedMap(map.map { ($0.key, child($0.value)) }))
            case .list(let items): return .list(items.map(child))
            default: return child(value)
            }
        }
        if property.collection == .set, case .list(let items) = value {
            var unique: [Value] = []
            for item in items.sorted(by: { ValueOrdering.compare($0, $1) < 0 })
            where unique.last.map({ ValueOrdering.compare($0, item) != 0 }) ?? true {
                unique.append(item)
            }
            return .list(unique)
        }
        return value
    }

    mutating func set(_ object: ObjectLink, _ name: String, _ value: Value) {
        let property = schema[object.className]!.property(named: name)!
        if case .object(let target) = property.type, schema[target]!.isEmbedded {
            delete(links(in: self.value(object, name)))
        }
        let newValue = stored(value, for: property)
        write(object, name, newValue)
    }

    mutating func write(_ object: ObjectLink, _ name: String, _ value: Value) {
        let index = schema[object.className]!.propertyIndex(named: name)!
        guard let position = position(object) else { return }
        tables[object.className]!.rows[position][index] = value
    }

    func links(in value: Value) -> [ObjectLink] {
        switch value {
        case .link(let link): return [link]
        case .list(let items): return items.flatMap(links)
        case .map(let map): return map.values.flatMap(links)
        default: return []
        }
    }

    /// Realm's deletion rules: owned embedded objects go too; links to deleted objects become
    /// null (to-one, map values, inside mixed), or leave link lists and sets.
    mutating func delete(_ roots: [ObjectLink]) {
        var doomed = Set<ObjectLink>()
        var queue = roots
        while let next = queue.popLast() {
            guard position(next) != nil, doomed.insert(next).inserted else { continue }
            for property in schema[next.className]!.properties {
                if case .object(let target) = property.type, schema[target]!.isEmbedded {
                    queue.append(contentsOf: links(in: value(next, property.name)))
                }
            }
        }
        for objectSchema in schema.classes {
            var table = tables[objectSchema.name]!
            for (index, property) in objectSchema.properties.enumerated() {
                guard property.type == .mixed || property.type.targetClassName != nil, !property.isBacklink else {
                    continue
                }
                for row in table.rows.indices {
                    table.rows[row][index] = Self.without(
                        doomed,
                        table.rows[row][index],
                        mixed: property.type == .mixed
                    )
                }
            }
            let kept = table.keys.indices.filter {
                !doomed.contains(ObjectLink(className: objectSchema.name, key: RowKey(table.keys[$0])))
            }
            table.keys = kept.map { table.keys[$0] }
            table.rows = kept.map { table.rows[$0] }
            tables[objectSchema.name] = table
        }
    }

    static func without(_ doomed: Set<ObjectLink>, _ value: Value, mixed: Bool) -> Value {
        switch value {
        case .link(let link): return doomed.contains(link) ? .null : value
        case .list(let items):
            if !mixed {
                return .list(items.filter { if case .link(let l) = $0 { !doomed.contains(l) } else { true } })
            }
            return .list(items.map { without(doomed, $0, mixed: true) })
        case .map(let map): return .map(MixedMap(map.map { ($0.key, without(doomed, $0.value, mixed: mixed)) }))
        default: return value
        }
    }

    // MARK: Collections

    mutating func listInsert(_ object: ObjectLink, _ name: String, _ value: Value, at index: Int) {
        guard case .list(var items) = self.value(object, name) else { return }
        let property = schema[object.className]!.property(named: name)!
        guard case .list(let made) = stored(.list([value]), for: property) else { return }
        items.insert(made[0], at: index)
        write(object, name, .list(items))
    }

    mutating func listRemove(_ object: ObjectLink, _ name: String, at index: Int) {
        guard case .list(var items) = value(object, name) else { return }
        if case .link(let child) = items[index], schema[child.className]!.isEmbedded {
            delete([child])
            return
        }
        items.remove(at: index)
        write(object, name, .list(items))
    }

    mutating func listMove(_ object: ObjectLink, _ name: String, from: Int, to: Int) {
        guard case .list(var items) = value(object, name) else { return }
        items.insert(items.remove(at: from), at: to)
        write(object, name, .list(items))
    }

    mutating func listReplace(_ object: ObjectLink, _ name: String, at index: Int, with value: Value) {
        guard case .list(var items) = self.value(object, name) else { return }
        if case .link(let child) = items[index], schema[child.className]!.isEmbedded {
            delete([child])
            listInsert(object, name, value, at: index)
            return
        }
        let property = schema[object.className]!.property(named: name)!
        guard case .list(let made) = stored(.list([value]), for: property) else { return }
        items[index] = made[0]
        write(object, name, .list(items))
    }

    mutating func removeAll(_ object: ObjectLink, _ name: String) {
        let property = schema[object.className]!.property(named: name)!
        if case .object(let target) = property.type, schema[target]!.isEmbedded {
            delete(links(in: value(object, name)))
        }
        write(object, name, property.collection == .map ? .map(MixedMap()) : .list([]))
    }

    mutating func setInsert(_ object: ObjectLink, _ name: String, _ value: Value) {
        guard case .list(let items) = self.value(object, name) else { return }
        set(object, name, .list(items + [value]))
    }

    mutating func setRemove(_ object: ObjectLink, _ name: String, _ value: Value) {
        guard case .list(let items) = self.value(object, name) else { return }
        write(object, name, .list(items.filter { ValueOrdering.compare($0, value) != 0 }))
    }

    mutating func mapSet(_ object: ObjectLink, _ name: String, key: String, _ value: Value) {
        guard case .map(var map) = self.value(object, name) else { return }
        if let old = map[key], case .link(let child) = old, schema[child.className]!.isEmbedded {
            delete([child])
            guard case .map(let after) = self.value(object, name) else { return }
            map = after
        }
        let property = schema[object.className]!.property(named: name)!
        guard case .map(let made) = stored(.map(MixedMap([(key, value)])), for: property) else { return }
        map[key] = made[key]
        write(object, name, .map(map))
    }

    mutating func mapRemove(_ object: ObjectLink, _ name: String, key: String) {
        guard case .map(var map) = self.value(object, name), let old = map[key] else { return }
        if case .link(let child) = old, schema[child.className]!.isEmbedded { delete([child]) }
        guard case .map(let after) = self.value(object, name) else { return }
        map = after
        map[key] = nil
        write(object, name, .map(map))
    }

    // MARK: Schema

    /// Follows a schema change made in the store: rows gain a filled column, lose one, or keep
    /// theirs (renames, indexes).
    mutating func adopt(
        _ newSchema: Schema,
        added: (className: String, fill: Value)? = nil,
        removed: (className: String, index: Int)? = nil
    ) {
        if let added {
            for row in tables[added.className]!.rows.indices { tables[added.className]!.rows[row].append(added.fill) }
        }
        if let removed {
            for row in tables[removed.className]!.rows.indices {
                tables[removed.className]!.rows[row].remove(at: removed.index)
            }
        }
        for objectSchema in newSchema.classes where tables[objectSchema.name] == nil {
            tables[objectSchema.name] = Table()
        }
        for name in Array(tables.keys) where newSchema[name] == nil { tables[name] = nil }
        schema = newSchema
    }
}
