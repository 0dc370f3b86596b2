import RQLCore
import RQLDatasets
import RQLTestSupport
import Testing

@testable import RQLStorage

/// Embedded objects nest at most `WriteTransaction.maximumEmbeddedDepth` levels below their
/// top-level owner. The dataset writer and exporter followed them by recursion with no bound, so
/// a chain of 100,000 in a damaged store overflowed the stack and a ring never ended; they now
/// stop at the bound with an error naming the object. The loader refuses what the writer would
/// refuse, so whatever loads can be written back.
@Suite("Embedded objects nested too deep")
struct DeepEmbeddedOutputTests {
    static let bound = WriteTransaction.maximumEmbeddedDepth
    static let tooDeep = DatasetError.embeddedTooDeep(className: "Holder", position: 0, property: "root", limit: bound)

    /// The holder written by `DatasetObjectWriter` (one JSON line), and the writer's failure.
    static func written(_ store: EmbeddedChainStore) throws -> (text: String, failure: DatasetError?) {
        let holders = try #require(store.table(named: "Holder"))
        var writer = DatasetObjectWriter(table: holders, store: store)
        _ = writer.write(positions: 0..<1, columns: writer.storedColumns, limit: .max) { writer, block, row in
            writer.writeObject(block, row)
        }
        return (String(decoding: writer.bytes, as: UTF8.self), writer.failure)
    }

    @Test("a chain of 100,000 embedded objects is an error naming its owner, from the writer and the exporter")
    func chainOfHundredThousand() throws {
        let store = try EmbeddedChainStore(levels: 100_000)
        #expect(try Self.written(store).failure == Self.tooDeep)
        #expect(throws: Self.tooDeep) { try DatasetExporter.export(store) }
        #expect("\(Self.tooDeep)" == "Holder[0].root: embedded objects nested more than \(Self.bound) levels deep")
    }

    @Test("embedded objects that own each other in a ring are an error, not an endless walk")
    func ring() throws {
        let store = try EmbeddedChainStore(levels: 3, cycle: true)
        #expect(try Self.written(store).failure == Self.tooDeep)
        #expect(throws: Self.tooDeep) { try DatasetExporter.export(store) }
        let nodes = try #require(store.table(named: "Node"))
        #expect(
            throws: DatasetError.embeddedTooDeep(className: "Node", position: 1, property: "child", limit: Self.bound)
        ) {
            try DatasetExporter.object(at: 1, in: nodes, store: store)
        }
    }

    @Test("a chain at the bound is written, and what is written loads back to the same text")
    func chainAtTheBound() throws {
        let store = try EmbeddedChainStore(levels: Self.bound)
        let (line, failure) = try Self.written(store)
        #expect(failure == nil)
        let exported = try DatasetExporter.export(store)
        let loaded = try DatasetLoader.load(json: exported)
        #expect(loaded.table(named: "Node")?.rowCount == Self.bound)
        #expect(try DatasetExporter.export(loaded) == exported)
        let holders = try #require(loaded.table(named: "Holder"))
        #expect(try DatasetExporter.object(at: 0, in: holders, store: loaded).serialized() == line)
        // One level more is refused.
        #expect(try Self.written(EmbeddedChainStore(levels: Self.bound + 1)).failure == Self.tooDeep)
    }

    /// A dataset whose holder has a chain of `levels` embedded nodes, written nested.
    static func nestedDataset(levels: Int) -> String {
        var node = "null"
        for level in stride(from: levels, to: 0, by: -1) { node = #"{"level": \#(level), "child": \#(node)}"# }
        return #"{"schema": {"Holder": {"properties": {"name": "string", "root": "Node?"}}, "#
            + #""Node": {"embedded": true, "properties": {"level": "int", "child": "Node?"}}}, "#
            + #""objects": {"Holder": [{"name": "deep", "root": \#(node)}]}}"#
    }

    @Test("the loader refuses embedded objects deeper than a store holds")
    func loaderBound() throws {
        let atBound = try DatasetLoader.load(json: Self.nestedDataset(levels: Self.bound))
        #expect(atBound.table(named: "Node")?.rowCount == Self.bound)
        let text = Self.nestedDataset(levels: Self.bound + 1)
        #expect(throws: Self.tooDeep) { try DatasetLoader.load(json: text) }
    }

    @Test("a store import refuses embedded objects deeper than a store holds, or in a ring no object owns")
    func importBound() throws {
        for source in [
            try EmbeddedChainStore(levels: Self.bound + 1),
            try EmbeddedChainStore(levels: 3, cycle: true, owned: false),
        ] {
            let store = BlockStore(schema: source.schema)
            let transaction = store.beginWrite()
            #expect {
                try transaction.importObjects(from: source)
            } throws: { error in
                guard case .typeMismatch("Node", _, _, let expected, _) = error as? WriteError else { return false }
                return expected.contains("at most \(Self.bound) levels below its owner")
            }
            transaction.rollback()
        }
        let source = try EmbeddedChainStore(levels: Self.bound)
        let store = BlockStore(schema: source.schema)
        let transaction = store.beginWrite()
        try transaction.importObjects(from: source)
        let imported = try transaction.commit().snapshot
        #expect(imported.table(named: "Node")?.rowCount == Self.bound)
        #expect(try DatasetExporter.export(imported) == DatasetExporter.export(source))
    }
}
