import Foundation
import Testing

@testable import RQLTools

/// `rqlc format` over every example of Grammar/examples and every `parse_only` string of
/// realm-core's conformance vectors: exit 0 for the valid ones, exit 1 with a caret diagnostic for
/// the invalid ones, and never anything else.
@Suite("rqlc format on the grammar examples")
struct FormatExamplesTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// (query, dialect argument, valid?) for every example file.
    static func examples() throws -> [(String, String, Bool)] {
        var examples: [(String, String, Bool)] = []
        for validity in ["valid", "invalid"] {
            let folder = repository.appendingPathComponent("Grammar/examples/\(validity)")
            let files =
                FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "rql" } ?? []
            for file in files {
                let dialect =
                    file.deletingLastPathComponent().lastPathComponent == "nspredicate" ? "nspredicate" : "rql"
                examples.append((try String(contentsOf: file, encoding: .utf8), dialect, validity == "valid"))
            }
        }
        return examples
    }

    static func parseOnly() throws -> [(String, String, Bool)] {
        let url = repository.appendingPathComponent("Tests/Fixtures/realm-core-public.json")
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let parseOnly = document?["parse_only"] as? [String: [String]] ?? [:]
        return (parseOnly["valid"] ?? []).map { ($0, "rql", true) }
            + (parseOnly["invalid"] ?? []).map { ($0, "rql", false) }
    }

    @Test("valid queries exit 0, invalid ones exit 1 with a caret line")
    func examplesThroughTheCommand() throws {
        let cases = try Self.examples() + Self.parseOnly()
        #expect(cases.count > 200)
        for (query, dialect, isValid) in cases {
            let result = RQLCommand.run(["format", "--dialect", dialect, "--", query])
            if isValid {
                #expect(result.exitCode == 0, "\(query): \(result.standardError)")
                let again = RQLCommand.run([
                    "format", "--dialect", dialect, "--", String(result.standardOutput.dropLast()),
                ])
                #expect(again.standardOutput == result.standardOutput, "format is not idempotent on \(query)")
            } else {
                #expect(result.exitCode == 1, "\(query)")
                #expect(result.standardError.hasPrefix("error: "), "\(query)")
                #expect(result.standardError.contains("^"), "\(query)")
            }
        }
    }
}
