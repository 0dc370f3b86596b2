import Testing

@testable import RQLTools

@Suite("rqlc format")
struct FormatCommandTests {
    @Test("prints the canonical form and exits 0")
    func formats() {
        let result = RQLCommand.run(["format", "age>2 and name beginswith[c] 'r'"])
        #expect(result == CommandResult(exitCode: 0, standardOutput: "age > 2 AND name BEGINSWITH[c] 'r'\n"))
    }

    @Test("takes --dialect before or after the query, as '--dialect X' or '--dialect=X'")
    func dialect() {
        let expected = CommandResult(exitCode: 0, standardOutput: "name ==[cd] %@\n")
        #expect(RQLCommand.run(["format", "--dialect", "nspredicate", "name ==[cd] %@"]) == expected)
        #expect(RQLCommand.run(["format", "name ==[cd] %@", "--dialect=nspredicate"]) == expected)
        #expect(RQLCommand.run(["format", "name ==[cd] %@"]).exitCode == 1)
    }

    @Test("a syntax error exits 1 with the caret diagnostic on stderr")
    func syntaxError() {
        let result = RQLCommand.run(["format", "age >"])
        #expect(result.exitCode == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "error: expected a value after '>' but found end of input\n  age >\n       ^\n")
    }

    @Test("'--' lets a query start with '-'")
    func doubleDash() {
        #expect(RQLCommand.run(["format", "--", "-1 == x"]).standardOutput == "-1 == x\n")
        #expect(RQLCommand.run(["format", "-1 == x"]).exitCode == 2)
    }

    @Test(
        "wrong usage exits 2 and says what is wrong",
        arguments: [
            [], ["frobnicate"], ["format"], ["format", "a", "b"], ["format", "--dialect"],
            ["format", "--dialect", "sql", "a == 1"], ["format", "--bogus", "a == 1"],
            ["format", "--dialect", "rql", "--dialect", "rql", "a == 1"],
        ]
    )
    func usage(arguments: [String]) {
        let result = RQLCommand.run(arguments)
        #expect(result.exitCode == 2)
        #expect(result.standardError.hasPrefix("rqlc: "))
        #expect(result.standardError.contains("--help"))
    }

    @Test("--help and --version")
    func helpAndVersion() {
        #expect(RQLCommand.run(["--help"]).standardOutput.contains("format"))
        #expect(RQLCommand.run(["format", "--help"]).standardOutput.hasPrefix("Usage: rqlc format"))
        #expect(
            RQLCommand.run(["--version"]) == CommandResult(exitCode: 0, standardOutput: "rqlc \(RQLCommand.version)\n")
        )
    }
}
