import Testing

@testable import RQLTools

/// An environment whose files are the given strings.
func environment(files: [String: String] = [:], terminal: Bool = false) -> CommandEnvironment {
    CommandEnvironment(standardOutputIsTerminal: terminal, files: files)
}

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

@Suite("rqlc run and check: results")
struct RunCommandResultTests {
    let files = ["d.json": tinyDataset]

    func run(_ arguments: [String], terminal: Bool = false) -> CommandResult {
        RQLCommand.run(
            ["run", "--class", "Dog", "--data", "d.json"] + arguments,
            environment: environment(files: files, terminal: terminal)
        )
    }

    @Test("jsonl is the default off a terminal: one object per line in the dataset format")
    func jsonLines() {
        #expect(
            run(["age > 0 SORT(age ASC)"])
                == CommandResult(
                    exitCode: 0,
                    standardOutput: "{\"name\":\"Bo\",\"age\":1}\n{\"name\":\"Rex\",\"age\":3}\n"
                )
        )
    }

    @Test("--count prints a bare number; --format keys prints primary keys")
    func countAndKeys() {
        #expect(run(["--count", "age > 2"]).standardOutput == "1\n")
        #expect(run(["--format", "keys", "TRUEPREDICATE"]).standardOutput == "\"Rex\"\n\"Bo\"\n")
    }

    @Test("--arg binds $0, lists included; NSPredicate placeholders take them in order")
    func arguments() {
        #expect(run(["--count", "--arg", "2", "age > $0"]).standardOutput == "1\n")
        #expect(run(["--count", "--arg", "[1, 3]", "age IN $0"]).standardOutput == "2\n")
        #expect(
            run(["--count", "--dialect", "nspredicate", "--arg", "\"B\"", "name BEGINSWITH %@"]).standardOutput == "1\n"
        )
    }

    @Test("a table on a terminal, with a header, a rule and a count")
    func table() {
        #expect(run(["age > 2"], terminal: true).standardOutput == "name  age\n----  ---\nRex   3\n(1 objects)\n")
    }

    @Test("check prints ok, or the binding error with a caret")
    func check() {
        let env = environment(files: files)
        #expect(
            RQLCommand.run(["check", "--class", "Dog", "--data", "d.json", "age > 2"], environment: env).standardOutput
                == "ok\n"
        )
        let error = RQLCommand.run(["check", "--class", "Dog", "--data", "d.json", "agee > 2"], environment: env)
        #expect(error.exitCode == 1)
        #expect(
            error.standardError.hasPrefix(
                "error: unknown property 'agee' on class 'Dog'; did you mean 'age'?\n  agee > 2\n  ^~~~"
            )
        )
    }

    @Test("the demo database is the default source")
    func demo() {
        let result = RQLCommand.run(["run", "--class", "Dog", "--count", "age > 2"])
        #expect(result.exitCode == 0)
        #expect(Int(result.standardOutput.dropLast()) ?? 0 > 0)
    }
}
