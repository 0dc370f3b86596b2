import Foundation
import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage
@testable import RQLTools

/// `rqlc verify`, `info`, `export`, `run --data` and `import` on a store whose newest commits
/// are in its commit log (a writer still has it open): each sees those commits.
@Suite("rqlc: a store with a non-empty commit log")
struct LoggedStoreCommandTests {
    typealias Directory = StoreCommandTests.Directory

    @Test("verify, info, export, run and import read the commits of the log")
    func commandsReadTheLog() throws {
        let directory = try Directory()
        let path = try InPlaceStoreTests.itemStore(directory, rows: 100)
        let writer = try BlockStore.open(path: path)
        for id in 100..<103 {
            try writer.write { t in
                _ = try t.insert("Item", ["id": .int(Int64(id)), "text": .string("logged \(id)"), "size": .int(1)])
            }
        }
        #expect(try BlockStore.info(path: path).logRecords == 3)

        let verify = RQLCommand.run(["verify", path])
        #expect(verify.exitCode == 0 && verify.standardOutput == "ok: version 5\n", "\(verify.standardError)")
        let info = RQLCommand.run(["info", path])
        #expect(info.standardOutput.contains("version: 5\n"), "\(info.standardOutput)")
        #expect(info.standardOutput.contains("commit log: 3 commits after the checkpoint\n"))
        #expect(info.standardOutput.contains("Item: 103\n"), "\(info.standardOutput)")
        let export = RQLCommand.run(["export", path])
        #expect(export.exitCode == 0)
        #expect(export.standardOutput == (try DatasetExporter.export(writer.snapshot)) + "\n")
        #expect(export.standardOutput.contains(#""text": "logged 102""#))
        let count = RQLCommand.run(["run", "--data", path, "--class", "Item", "--count", "text BEGINSWITH 'logged'"])
        #expect(count.standardOutput == "3\n", "\(count.standardOutput)\(count.standardError)")
        let copy = directory.path("copy.rql")
        let imported = RQLCommand.run(["import", path, copy])
        #expect(imported.exitCode == 0, "\(imported.standardError)")
        #expect(RQLCommand.run(["export", copy]).standardOutput == export.standardOutput)
        withExtendedLifetime(writer) {}
    }

    @Test("verify and info on a copy of the store file without its log exit 1 and name the missing log")
    func copyWithoutLog() throws {
        let directory = try Directory()
        let path = try InPlaceStoreTests.itemStore(directory, rows: 100)
        let writer = try BlockStore.open(path: path)
        try writer.write { t in _ = try t.insert("Item", ["id": .int(100), "text": .string("logged"), "size": .int(1)])
        }
        #expect(try BlockStore.info(path: path).logRecords >= 1)
        let copy = directory.path("copy.rql")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        for command in ["verify", "info"] {
            let result = RQLCommand.run([command, copy])
            #expect(result.exitCode == 1, "\(command): \(result.standardOutput)")
            #expect(result.standardOutput.isEmpty || !result.standardOutput.contains("version:"), "\(command)")
            #expect(result.standardError.contains("'\(copy).log' is missing"), "\(command): \(result.standardError)")
            #expect(result.standardError.contains("copied without 'copy.rql.log'"), "\(command)")
        }
        withExtendedLifetime(writer) {}
    }
}
