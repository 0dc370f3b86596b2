import Foundation
import Testing

@testable import RQL

// Programs written against Realm Swift's API, compiled unchanged against `import RQL`: each
// test body is what a Realm Swift user writes, and checks it behaves as it does there.

enum Shelf: String, PersistableEnum {
    case attic, cellar, kitchen
}

final class Part: Object {
    @Persisted var price = 0.0
}

final class Label: EmbeddedObject {
    @Persisted var text = ""
}

final class Item: Object, ObjectKeyIdentifiable {
    @Persisted var title = ""
    @Persisted var subtitle = ""
    @Persisted var note: String?
    @Persisted var shelf = Shelf.attic
    @Persisted var tags: List<String>
    @Persisted var parts: List<Part>
    @Persisted var label: Label?
    @Persisted var extras: Map<String, String>
    @Persisted var partsByName: Map<String, Part?>
}

final class Order: Object, ObjectKeyIdentifiable {
    @Persisted var number = 0
    @Persisted var items: List<Item>
    @Persisted var favorite: Item?
}

@Suite("Realm Swift programs compile and behave unchanged")
struct RealmSwiftFidelityTests {
    static func realm(_ name: String = #function) throws -> Realm {
        try makeRealm([Item.self, Order.self, Part.self, Label.self], name: name)
    }

    /// Three items: "b" (tags, a cheap and a dear part), "a" (no tags, a dear part), "c" (a tag, no parts).
    static func filled(_ name: String = #function) throws -> Realm {
        let realm = try realm(name)
        try realm.write {
            let b = Item(value: ["title": "b", "subtitle": "a", "note": "m", "shelf": Shelf.cellar, "tags": ["x"]])
            b.parts.append(objectsIn: [Part(value: ["price": 0.5]), Part(value: ["price": 3.0])])
            let a = Item(value: ["title": "a", "subtitle": "b", "shelf": Shelf.kitchen])
            a.parts.append(Part(value: ["price": 2.0]))
            let c = Item(value: ["title": "c", "subtitle": "c", "note": "z", "tags": ["y"]])
            realm.add(Order(value: ["number": 1, "items": [b, a], "favorite": b]))
            realm.add(Order(value: ["number": 2, "items": [c]]))
        }
        return realm
    }

    // MARK: AnyRealmCollection and RealmCollection existentials

    final class ItemListModel {
        var items: AnyRealmCollection<Item>
        init(items: AnyRealmCollection<Item>) { self.items = items }
    }

    @Test("realm-swift: AnyRealmCollection wraps results and lists alike and is stored as one type")
    func anyRealmCollectionWrapsAnyCollection() throws {
        let realm = try Self.filled()
        let order = try #require(realm.objects(Order.self).filter("number == 1").first)
        let model = ItemListModel(items: AnyRealmCollection(realm.objects(Item.self)))
        #expect(model.items.count == 3)
        #expect(model.items.filter("title == 'a'").count == 1)
        model.items = AnyRealmCollection(order.items)
        #expect(model.items.map(\.title) == ["b", "a"])
        #expect(model.items[1].title == "a")
        #expect(model.items.where { $0.title == "b" }.count == 1)
        #expect(model.items.realm == realm)
        #expect(!model.items.isInvalidated && !model.items.isFrozen)
        let frozen = model.items.freeze()
        #expect(frozen.isFrozen && frozen.count == 2)
        try realm.write { order.items.removeAll() }
        #expect(model.items.isEmpty)
        #expect(frozen.count == 2)
        #expect(AnyRealmCollection(AnyRealmCollection(order.items)).base is List<Item>)
    }

    @Test("RealmCollection is an existential a program can store")
    func realmCollectionExistential() throws {
        let realm = try Self.filled()
        let order = try #require(realm.objects(Order.self).filter("number == 1").first)
        let collections: [any RealmCollection<Item>] = [realm.objects(Item.self), order.items]
        #expect(collections.map(\.count) == [3, 2])
        #expect(collections.map { $0.filter("title == 'b'").count } == [1, 1])
    }

    // MARK: ObjectKeyIdentifiable

