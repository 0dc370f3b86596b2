import Foundation
import Testing

@testable import RQLTools

/// `rqlc explain` on the hostile query corpus (`Tests/Hostile/queries`): it exits as `check`
/// does, prints every stage when the query is valid, and echoes no raw control character.
@Suite("rqlc explain on the hostile corpus")
struct ExplainHostileTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Hostile/queries")

    static var files: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".rql") }.sorted()
    }

    @Test("explain exits as check does, in text and JSON, and echoes nothing raw", arguments: files)
    func explain(file: String) {
        let path = Self.directory.appendingPathComponent(file).path
        let check = RQLCommand.run(["check", "--class", "Dog", "--query-file", path])
        for format in ["text", "json"] {
            let result = RQLCommand.run(["explain", "--class", "Dog", "--format", format, "--query-file", path])
            #expect(result.exitCode == check.exitCode, "\(format): \(result.standardError)")
            if result.exitCode == 0 && format == "text" {
                #expect(result.standardOutput.contains("== bound IR ==\n"))
                #expect(result.standardOutput.contains("\nQUERY PLAN"))
            }
            let printed = (result.standardOutput + result.standardError).unicodeScalars
            #expect(
                printed.allSatisfy {
                    $0 == "\n" || $0 == "\t" || !($0.value < 0x20 || (0x7F...0x9F).contains($0.value))
                }
            )
        }
    }

    @Test("the corpus is there")
    func present() {
        #expect(Self.files.count > 30)
    }
}
