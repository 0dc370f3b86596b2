import RQLCore
import RQLDatasets
import RQLStorage
import RQLTestSupport

/// The input of `FuzzCompile` and `FuzzDifferential`: a small generated dataset (schema variant,
/// row count and data seed) and an RQL query on one of its classes.
///
/// Byte 0 is the header: bits 0–4 the number of `Person` rows (0–31; `Dog` has a tenth of
/// them, at least one), bit 5 the class (`Dog` when set, else `Person`), bit 6 keeps the
/// indexes on `age`, `city` and `score` (so the optimizer chooses index paths), bit 7 drops the
/// primary key on `id`. Byte 1 seeds `SeededGenerator.peopleJSON`. The rest is the query text.
/// `T` is 20 indexed `Person` rows and `t` the same on `Dog`, so `TAage > 17` reads as "20
/// indexed rows, seed 65, `age > 17`"; headers without indexes (bit 6 clear) are not printable.
///
///     VMInput(bytes: Array("TAage > 17".utf8)).rowCount   // 20
public struct VMInput: Sendable, Hashable {
    public var rowCount: Int
    public var className: String
    public var isIndexed: Bool
    public var hasPrimaryKey: Bool
    public var seed: UInt8
    public var text: String
    /// Whether `Person` also has the properties `x0` … `x5` whose types `seed` chooses, and
    /// `Dog` the backlink `owners` (`SchemaExtension`): the random schema `FuzzCompile` and
    /// `FuzzDifferential` check on.
    public var extendsSchema = false

    public init(
        rowCount: Int = 20,
        className: String = "Person",
        isIndexed: Bool = true,
        hasPrimaryKey: Bool = true,
        seed: UInt8 = 0,
        text: String
    ) {
        self.rowCount = min(max(rowCount, 0), 31)
        self.className = className
        self.isIndexed = isIndexed
        self.hasPrimaryKey = hasPrimaryKey
        self.seed = seed
        self.text = text
    }

    /// Reads fuzzer bytes; missing header bytes read as zero.
    public init(bytes: some Collection<UInt8>) {
        let bytes = Array(bytes)
        let header = bytes.first ?? 0
        self.init(
            rowCount: Int(header & 0x1F),
            className: header & 0x20 == 0 ? "Person" : "Dog",
            isIndexed: header & 0x40 != 0,
            hasPrimaryKey: header & 0x80 == 0,
            seed: bytes.count > 1 ? bytes[1] : 0,
            text: String(decoding: bytes.dropFirst(2), as: UTF8.self)
        )
    }

    /// The bytes this input reads back from (the text re-encoded as UTF-8).
    public var bytes: [UInt8] {
        var header = UInt8(rowCount)
        if className == "Dog" { header |= 0x20 }
        if isIndexed { header |= 0x40 }
        if !hasPrimaryKey { header |= 0x80 }
        return [header, seed] + Array(text.utf8)
    }

    /// The dataset's JSON: the generator's, with the indexes and primary key this input drops.
    public var datasetJSON: String {
        var extra = extendsSchema ? SchemaExtension(seed: seed).datasetExtension : nil
        if !isIndexed { extra?.personIndexed = "" }
        var json = SeededGenerator.peopleJSON(count: rowCount, seed: UInt64(seed), extra: extra)
        if !isIndexed { json = json.replacing(#""indexed": ["age", "city", "score"],"#, with: "") }
        if !hasPrimaryKey { json = json.replacing(#""primaryKey": "id","#, with: "") }
        return json
    }

    /// The dataset loaded; a generated dataset that does not load is a generator bug.
    public func store() -> BlockSnapshot {
        do {
            return try DatasetLoader.load(json: datasetJSON)
        } catch {
            fatalError("the generated dataset for \(self) does not load: \(error)")
        }
    }

    /// How a violation report shows the input.
    var summary: String {
        [
            "data:    \(rowCount) Person rows, seed \(seed), \(isIndexed ? "indexed" : "no indexes"), "
                + "\(hasPrimaryKey ? "primary key id" : "no primary key")",
            extendsSchema
                ? "schema:  extended with "
                    + SchemaExtension(seed: seed).properties.map {
                        "\($0.name) \($0.syntax)" + ($0.isIndexed ? " indexed" : "")
                    }.joined(separator: ", ") + ", Dog.owners"
                : "schema:  the generator's",
            "class:   \(className)",
            "query:   \(text.debugDescription)",
            "hex:     \(hexDump(bytes)) (re-encoded: header, seed, query)",
        ].joined(separator: "\n")
    }
}
