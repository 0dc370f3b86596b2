import Foundation
import RQLCore
import RQLDatasets
import RQLTestSupport
import Testing

@testable import RQLStorage

/// The dataset streamed from `text` (in chunks of `chunk` bytes) into a new in-memory store.
private func streamed(_ text: String, chunk: Int = 1 << 16) throws(DatasetError) -> BlockSnapshot {
    try DatasetLoader.loadSnapshot(from: ChunkedInput(Array(text.utf8), chunk: chunk))
}

private func streamError(_ text: String, chunk: Int = 1 << 16) -> DatasetError? {
    do {
        _ = try streamed(text, chunk: chunk)
        return nil
    } catch {
        return error
    }
}

/// Every row of every class (embedded ones too) of both stores: keys, stored values (links by
/// key) and backlink counts; the first difference, or nil.
private func difference(_ a: some StoreReader, _ b: some StoreReader) -> String? {
    guard a.schema == b.schema else { return "schemas differ" }
    for objectSchema in a.schema.classes {
        guard let left = a.table(named: objectSchema.name), let right = b.table(named: objectSchema.name) else {
            return "\(objectSchema.name): missing"
        }
        guard left.rowCount == right.rowCount else {
            return "\(objectSchema.name): \(left.rowCount) rows against \(right.rowCount)"
        }
        for position in 0..<left.rowCount {
            let where_ = "\(objectSchema.name)[\(position)]"
            guard left.rowKey(at: position) == right.rowKey(at: position) else { return "\(where_): keys differ" }
            guard left.backlinkCount(at: position) == right.backlinkCount(at: position) else {
                return "\(where_): backlink counts differ"
            }
            for (p, property) in objectSchema.properties.enumerated() where !property.isBacklink {
                let l = left.value(at: position, property: p)
                let r = right.value(at: position, property: p)
                guard l == r || (l.isNaN && r.isNaN) else { return "\(where_).\(property.name): \(l) against \(r)" }
            }
        }
    }
    return nil
}

extension Value {
    fileprivate var isNaN: Bool {
        switch self {
        case .double(let d): d.isNaN
        case .float(let f): f.isNaN
        default: false
        }
    }
}

/// Loads `text` both ways and expects the same objects, or the same error.
private func expectSameAsLoader(_ text: String, chunk: Int = 1 << 16, _ label: String = "") {
    let old = Result { () throws(DatasetError) in try DatasetLoader.load(json: text) }
    let new = Result { () throws(DatasetError) in try streamed(text, chunk: chunk) }
    switch (old, new) {
    case (.success(let a), .success(let b)):
        #expect(difference(a, b) == nil, "\(label): \(difference(a, b) ?? "")")
        let same = Result { () throws(DatasetError) in try DatasetExporter.export(a) == DatasetExporter.export(b) }
        #expect(same == .success(true), "\(label)")
    case (.failure(let a), .failure(let b)):
        #expect(a == b, "\(label)")
    default:
        Issue.record("\(label): the loader gives \(old), streaming gives \(new)")
    }
}

