import RQLCore
import Testing

@testable import RQLTools

/// Runs `rqlc` with byte arguments and the given files and standard input.
private func run(
    _ arguments: [CommandArgument],
    files: [String: String] = [:],
    stdin: [UInt8] = []
) -> CommandResult {
    let output = CommandOutput.memory()
    let errors = CommandOutput.memory()
    let code = RQLCommand.run(
        arguments,
        environment: CommandEnvironment(files: files, standardInput: stdin),
        output: output,
        errors: errors
    )
    return CommandResult(exitCode: code, standardOutput: output.text, standardError: errors.text)
}

private let badQuery = CommandArgument(bytes: Array("name == 'R".utf8) + [0xFF] + Array("x'".utf8))

@Suite("rqlc: query text")
struct QueryInputTests {
    @Test(
        "a query that is not UTF-8 is an error with the byte offset in every command",
        arguments: [
            [CommandArgument("run"), "--class", "Dog", badQuery], ["check", "--class", "Dog", badQuery],
            ["format", badQuery],
        ]
    )
    func invalidUTF8(arguments: [CommandArgument]) {
        let result = run(arguments)
        #expect(result.exitCode == 1)
        #expect(
            result.standardError
                == "error: the query is not valid UTF-8: byte 0xFF at byte offset 10\n  name == 'R\\x{FF}x'\n            ^~~~~~\n"
        )
        #expect(!result.standardError.contains("\u{FFFD}"))
    }

    @Test("an --arg that is not UTF-8 is an error with the byte offset, not a U+FFFD")
    func invalidArgument() {
        let result = run([
            "run", "--class", "Dog", "--arg", CommandArgument(bytes: [0x22, 0x61, 0xFF, 0x22]), "name == $0",
        ])
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("byte offset 2"))
        #expect(result.standardError.contains("UTF-8"))
    }

    @Test("--query-file reads the query from a file or standard input, without its last line break")
    func queryFile() {
        let files = ["q.rql": "age > 2\n", "bad.rql": "agee > 2\r\n"]
        #expect(
            run(["run", "--class", "Dog", "--count", "--query-file", "q.rql"], files: files).standardOutput == "14\n"
        )
        #expect(run(["format", "--query-file", "-"], stdin: Array("age>2\n".utf8)).standardOutput == "age > 2\n")
        #expect(
            run(["check", "--class", "Dog", "--query-file", "bad.rql"], files: files).standardError
                == "error: unknown property 'agee' on class 'Dog'; did you mean 'age'?\n  agee > 2\n  ^~~~\n"
        )
        #expect(run(["format", "--query-file", "q.rql", "age > 1"], files: files).exitCode == 2)
        #expect(run(["format", "--query-file", "none.rql"], files: files).standardError.hasPrefix("rqlc: cannot read"))
        let long = String(repeating: "age > 1 OR ", count: 20_000) + "age > 2"
        #expect(run(["run", "--class", "Dog", "--count", "--query-file", "-"], stdin: Array(long.utf8)).exitCode == 0)
    }

    @Test("standard input can be named once")
    func standardInputOnce() {
        let result = run(["run", "--class", "Dog", "--data", "-", "--query-file", "-"])
        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("standard input"))
    }
}

@Suite("rqlc: messages that do not mislead")
struct MessageTests {
    @Test("--arg errors speak of the argument, never of an invalid dataset")
    func argumentErrors() {
        for argument in ["{nope", #"{"$oid": "xyz"}"#, #"{"a": 1, "a": 2}"#, "1e400", #"{"$geoBox": 1}"#] {
            let result = RQLCommand.run(["run", "--class", "Dog", "--arg", argument, "companion == $0"])
            #expect(result.exitCode == 1, "\(argument)")
            #expect(result.standardError.hasPrefix("error: --arg 1 ($0): "), "\(argument)")
            #expect(!result.standardError.contains("dataset"), "\(result.standardError)")
        }
    }

