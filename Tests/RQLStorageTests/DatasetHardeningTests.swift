import Foundation
import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage

private let schema = #"""
    "schema": {
      "Dog": {"primaryKey": "name", "properties": {"name": "string", "f": "float?", "d": "double?", "b": "data?",
              "m": "mixed", "counts": "map<int>", "home": "Home?", "when": "date?"}},
      "Home": {"embedded": true, "properties": {"city": "string", "inner": "Inner?"}},
      "Inner": {"embedded": true, "properties": {"x": "int"}}
    }
    """#

private func dataset(_ dog: String) -> String {
    #"{\#(schema), "objects": {"Dog": [{"name": "Rex"}, \#(dog)]}}"#
}

private func loadError(_ text: String) -> DatasetError? {
    do {
        _ = try DatasetLoader.load(json: text)
        return nil
    } catch {
        return error
    }
}

@Suite("Datasets: hostile input")
struct DatasetHardeningTests {
    @Test(
        "a repeated key is an error naming where it is, in every part of a dataset",
        arguments: [
            (#"{\#(schema), "objects": {}, "objects": {}}"#, "the top-level object"),
            (#"{"schema": {"A": {"properties": {}}, "A": {"properties": {}}}}"#, "'schema'"),
            (#"{"schema": {"A": {"primaryKey": "x", "primaryKey": "y", "properties": {"x": "int"}}}}"#, "'schema.A'"),
            (#"{"schema": {"A": {"properties": {"x": "int", "x": "string"}}}}"#, "'schema.A.properties'"),
            (#"{\#(schema), "objects": {"Dog": [], "Dog": []}}"#, "'objects'"),
            (dataset(#"{"name": "Bo", "name": "Al"}"#), "'objects.Dog[1]'"),
            (dataset(#"{"name": "Bo", "counts": {"a": 1, "a": 2}}"#), "'objects.Dog[1].counts'"),
            (dataset(#"{"name": "Bo", "m": [{"k": 1, "k": 2}]}"#), "'objects.Dog[1].m[0]'"),
            (dataset(#"{"name": "Bo", "m": {"$oid": "11223344556677889900aabb", "$oid": "x"}}"#), "'objects.Dog[1].m'"),
            (
                dataset(#"{"name": "Bo", "home": {"city": "a", "inner": {"x": 1, "x": 2}}}"#),
                "'objects.Dog[1].home.inner'"
            ),
        ]
    )
    func duplicateKeys(text: String, path: String) {
        guard case .syntax(let error)? = loadError(text) else {
            Issue.record("expected a duplicate-key error for \(path)")
            return
        }
        #expect(error.message.hasPrefix("duplicate key"))
        #expect(error.description.hasSuffix(" in \(path)"), "\(error)")
    }

    @Test(
        "numbers beyond a float's or a double's range are errors, not infinities",
        arguments: [
            (#"{"name": "Bo", "f": 1e39}"#, "f", "'1e39' is out of range for a float"),
            (#"{"name": "Bo", "f": -3.5e38}"#, "f", "'-3.5e38' is out of range for a float"),
            (#"{"name": "Bo", "d": 1e400}"#, "d", "'1e400' is out of range for a double"),
            (#"{"name": "Bo", "m": -1e309}"#, "m", "'-1e309' is out of range for a double"),
            (#"{"name": "Bo", "m": {"$float": 1e39}}"#, "m", "'1e39' is out of range for a float"),
            (#"{"name": "Bo", "m": {"$double": 1e400}}"#, "m", "'1e400' is out of range for a double"),
        ]
    )
    func floatRange(dog: String, property: String, reason: String) {
        #expect(
            loadError(dataset(dog)) == .invalidValue(className: "Dog", position: 1, property: property, reason: reason)
        )
    }

    @Test("the largest finite values and written infinities still load")
    func floatLimits() throws {
        let store = try DatasetLoader.load(
            json: dataset(
                #"{"name": "Bo", "f": 3.4028234e38, "d": 1.7976931348623157e308, "m": {"$double": "Infinity"}}"#
            )
        )
        let dogs = try #require(store.table(named: "Dog"))
        #expect(dogs.value(at: 1, property: 1) == .float(Float.greatestFiniteMagnitude))
        #expect(dogs.value(at: 1, property: 2) == .double(Double.greatestFiniteMagnitude))
        #expect(dogs.value(at: 1, property: 4) == .double(.infinity))
    }

    @Test("only canonical base64 is accepted", arguments: ["abc", "abd=", "YQ", "YR==", "Y Q==", "YQ=="])
    func base64(text: String) {
        let error = loadError(dataset(#"{"name": "Bo", "b": "\#(text)"}"#))
        if text == "YQ==" {
            #expect(error == nil)
        } else {
            guard case .invalidValue(_, _, "b", let reason)? = error else {
                Issue.record("\(text) was accepted")
                return
            }
            #expect(reason.contains("base64"))
        }
    }

    @Test("an embedded object's unknown property is reported against the embedded class")
    func embeddedUnknownProperty() {
        let error = loadError(dataset(#"{"name": "Bo", "home": {"city": "a", "inner": {"x": 1, "y": 2}}}"#))
        #expect(
            error
                == .unknownEmbeddedProperty(
                    className: "Dog",
                    position: 1,
                    path: "home.inner.y",
                    embeddedClass: "Inner",
                    property: "y"
                )
        )
        #expect(error?.description == "Dog[1].home.inner.y: embedded class 'Inner' has no property 'y'")
    }

    @Test(
        "each refused $date pair says which rule it breaks",
        arguments: [
            ("[-9223372036854775808, -1]", "before the earliest date there is"),
            ("[5, -1]", "both parts must be ≤ 0 or both ≥ 0"),
            ("[0, 1000000000]", "nanoseconds must be between"),
            ("[0, 9999999999]", "nanoseconds must be between"),
        ]
    )
    func datePairs(pair: String, reason: String) {
        guard
            case .invalidValue(_, _, "when", let message)? = loadError(
                dataset(#"{"name": "Bo", "when": {"$date": \#(pair)}}"#)
            )
        else {
            Issue.record("\(pair) was accepted")
            return
        }
        #expect(message.contains(reason), "\(message)")
        #expect(!message.contains("both parts") || reason.contains("both parts"))
    }

    @Test("a dataset that is not UTF-8 is a bad dataset with the byte offset")
    func notUTF8() throws {
        var bytes = Array(dataset(#"{"name": "Bo"}"#).utf8)
        let offset = bytes.count - 6
        bytes[offset] = 0xE9
        guard
            case .syntax(let error)? = Result(catching: { () throws(DatasetError) in try DatasetLoader.load(utf8: bytes)
            })
            .failureValue
        else {
            Issue.record("loaded text that is not UTF-8")
            return
        }
        #expect(error.offset == offset)
    }

    @Test("reading only the schema stops after the schema")
    func schemaOnly() throws {
        let objects = String(repeating: #"{"name": "x"},"#, count: 20_000)
        let text = #"{\#(schema), "objects": {"Dog": [\#(objects) "broken"#
        let input = ChunkedInput(Array(text.utf8), chunk: 1 << 16)
        let loaded = try DatasetLoader.loadSchema(from: input)
        #expect(loaded["Dog"] != nil)
        #expect(input.position <= 1 << 16)
        // Objects before the schema are read past, and checked as JSON.
        let before = #"{"objects": {"Dog": [{"name": "x"}]}, \#(schema)}"#
        #expect(try DatasetLoader.loadSchema(json: before)["Home"] != nil)
        #expect(throws: DatasetError.self) { try DatasetLoader.loadSchema(json: #"{"objects": [1,], \#(schema)}"#) }
    }

    /// An endless stream of `pattern`, counting what was read.
    final class EndlessInput: ByteInput {
        let pattern: [UInt8]
        private(set) var handedOut = 0

        init(_ pattern: String) { self.pattern = Array(pattern.utf8) }

        func read(appendingTo buffer: inout [UInt8], upTo count: Int) -> Int {
            for i in 0..<count { buffer.append(pattern[(handedOut + i) % pattern.count]) }
            handedOut += count
            return count
        }

        var failure: InputFailure? { nil }
    }

    @Test(
        "a stream that is not a dataset fails at its first wrong byte, not after reading without end",
        arguments: ["\u{0}", "y\n", #"{"schema": {}, "objects": {"Dog": [1 2"#, #"{"schema": {"A": {"properties": x"#]
    )
    func endlessStream(pattern: String) {
        let input = EndlessInput(pattern)
        #expect(throws: DatasetError.self) { try DatasetLoader.load(from: input) }
        // One read of 64 KB (and one more for a token cut at its end), never the stream.
        #expect(input.handedOut <= 1 << 17, "read \(input.handedOut) bytes")
    }

    @Test("a dataset streamed in small chunks loads as it does from memory, each read asking 64 KB at most")
    func streamedLoad() throws {
        /// A pipe's worth at a time; records the largest read asked for (`FileInput` fills what
        /// it is offered before reading, so offering the whole reserve each time is quadratic).
        final class PipeInput: ByteInput {
            let bytes: [UInt8]
            var position = 0
            var largestAsk = 0
            init(_ text: String) { bytes = Array(text.utf8) }
            func read(appendingTo buffer: inout [UInt8], upTo count: Int) -> Int {
                largestAsk = max(largestAsk, count)
                let end = min(bytes.count, position + min(count, 4096))
                buffer.append(contentsOf: bytes[position..<end])
                defer { position = end }
                return end - position
            }
            var failure: InputFailure? { nil }
        }
        let text = DemoDataset.json + String(repeating: " ", count: 1 << 18)
        let piped = PipeInput(text)
        _ = try DatasetLoader.load(from: piped)
        #expect(piped.largestAsk <= 1 << 16)
        let streamed = try DatasetLoader.load(from: ChunkedInput(Array(text.utf8), chunk: 7))
        let inMemory = try DatasetLoader.load(json: text)
        #expect(try DatasetExporter.export(streamed) == DatasetExporter.export(inMemory))
        // Objects before the schema are walked again from the bytes kept.
        let reordered = #"{"objects": {"Dog": [{"age": 4}]}, "schema": {"Dog": {"properties": {"age": "int"}}}}"#
        let store = try DatasetLoader.load(from: ChunkedInput(Array(reordered.utf8), chunk: 3))
        #expect(store.table(named: "Dog")?.rowCount == 1)
    }

    @Test("a read failure is reported as such, not as bad JSON")
    func readFailure() throws {
        final class FailingInput: ByteInput {
            var sent = false
            func read(appendingTo buffer: inout [UInt8], upTo count: Int) -> Int {
                guard !sent else { return 0 }
                sent = true
                buffer.append(contentsOf: Array(#"{"schema": {"A": "#.utf8))
                return 16
            }
            var failure: InputFailure? { sent ? InputFailure("cannot read 'x': input/output error") : nil }
        }
        #expect(throws: DatasetError.unreadable(InputFailure("cannot read 'x': input/output error"))) {
            try DatasetLoader.loadSchema(from: FailingInput())
        }
    }

    @Test("files are read with plain messages for directories, missing files and symlink loops")
    func fileInput() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rql-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let loop = directory.appendingPathComponent("loop").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        #expect(throws: InputFailure("cannot read '\(directory.path)': it is a directory")) {
            try FileInput(path: directory.path)
        }
        #expect(throws: InputFailure("cannot read '\(directory.path)/none': no such file")) {
            try FileInput(path: directory.path + "/none")
        }
        #expect(
            throws: InputFailure("cannot read '\(loop)': too many levels of symbolic links (a symbolic link loop?)")
        ) {
            try FileInput(path: loop)
        }
        let file = directory.appendingPathComponent("d.json").path
        try Data(dataset(#"{"name": "Bo"}"#).utf8).write(to: URL(fileURLWithPath: file))
        let store = try DatasetLoader.load(from: try FileInput(path: file))
        #expect(store.table(named: "Dog")?.rowCount == 2)
    }

    @Test("links, backlinks and embedded objects survive column-at-a-time loading")
    func graph() throws {
        let store = try DemoDataset.load()
        let dogs = try #require(store.table(named: "Dog"))
        let people = try #require(store.table(named: "Person"))
        let owners = dogs.backlinks(at: 1, fromClass: "Person", property: "dogs")
        #expect(
            owners.compactMap { people.position(of: $0) }.map { people.value(at: $0, property: 1) } == [
                .string("Ben"), .string("Jack"),
            ]
        )
        #expect(dogs.backlinkCount(at: 1) == 2)
        let exported = try DatasetExporter.export(store)
        #expect(try DatasetExporter.export(DatasetLoader.load(json: exported)) == exported)
    }
}

extension Result {
    fileprivate var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
