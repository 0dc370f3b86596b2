import Foundation
import Testing

@testable import RQLTools

/// The transcripts of `CommandLine.md` (the `rqlc` article) are what `rqlc` prints: every
/// `$ rqlc …` line of a ```text block that is followed by output (or `$ printf '…' | rqlc …`,
/// the script as standard input) is run, and its standard output then standard error must be
/// the lines shown.
@Suite("the rqlc article's transcripts")
struct CommandLineArticleTests {
    @Test("every command shown with its output prints that output")
    func transcripts() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/RQL/RQL.docc/CommandLine.md")
        let article = try String(contentsOf: url, encoding: .utf8)
        var checked = 0
        for (command, shown) in Self.transcripts(in: article) where !shown.isEmpty {
            var words = Self.words(command)
            var input = ""
            if let pipe = words.firstIndex(of: "|") {
                #expect(words.first == "printf" && pipe == 2, "\(command)")
                input = words[1].replacingOccurrences(of: "\\n", with: "\n")
                words.removeFirst(pipe + 1)
            }
            guard words.first == "rqlc" else { continue }
            let result = RQLCommand.run(
                Array(words.dropFirst()),
                environment: CommandEnvironment(files: [:], standardInput: Array(input.utf8))
            )
            let printed = (result.standardOutput + result.standardError).replacingOccurrences(of: "\r\n", with: "\n")
            #expect(printed == shown.map { $0 + "\n" }.joined(), "\(command)")
            checked += 1
        }
        #expect(checked >= 5)
    }

    /// Each `$ command` line of the ```text blocks with the lines after it, up to the next.
    static func transcripts(in article: String) -> [(command: String, output: [String])] {
        var result: [(command: String, output: [String])] = []
        var inBlock = false
        for line in article.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                inBlock = line == "```text"
                continue
            }
            guard inBlock else { continue }
            if line.hasPrefix("$ ") {
                result.append((String(line.dropFirst(2)), []))
            } else if !result.isEmpty {
                result[result.count - 1].output.append(line)
            }
        }
        return result
    }

    /// The words of a command line as a POSIX shell splits them (single and double quotes, no
    /// escapes or expansions: the article needs none).
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }
}
