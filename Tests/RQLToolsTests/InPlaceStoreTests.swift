import Foundation
import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage
@testable import RQLTools

/// `--data STORE`, `info` and `export` read a store file in place: every output format answers
/// as on the JSON dataset, a query reads only the blocks it touches (a damaged block elsewhere
/// does not stop it; one it touches ends it with exit 1 before a spoiled row is printed), `info`
/// reads no block, and `export` streams.
@Suite("rqlc: store files read in place")
struct InPlaceStoreTests {
    typealias Directory = StoreCommandTests.Directory

    /// A store of `rows` Items (two blocks for 5,000 rows: 4,096 and 904), written in two commits
    /// so that the first commit's blocks are outside what the newest header slot's checksum covers.
    static func itemStore(_ directory: Directory, rows: Int = 5_000) throws -> String {
        let path = directory.path("items.rql")
        let schema = try DatasetLoader.loadSchema(
            json:
                #"{"schema": {"Item": {"primaryKey": "id", "properties": {"id": "int", "text": "string", "size": "int"}}, "Counter": {"properties": {"value": "int"}}}}"#
        )
        let store = try BlockStore.create(path: path, schema: schema)
        try store.write { t in
            for id in 0..<rows {
                _ = try t.insert(
                    "Item",
                    ["id": .int(Int64(id)), "text": .string("item \(id)"), "size": .int(Int64(id % 7))]
                )
            }
        }
        try store.write { t in _ = try t.insert("Counter", ["value": .int(1)]) }
        return path
    }

    /// Overwrites 8 bytes inside block `block` of 'Item' (its checksum then fails on first use).
    /// Damages block `block` of Item in its row keys, which no query reads while the block fills
    /// its key range (no row of it deleted: a row's key is then the block's first key plus the
    /// row), and in its middle (the `text` column, which export reads): a damaged part is met
    /// only by the queries that read it (`BlockChecksumTests`).
    static func damage(block: Int, of path: String) throws {
        let place = try #require(try BlockStore.open(path: path, readOnly: true).snapshot.tables[0].blocks[block].place)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: place.offset + UInt64(BlockCoding.directorySize(parts: 4)) + 800)
        handle.write(Data(repeating: 0xA5, count: 8))
        try handle.seek(toOffset: place.offset + place.length / 2)
        handle.write(Data(repeating: 0xA5, count: 8))
        try handle.close()
        #expect(throws: StoreFileError.self) { try BlockStore.verify(path: path) }
    }

    @Test("every output format, count, check and explain answer on the store file as on the JSON")
    func formats() throws {
        let directory = try Directory()
        let paths = try StoreCommandTests.importChecked(DemoDataset.json, name: "demo", in: directory)
        let queries = [
            ("Dog", "age > 2 SORT(name ASC)"), ("Person", "ANY dogs.age > 5"), ("Dog", "favoriteToy.name == 'Ball'"),
            ("DogClub", "TRUEPREDICATE"), ("Dog", "age > 100"),
        ]
        for (className, query) in queries {
            for format in ["jsonl", "json", "table", "keys"] {
                StoreCommandTests.compare(
                    ["--class", className, "--format", format, query],
                    paths,
                    "\(format) \(query)"
                )
            }
            StoreCommandTests.compare(["--class", className, "--count", query], paths, "count \(query)")
            for command in ["check", "explain"] {
                let onJSON = RQLCommand.run([command, "--data", paths.json, "--class", className, query])
                let onStore = RQLCommand.run([command, "--data", paths.store, "--class", className, query])
                #expect(onJSON.exitCode == 0 && onStore.exitCode == 0, "\(command) \(query): \(onStore.standardError)")
                #expect(onJSON.standardOutput == onStore.standardOutput, "\(command) \(query)")
            }
        }
        // An argument linking to an object resolves in the store file as in the dataset.
        StoreCommandTests.compare(
            [
                "--class", "Dog", "--arg",
                #"{"$link": {"class": "DogToy", "key": {"$oid": "11223344556677889900aabb"}}}"#,
                "favoriteToy == $0",
            ],
            paths,
            "$link argument"
        )
    }

    @Test("a query reads only the tables it touches: a damaged block of another class does not stop it")
    func untouchedDamage() throws {
        let directory = try Directory()
        let path = try Self.itemStore(directory)
        try Self.damage(block: 1, of: path)
        // Loading the whole file (as rqlc did before reading in place) would meet the damage.
        for arguments in [["--count", "value == 1"], ["--format", "jsonl", "value > 0"]] {
            let result = RQLCommand.run(["run", "--data", path, "--class", "Counter"] + arguments)
            #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
            #expect(result.standardOutput == (arguments[0] == "--count" ? "1\n" : #"{"value":1}"# + "\n"))
        }
        // A count reads the column it tests and no row keys: the damaged keys are not met, and
        // the answer uses checked bytes only (ids 0, 7, … 4998).
        let count = RQLCommand.run(["run", "--data", path, "--class", "Item", "--count", "size == 0"])
        #expect(count.exitCode == 0 && count.standardOutput == "715\n", "\(count.standardError)")
        // Keys of rows whose blocks fill their key ranges read no row keys either: the keys
        // printed come from checked bytes only (the size and id columns).
        let keys = RQLCommand.run(["run", "--data", path, "--class", "Item", "--format", "keys", "size == 6"])
        let sixes = (0..<5_000).filter { $0 % 7 == 6 }.map { "\($0)\n" }.joined()
        #expect(keys.exitCode == 0 && keys.standardOutput == sixes, "\(keys.standardError)")
        let check = RQLCommand.run(["check", "--data", path, "--class", "Item", "size > 2"])
        #expect(check.exitCode == 0 && check.standardOutput == "ok\n", "\(check.standardError)")
    }

