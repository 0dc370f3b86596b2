import Foundation
import Testing

@testable import RQLSyntax

/// The example queries of `Grammar/examples` and realm-core's parse-only strings, run through the
/// parser and the printer.
///
/// `valid/NAME.rql` must parse, and its canonical form must be a fixpoint of print ∘ parse.
/// `invalid/NAME.rql` must fail with the kind and UTF-8 span written in `invalid/NAME.expected`
/// (`<kind> <offset> <length>`). Files under a `nspredicate/` folder are in that dialect. A file is
/// named `<rule>-<what>.rql` after the grammar rule it shows, and every syntactic rule of
/// `Grammar/RQL.ebnf` needs at least one valid example.
@Suite("Grammar examples")
struct GrammarExamplesTests {
    /// One example file.
    struct Example: Sendable, CustomTestStringConvertible {
        /// The path below `Grammar/examples/valid` or `…/invalid`, such as `nspredicate/name-hash-keyword.rql`.
        let name: String
        let url: URL
        let dialect: Dialect

        var testDescription: String { name }

        /// The `<rule>` part of the file name: everything before the first '-'.
        var rule: String {
            String(url.deletingPathExtension().lastPathComponent.prefix { $0 != "-" })
        }

        func source() throws -> String { try String(contentsOf: url, encoding: .utf8) }
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let examplesDirectory = repository.appendingPathComponent("Grammar/examples")

    static let validExamples = examples(in: "valid")
    static let invalidExamples = examples(in: "invalid")

    /// The `.rql` files of `examples/<folder>` (RQL) and `examples/<folder>/nspredicate` (NSPredicate).
    static func examples(in folder: String) -> [Example] {
        let base = examplesDirectory.appendingPathComponent(folder)
        var examples: [Example] = []
        for (subfolder, dialect) in [("", Dialect.rql), ("nspredicate", Dialect.nsPredicate)] {
            let directory = subfolder.isEmpty ? base : base.appendingPathComponent(subfolder)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for file in files.sorted() where file.hasSuffix(".rql") {
                let name = subfolder.isEmpty ? file : "\(subfolder)/\(file)"
                examples.append(Example(name: name, url: directory.appendingPathComponent(file), dialect: dialect))
            }
        }
        return examples
    }

    // MARK: - Valid and invalid examples

    @Test("Valid examples parse and print to a fixpoint", arguments: validExamples)
    func validExample(_ example: Example) throws {
        let source = try example.source()
        let tree: QuerySyntax
        do {
            tree = try Parser.parse(source, dialect: example.dialect)
        } catch {
            Issue.record(
                "\(example.name) should parse but fails: \(error.kind.rawValue) \(error.span.offset) \(error.span.length): \(error.message)"
            )
            return
        }
        Self.expectPrinterFixpoint(tree, dialect: example.dialect, source: example.name)
    }

