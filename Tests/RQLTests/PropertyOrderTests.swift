import Foundation
import Testing

@testable import RQL

/// realm-core matches properties by name: declaring a class's properties in another order than
/// the store keeps them needs no migration, and every read, write and query finds the right
/// column.
@Suite("Property order")
struct PropertyOrderTests {
    final class Item: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var name = ""
        @Persisted var price = 0.0
        @Persisted var tags: List<String>
        @Persisted var parent: Item?
    }

    /// `Item` with its declarations in another order.
    final class ItemReordered: Object {
        override class func className() -> String { "Item" }
        @Persisted var tags: List<String>
        @Persisted var price = 0.0
        @Persisted var parent: ItemReordered?
        @Persisted var name = ""
        @Persisted(primaryKey: true) var id = 0
    }

    /// A store holding two items as `Item` declares them, and a realm that keeps it alive.
    private func seeded() throws -> (identifier: String, keeper: Realm) {
        let identifier = "order-\(UUID().uuidString)"
        let keeper = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: identifier))
        try Thread.run {
            let realm = try Realm(
                configuration: Realm.Configuration(inMemoryIdentifier: identifier, objectTypes: [Item.self])
            )
            try realm.write {
                let pen = realm.create(Item.self, value: ["id": 1, "name": "pen", "price": 2.5, "tags": ["a"]])
                realm.create(Item.self, value: ["id": 2, "name": "ink", "price": 7.0, "parent": pen])
            }
        }
        return (identifier, keeper)
    }

    @Test("a reordered declaration opens the store without a migration and reads each property's own column")
    func reorderedReads() throws {
        let (identifier, keeper) = try seeded()
        defer { withExtendedLifetime(keeper) {} }
        let (names, prices, parent, tags) = try Thread.run {
            let realm = try Realm(
                configuration: Realm.Configuration(inMemoryIdentifier: identifier, objectTypes: [ItemReordered.self])
            )
            let items = realm.objects(ItemReordered.self).sorted(byKeyPath: "id")
            return (
                items.map(\.name), items.map(\.price), items[1].parent?.name, Array(items[0].tags)
            )
        }
        #expect(names == ["pen", "ink"])
        #expect(prices == [2.5, 7.0])
        #expect(parent == "pen")
        #expect(tags == ["a"])
    }

    @Test("writes, queries, init(value:) arrays, objectSchema and description follow the declaration, not the store")
    func reorderedWritesAndSchema() throws {
        let (identifier, keeper) = try seeded()
        defer { withExtendedLifetime(keeper) {} }
        let (found, described, schemaNames, fromArray) = try Thread.run {
            let realm = try Realm(
                configuration: Realm.Configuration(inMemoryIdentifier: identifier, objectTypes: [ItemReordered.self])
            )
            try realm.write {
                // Array values in the declared order: tags, price, parent, name, id.
                realm.create(ItemReordered.self, value: [["b"], 1.25, NSNull(), "nib", 3] as [Any])
                realm.object(ofType: ItemReordered.self, forPrimaryKey: 1)?.price = 3.0
            }
            let found = realm.objects(ItemReordered.self).filter("price > 2.9").sorted(byKeyPath: "id").map(\.id)
            let nib = realm.object(ofType: ItemReordered.self, forPrimaryKey: 3)
            return (
                Array(found),
                realm.object(ofType: ItemReordered.self, forPrimaryKey: 1)?.description ?? "",
                realm.objects(ItemReordered.self).first?.objectSchema.properties.map(\.name) ?? [],
                "\(nib?.name ?? "-")/\(nib?.price ?? 0)/\(nib.map { Array($0.tags) } ?? [])"
            )
        }
        #expect(found == [1, 2])
        #expect(fromArray == "nib/1.25/[\"b\"]")
        #expect(schemaNames == ["tags", "price", "parent", "name", "id"])
        let describedNames = described.split(separator: "\n").compactMap { line in
            line.range(of: " = ").map { line[..<$0.lowerBound].trimmingCharacters(in: .whitespaces) }
        }
        #expect(describedNames == ["tags", "price", "parent", "name", "id"], "\(described)")
        #expect(described.contains("price = 3.0;"), "\(described)")
        // The first declaration reads what the reordered one wrote.
        let prices = try Thread.run {
            try Realm(configuration: Realm.Configuration(inMemoryIdentifier: identifier, objectTypes: [Item.self]))
                .objects(Item.self).sorted(byKeyPath: "id").map(\.price)
        }
        #expect(Array(prices) == [3.0, 7.0, 1.25])
    }

    @Test("a file keeps its column order; a reordered declaration in another process reads it")
    func reorderedFile() throws {
        let url = URL(fileURLWithPath: FileRealmTests.temporaryPath("order"))
        defer { try? FileManager.default.removeItem(at: url) }
        try Thread.run {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [Item.self]))
            try realm.write { realm.create(Item.self, value: ["id": 1, "name": "pen", "price": 2.5]) }
        }
        let name = try Thread.run {
            try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [ItemReordered.self]))
                .object(ofType: ItemReordered.self, forPrimaryKey: 1)?.name
        }
        #expect(name == "pen")
    }
}
