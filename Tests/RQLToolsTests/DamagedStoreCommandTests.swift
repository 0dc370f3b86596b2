import Foundation
import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage
@testable import RQLTools

/// `--data STORE`, `export` and `info` on a store file with a damaged block: exit 1 with the
/// typed error naming the file and the block, never rows of empty values printed as data.
@Suite("rqlc: damaged store files")
struct DamagedStoreCommandTests {
    /// A store of 20 Items whose only block's row keys no longer ascend (checked on first use).
    /// A second commit follows, so the damaged block is not among the bytes the newest header
    /// slot's checksum covers (which would make open fall back to the version before).
    static func damagedStore(_ directory: StoreCommandTests.Directory) throws -> String {
        let path = directory.path("damaged.rql")
        let schema = try DatasetLoader.loadSchema(
            json:
                #"{"schema": {"Item": {"primaryKey": "id", "properties": {"id": "int", "text": "string"}}, "Counter": {"properties": {"value": "int"}}}}"#
        )
        do {
            let store = try BlockStore.create(path: path, schema: schema)
            try store.write { t in
                for id in 0..<20 { _ = try t.insert("Item", ["id": .int(Int64(id)), "text": .string("item \(id)")]) }
            }
            try store.write { t in _ = try t.insert("Counter", ["value": .int(1)]) }
        }
        let place = try #require(try BlockStore.open(path: path, readOnly: true).snapshot.tables[0].blocks[0].place)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: place.offset + 8)
        handle.write(Data(repeating: 0, count: 8))
        try handle.close()
        #expect(throws: StoreFileError.self) { try BlockStore.verify(path: path) }
        return path
    }

    static func expectDamage(_ result: CommandResult, path: String, _ label: String) {
        #expect(result.exitCode == 1, "\(label): exit \(result.exitCode)")
        #expect(result.standardOutput.isEmpty, "\(label): printed \(result.standardOutput)")
        #expect(result.standardError.contains("store file '\(path)'"), "\(label): \(result.standardError)")
        #expect(result.standardError.contains("block 0 of 'Item'"), "\(label): \(result.standardError)")
    }

    @Test(
        "every command reading a damaged store exits 1 naming the file and the block",
        arguments: [
            ["run", "--class", "Item", "TRUEPREDICATE"],
            ["run", "--class", "Item", "--count", "text == ''"],
            ["explain", "--class", "Item", "id > 3"],
        ]
    )
    func queryCommands(_ arguments: [String]) throws {
        let directory = try StoreCommandTests.Directory()
        let path = try Self.damagedStore(directory)
        let result = RQLCommand.run([arguments[0], "--data", path] + arguments.dropFirst())
        Self.expectDamage(result, path: path, arguments.joined(separator: " "))
    }

    @Test("export of a damaged store exits 1 naming the file and the block; info reads no block")
    func storeCommands() throws {
        let directory = try StoreCommandTests.Directory()
        let path = try Self.damagedStore(directory)
        Self.expectDamage(RQLCommand.run(["export", path]), path: path, "export")
        // info reads the header, the root and the table directory, which are sound.
        let info = RQLCommand.run(["info", path])
        #expect(info.exitCode == 0 && info.standardOutput.contains("Item: 20\n"), "\(info.standardError)")
    }

    @Test("the same store undamaged runs and exports")
    func soundStore() throws {
        let directory = try StoreCommandTests.Directory()
        let path = directory.path("sound.rql")
        let schema = try DatasetLoader.loadSchema(
            json: #"{"schema": {"Item": {"primaryKey": "id", "properties": {"id": "int", "text": "string"}}}}"#
        )
        let store = try BlockStore.create(path: path, schema: schema)
        try store.write { t in
            for id in 0..<20 { _ = try t.insert("Item", ["id": .int(Int64(id)), "text": .string("item \(id)")]) }
        }
        let run = RQLCommand.run(["run", "--data", path, "--class", "Item", "--count", "text BEGINSWITH 'item'"])
        #expect(run.exitCode == 0 && run.standardOutput == "20\n", "\(run.standardOutput)\(run.standardError)")
        let export = RQLCommand.run(["export", path])
        #expect(export.exitCode == 0 && export.standardOutput.contains("item 19"))
    }
}
