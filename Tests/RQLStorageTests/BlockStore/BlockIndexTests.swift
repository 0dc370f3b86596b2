import Foundation
import RQLCore
import Testing

@testable import RQLStorage

@Suite("Block store: persistent B-tree, indexes and the mixed encoding")
struct BlockIndexTests {
    @Test("the B-tree keeps a sorted multiset through random inserts and removals, sharing old versions")
    func btreeMatchesSortedArray() {
        var random = SystemRandomNumberGenerator()
        var tree = PersistentBTree<Int>()
        var model: [Int] = []
        var versions: [(PersistentBTree<Int>, [Int])] = []
        for step in 0..<20_000 {
            if model.isEmpty || Int.random(in: 0..<3, using: &random) > 0 {
                let x = Int.random(in: 0..<500, using: &random)
                tree.insert(x)
                model.insert(x, at: model.firstIndex { $0 > x } ?? model.count)
            } else {
                let x = model[Int.random(in: 0..<model.count, using: &random)]
                let removed = tree.remove(x)
                #expect(removed)
                model.remove(at: model.firstIndex(of: x)!)
            }
            if step % 2_000 == 0 { versions.append((tree, model)) }
        }
        #expect(tree.elements == model)
        #expect(tree.count == model.count)
        let removedMissing = tree.remove(1_000)
        #expect(!removedMissing)
        for (old, expected) in versions { #expect(old.elements == expected) }
        var found: [Int] = []
        tree.forEach(
            from: { $0 < 250 },
            body: {
                found.append($0)
                return found.count < 10
            }
        )
        #expect(found == Array(model.filter { $0 >= 250 }.prefix(10)))
        let bulk = PersistentBTree(sorted: Array(0..<10_000))
        #expect(bulk.elements == Array(0..<10_000))
        #expect(bulk.contains(9_999) && !bulk.contains(10_000))
    }

    /// A store of Person objects with indexed `name` (string), `age` (int?) and full-text `bio`,
    /// changed at random; afterwards every index must agree with a scan.
    @Test("equality, range and full-text lookups agree with scans after random writes")
    func indexesAgreeWithScans() throws {
        let store = try Fixtures.store()
        var random = SplitMix(seed: 7)
        let words = ["apple", "Apricot", "banana", "café", "CAFE", "cherry", "date"]
        for round in 0..<6 {
            let t = store.beginWrite()
            for i in 0..<400 {
                let id = Int64(round * 1_000 + i)
                try t.insert(
                    "Person",
                    [
                        "id": .int(id), "name": .string(words[random.next(words.count)]),
                        "age": random.next(5) == 0 ? .null : .int(Int64(random.next(50))),
                        "bio": .string((0..<3).map { _ in words[random.next(words.count)] }.joined(separator: " ")),
                    ]
                )
            }
            for _ in 0..<150 {
                let people = t.reader.table(named: "Person")!
                let key = people.rowKey(at: random.next(people.rowCount))
                let person = Fixtures.link("Person", key)
                switch random.next(3) {
                case 0: try t.delete(person)
                case 1: try t.set("age", of: person, to: .int(Int64(random.next(50))))
                default: try t.set("bio", of: person, to: .string(words[random.next(words.count)]))
                }
            }
            _ = try t.commit()
        }
        let people = try #require(store.snapshot.table(named: "Person"))
        let schema = people.objectSchema
        let name = schema.propertyIndex(named: "name")!
        let age = schema.propertyIndex(named: "age")!
        let bio = schema.propertyIndex(named: "bio")!
        let id = schema.propertyIndex(named: "id")!
        func scan(_ property: Int, _ test: (Value) -> Bool) -> [Int] {
            (0..<people.rowCount).filter { test(people.value(at: $0, property: property)) }
        }
        for word in words {
            #expect(people.indexLookup(property: name, equalTo: .string(word)) == scan(name) { $0 == .string(word) })
        }
        for a in [Value.null, .int(7), .double(7), .double(7.5), .string("7")] {
            #expect(people.indexLookup(property: age, equalTo: a) == scan(age) { EqualityKey($0) == EqualityKey(a) })
        }
        #expect(people.indexLookup(property: age, equalTo: .double(.nan)) == [])
        #expect(people.indexLookup(property: schema.propertyIndex(named: "score")!, equalTo: .double(0)) == nil)
        let ranges: [(Value?, Bool, Value?, Bool)] = [
            (.int(10), true, .int(20), false), (nil, true, .double(5.5), true), (.int(45), false, nil, true),
            (.string("a"), true, nil, true),
        ]
        for (lower, lowerInclusive, upper, upperInclusive) in ranges {
            let expected = scan(age) { value in
                guard !value.isNull else { return false }
                if let lower, ValueOrdering.compare(value, lower) < (lowerInclusive ? 0 : 1) { return false }
                if let upper, ValueOrdering.compare(value, upper) > (upperInclusive ? 0 : -1) { return false }
                return true
            }
            let found = people.indexRange(
                property: age,
                lower: lower,
                lowerInclusive: lowerInclusive,
                upper: upper,
                upperInclusive: upperInclusive
            )
            #expect(found == expected)
        }
        for (token, prefix) in [("cafe", false), ("Café", false), ("ap", true), ("cherry", false), ("zzz", true)] {
            let folded = FullTextTokenizer.tokens(in: token).first!
            let expected = scan(bio) { value in
                guard case .string(let text) = value else { return false }
                let tokens = FullTextTokenizer.tokens(in: text)
                return tokens.contains { prefix ? $0.hasPrefix(folded) : $0 == folded }
            }
            #expect(people.fullTextLookup(property: bio, token: token, prefix: prefix) == expected)
        }
        for position in stride(from: 0, to: people.rowCount, by: 37) {
            let key = people.value(at: position, property: id)
            #expect(people.position(ofPrimaryKey: key) == position)
        }
        #expect(people.position(ofPrimaryKey: .int(999_999)) == nil)
        Fixtures.checkViews(people)
    }

    @Test(
        "mixed values survive the byte encoding",
        arguments: [
            Value.null, .bool(true), .int(-5), .float(1.5), .double(.nan), .string("héllo"), .data([0, 255]),
            .date(Timestamp(seconds: -3, nanoseconds: -4)!), .decimal(try! Decimal128("-12.345e-10")), .decimal(.nan),
            .decimal(.negativeInfinity), .objectId(try! ObjectId(hex: "0123456789abcdef01234567")),
            .uuid(UUID(uuidString: "3b241101-e2bb-4255-8caf-4136c566a962")!),
            .link(ObjectLink(className: "Dog", key: RowKey(42))),
            .list([.int(1), .list([.string("nested")]), .map(MixedMap(["k": .null]))]),
            .map(MixedMap(["b": .int(2), "a": .list([])])),
        ]
    )
    func mixedRoundTrip(_ value: Value) {
        var bytes: [UInt8] = []
        MixedCoding.encode(value, into: &bytes)
        let decoded = bytes.withUnsafeBytes { MixedCoding.decode($0) }
        #expect(decoded == value)
    }

    @Test("damaged mixed bytes decode to nil, never a trap")
    func mixedRejectsGarbage() {
        var bytes: [UInt8] = []
        MixedCoding.encode(.list([.string("abc"), .decimal(Decimal128(Int64(7)))]), into: &bytes)
        var random = SplitMix(seed: 3)
        for _ in 0..<2_000 {
            var damaged = bytes
            damaged[random.next(damaged.count)] = UInt8(random.next(256))
            if random.next(2) == 0 { damaged.removeLast(random.next(damaged.count)) }
            _ = damaged.withUnsafeBytes { MixedCoding.decode($0) }
        }
        #expect([UInt8]([99]).withUnsafeBytes { MixedCoding.decode($0) } == nil)
        #expect(
            [UInt8]([UInt8(ValueKind.list.rawValue), 255, 255, 255, 255]).withUnsafeBytes { MixedCoding.decode($0) }
                == nil
        )
        #expect([UInt8]([UInt8(ValueKind.bool.rawValue), 2]).withUnsafeBytes { MixedCoding.decode($0) } == nil)
    }

