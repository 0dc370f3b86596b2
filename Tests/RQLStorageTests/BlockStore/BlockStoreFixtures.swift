import Foundation
import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage

/// The schema and helpers the block store's tests share: every property shape (scalars, optional
/// scalars, collections of each kind, links, embedded objects in each position, mixed, backlinks)
/// and readers that turn a store into plain values for comparison.
enum Fixtures {
    static let schemaJSON = #"""
        {"schema": {
          "Person": {"primaryKey": "id", "indexed": ["name", "age"], "fulltext": ["bio"],
            "properties": {
              "id": "int", "name": "string", "age": "int?", "score": "double", "bio": "string?",
              "tags": "list<string>", "nums": "set<int>", "attrs": "map<string?>",
              "dogs": "list<Dog>", "best": "Dog?", "anything": "mixed", "address": "Address?",
              "addresses": "list<Address>", "places": "map<Address?>", "blob": "data?", "when": "date?",
              "mixes": "list<mixed>"
            }},
          "Dog": {"indexed": ["name"], "properties": {
              "name": "string", "age": "int", "toy": "mixed", "owners": "linkingObjects<Person.dogs>"
            }},
          "Address": {"embedded": true, "properties": {
              "street": "string", "city": "string?", "tags": "list<string>"
            }}
        }}
        """#

    static func schema() throws -> Schema {
        try DatasetLoader.loadSchema(json: schemaJSON)
    }

    static func store() throws -> BlockStore {
        BlockStore(schema: try schema())
    }

    /// Every object of every class as key and property values (backlinks included), by class.
    static func dump(_ store: some StoreReader) -> [String: [RowKey: [Value]]] {
        var result: [String: [RowKey: [Value]]] = [:]
        for objectSchema in store.schema.classes {
            guard let table = store.table(named: objectSchema.name) else { continue }
            var rows: [RowKey: [Value]] = [:]
            for position in 0..<table.rowCount {
                rows[table.rowKey(at: position)] = objectSchema.properties.indices.map {
                    table.value(at: position, property: $0)
                }
            }
            result[objectSchema.name] = rows
        }
        return result
    }

    /// Checks that every block's views say what `value(at:)` says, that blocks partition the
    /// positions, and that keys ascend.
    static func checkViews(_ table: some TableReader, sourceLocation: SourceLocation = #_sourceLocation) {
        var next = 0
        var previousKey: RowKey?
        for b in 0..<table.blockCount {
            table.withBlock(b) { block in
                #expect(block.positions.lowerBound == next, sourceLocation: sourceLocation)
                #expect(block.count > 0 && block.count <= TableBlock.capacity, sourceLocation: sourceLocation)
                next = block.positions.upperBound
                for i in 0..<block.count {
                    let position = block.positions.lowerBound + i
                    #expect(block.rowKeys[i] == table.rowKey(at: position), sourceLocation: sourceLocation)
                    if let previousKey { #expect(previousKey < block.rowKeys[i], sourceLocation: sourceLocation) }
                    previousKey = block.rowKeys[i]
                    for (c, view) in block.columns.enumerated() {
                        let expected = table.value(at: position, property: c)
                        let found = value(of: view, at: i, property: table.objectSchema.properties[c])
                        #expect(
                            found == expected,
                            "\(table.objectSchema.name)[\(position)].\(c)",
                            sourceLocation: sourceLocation
                        )
                    }
                }
            }
        }
        #expect(next == table.rowCount, sourceLocation: sourceLocation)
    }

    /// Item `i` of a view as a `Value`, the way `value(at:)` reads it.
    static func value(of view: ColumnView, at i: Int, property: Property) -> Value {
        func fixed<T>(_ v: FixedWidthColumnView<T>, _ make: (T) -> Value) -> Value {
            v.nulls.isNull(i) ? .null : make(v.values[i])
        }
        switch view {
        case .bool(let v): return fixed(v) { .bool($0) }
        case .int(let v): return fixed(v) { .int($0) }
        case .float(let v): return fixed(v) { .float($0) }
        case .double(let v): return fixed(v) { .double($0) }
        case .decimal(let v): return fixed(v) { .decimal($0) }
        case .date(let v): return fixed(v) { .date($0) }
        case .objectId(let v): return fixed(v) { .objectId($0) }
        case .uuid(let v): return fixed(v) { .uuid($0) }
        case .string(let v): return v.nulls.isNull(i) ? .null : .string(String(decoding: v.bytes(at: i), as: UTF8.self))
        case .data(let v): return v.nulls.isNull(i) ? .null : .data(Array(v.bytes(at: i)))
        case .mixed(let v): return v.values[i]
        case .link(let v):
            return v.keys[i] < 0 ? .null : .link(ObjectLink(className: v.targetClass, key: RowKey(v.keys[i])))
        case .collection(let v):
            let range = v.range(of: i)
            let element = Property(name: property.name, type: property.type, isOptional: property.isOptional)
            if let keys = v.keys {
                return .map(
                    MixedMap(
                        range.map {
                            (
                                String(decoding: keys.bytes(at: $0), as: UTF8.self),
                                value(of: v.elements, at: $0, property: element)
                            )
                        }
                    )
                )
            }
            return .list(range.map { value(of: v.elements, at: $0, property: element) })
        }
    }

    static func link(_ className: String, _ key: RowKey) -> ObjectLink {
        ObjectLink(className: className, key: key)
    }
}
