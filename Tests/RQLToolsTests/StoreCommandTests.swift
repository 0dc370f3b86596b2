import Foundation
import RQLCore
import RQLDatasets
import RQLStorage
import RQLTestSupport
import Testing

@testable import RQLTools

/// `rqlc import`, `export`, `info`, `verify` and `--data STORE`: a dataset imported into a store
/// file answers every query exactly as the JSON does, and exports back to the same JSON.
@Suite("rqlc: store files")
struct StoreCommandTests {
    /// A temporary directory per test, removed afterwards.
    typealias Directory = TemporaryDirectory

    static func vectors() throws -> [JSONValue] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/realm-core-public.json")
        guard case .array(let suites)? = try JSONValue.parse(String(contentsOf: url, encoding: .utf8))["suites"] else {
            return []
        }
        return suites
    }

    /// Imports `json` into a fresh store, checks export and verify, and returns the store's path.
    static func importChecked(
        _ json: String,
        name: String,
        in directory: Directory
    ) throws -> (json: String, store: String) {
        let jsonPath = directory.path("\(name).json")
        let storePath = directory.path("\(name).rql")
        try json.write(toFile: jsonPath, atomically: false, encoding: .utf8)
        let imported = RQLCommand.run(["import", jsonPath, storePath])
        #expect(imported.exitCode == 0, "\(name): \(imported.standardError)")
        let fromStore = RQLCommand.run(["export", storePath])
        let fromJSON = RQLCommand.run(["export", jsonPath])
        #expect(fromStore.exitCode == 0 && fromJSON.exitCode == 0)
        #expect(fromStore.standardOutput == fromJSON.standardOutput, "\(name): export differs")
        let verified = RQLCommand.run(["verify", storePath])
        #expect(verified.exitCode == 0 && verified.standardOutput == "ok: version 1\n", "\(name)")
        return (jsonPath, storePath)
    }

    /// Runs `arguments` on the JSON and on the store: same exit code, same output.
    static func compare(_ arguments: [String], _ paths: (json: String, store: String), _ label: String) {
        let onJSON = RQLCommand.run(["run", "--data", paths.json] + arguments)
        let onStore = RQLCommand.run(["run", "--data", paths.store] + arguments)
        #expect(onJSON.exitCode == onStore.exitCode, "\(label)")
        #expect(onJSON.standardOutput == onStore.standardOutput, "\(label)")
        #expect(
            onJSON.standardError.replacingOccurrences(of: paths.json, with: "")
                == onStore.standardError.replacingOccurrences(of: paths.store, with: ""),
            "\(label)"
        )
    }

    @Test("the demo round-trips through import, run --data STORE and export")
    func demo() throws {
        let directory = try Directory()
        let paths = try Self.importChecked(DemoDataset.json, name: "demo", in: directory)
        for (className, query) in [
            ("Dog", "age > 2"), ("Dog", "name BEGINSWITH[c] 'r' SORT(age DESC)"), ("Person", "dogs.@count > 1"),
            ("Dog", "favoriteToy.name == 'Ball'"), ("Person", "ANY dogs.age > 5"), ("DogClub", "TRUEPREDICATE"),
        ] {
            Self.compare(["--class", className, query], paths, query)
            Self.compare(["--class", className, "--count", query], paths, query)
            Self.compare(["--class", className, "--format", "keys", query], paths, query)
        }
    }

    @Test("every public conformance dataset answers the same on its store file as on its JSON")
    func conformanceDatasets() throws {
        let directory = try Directory()
        var cases = 0
        for (s, suite) in try Self.vectors().enumerated() {
            guard let data = suite["data"], case .array(let suiteCases)? = suite["cases"] else { continue }
            let paths = try Self.importChecked(data.serialized(pretty: false), name: "suite\(s)", in: directory)
            for testCase in suiteCases {
                guard case .string(let query)? = testCase["query"], case .string(let className)? = testCase["class"]
                else { continue }
                var arguments = ["--class", className]
                if case .array(let values)? = testCase["args"] {
                    for value in values { arguments += ["--arg", value.serialized(pretty: false)] }
                }
                Self.compare(arguments + ["--", query], paths, query)
                cases += 1
            }
        }
        #expect(cases > 1_000)
    }

    @Test("info and verify describe a store; damaged or missing files fail with the problem")
    func infoAndVerify() throws {
        let directory = try Directory()
        let paths = try Self.importChecked(DemoDataset.json, name: "demo", in: directory)
        let info = RQLCommand.run(["info", paths.store])
        #expect(info.exitCode == 0)
        #expect(info.standardOutput.hasPrefix("format version: 5\nversion: 1\nsize: "))
        #expect(info.standardOutput.contains("classes:\n  DogToy: 6\n  Dog: 20\n"))
        let notStore = RQLCommand.run(["verify", paths.json])
        #expect(notStore.exitCode == 1)
        #expect(notStore.standardError.contains("bad magic"))
        let missing = RQLCommand.run(["verify", directory.path("missing.rql")])
        #expect(missing.exitCode == 2)
        // Damage in the newest commit's pages: its checksum fails, and verify says so although
        // the previous version (the empty version 0) is intact.
        let whole = try Data(contentsOf: URL(fileURLWithPath: paths.store))
        var bytes = whole
        bytes[bytes.count - 20] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: paths.store))
        let fallback = RQLCommand.run(["verify", paths.store])
        #expect(fallback.exitCode == 1 && fallback.standardOutput.isEmpty)
        #expect(fallback.standardError.contains("the newest version 1 could not be read"), "\(fallback.standardError)")
        #expect(fallback.standardError.contains("version 0 is intact"))
        // Both header slots damaged: nothing to fall back to.
        bytes = whole
        bytes[64 + 3] ^= 0x01
        bytes[128 + 3] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: paths.store))
        let damaged = RQLCommand.run(["verify", paths.store])
        #expect(damaged.exitCode == 1)
        #expect(damaged.standardError.contains("header checksum mismatch in both slots"))
        // Importing into an existing store adds the objects in one more version.
        let again = RQLCommand.run(["import", directory.path("extra.json"), paths.store])
        #expect(again.exitCode == 2)
        let usage = RQLCommand.run(["import", paths.json])
        #expect(usage.exitCode == 2)
    }

    @Test("importing into an existing store adds the objects and the classes it lacks")
    func importIntoExisting() throws {
        let directory = try Directory()
        let first = directory.path("a.json")
        let second = directory.path("b.json")
        let store = directory.path("s.rql")
        try #"{"schema": {"Dog": {"properties": {"name": "string"}}}, "objects": {"Dog": [{"name": "Rex"}]}}"#
            .write(toFile: first, atomically: false, encoding: .utf8)
        try #"""
        {"schema": {"Dog": {"properties": {"name": "string"}}, "Cat": {"properties": {"name": "string"}}},
         "objects": {"Dog": [{"name": "Fido"}], "Cat": [{"name": "Tom"}]}}
        """#.write(toFile: second, atomically: false, encoding: .utf8)
        #expect(RQLCommand.run(["import", first, store]).exitCode == 0)
        let added = RQLCommand.run(["import", second, store])
        #expect(added.exitCode == 0, "\(added.standardError)")
        #expect(added.standardOutput.hasSuffix("version 2, 3 objects\n"))
        #expect(
            RQLCommand.run(["run", "--data", store, "--class", "Dog", "--count", "TRUEPREDICATE"]).standardOutput
                == "2\n"
        )
        #expect(
            RQLCommand.run(["run", "--data", store, "--class", "Cat", "name == 'Tom'"]).standardOutput
                == "{\"name\":\"Tom\"}\n"
        )
    }
}
