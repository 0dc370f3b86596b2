import Testing

@testable import RQLTools

/// An environment whose files are the given strings.
func environment(files: [String: String] = [:], terminal: Bool = false) -> CommandEnvironment {
    CommandEnvironment(standardOutputIsTerminal: terminal) { path in
        guard let text = files[path] else { throw FileMissing() }
        return text
    }
}

struct FileMissing: Error {}

let tinyDataset = """
    {"schema": {"Dog": {"primaryKey": "name", "properties": {"name": "string", "age": "int"}}},
     "objects": {"Dog": [{"name": "Rex", "age": 3}, {"name": "Bo", "age": 1}]}}
    """

@Suite("rqlc run and check: usage and errors")
struct RunCommandUsageTests {
    @Test(
        "wrong usage exits 2",
        arguments: [
            ["run", "age > 2"], ["run", "--class", "Dog"], ["run", "--class", "Dog", "a", "b"],
            ["run", "--class", "Dog", "--format", "xml", "age > 2"],
            ["run", "--class", "Dog", "--demo", "--data", "d.json", "age > 2"],
            ["run", "--class", "Dog", "--data", "missing.json", "age > 2"], ["check", "age > 2"],
            ["run", "--class", "Dog", "--dialect", "sql", "age > 2"], ["run", "--class", "Dog", "--limit", "age > 2"],
        ]
    )
    func usage(arguments: [String]) {
        let result = RQLCommand.run(arguments, environment: environment(files: ["d.json": tinyDataset]))
        #expect(result.exitCode == 2, "\(arguments)")
        #expect(result.standardError.hasPrefix("rqlc: "))
    }

    @Test("an unknown class exits 1 and lists the classes")
    func unknownClass() {
        let result = RQLCommand.run(["run", "--class", "Cat", "age > 2"])
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("unknown class 'Cat'"))
        #expect(result.standardError.contains("Dog"))
    }

    @Test("a syntax error exits 1 with the caret diagnostic")
    func syntaxError() {
        for command in ["run", "check"] {
            let result = RQLCommand.run([command, "--class", "Dog", "age >"])
            #expect(result.exitCode == 1)
            #expect(
                result.standardError == "error: expected a value after '>' but found end of input\n  age >\n       ^\n"
            )
        }
    }

    @Test("a bad dataset exits 1 naming the class, the object and the property")
    func badDataset() {
        let bad = tinyDataset.replacingOccurrences(of: "\"age\": 1", with: "\"age\": \"one\"")
        let result = RQLCommand.run(
            ["run", "--class", "Dog", "--data", "bad.json", "age > 2"],
            environment: environment(files: ["bad.json": bad])
        )
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("Dog[1]"))
        #expect(result.standardError.contains("age"))
    }

    @Test("a bad --arg exits 1")
    func badArgument() {
        let result = RQLCommand.run(["run", "--class", "Dog", "--arg", "{nope", "age > $0"])
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("--arg 1"))
    }

    @Test("run and check have their own help")
    func help() {
        #expect(RQLCommand.run(["run", "--help"]).standardOutput.hasPrefix("Usage: rqlc run"))
        #expect(RQLCommand.run(["check", "--help"]).standardOutput.hasPrefix("Usage: rqlc check"))
    }
}