    @Test("fixed-width values are stored in the layout the column views expose")
    func fixedLayouts() {
        #expect(FixedType.int.stride == 8 && FixedType.link("X").stride == 8)
        #expect(FixedType.date.stride == MemoryLayout<Timestamp>.stride)
        #expect(MemoryLayout<Decimal128>.alignment <= ByteStorage.alignment)
        #expect(MemoryLayout<UUID>.alignment <= ByteStorage.alignment)
        #expect(MemoryLayout<RowKey>.stride == 8)
    }
}

@Suite("Block store: the chunked block list")
struct BlockListTests {
    /// A block of `count` rows with keys from `firstKey`, and no columns.
    static func block(_ firstKey: Int64, _ count: Int) -> Block {
        let block = Block(shapes: [])
        block.appendRows(keys: (0..<count).map { firstKey + Int64($0) }) { _, _, _ in }
        return block
    }

    @Test("appends, removals and in-place changes across many chunks keep positions consistent")
    func matchesPlainArray() {
        var random = SplitMix(seed: 11)
        var list = BlockList()
        var model: [Int] = []  // row counts
        var nextKey: Int64 = 0
        var old: [(BlockList, [Int])] = []
        for step in 0..<3_000 {
            switch random.next(6) {
            case 0, 1, 2:
                let count = 1 + random.next(5)
                list.append(Self.block(nextKey, count))
                nextKey += Int64(count)
                model.append(count)
            case 3 where !model.isEmpty:
                let b = random.next(model.count)
                list.remove(at: b)
                model.remove(at: b)
            case 4 where !model.isEmpty:
                let b = random.next(model.count)
                list.mutate(b) { $0.appendRows(keys: [$0.lastKey]) { _, _, _ in } }
                model[b] += 1
            default:
                if !model.isEmpty {
                    let b = random.next(model.count)
                    list.replace(b, with: Self.block(list[b].firstKey, 2))
                    model[b] = 2
                }
            }
            if step % 500 == 0 { old.append((list, model)) }
        }
        #expect(list.count == model.count)
        #expect(list.chunks.count > 3)
        for (snapshot, counts) in old + [(list, model)] {
            #expect(snapshot.map(\.count) == counts)
            #expect(snapshot.rowCount == counts.reduce(0, +))
            var position = 0
            for (b, count) in counts.enumerated() {
                #expect(snapshot.start(of: b) == position)
                #expect(snapshot.locate(position: position) == (b, 0))
                #expect(snapshot.locate(position: position + count - 1) == (b, count - 1))
                position += count
            }
        }
    }
}
