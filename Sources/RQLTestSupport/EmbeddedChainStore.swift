import RQLCore
import RQLDatasets
import RQLStorage

/// A store as a damaged or hostile file can present it: `Holder` owns a chain of `levels`
/// embedded `Node`s, each the child of the one before (with `cycle`, the last one's child is the
/// first: a ring; `owned: false` leaves the holder's root null, so no top-level object owns the
/// nodes). The store API refuses to write either (embedded objects nest at most
/// `WriteTransaction.maximumEmbeddedDepth` levels below their owner); here the nodes are
/// top-level objects of a loaded dataset, read through a schema that calls their class embedded.
///
/// ```swift
/// let store = try EmbeddedChainStore(levels: 100_000)
/// try DatasetExporter.export(store)   // throws DatasetError.embeddedTooDeep
/// ```
public struct EmbeddedChainStore: StoreReader {
    public let base: BlockSnapshot
    public let schema: Schema

    public init(levels: Int, cycle: Bool = false, owned: Bool = true) throws {
        var text = #"{"schema": {"Holder": {"properties": {"name": "string", "root": "Node?"}}, "#
        text += #""Node": {"properties": {"level": "int", "child": "Node?"}}}, "objects": {"#
        text += #""Holder": [{"name": "chain", "root": \#(owned ? "0" : "null")}], "#
        text += #""Node": ["#
        for level in 0..<levels {
            if level > 0 { text += "," }
            let child = level + 1 < levels ? "\(level + 1)" : (cycle ? "0" : "null")
            text += #"{"level": \#(level), "child": \#(child)}"#
        }
        text += "]}}"
        base = try DatasetLoader.load(json: text)
        schema = try Schema(
            base.schema.classes.map {
                ObjectSchema(name: $0.name, properties: $0.properties, isEmbedded: $0.name == "Node")
            }
        )
    }

    public var version: UInt64 { base.version }

    public func table(named className: String) -> Table? {
        guard let table = base.table(named: className), let objectSchema = schema[className] else { return nil }
        return Table(base: table, objectSchema: objectSchema)
    }

    /// A table of `base` under the class `schema` gives it.
    public struct Table: TableReader {
        let base: BlockTable
        public let objectSchema: ObjectSchema

        public var rowCount: Int { base.rowCount }
        public var blockCount: Int { base.blockCount }
        public func rowKey(at position: Int) -> RowKey { base.rowKey(at: position) }
        public func position(of key: RowKey) -> Int? { base.position(of: key) }
        public func withColumn<R>(_ property: Int, _ body: (ColumnView) throws -> R) rethrows -> R {
            try base.withColumn(property, body)
        }
        public func withBlock<R>(_ index: Int, columns: ColumnSelection, _ body: (TableBlock) throws -> R) rethrows -> R
        {
            try base.withBlock(index, columns: columns, body)
        }
        public func value(at position: Int, property: Int) -> Value { base.value(at: position, property: property) }
        public func position(ofPrimaryKey key: Value) -> Int? { base.position(ofPrimaryKey: key) }
        public func indexLookup(property: Int, equalTo value: Value) -> [Int]? {
            base.indexLookup(property: property, equalTo: value)
        }
        public func fullTextLookup(property: Int, token: String, prefix: Bool) -> [Int]? {
            base.fullTextLookup(property: property, token: token, prefix: prefix)
        }
        public func backlinks(at position: Int, fromClass className: String, property: String) -> [RowKey] {
            base.backlinks(at: position, fromClass: className, property: property)
        }
        public func backlinkCount(at position: Int) -> Int { base.backlinkCount(at: position) }
        public func statistics(property: Int) -> ColumnStatistics { base.statistics(property: property) }
    }
}