    @Test("an unknown class with an empty schema says so")
    func emptySchema() {
        let files = [
            "empty.json": #"{"schema": {}}"#,
            "embedded.json": #"{"schema": {"A": {"embedded": true, "properties": {}}}}"#,
        ]
        let empty = RQLCommand.run(
            ["run", "--class", "Dog", "--data", "empty.json", "a == 1"],
            environment: CommandEnvironment(files: files)
        )
        #expect(empty.standardError == "error: unknown class 'Dog'; the schema has no classes\n")
        let embedded = RQLCommand.run(
            ["check", "--class", "Dog", "--data", "embedded.json", "a == 1"],
            environment: CommandEnvironment(files: files)
        )
        #expect(embedded.standardError == "error: unknown class 'Dog'; the schema has only embedded classes\n")
        #expect(
            RQLCommand.run(["run", "--class", "Cat", "a == 1"]).standardError.contains(
                "the classes are 'DogToy', 'Dog'"
            )
        )
    }

    @Test("control characters in data and names are escaped in tables and messages")
    func controlCharacters() {
        let files = [
            "c.json":
                #"{"schema": {"D": {"properties": {"n\r": "string"}}}, "objects": {"D": [{"n\r": "a\u001b[2Jb\u0000c\u007f"}]}}"#
        ]
        let table = RQLCommand.run(
            ["run", "--class", "D", "--data", "c.json", "--format", "table", "TRUEPREDICATE"],
            environment: CommandEnvironment(files: files)
        )
        #expect(table.standardOutput == "n\\r\n--------------------\na\\u{1B}[2Jb\\0c\\u{7F}\n(1 objects)\n")
        let unknown = RQLCommand.run(
            ["run", "--class", "D\u{1B}[31m", "--data", "c.json", "a == 1"],
            environment: CommandEnvironment(files: files)
        )
        #expect(unknown.standardError.contains("'D\\u{1B}[31m'"))
        #expect(!unknown.standardError.contains("\u{1B}"))
    }

    @Test("table cells are padded and cut by display width")
    func tableWidths() {
        let files = [
            "w.json":
                #"{"schema": {"D": {"properties": {"n": "string", "k": "int"}}}, "objects": {"D": [{"n": "名前", "k": 1}, {"n": "ab", "k": 2}, {"n": "\#(String(repeating: "長", count: 30))", "k": 3}]}}"#
        ]
        let table = RQLCommand.run(
            ["run", "--class", "D", "--data", "w.json", "--format", "table", "TRUEPREDICATE"],
            environment: CommandEnvironment(files: files)
        ).standardOutput.split(separator: "\n").map(String.init)
        // The widest cell is cut to 38 columns of 長 and '…': 39 columns.
        #expect(table[2] == "名前" + String(repeating: " ", count: 35) + "  1")
        #expect(table[3] == "ab" + String(repeating: " ", count: 37) + "  2")
        #expect(table[4] == String(repeating: "長", count: 19) + "…" + "  3")
    }
}

@Suite("rqlc: data sources")
struct DataSourceTests {
    @Test("--data - reads standard input")
    func standardInput() {
        let data = #"{"schema": {"D": {"properties": {"n": "int"}}}, "objects": {"D": [{"n": 1}, {"n": 5}]}}"#
        let result = run(["run", "--class", "D", "--data", "-", "--count", "n > 2"], stdin: Array(data.utf8))
        #expect(result.standardOutput == "1\n")
    }

    @Test("check reads only the schema: broken objects after it do not matter, and run still sees them")
    func checkReadsOnlySchema() {
        let files = [
            "d.json":
                #"{"schema": {"D": {"properties": {"n": "int"}}}, "objects": {"D": [{"n": "not an int"}]} trailing"#
        ]
        #expect(run(["check", "--class", "D", "--data", "d.json", "n > 2"], files: files).standardOutput == "ok\n")
        #expect(run(["run", "--class", "D", "--data", "d.json", "n > 2"], files: files).exitCode == 1)
    }

    @Test("check with a $link argument reads the objects to resolve it, and agrees with run")
    func checkWithLink() {
        let arguments = [
            "--class", "Dog", "--arg", #"{"$link": {"class": "DogToy", "key": "11223344556677889900aabb"}}"#,
        ]
        #expect(RQLCommand.run(["check"] + arguments + ["favoriteToy == $0"]).standardOutput == "ok\n")
        #expect(RQLCommand.run(["run", "--count"] + arguments + ["favoriteToy == $0"]).standardOutput == "5\n")
    }

    @Test("a bad dataset is exit 1 naming the file; an unreadable one exit 2")
    func badData() {
        let files = ["bad.json": #"{"schema": {"D": {"properties": {"n": "int", "n": "int"}}}}"#]
        let bad = run(["run", "--class", "D", "--data", "bad.json", "n > 2"], files: files)
        #expect(bad.exitCode == 1)
        #expect(bad.standardError.hasPrefix("error: bad.json: JSON error at line 1"))
        #expect(bad.standardError.contains("duplicate key 'n' in 'schema.D.properties'"))
        let missing = run(["run", "--class", "D", "--data", "nope.json", "n > 2"], files: files)
        #expect(missing == CommandResult(exitCode: 2, standardError: "rqlc: cannot read 'nope.json': no such file\n"))
    }
}