private let graphSchema = #"""
    "schema": {
      "Person": {"primaryKey": "id", "indexed": ["name"], "properties": {"id": "int", "name": "string",
        "best": "Person?", "friends": "list<Person>", "circle": "set<Person>", "byName": "map<Person?>",
        "dog": "Dog?", "dogs": "list<Dog>", "home": "Address?", "homes": "list<Address>", "any": "mixed",
        "fans": "linkingObjects<Person.best>"}},
      "Dog": {"properties": {"name": "string", "owner": "Person?", "tags": "set<string>"}},
      "Address": {"embedded": true, "properties": {"city": "string", "owner": "Person?", "spot": "Spot?"}},
      "Spot": {"embedded": true, "properties": {"x": "int", "near": "Person?"}}
    }
    """#

@Suite("Streaming dataset loader")
struct StreamingDatasetLoaderTests {
    @Test("the generated people datasets load as the loader loads them, in any chunking", arguments: [1, 7, 4096])
    func generatedPeople(chunk: Int) {
        for (count, seed) in [(0, 1), (1, 2), (250, 3), (9000, 4)] where chunk >= 7 || count <= 250 {
            expectSameAsLoader(SeededGenerator.peopleJSON(count: count, seed: UInt64(seed)), chunk: chunk, "\(count)")
        }
    }

    @Test("the demo dataset and every realm-core conformance dataset load as the loader loads them")
    func conformanceDatasets() throws {
        expectSameAsLoader(DemoDataset.json, "demo")
        let url = ConformanceSuite.fixtureURL(fromTestFile: #filePath)
        let document = try JSONValue.parse(String(contentsOf: url, encoding: .utf8))
        guard case .array(let suites)? = document["suites"] else {
            Issue.record("no suites in \(url.path)")
            return
        }
        #expect(suites.count > 10)
        for suite in suites {
            guard let data = suite["data"] else { continue }
            expectSameAsLoader(data.serialized(), chunk: 61, "\(suite["name"] ?? .null)")
        }
    }

    @Test("links that point forward, across classes, into sets, maps, mixed values and embedded objects")
    func forwardLinks() throws {
        let text = #"""
            {\#(graphSchema), "objects": {
              "Dog": [{"name": "Rex", "owner": 3, "tags": ["b", "a", "b"]}, {"name": "Bo", "owner": 1}],
              "Person": [
                {"id": 1, "name": "Ann", "best": 3, "friends": [3, 2, 3], "circle": [3, 2, 3, 1],
                 "byName": {"z": 3, "a": null, "m": 1}, "dog": 1, "dogs": [1, 0],
                 "home": {"city": "Oslo", "owner": 3, "spot": {"x": 1, "near": 2}},
                 "homes": [{"city": "Lima", "owner": 2}], "any": {"$link": {"class": "Person", "key": 3}}},
                {"best": 1, "id": 2, "name": "Bob", "any": [{"k": {"$link": {"class": "Person", "key": 2}}}]},
                {"id": 3, "name": "Cy", "best": 3, "circle": [1]}
              ]}}
            """#
        expectSameAsLoader(text, chunk: 5, "forward")
        let snapshot = try streamed(text)
        let people = try #require(snapshot.table(named: "Person"))
        #expect(people.value(at: 0, property: 2) == .link(ObjectLink(className: "Person", key: RowKey(2))))
        #expect(
            people.value(at: 0, property: 4)
                == .list([0, 1, 2].map { .link(ObjectLink(className: "Person", key: RowKey($0))) })
        )
        #expect(people.backlinkCount(at: 2) > 3)
        let dogs = try #require(snapshot.table(named: "Dog"))
        #expect(dogs.value(at: 0, property: 2) == .list([.string("a"), .string("b")]))
    }

    @Test("each bad document throws the DatasetError the loader throws", arguments: DatasetErrorTests.cases)
    func badDocuments(label: String, json: String, expected: DatasetError) {
        #expect(streamError(json) == expected, "\(label)")
        #expect(streamError(json, chunk: 3) == expected, "\(label), in chunks of 3")
    }

    @Test("a forward link that never resolves is dangling, named where it was written")
    func danglingForward() {
        let text = #"""
            {\#(graphSchema), "objects": {"Person": [
              {"id": 1, "name": "A", "friends": [2, 9]}, {"id": 2, "name": "B", "home": {"city": "x", "owner": 8}}]}}
            """#
        #expect(
            streamError(text)
                == .danglingLink(className: "Person", position: 0, property: "friends.1", target: "Person", key: "9")
        )
        let byPosition =
            #"{\#(graphSchema), "objects": {"Person": [{"id": 1, "name": "A", "dog": 2}], "Dog": [{"name": "R"}]}}"#
        #expect(
            streamError(byPosition)
                == .danglingLink(className: "Person", position: 0, property: "dog", target: "Dog", key: "2")
        )
        let missingClass = #"{\#(graphSchema), "objects": {"Dog": [{"name": "R", "owner": 5}]}}"#
        #expect(
            streamError(missingClass)
                == .danglingLink(className: "Dog", position: 0, property: "owner", target: "Person", key: "5")
        )
        expectSameAsLoader(text, "dangling")
        expectSameAsLoader(byPosition, "dangling by position")
    }

    @Test("a repeated primary key is refused at its object, also against the objects already in the store")
    func duplicateKeys() throws {
        let text =
            #"{\#(graphSchema), "objects": {"Person": [{"id": 5, "name": "A"}, {"id": 3, "name": "B"}, {"id": 5, "name": "C"}]}}"#
        #expect(
            streamError(text) == .duplicatePrimaryKey(className: "Person", position: 2, property: "id", key: "5")
        )
        let schema = try DatasetLoader.loadSchema(json: "{\(graphSchema)}")
        let store = BlockStore(schema: schema)
        let transaction = store.beginWrite()
        try DatasetLoader.load(
            from: MemoryInput(Array(#"{\#(graphSchema), "objects": {"Person": [{"id": 7, "name": "A"}]}}"#.utf8)),
            into: transaction
        )
        _ = try transaction.commit()
        let again = store.beginWrite()
        #expect(throws: DatasetError.duplicatePrimaryKey(className: "Person", position: 1, property: "id", key: "7")) {
            try DatasetLoader.load(
                from: MemoryInput(
                    Array(
                        #"{\#(graphSchema), "objects": {"Person": [{"id": 8, "name": "B"}, {"id": 7, "name": "C"}]}}"#
                            .utf8
                    )
                ),
                into: again
            )
        }
        again.rollback()
    }

    @Test("syntax errors carry the byte offset where the stream went wrong, also when cut short")
    func byteOffsets() {
        let good = #"{\#(graphSchema), "objects": {"Person": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}]}}"#
        for cut in [good.utf8.count - 1, good.utf8.count - 20, good.utf8.count / 2] {
            let text = String(decoding: Array(good.utf8)[..<cut], as: UTF8.self)
            guard case .syntax(let error)? = streamError(text, chunk: 11) else {
                Issue.record("a text cut at \(cut) loaded")
                continue
            }
            #expect(error.offset == cut, "\(error)")
            #expect(error.message.contains("end of input") || error.message.contains("unterminated"), "\(error)")
        }
        var bytes = Array(good.utf8)
        let bad = bytes.count - 12
        bytes[bad] = 0xFF
        do {
            _ = try DatasetLoader.loadSnapshot(from: ChunkedInput(bytes, chunk: 5))
            Issue.record("loaded text that is not UTF-8")
        } catch {
            guard case .syntax(let syntax) = error else {
                Issue.record("expected a syntax error, got \(error)")
                return
            }
            #expect(syntax.offset == bad)
        }
        let misplaced = #"{\#(graphSchema), "objects": {"Person": [{"id": 1, "name": "Ann"} {"id": 2}]}}"#
        guard case .syntax(let error)? = streamError(misplaced) else {
            Issue.record("loaded a missing comma")
            return
        }
        #expect(error.offset == misplaced.utf8.count - 12)
    }

    @Test(
        "a stream that is not a dataset fails at its first wrong byte, not after reading without end",
        arguments: ["\u{0}", "y\n", #"{"schema": {}, "objects": {"Dog": [1 2"#, #"{"schema": {"A": {"properties": x"#]
    )
    func endlessStream(pattern: String) {
        let input = DatasetHardeningTests.EndlessInput(pattern)
        #expect(throws: DatasetError.self) { try DatasetLoader.loadSnapshot(from: input) }
        #expect(input.handedOut <= 1 << 17, "read \(input.handedOut) bytes")
    }

    @Test("objects written before the schema still load")
    func objectsFirst() {
        expectSameAsLoader(
            #"{"objects": {"Dog": [{"age": 4}, {"age": 5}]}, "schema": {"Dog": {"properties": {"age": "int"}}}}"#,
            chunk: 3,
            "objects first"
        )
    }

    @Test("a failed load leaves the transaction as it was: its own writes, no class or object of the dataset")
    func failureChangesNothing() throws {
        let store = BlockStore(
            schema: try DatasetLoader.loadSchema(json: #"{"schema": {"Cat": {"properties": {"n": "int"}}}}"#)
        )
        let transaction = store.beginWrite()
        _ = try transaction.insert("Cat", ["n": .int(1)])
        let before = try DatasetExporter.export(transaction.reader)
        let writes = transaction.writeCount
        // Thousands of good objects (whole blocks written), then a bad one.
        let objects = (0..<9000).map { #"{"id": \#($0), "name": "p\#($0)"}"# }.joined(separator: ", ")
        let text = #"{\#(graphSchema), "objects": {"Person": [\#(objects), {"id": 9000, "name": 5}]}}"#
        #expect(
            throws: DatasetError.wrongType(
                className: "Person",
                position: 9000,
                property: "name",
                expected: "a string",
                found: "an integer"
            )
        ) {
            try DatasetLoader.load(from: MemoryInput(Array(text.utf8)), into: transaction)
        }
        #expect(try DatasetExporter.export(transaction.reader) == before)
        #expect(transaction.writeCount == writes)
        #expect(transaction.schema["Person"] == nil)
        _ = try transaction.insert("Cat", ["n": .int(2)])
        let result = try transaction.commit()
        #expect(result.snapshot.table(named: "Cat")?.rowCount == 2)
    }

    @Test(
        "into a store with objects: new keys follow, links by position count the dataset's objects, indexes hold both"
    )
    func intoExistingStore() throws {
        let text =
            #"{\#(graphSchema), "objects": {"Dog": [{"name": "Rex", "owner": 1}], "Person": [{"id": 1, "name": "Ann", "dog": 0}]}}"#
        let store = BlockStore(schema: try DatasetLoader.loadSchema(json: "{\(graphSchema)}"))
        let first = store.beginWrite()
        try DatasetLoader.load(from: MemoryInput(Array(text.utf8)), into: first)
        _ = try first.commit()
        let second = store.beginWrite()
        let renamed = text.replacingOccurrences(of: #""id": 1"#, with: #""id": 2"#)
            .replacingOccurrences(of: #""owner": 1"#, with: #""owner": 2"#)
        let read = try DatasetLoader.load(from: MemoryInput(Array(renamed.utf8)), into: second)
        #expect(read.objects == 2)
        let snapshot = try second.commit().snapshot
        let people = try #require(snapshot.table(named: "Person"))
        let dogs = try #require(snapshot.table(named: "Dog"))
        #expect(people.rowCount == 2 && dogs.rowCount == 2)
        #expect(people.value(at: 1, property: 6) == .link(ObjectLink(className: "Dog", key: RowKey(1))))
        #expect(dogs.value(at: 1, property: 1) == .link(ObjectLink(className: "Person", key: RowKey(1))))
        #expect(people.position(ofPrimaryKey: .int(2)) == 1)
        #expect(people.indexLookup(property: 1, equalTo: .string("Ann"))?.count == 2)
    }

    @Test("progress is reported after every block of objects and at the end, with the bytes read")
    func progress() throws {
        let text = SeededGenerator.peopleJSON(count: 9000, seed: 9)
        var reports: [DatasetLoadProgress] = []
        let store = BlockStore(schema: try DatasetLoader.loadSchema(json: text))
        let transaction = store.beginWrite()
        let done = try DatasetLoader.load(from: MemoryInput(Array(text.utf8)), into: transaction) { reports.append($0) }
        #expect(reports.map(\.objects) == [4096, 8192, 9900])
        #expect(done.bytes == text.utf8.count && reports.last == done)
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.bytes < $1.bytes })
    }
}