    @Test("realm-swift: ObjectKeyIdentifiable's id is the same for every instance of one object")
    func objectKeyIdentifiableId() throws {
        let realm = try Self.filled()
        let first = realm.objects(Item.self).filter("title == 'a'")[0]
        let again = realm.objects(Item.self).filter("title == 'a'")[0]
        #expect(first !== again && first.id == again.id)
        let ids = Set(realm.objects(Item.self).map(\.id))
        #expect(ids.count == 3)
        let orderIds = Set(realm.objects(Order.self).map(\.id))
        #expect(ids.isDisjoint(with: orderIds))
        let unmanaged = Item()
        #expect(unmanaged.id == unmanaged.id && unmanaged.id != Item().id)
    }

    // MARK: Map key-value coding

    @Test("realm-swift: Map.setValue(_:forKey:) and value(forKey:) read and write entries")
    func mapKeyValueCoding() throws {
        let realm = try Self.filled()
        let item = try #require(realm.objects(Item.self).filter("title == 'a'").first)
        try realm.write {
            item.extras.setValue("shelf 3", forKey: "place")
            item.extras.setValue("red", forKey: "color")
            item.partsByName.setValue(item.parts[0], forKey: "main")
        }
        #expect(item.extras.value(forKey: "place") as? String == "shelf 3")
        #expect(item.extras.object(forKey: "color" as NSString) as? String == "red")
        #expect(item.extras.value(forKey: "missing") == nil)
        #expect(item.partsByName.value(forKeyPath: "main.price") as? Double == 2.0)
        try realm.write { item.extras.setValue(nil, forKey: "place") }
        #expect(item.extras.keys == ["color"])
        let unmanaged = Map<String, Int>()
        unmanaged.setValue(3, forKey: "three")
        #expect(unmanaged["three"] == 3)
    }

    // MARK: Aggregates

    @Test("realm-swift: aggregates of numeric and date properties still work after the type check")
    func aggregatesOfNumbers() throws {
        let realm = try Self.filled()
        let parts = realm.objects(Part.self)
        #expect(parts.sum(ofProperty: "price") == 5.5)
        #expect(parts.average(ofProperty: "price") == 5.5 / 3)
        #expect(parts.max(ofProperty: "price") == 3.0)
    }

    // MARK: `.where` closures

    @Test("realm-swift: ordering comparisons between two string properties and string-backed enums")
    func stringPropertyOrdering() throws {
        let realm = try Self.filled()
        let items = realm.objects(Item.self)
        #expect(items.where { $0.title > $0.subtitle }.map(\.title) == ["b"])
        #expect(items.where { $0.title <= $0.subtitle }.map(\.title).sorted() == ["a", "c"])
        #expect(items.where { $0.note >= $0.title }.map(\.title).sorted() == ["b", "c"])
        #expect(items.where { $0.title < $0.note }.count == items.filter("title < note").count)
        #expect(items.where { $0.shelf.rawValue > $0.title }.map(\.title).sorted() == ["a", "b"])
    }

    @Test("realm-swift: == against an unmanaged object matches nothing, != everything")
    func unmanagedObjectComparison() throws {
        let realm = try Self.filled()
        let orders = realm.objects(Order.self)
        #expect(orders.where { $0.favorite == Item() }.isEmpty)
        #expect(orders.where { $0.favorite != Item() }.count == 2)
        #expect(orders.where { $0.items.contains(Item()) }.isEmpty)
        let items = realm.objects(Item.self)
        #expect(items.where { $0.label == Label() }.isEmpty)
        #expect(orders.filter("favorite == %@", Item()).isEmpty)
    }

    @Test("realm-swift: a collection closure nested in another counts the inner collection per element")
    func nestedCollectionClosure() throws {
        let realm = try Self.filled()
        let orders = realm.objects(Order.self)
        let nested = orders.where {
            ($0.items.tags.count > 0 && ($0.items.parts.price > 1).count > 0).count > 0
        }
        #expect(nested.map(\.number) == [1])
        let text = orders.filter(
            "SUBQUERY(items, $i, $i.tags.@count > 0 AND SUBQUERY($i.parts, $p, $p.price > 1).@count > 0).@count > 0"
        )
        #expect(nested.map(\.number) == text.map(\.number))
        // The inner count alone still counts items, as it did.
        #expect(orders.where { ($0.items.parts.price > 1).count == 2 }.map(\.number) == [1])
        #expect(orders.where { ($0.items.tags.count > 0 && ($0.items.parts.price > 5).count > 0).count > 0 }.isEmpty)
    }
}
