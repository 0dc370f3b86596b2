import Foundation
import Testing

/// Grammar/RQL.ebnf is the one source of truth for the syntax: every rule is quoted, verbatim, by
/// the code that implements it, and every quote in the code is a rule of the grammar.
@Suite("Grammar and parser agree")
struct GrammarConformanceTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The rules of the EBNF file, comments removed, whitespace collapsed, split at the marker
    /// between the syntactic and the lexical part.
    static func grammarRules() throws -> (syntactic: [String: String], lexical: [String: String]) {
        let text = try String(contentsOf: repository.appendingPathComponent("Grammar/RQL.ebnf"), encoding: .utf8)
        // The marker sits inside a comment; split where that comment opens.
        let marker = try #require(text.range(of: "==== Lexical rules"), "RQL.ebnf needs a '==== Lexical rules' marker")
        let split = try #require(text[..<marker.lowerBound].range(of: "(*", options: .backwards)).lowerBound
        return (rules(in: String(text[..<split])), rules(in: String(text[split...])))
    }

    static func rules(in text: String) -> [String: String] {
        var rules: [String: String] = [:]
        for statement in withoutComments(text).split(separator: ";") {
            let rule = normalized(String(statement)) + " ;"
            guard let equals = rule.range(of: " = ") else { continue }
            rules[String(rule[..<equals.lowerBound])] = rule
        }
        return rules
    }

    static func withoutComments(_ text: String) -> String {
        var withoutComments = ""
        var remainder = Substring(text)
        while let open = remainder.range(of: "(*") {
            withoutComments += remainder[..<open.lowerBound]
            guard let close = remainder[open.upperBound...].range(of: "*)") else { break }
            remainder = remainder[close.upperBound...]
        }
        withoutComments += remainder
        return withoutComments
    }

    static func normalized(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Each doc-comment quote of a rule in Sources/RQLSyntax: the rule text, and the name of the
    /// function declared after the doc comment.
    static func quotes() throws -> [(rule: String, function: String, file: String)] {
        let sources = repository.appendingPathComponent("Sources/RQLSyntax")
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        var quotes: [(String, String, String)] = []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            var index = 0
            while index < lines.count {
                let line = lines[index].trimmingCharacters(in: .whitespaces)
                guard line.hasPrefix("/// "),
                    line.dropFirst(4).range(of: #"^[A-Za-z_0-9]+ = "#, options: .regularExpression) != nil
                else {
                    index += 1
                    continue
                }
                var rule = String(line.dropFirst(4))
                while !rule.hasSuffix(";"), index + 1 < lines.count {
                    index += 1
                    rule += " " + lines[index].trimmingCharacters(in: .whitespaces).dropFirst(3)
                }
                var function = ""
                for next in lines[(index + 1)...] {
                    if let range = next.range(of: #"func [A-Za-z]+"#, options: .regularExpression) {
                        function = String(next[range].dropFirst(5))
                        break
                    }
                }
                quotes.append((normalized(withoutComments(rule)), function, file.lastPathComponent))
                index += 1
            }
        }
        return quotes
    }

    @Test("every syntactic rule is quoted by the parse function that implements it")
    func syntacticRulesHaveParseFunctions() throws {
        let (syntactic, _) = try Self.grammarRules()
        let quotes = try Self.quotes()
        #expect(syntactic.count > 30)
        for (name, rule) in syntactic {
            let matching = quotes.filter { $0.rule == rule }
            #expect(matching.count == 1, "rule '\(name)' is quoted \(matching.count) times in Sources/RQLSyntax")
            let expectedName = name.replacingOccurrences(of: "_", with: "").lowercased()
            for quote in matching {
                #expect(
                    quote.function.lowercased().contains(expectedName) && quote.file.hasPrefix("Parser"),
                    "rule '\(name)' is quoted above '\(quote.function)' in \(quote.file)"
                )
            }
        }
    }

    @Test("every token rule is quoted by the lexer or parser code that implements it")
    func tokenRulesAreQuoted() throws {
        let (_, lexical) = try Self.grammarRules()
        let quoted = Set(try Self.quotes().map(\.rule))
        let tokens = lexical.filter { $0.key.uppercased() == $0.key }
        #expect(tokens.count > 15)
        for (name, rule) in tokens {
            #expect(quoted.contains(rule), "token rule '\(name)' is not quoted verbatim in Sources/RQLSyntax")
        }
    }

    @Test("every rule quoted in the code is a rule of the grammar, word for word")
    func quotesAreGrammarRules() throws {
        let (syntactic, lexical) = try Self.grammarRules()
        let rules = Set(syntactic.values).union(lexical.values)
        for quote in try Self.quotes() {
            #expect(rules.contains(quote.rule), "\(quote.file): '\(quote.rule)' is not in Grammar/RQL.ebnf")
        }
    }
}
