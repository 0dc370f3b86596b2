import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage

@Suite("Reading a store: views, indexes, backlinks")
struct TableReadingTests {
    static let json = #"""
        {"schema": {
           "P": {"primaryKey": "code", "indexed": ["tag", "m"], "fulltext": ["bio"],
                 "properties": {"code": "string", "n": "int?", "s": "string?", "tag": "int", "bio": "string",
                                "xs": "list<int>", "set": "set<mixed>", "map": "map<string?>", "m": "mixed",
                                "q": "Q?", "qs": "list<Q>"}},
           "Q": {"properties": {"v": "double", "ps": "linkingObjects<P.qs>"}}},
         "objects": {
           "P": [
             {"code": "a", "n": 1, "s": "héllo", "tag": 7, "bio": "The quick brown fox", "xs": [1, 2, 3],
              "set": [2, "b", 1.0, null, 2], "map": {"k": "v", "j": null}, "m": 2, "q": 1, "qs": [0, 1]},
             {"code": "b", "n": null, "s": null, "tag": 7, "bio": "Quick thinking, café society", "xs": [],
              "m": 2.0, "qs": [1]},
             {"code": "c", "n": -5, "s": "", "tag": 8, "bio": "Brown bears", "xs": [9], "m": "2"}],
           "Q": [{"v": 0.5}, {"v": 1.5}]}}
        """#

    let store: BlockSnapshot
    let p: BlockTable

    init() throws {
        store = try DatasetLoader.load(json: TableReadingTests.json)
        p = try #require(store.table(named: "P"))
    }

    private func column(_ name: String) -> Int { p.objectSchema.propertyIndex(named: name) ?? -1 }

    @Test("int columns expose contiguous values and a null bitmap")
    func fixedWidthView() {
        p.withColumn(column("n")) { view in
            guard case .int(let ints) = view else {
                Issue.record("expected an int column, got \(view)")
                return
            }
            #expect(Array(ints.values) == [1, 0, -5])
            #expect([0, 1, 2].map(ints.nulls.isNull) == [false, true, false])
            #expect(ints.nulls.hasNulls)
        }
        p.withColumn(column("tag")) { view in
            guard case .int(let ints) = view else {
                Issue.record("expected an int column")
                return
            }
            #expect(!ints.nulls.hasNulls)
        }
    }

    @Test("string columns are offsets into one UTF-8 buffer")
    func stringView() {
        p.withColumn(column("s")) { view in
            guard case .string(let strings) = view else {
                Issue.record("expected a string column")
                return
            }
            #expect(strings.count == 3)
            #expect(String(decoding: strings.bytes(at: 0), as: UTF8.self) == "héllo")
            #expect(strings.bytes(at: 0).count == 6)
            #expect(strings.nulls.isNull(1))
            #expect(!strings.nulls.isNull(2) && strings.bytes(at: 2).isEmpty)
            #expect(StringMatcher(.beginsWith, needle: "hé").matches(strings.bytes(at: 0)))
        }
    }

    @Test("list columns are offset ranges into an element column; sets are sorted and unique; maps carry keys")
    func collectionViews() {
        p.withColumn(column("xs")) { view in
            guard case .collection(let list) = view, case .int(let elements) = list.elements else {
                Issue.record("expected a list of ints")
                return
            }
            #expect(list.kind == .list)
            #expect(list.range(of: 0) == 0..<3 && list.range(of: 1) == 3..<3 && list.range(of: 2) == 3..<4)
            #expect(Array(elements.values) == [1, 2, 3, 9])
        }
        #expect(p.value(at: 0, property: column("set")) == .list([.null, .double(1), .int(2), .string("b")]))
        p.withColumn(column("map")) { view in
            guard case .collection(let map) = view, let keys = map.keys, case .string(let values) = map.elements else {
                Issue.record("expected a map of strings")
                return
            }
            #expect(map.kind == .map)
            #expect(String(decoding: keys.bytes(at: 0), as: UTF8.self) == "j")
            #expect(values.nulls.isNull(0) && !values.nulls.isNull(1))
        }
    }

    @Test("link columns hold target row keys, -1 for none; backlinks are computed")
    func linkViews() throws {
        p.withColumn(column("q")) { view in
            guard case .link(let links) = view else {
                Issue.record("expected a link column")
                return
            }
            #expect(links.targetClass == "Q")
            #expect(Array(links.keys) == [1, -1, -1])
        }
        let q = try #require(store.table(named: "Q"))
        #expect(q.backlinks(at: 1, fromClass: "P", property: "qs") == [RowKey(0), RowKey(1)])
        #expect(q.backlinks(at: 1, fromClass: "P", property: "q") == [RowKey(0)])
        #expect(q.backlinkCount(at: 1) == 3)
        #expect(q.backlinkCount(at: 0) == 1)
        q.withColumn(1) { view in
            guard case .collection(let backlinks) = view, case .link(let origins) = backlinks.elements else {
                Issue.record("expected backlinks as a collection of links")
                return
            }
            #expect(origins.targetClass == "P")
            #expect(Array(origins.keys) == [0, 0, 1])
        }
    }

    @Test("primary key and hash index lookups compare numbers by value")
    func indexes() {
        #expect(p.position(ofPrimaryKey: .string("b")) == 1)
        #expect(p.position(ofPrimaryKey: .string("z")) == nil)
        #expect(p.indexLookup(property: column("tag"), equalTo: .int(7)) == [0, 1])
        #expect(p.indexLookup(property: column("tag"), equalTo: .double(8.0)) == [2])
        #expect(p.indexLookup(property: column("tag"), equalTo: .double(7.5)) == [])
        #expect(p.indexLookup(property: column("m"), equalTo: .int(2)) == [0, 1])
        #expect(p.indexLookup(property: column("m"), equalTo: .string("2")) == [2])
        #expect(p.indexLookup(property: column("code"), equalTo: .string("c")) == [2])
        #expect(p.indexLookup(property: column("n"), equalTo: .int(1)) == nil)
        #expect(p.hasIndex(property: column("tag")) && !p.hasIndex(property: column("n")))
    }

    @Test("full-text index finds lower-case alphanumeric tokens, by word or prefix, diacritics folded")
    func fullText() {
        let bio = column("bio")
        #expect(p.fullTextLookup(property: bio, token: "quick", prefix: false) == [0, 1])
        #expect(p.fullTextLookup(property: bio, token: "BROWN", prefix: false) == [0, 2])
        #expect(p.fullTextLookup(property: bio, token: "cafe", prefix: false) == [1])
        #expect(p.fullTextLookup(property: bio, token: "thin", prefix: false) == [])
        #expect(p.fullTextLookup(property: bio, token: "thin", prefix: true) == [1])
        #expect(p.fullTextLookup(property: bio, token: "b", prefix: true) == [0, 2])
        #expect(p.fullTextLookup(property: column("s"), token: "hello", prefix: false) == nil)
    }

    @Test("rows have stable keys; the store has a schema and a version")
    func keysAndVersion() {
        #expect((0..<p.rowCount).map(p.rowKey) == [RowKey(0), RowKey(1), RowKey(2)])
        #expect(p.position(of: RowKey(2)) == 2)
        #expect(p.position(of: RowKey(3)) == nil)
        #expect(store.version == 1)
        #expect(BlockStore(schema: store.schema).snapshot.version == 0)
        #expect(store.table(named: "Nope") == nil)
    }
}

@Suite("Full-text tokenizer")
struct FullTextTokenizerTests {
    @Test(
        "tokens: letter/digit runs in any script (beyond realm-core's Latin-1), lower-cased, diacritics stripped",
        arguments: [
            ("The quick, brown fox!", ["the", "quick", "brown", "fox"]),
            ("C# and C++", ["c", "and", "c"]),
            ("Café Ørsted naïve", ["cafe", "ørsted", "naive"]),
            ("object-oriented 3D", ["object", "oriented", "3d"]),
            ("Привет, МИР", ["привет", "мир"]),
            ("", []),
        ]
    )
    func tokens(text: String, expected: [String]) {
        #expect(FullTextTokenizer.tokens(in: text) == expected)
    }
}

@Suite("Column statistics")
struct ColumnStatisticsTests {
    @Test("statistics count rows, nulls and distinct values (numbers by value) and find the range")
    func statistics() throws {
        let store = try DatasetLoader.load(json: TableReadingTests.json)
        let p = try #require(store.table(named: "P"))
        let n = p.statistics(property: 1)
        #expect(
            n
                == ColumnStatistics(
                    rowCount: 3,
                    valueCount: 3,
                    nullCount: 1,
                    distinctCount: 3,
                    minimum: .int(-5),
                    maximum: .int(1)
                )
        )
        let m = p.statistics(property: p.objectSchema.propertyIndex(named: "m") ?? -1)
        #expect(m.distinctCount == 2)
        #expect(m.maximum == .string("2"))
        let xs = p.statistics(property: p.objectSchema.propertyIndex(named: "xs") ?? -1)
        #expect(xs.rowCount == 3 && xs.valueCount == 4 && xs.distinctCount == 4 && xs.maximum == .int(9))
    }
}
