import Foundation
import Testing

@testable import RQLTools

/// `rqlc import` of a class with 10,000 properties (issue 16): opening a block's columns nested
/// one call per property, which overflowed the stack after the store file was created, leaving
/// an empty store behind.
@Suite("rqlc: a class of 10,000 properties")
struct WideImportTests {
    @Test("imports, answers a query on its last property and exports what it imported")
    func wideImport() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rqlc-wide-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let count = 10_000
        let properties = (0..<count).map { #""p\#($0)": "int""# }.joined(separator: ", ")
        let objects = (0..<2).map { o in
            "{" + (0..<count).map { #""p\#($0)": \#(o * 100_000 + $0)"# }.joined(separator: ", ") + "}"
        }
        let json =
            #"{"schema": {"W": {"properties": {\#(properties)}}}, "objects": {"W": [\#(objects.joined(separator: ", "))]}}"#
        let jsonPath = directory.appendingPathComponent("wide.json").path
        let storePath = directory.appendingPathComponent("wide.rql").path
        try json.write(toFile: jsonPath, atomically: false, encoding: .utf8)

        let imported = RQLCommand.run(["import", jsonPath, storePath])
        #expect(imported.exitCode == 0, "\(imported.standardError)")
        let onStore = RQLCommand.run(["run", "--data", storePath, "--class", "W", "p9999 > 100000"])
        let onJSON = RQLCommand.run(["run", "--data", jsonPath, "--class", "W", "p9999 > 100000"])
        #expect(onStore.exitCode == 0 && onStore.standardOutput == onJSON.standardOutput, "\(onStore.standardError)")
        let fromStore = RQLCommand.run(["export", storePath])
        let fromJSON = RQLCommand.run(["export", jsonPath])
        #expect(fromStore.exitCode == 0 && fromStore.standardOutput == fromJSON.standardOutput)
    }
}
