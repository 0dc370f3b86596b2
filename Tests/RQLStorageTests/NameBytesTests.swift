import Foundation
import RQLCore
import RQLDatasets
import RQLEngine
import Testing

@testable import RQLStorage

/// Class and property names compare by their UTF-8 bytes, as in realm-core: "café" spelled with a
/// precomposed "é" (NFC) and with "e" plus a combining accent (NFD) are two names. (Swift's
/// `String` equality would make them one, and such a schema was refused as "declared twice".)
@Suite("Names compare by their bytes")
struct NameBytesTests {
    static let nfc = "caf\u{E9}"
    static let nfd = "cafe\u{301}"

    @Test("NFC and NFD spellings of one name are two properties, each found by its own bytes")
    func twoProperties() throws {
        #expect(Self.nfc == Self.nfd)  // what Swift says; the schema does not
        let objectSchema = ObjectSchema(
            name: "T",
            properties: [Property(name: Self.nfc, type: .int), Property(name: Self.nfd, type: .string)]
        )
        let schema = try Schema([objectSchema])
        #expect(schema["T"]?.propertyIndex(named: Self.nfc) == 0)
        #expect(schema["T"]?.propertyIndex(named: Self.nfd) == 1)
        #expect(schema["T"]?.propertyIndex(named: "cafe") == nil)
    }

    @Test("the same bytes twice are still declared twice")
    func sameBytes() {
        let objectSchema = ObjectSchema(
            name: "T",
            properties: [Property(name: Self.nfd, type: .int), Property(name: Self.nfd, type: .string)]
        )
        #expect(throws: SchemaError.duplicateProperty(className: "T", property: Self.nfd)) {
            try Schema([objectSchema])
        }
    }

    @Test("NFC and NFD class names are two classes")
    func twoClasses() throws {
        let schema = try Schema([
            ObjectSchema(name: Self.nfc, properties: [Property(name: "a", type: .int)]),
            ObjectSchema(name: Self.nfd, properties: [Property(name: "b", type: .int)]),
        ])
        #expect(schema.classIndex(named: Self.nfc) == 0 && schema.classIndex(named: Self.nfd) == 1)
    }

    @Test("a dataset declaring both spellings loads, and a query names each by its bytes")
    func dataset() throws {
        let json =
            #"{"schema": {"T": {"properties": {"\#(Self.nfc)": "int", "\#(Self.nfd)": "int"}}}, "#
            + #""objects": {"T": [{"\#(Self.nfc)": 1, "\#(Self.nfd)": 2}]}}"#
        let store = try DatasetLoader.load(json: json)
        let table = try #require(store.table(named: "T"))
        #expect(table.value(at: 0, property: 0) == .int(1) && table.value(at: 0, property: 1) == .int(2))
        let engine = try QueryEngine(options: EngineOptions(backend: .reference))
        for (name, value) in [(Self.nfc, 1), (Self.nfd, 2)] {
            let query = try engine.compile("\(name) == \(value)", className: "T", store: store)
            #expect(engine.run(query, on: store) == [RowKey(0)], "\(Array(name.unicodeScalars))")
        }
    }
}