    @Test("Invalid examples fail with the expected kind and span", arguments: invalidExamples)
    func invalidExample(_ example: Example) throws {
        let source = try example.source()
        let expectedURL = example.url.deletingPathExtension().appendingPathExtension("expected")
        let expectation = try String(contentsOf: expectedURL, encoding: .utf8)
        let fields = expectation.split(whereSeparator: \.isWhitespace)
        try #require(fields.count == 3, "\(expectedURL.lastPathComponent) must hold '<kind> <offset> <length>'")
        let kind = try #require(SyntaxError.Kind(rawValue: String(fields[0])), "unknown kind '\(fields[0])'")
        let offset = try #require(Int(fields[1]))
        let length = try #require(Int(fields[2]))

        do {
            let tree = try Parser.parse(source, dialect: example.dialect)
            Issue.record(
                "\(example.name) should fail with \(kind.rawValue) but parses as: \(SyntaxPrinter.print(tree))"
            )
        } catch {
            #expect(
                "\(error.kind.rawValue) \(error.span.offset) \(error.span.length)"
                    == "\(kind.rawValue) \(offset) \(length)",
                "\(example.name): \(error.message)"
            )
            let (line, column) = Self.lineAndColumn(of: error.span.offset, in: source)
            #expect(
                error.span.line == line && error.span.column == column,
                "\(example.name): the span's line:column \(error.span.line):\(error.span.column) is not its offset's \(line):\(column)"
            )
            #expect(error.rendered(in: source).contains("^"), "\(example.name): the rendered error has no caret")
        }
    }

    // MARK: - realm-core's parse-only strings

    /// `parse_only` of realm-core's conformance vectors (`Tests/Fixtures/realm-core-public.json`):
    /// grammar-only strings, valid and invalid.
    struct ParseOnly: Decodable {
        var valid: [String]
        var invalid: [String]

        private struct Vectors: Decodable {
            var parse_only: ParseOnly
        }

        static let fixture: ParseOnly = {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures/realm-core-public.json")
            do {
                return try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url)).parse_only
            } catch {
                return ParseOnly(valid: [], invalid: [])
            }
        }()
    }

    @Test("The parse-only fixture is present")
    func parseOnlyFixtureLoads() {
        #expect(!ParseOnly.fixture.valid.isEmpty && !ParseOnly.fixture.invalid.isEmpty)
    }

    @Test("realm-core's valid parse-only strings parse and print to a fixpoint", arguments: ParseOnly.fixture.valid)
    func parseOnlyValid(_ source: String) {
        do {
            let tree = try Parser.parse(source)
            Self.expectPrinterFixpoint(tree, dialect: .rql, source: source)
        } catch {
            Issue.record("`\(source)` should parse but fails: \(error.message)")
        }
    }

    @Test("realm-core's invalid parse-only strings are syntax errors", arguments: ParseOnly.fixture.invalid)
    func parseOnlyInvalid(_ source: String) {
        do {
            let tree = try Parser.parse(source)
            Issue.record("`\(source)` should fail but parses as: \(SyntaxPrinter.print(tree))")
        } catch {
            #expect(error.rendered(in: source).contains("^"))
        }
    }

    // MARK: - Coverage of the grammar

    /// The names of the rules `name = … ;` of `Grammar/RQL.ebnf`, syntactic (before the "Lexical
    /// rules" marker) and lexical (the UPPER-case token rules after it).
    static func grammarRuleNames() throws -> (syntactic: [String], tokens: [String]) {
        let text = try String(contentsOf: repository.appendingPathComponent("Grammar/RQL.ebnf"), encoding: .utf8)
        let marker = try #require(text.range(of: "Lexical rules"), "RQL.ebnf needs a 'Lexical rules' marker")
        func names(in part: Substring, matching isName: (Character) -> Bool) -> [String] {
            part.split(separator: "\n").compactMap { line in
                let name = line.prefix { isName($0) }
                guard !name.isEmpty, line.dropFirst(name.count).drop(while: { $0 == " " }).hasPrefix("=") else {
                    return nil
                }
                return String(name)
            }
        }
        let syntactic = names(in: text[..<marker.lowerBound]) { $0.isLowercase || $0 == "_" }
        let tokens = names(in: text[marker.upperBound...]) { $0.isUppercase || $0.isNumber || $0 == "_" }
            .filter { $0.first?.isUppercase == true }
        return (syntactic, tokens)
    }

    @Test("Every syntactic rule of RQL.ebnf has a valid example")
    func everySyntacticRuleHasAValidExample() throws {
        let rules = try Self.grammarRuleNames().syntactic
        #expect(rules.count > 30, "found only \(rules.count) syntactic rules in RQL.ebnf")
        let covered = Set(Self.validExamples.map(\.rule))
        let missing = rules.filter { !covered.contains($0) }
        #expect(missing.isEmpty, "rules without a valid example: \(missing.joined(separator: ", "))")
    }

    @Test("Every token rule of RQL.ebnf has an example")
    func everyTokenRuleHasAnExample() throws {
        let tokens = try Self.grammarRuleNames().tokens
        #expect(tokens.count > 20, "found only \(tokens.count) token rules in RQL.ebnf")
        let covered = Set((Self.validExamples + Self.invalidExamples).map(\.rule))
        let missing = tokens.filter { !covered.contains($0.lowercased()) }
        #expect(missing.isEmpty, "token rules without an example: \(missing.joined(separator: ", "))")
    }

    @Test("Both dialects have valid and invalid examples, and every .expected file has its query")
    func examplesAreComplete() throws {
        for examples in [Self.validExamples, Self.invalidExamples] {
            #expect(examples.contains { $0.dialect == .rql })
            #expect(examples.contains { $0.dialect == .nsPredicate })
        }
        let invalid = Self.examplesDirectory.appendingPathComponent("invalid")
        for folder in [invalid, invalid.appendingPathComponent("nspredicate")] {
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            for file in files where file.hasSuffix(".expected") {
                let query = String(file.dropLast(".expected".count)) + ".rql"
                #expect(files.contains(query), "\(file) has no \(query)")
            }
        }
    }

    // MARK: - Helpers

    /// Checks `parse(print(t)) == t` and `print(parse(print(t))) == print(t)`.
    static func expectPrinterFixpoint(_ tree: QuerySyntax, dialect: Dialect, source: String) {
        let printed = SyntaxPrinter.print(tree)
        do {
            let reparsed = try Parser.parse(printed, dialect: dialect)
            // Issues rather than #expect(==): the trees' dumps would drown the message.
            if reparsed != tree {
                Issue.record("\(source): the printed form `\(printed)` parses to a different tree")
            }
            let reprinted = SyntaxPrinter.print(reparsed)
            if reprinted != printed {
                Issue.record("\(source): `\(printed)` prints back as `\(reprinted)`")
            }
        } catch {
            Issue.record("\(source): the printed form `\(printed)` does not parse: \(error.message)")
        }
    }

    /// The 1-based line and column (in Unicode scalars) of a UTF-8 offset.
    static func lineAndColumn(of offset: Int, in source: String) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in source.utf8.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}