    @Test(
        "a query that meets a damaged block exits 1 naming it, with no row of the block printed",
        arguments: [
            ["--count", "text BEGINSWITH 'item'"], ["--format", "jsonl", "id >= 4000 AND size == 0"],
            ["--format", "keys", "text ENDSWITH '6'"],
            ["--format", "table", "size == 6"], ["--format", "json", "id > 4090 AND id < 4100"],
        ]
    )
    func touchedDamage(_ arguments: [String]) throws {
        let directory = try Directory()
        let path = try Self.itemStore(directory)
        try Self.damage(block: 1, of: path)
        let result = RQLCommand.run(["run", "--data", path, "--class", "Item"] + arguments)
        #expect(result.exitCode == 1, "\(arguments): exit \(result.exitCode)")
        #expect(result.standardError.contains("store file '\(path)'"), "\(result.standardError)")
        #expect(result.standardError.contains("block 1 of 'Item'"), "\(result.standardError)")
        // Rows of the damaged block read as empty values (id 0, text ""): never printed.
        #expect(!result.standardOutput.contains(#""text":"""#), "\(arguments)")
        #expect(!result.standardOutput.contains("item 4096"), "\(arguments)")
    }

    @Test("info reads the header, root and table directory only: damaged blocks do not stop it")
    func infoReadsNoBlock() throws {
        let directory = try Directory()
        let path = try Self.itemStore(directory)
        try Self.damage(block: 0, of: path)
        try Self.damage(block: 1, of: path)
        let info = RQLCommand.run(["info", path])
        #expect(info.exitCode == 0, "\(info.standardError)")
        #expect(
            info.standardOutput.hasPrefix("format version: \(FileHeader.formatVersion)\nversion: 2\nsize: "),
            "\(info.standardOutput)"
        )
        #expect(info.standardOutput.hasSuffix("classes:\n  Item: 5000\n  Counter: 1\n"), "\(info.standardOutput)")
        // verify reads every block and names the first damaged one.
        let verify = RQLCommand.run(["verify", path])
        #expect(verify.exitCode == 1 && verify.standardError.contains("block 0 of 'Item'"))
    }

    @Test("export streams: a damaged last block ends it after the rows before it were written")
    func exportStreams() throws {
        let directory = try Directory()
        let path = try Self.itemStore(directory)
        let whole = RQLCommand.run(["export", path])
        #expect(whole.exitCode == 0)
        let store = try BlockStore.open(path: path, readOnly: true)
        #expect(whole.standardOutput == (try DatasetExporter.export(store.snapshot)) + "\n")
        try Self.damage(block: 1, of: path)
        let cut = RQLCommand.run(["export", path])
        #expect(cut.exitCode == 1)
        #expect(cut.standardError.contains("block 1 of 'Item'"), "\(cut.standardError)")
        // Written before block 1 was read: the schema and rows of block 0, none of block 1.
        #expect(cut.standardOutput.hasPrefix(String(whole.standardOutput.prefix(1_000))))
        #expect(cut.standardOutput.contains(#""text": "item 3000""#))
        #expect(!cut.standardOutput.contains(#""text": "item 4096""#))
        #expect(!cut.standardOutput.contains(#""text": """#))
        #expect(cut.standardOutput.utf8.count < whole.standardOutput.utf8.count)
    }

    @Test("import from a store file reads it in place; a damaged source block stops the import")
    func importFromStore() throws {
        let directory = try Directory()
        let path = try Self.itemStore(directory)
        let copy = directory.path("copy.rql")
        let imported = RQLCommand.run(["import", path, copy])
        #expect(imported.exitCode == 0, "\(imported.standardError)")
        #expect(RQLCommand.run(["export", copy]).standardOutput == RQLCommand.run(["export", path]).standardOutput)
        try Self.damage(block: 1, of: path)
        let target = directory.path("target.rql")
        let refused = RQLCommand.run(["import", path, target])
        #expect(refused.exitCode == 1)
        #expect(refused.standardError.contains("block 1 of 'Item'"), "\(refused.standardError)")
        // Nothing was committed, and the store the import created is gone again.
        #expect(!FileManager.default.fileExists(atPath: target))
        // Into an existing store: nothing is committed there, and the store stays.
        let refusedCopy = RQLCommand.run(["import", path, copy])
        #expect(refusedCopy.exitCode == 1)
        let count = RQLCommand.run(["run", "--data", copy, "--class", "Item", "--count", "TRUEPREDICATE"])
        #expect(count.standardOutput == "5000\n", "\(count.standardOutput)\(count.standardError)")
    }
}
