import Foundation
import RQLCore
import RQLDatasets
import RQLStorage
import Testing

@testable import RQLTools

/// `rqlc import` of a JSON dataset streams it into the store: what it commits, what it leaves
/// on failure, and its progress line.
@Suite("rqlc import: streaming")
struct StreamingImportTests {
    private static let schema =
        #""schema": {"Dog": {"primaryKey": "name", "properties": {"name": "string", "best": "Dog?"}}}"#

    @Test("a dataset that fails after its schema commits none of its objects, naming where it failed")
    func failureCommitsNothing() throws {
        let directory = try StoreCommandTests.Directory()
        let store = directory.path("s.rql")
        let good = directory.path("good.json")
        let bad = directory.path("bad.json")
        // Links that point forward resolve; a dangling one fails the whole import.
        try #"{\#(Self.schema), "objects": {"Dog": [{"name": "Rex", "best": "Bo"}, {"name": "Bo", "best": "Rex"}]}}"#
            .write(toFile: good, atomically: false, encoding: .utf8)
        let objects = (0..<5000).map { #"{"name": "d\#($0)"}"# }.joined(separator: ", ")
        try #"{\#(Self.schema), "objects": {"Dog": [\#(objects), {"name": "x", "best": "nobody"}]}}"#
            .write(toFile: bad, atomically: false, encoding: .utf8)
        let imported = RQLCommand.run(["import", good, store])
        #expect(imported.exitCode == 0 && imported.standardError.isEmpty, "\(imported.standardError)")
        #expect(imported.standardOutput.hasSuffix("version 1, 2 objects\n"))
        #expect(
            RQLCommand.run(["run", "--data", store, "--class", "Dog", "best.best.name == 'Rex'"]).standardOutput
                == #"{"name":"Rex","best":"Bo"}"# + "\n"
        )
        let failed = RQLCommand.run(["import", bad, store])
        #expect(failed.exitCode == 1)
        #expect(
            failed.standardError.contains("Dog[5000].best: no 'Dog' object with key \"nobody\""),
            "\(failed.standardError)"
        )
        #expect(
            RQLCommand.run(["run", "--data", store, "--class", "Dog", "--count", "TRUEPREDICATE"]).standardOutput
                == "2\n"
        )
        #expect(RQLCommand.run(["info", store]).standardOutput.contains("version: 1\n"))
    }

    @Test("a failed import into a new path leaves no file there; a file that was there stays")
    func failureRemovesWhatItCreated() throws {
        let directory = try StoreCommandTests.Directory()
        let bad = directory.path("bad.json")
        try #"{\#(Self.schema), "objects": {"Dog": [{"name": "Rex"}, {"name": "x", "best": "nobody"}]}}"#
            .write(toFile: bad, atomically: false, encoding: .utf8)
        let fresh = directory.path("fresh.rql")
        let failed = RQLCommand.run(["import", bad, fresh])
        #expect(failed.exitCode == 1)
        #expect(failed.standardError.contains("no 'Dog' object with key \"nobody\""), "\(failed.standardError)")
        for leftover in [fresh, fresh + ".lock", fresh + ".log"] {
            #expect(!FileManager.default.fileExists(atPath: leftover), "\(leftover) is left behind")
        }
        // An empty file the user made becomes a store for the import, and stays when it fails.
        let empty = directory.path("empty.rql")
        #expect(FileManager.default.createFile(atPath: empty, contents: nil))
        #expect(RQLCommand.run(["import", bad, empty]).exitCode == 1)
        #expect(FileManager.default.fileExists(atPath: empty))
        // The same import into the new path, once the dataset is right, creates the store.
        try #"{\#(Self.schema), "objects": {"Dog": [{"name": "Rex"}]}}"#
            .write(toFile: bad, atomically: false, encoding: .utf8)
        #expect(RQLCommand.run(["import", bad, fresh]).standardOutput.hasSuffix("version 1, 1 objects\n"))
    }

    @Test("a dataset from standard input, cut short, is refused with the byte offset where it ends")
    func standardInput() throws {
        let directory = try StoreCommandTests.Directory()
        let text = #"{\#(Self.schema), "objects": {"Dog": [{"name": "Rex"}, {"name": "#
        let environment = CommandEnvironment(files: [:], standardInput: Array(text.utf8))
        let result = RQLCommand.run(["import", "-", directory.path("s.rql")], environment: environment)
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("standard input"))
        #expect(result.standardError.contains("byte offset \(text.utf8.count)"), "\(result.standardError)")
    }

    @Test("a short import prints nothing on standard error, even on a terminal")
    func quietWhenShort() throws {
        let directory = try StoreCommandTests.Directory()
        let dataset = directory.path("d.json")
        try #"{\#(Self.schema), "objects": {"Dog": [{"name": "Rex"}]}}"#.write(
            toFile: dataset,
            atomically: false,
            encoding: .utf8
        )
        var environment = CommandEnvironment()
        environment.standardErrorIsTerminal = true
        let result = RQLCommand.run(["import", dataset, directory.path("s.rql")], environment: environment)
        #expect(result.exitCode == 0)
        #expect(result.standardError.isEmpty)
    }

    @Test("the progress line counts objects and megabytes, is rewritten in place and erased; only on a terminal")
    func progressLine() {
        var environment = CommandEnvironment()
        environment.standardErrorIsTerminal = true
        let errors = CommandOutput.memory(name: "standard error")
        let context = CommandContext(environment: environment, output: .memory(), command: "import", errors: errors)
        let progress = ImportProgress(context, after: 0)
        progress.update(DatasetLoadProgress(objects: 4096, bytes: 2_500_000))
        try? errors.flush()
        #expect(
            errors.text.hasPrefix("\r\u{1B}[Kimporting: 4096 objects, 2.5 MB read, "),
            "\(errors.text.debugDescription)"
        )
        #expect(errors.text.hasSuffix(" objects/s"))
        progress.clear()
        try? errors.flush()
        #expect(errors.text.hasSuffix("\r\u{1B}[K"))
        let quietErrors = CommandOutput.memory(name: "standard error")
        let notTerminal = CommandContext(
            environment: CommandEnvironment(),
            output: .memory(),
            command: "import",
            errors: quietErrors
        )
        let quiet = ImportProgress(notTerminal, after: 0)
        quiet.update(DatasetLoadProgress(objects: 4096, bytes: 2_500_000))
        quiet.clear()
        try? quietErrors.flush()
        #expect(quietErrors.text.isEmpty)
    }
}
