import Foundation
import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage
@testable import RQLTools

/// A store file whose newest commit is unreadable (its last byte cut off): every command names
/// the unreadable version on standard error and exits 1, unless `--accept-older-version` is
/// given; `verify` always exits 1. A flipped bit in a block is damage (exit 1), never an answer.
@Suite("rqlc: a store whose newest version cannot be read")
struct FallbackCommandTests {
    static let schema = #"{"schema": {"Item": {"primaryKey": "id", "properties": {"id": "int", "text": "string"}}}}"#

    /// A store of four commits, one Item each (ids 1…4), cut by one byte: version 4 unreadable.
    static func cutStore(_ directory: StoreCommandTests.Directory) throws -> String {
        let path = directory.path("cut.rql")
        do {
            let store = try BlockStore.create(path: path, schema: try DatasetLoader.loadSchema(json: schema))
            // Each commit a checkpoint (the log off), so that version 3 is in the file to fall back to.
            store.logsCommits = false
            for id in 1...4 {
                try store.write { t in _ = try t.insert("Item", ["id": .int(Int64(id)), "text": .string("item \(id)")])
                }
            }
        }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size - 1)) == 0)
        return path
    }

    static func namesFallback(_ text: String, path: String) -> Bool {
        text.contains("store file '\(path)'") && text.contains("the newest version 4 could not be read")
            && text.contains("version 3 is intact")
    }

    static func expectRefused(_ result: CommandResult, path: String, _ label: String) {
        #expect(result.exitCode == 1, "\(label): exit \(result.exitCode)")
        #expect(result.standardOutput.isEmpty, "\(label): printed \(result.standardOutput)")
        #expect(namesFallback(result.standardError, path: path), "\(label): \(result.standardError)")
        #expect(result.standardError.contains("--accept-older-version"), "\(label)")
    }

    static func expectAccepted(_ result: CommandResult, path: String, _ label: String) {
        #expect(result.exitCode == 0, "\(label): exit \(result.exitCode) \(result.standardError)")
        #expect(result.standardError.hasPrefix("warning: "), "\(label): \(result.standardError)")
        #expect(namesFallback(result.standardError, path: path), "\(label): \(result.standardError)")
    }

    @Test("verify exits 1 naming the unreadable version and the intact one")
    func verify() throws {
        let directory = try StoreCommandTests.Directory()
        let path = try Self.cutStore(directory)
        let result = RQLCommand.run(["verify", path])
        #expect(result.exitCode == 1 && result.standardOutput.isEmpty)
        #expect(Self.namesFallback(result.standardError, path: path), "\(result.standardError)")
        #expect(result.standardError.contains("truncated"), "\(result.standardError)")
    }

    @Test(
        "query commands refuse the older version unless --accept-older-version is given",
        arguments: [
            ["run", "--class", "Item", "--count", "TRUEPREDICATE"],
            ["check", "--class", "Item", "id > 3"],
            ["explain", "--class", "Item", "id > 3"],
        ]
    )
    func queryCommands(_ arguments: [String]) throws {
        let directory = try StoreCommandTests.Directory()
        let path = try Self.cutStore(directory)
        let label = arguments.joined(separator: " ")
        let refused = RQLCommand.run([arguments[0], "--data", path] + arguments.dropFirst())
        Self.expectRefused(refused, path: path, label)
        let accepted = RQLCommand.run(
            [arguments[0], "--data", path, "--accept-older-version"] + arguments.dropFirst()
        )
        Self.expectAccepted(accepted, path: path, label)
        if arguments.contains("--count") { #expect(accepted.standardOutput == "3\n") }
    }

    @Test("export, info and import refuse the older version unless accepted; import then replaces version 4")
    func storeCommands() throws {
        let directory = try StoreCommandTests.Directory()
        let path = try Self.cutStore(directory)
        Self.expectRefused(RQLCommand.run(["export", path]), path: path, "export")
        Self.expectRefused(RQLCommand.run(["info", path]), path: path, "info")
        let export = RQLCommand.run(["export", "--accept-older-version", path])
        Self.expectAccepted(export, path: path, "export")
        #expect(export.standardOutput.contains("item 3") && !export.standardOutput.contains("item 4"))
        let info = RQLCommand.run(["info", "--accept-older-version", path])
        Self.expectAccepted(info, path: path, "info")
        #expect(info.standardOutput.contains("version: 3"))

        let dataset = directory.path("more.json")
        try Data(
            #"{"schema": {"Item": {"primaryKey": "id", "properties": {"id": "int", "text": "string"}}}, "objects": {"Item": [{"id": 9, "text": "nine"}]}}"#
                .utf8
        ).write(to: URL(fileURLWithPath: dataset))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        Self.expectRefused(RQLCommand.run(["import", dataset, path]), path: path, "import")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "a refused import wrote")
        let imported = RQLCommand.run(["import", "--accept-older-version", dataset, path])
        Self.expectAccepted(imported, path: path, "import")
        #expect(imported.standardOutput.contains("version 4, 4 objects"), "\(imported.standardOutput)")
        #expect(RQLCommand.run(["verify", path]).standardOutput == "ok: version 4\n")
    }

    @Test("--accept-older-version is in the help of rqlc and of each store-reading command")
    func documented() {
        #expect(RQLCommand.run(["--help"]).standardOutput.contains("--accept-older-version"))
        for command in ["run", "check", "explain", "export", "info", "import"] {
            #expect(
                RQLCommand.run([command, "--help"]).standardOutput.contains("--accept-older-version"),
                "\(command)"
            )
        }
    }

    @Test("one flipped bit in a string of a 30,000-row store exits 1 instead of changing the answer")
    func flippedString() throws {
        let directory = try StoreCommandTests.Directory()
        let path = directory.path("rows.rql")
        do {
            let store = try BlockStore.create(path: path, schema: try DatasetLoader.loadSchema(json: Self.schema))
            try store.write { t in
                for id in 0..<30_000 {
                    _ = try t.insert("Item", ["id": .int(Int64(id)), "text": .string("item \(id)")])
                }
            }
            // A later small commit: the damaged block is not among the bytes its slot checksums.
            try store.write { t in _ = try t.insert("Item", ["id": .int(-1), "text": .string("last")]) }
        }
        let query = ["run", "--data", path, "--class", "Item", "--count", "text == 'item 12345'"]
        #expect(RQLCommand.run(query).standardOutput == "1\n")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let needle = Data("item 12345".utf8)
        let range = try #require(bytes.range(of: needle))
        bytes[range.lowerBound + 1] ^= 0x10
        try bytes.write(to: URL(fileURLWithPath: path))
        let result = RQLCommand.run(query)
        #expect(result.exitCode == 1 && result.standardOutput.isEmpty, "\(result)")
        #expect(result.standardError.contains("checksum mismatch"), "\(result.standardError)")
        #expect(RQLCommand.run(["verify", path]).exitCode == 1)
    }
}
