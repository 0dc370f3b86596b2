import Foundation
import RQLCore
import Testing

@testable import RQLTools

/// Runs `rqlc shell` with `script` as its standard input (not a terminal: no prompts).
private func shell(
    _ script: String,
    _ arguments: [String] = [],
    files: [String: String] = [:],
    terminalOutput: Bool = false
) -> CommandResult {
    shell(bytes: Array(script.utf8), arguments, files: files, terminalOutput: terminalOutput)
}

private func shell(
    bytes: [UInt8],
    _ arguments: [String] = [],
    files: [String: String] = [:],
    terminalOutput: Bool = false
) -> CommandResult {
    let environment = CommandEnvironment(standardOutputIsTerminal: terminalOutput, files: files, standardInput: bytes)
    return RQLCommand.run(["shell"] + arguments, environment: environment)
}

/// Runs `rqlc shell` on real files, with `script` as its standard input.
private func shellOnFiles(_ script: String, _ arguments: [String]) -> CommandResult {
    let environment = CommandEnvironment { (path) throws(InputFailure) -> ByteInput in
        path == Array("-".utf8) ? MemoryInput(Array(script.utf8)) : try CommandEnvironment.openFile(path)
    }
    return RQLCommand.run(["shell"] + arguments, environment: environment)
}

/// `rqlc run`'s standard output for the same query, the answer each shell line must print.
private func run(_ arguments: [String], files: [String: String] = [:]) -> String {
    let result = RQLCommand.run(["run"] + arguments, environment: CommandEnvironment(files: files))
    #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
    return result.standardOutput
}

/// A dataset whose strings need every kind of CSV quoting.
let quotingDataset = #"""
    {"schema": {"Note": {"primaryKey": "id", "properties": {
        "id": "int", "text": "string", "tags": "list<string>", "score": "double?", "parent": "Note?"}}},
     "objects": {"Note": [
        {"id": 1, "text": "plain", "tags": [], "score": 1.5},
        {"id": 2, "text": "a, b", "tags": ["x", "y"], "parent": 1},
        {"id": 3, "text": "say \"hi\"", "tags": ["q\"uote"]},
        {"id": 4, "text": "two\nlines\r\n", "tags": []},
        {"id": 5, "text": "\"\u0301", "tags": []}]}}
    """#

@Suite("rqlc shell: scripts on standard input")
struct ShellCommandTests {
    @Test("a query line prints what rqlc run prints for the class chosen with .class, and no prompt")
    func queryAfterClass() {
        let result = shell(".class Dog\nage > 2\n")
        #expect(result.exitCode == 0)
        #expect(result.standardError == "")
        #expect(result.standardOutput == run(["--class", "Dog", "age > 2"]))
    }

    @Test("--class chooses the first class; switching class switches what lines query")
    func switchingClass() {
        let result = shell("age > 8\n.class Person\nage > 30\n.class Dog\nname == 'Rex'\n", ["--class", "Dog"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let expected =
            run(["--class", "Dog", "age > 8"]) + run(["--class", "Person", "age > 30"])
            + run(["--class", "Dog", "name == 'Rex'"])
        #expect(result.standardOutput == expected)
    }

    @Test("a bad query mid-script prints check's diagnostic after its line number; the script goes on, exit 1")
    func badQueryMidScript() {
        let result = shell(".class Dog\nagee > 2\nage > 8\n")
        let check = RQLCommand.run(["check", "--class", "Dog", "agee > 2"])
        #expect(check.exitCode == 1)
        #expect(result.exitCode == 1)
        #expect(result.standardOutput == run(["--class", "Dog", "age > 8"]))
        #expect(result.standardError == "line 2: " + check.standardError + "rqlc: 1 of 3 lines failed\n")
    }

    @Test("--bail stops at the first failed line")
    func bail() {
        let result = shell(".class Dog\nage >\nage > 8\n", ["--bail"])
        #expect(result.exitCode == 1)
        #expect(result.standardOutput == "")
        #expect(result.standardError.hasPrefix("line 2: error: expected a value after '>'"))
        #expect(result.standardError.hasSuffix("rqlc: 1 of 2 lines failed\n"))
    }

    @Test("a query before any .class says how to choose one")
    func noClass() {
        let result = shell("age > 2\n")
        #expect(result.exitCode == 1)
        #expect(result.standardError.hasPrefix("line 1: error: no class to query; choose one with .class NAME"))
    }

    @Test("an unknown class or command, or a bad setting, is an error and the session goes on")
    func badCommands() {
        let script = ".class Cat\n.class Address\n.frobnicate\n.format xml\n.timer maybe\n.count\n.class Dog\nage > 8\n"
        let result = shell(script)
        #expect(result.exitCode == 1)
        #expect(result.standardOutput == run(["--class", "Dog", "age > 8"]))
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.count == 7)
        #expect(lines[0].hasPrefix("line 1: error: unknown class 'Cat'; the classes are 'DogToy', 'Dog'"))
        // An embedded class cannot be queried on its own.
        #expect(lines[1].hasPrefix("line 2: error: unknown class 'Address'"))
        #expect(lines[2] == "line 3: error: unknown command '.frobnicate'; .help lists the commands")
        #expect(lines[3] == "line 4: error: unknown format 'xml'; use jsonl, table, json, keys or csv")
        #expect(lines[4] == "line 5: error: .timer takes on or off")
        #expect(lines[5] == "line 6: error: .count takes on or off")
        #expect(lines[6] == "rqlc: 6 of 8 lines failed")
    }

    @Test(".format sets the output format of later queries", arguments: ["jsonl", "table", "json", "keys", "csv"])
    func format(format: String) {
        let result = shell(".class Person\n.format \(format)\nage > 30 SORT(name ASC)\n")
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == run(["--class", "Person", "--format", format, "age > 30 SORT(name ASC)"]))
    }

    @Test("the format defaults to a table when standard output is a terminal, as for run")
    func terminalDefault() {
        let result = shell(".class Dog\nage > 8\n", terminalOutput: true)
        #expect(result.standardOutput.hasSuffix("(4 objects)\n"))
        #expect(result.standardOutput.hasPrefix("name"))
    }

    @Test(".count on prints the number of matches, .count off the objects again")
    func count() {
        let result = shell(".class Dog\n.count on\nage > 2\n.count off\nage > 8\n")
        #expect(result.standardOutput == "14\n" + run(["--class", "Dog", "age > 8"]))
    }

    @Test(".timer on prints the time of each query after its answer")
    func timer() throws {
        let result = shell(".class Dog\n.count on\n.timer on\nage > 2\n.timer off\nage > 3\n")
        #expect(result.exitCode == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0] == "14")
        #expect(lines[1].wholeMatch(of: /time: [0-9]+\.[0-9]{3} ms/) != nil, "\(lines[1])")
        #expect(lines[2] == "11")
    }

    @Test(".explain prints what rqlc explain prints, on the current class")
    func explain() {
        let result = shell(".class Person\n.explain age > 30 SORT(name ASC) LIMIT(2)\n")
        let explain = RQLCommand.run(["explain", "--class", "Person", "age > 30 SORT(name ASC) LIMIT(2)"])
        #expect(result.exitCode == 0)
        #expect(!explain.standardOutput.isEmpty)
        #expect(result.standardOutput == explain.standardOutput)
        let bad = shell(".class Person\n.explain agee > 30\n")
        #expect(bad.exitCode == 1)
        #expect(bad.standardError.hasPrefix("line 2: error: unknown property 'agee' on class 'Person'"))
    }

    @Test(".schema prints the schema as rqlc schema does; .schema CLASS one class")
    func schema() {
        let all = shell(".schema\n")
        #expect(all.exitCode == 0)
        #expect(all.standardOutput == RQLCommand.run(["schema"]).standardOutput)
        let person = shell(".schema Person\n")
        #expect(person.standardOutput == RQLCommand.run(["schema", "Person"]).standardOutput)
        #expect(person.standardOutput.hasPrefix("Person\n  id "))
        #expect(shell(".schema Cat\n").standardError.hasPrefix("line 1: error: unknown class 'Cat'"))
    }

    @Test(".help lists every dot-command")
    func help() {
        let result = shell(".help\n")
        for command in [".class", ".schema", ".format", ".count", ".timer", ".dialect", ".explain", ".help", ".quit"] {
            #expect(result.standardOutput.contains(command), "\(command)")
        }
        #expect(RQLCommand.run(["shell", "--help"]).standardOutput.contains(ShellCommand.dotHelp))
        #expect(RQLCommand.run(["--help"]).standardOutput.contains("shell"))
        #expect(RQLCommand.run(["--help"]).standardOutput.contains("schema"))
    }

    @Test(".quit and .exit end the session; lines after them are not read", arguments: [".quit", ".exit", " .quit  "])
    func quit(command: String) {
        let result = shell(".class Dog\n\(command)\nage >\n")
        #expect(result.exitCode == 0)
        #expect(result.standardOutput == "" && result.standardError == "")
    }

    @Test(".dialect switches how queries are read")
    func dialect() {
        let result = shell(
            ".class Dog\n.dialect nspredicate\nage > 8 AND name BEGINSWITH[cd] 'r'\n.dialect rql\nage > 8\n"
        )
        #expect(result.exitCode == 0, "\(result.standardError)")
        let nspredicate = run(["--class", "Dog", "--dialect", "nspredicate", "age > 8 AND name BEGINSWITH[cd] 'r'"])
        #expect(result.standardOutput == nspredicate + run(["--class", "Dog", "age > 8"]))
        let sql = shell(".dialect sql\n").standardError
        #expect(sql == "line 1: error: unknown dialect 'sql'; use rql or nspredicate\nrqlc: 1 of 1 lines failed\n")
    }

    @Test("blank lines are skipped, CRLF line ends and a last line without one are read")
    func lineEnds() {
        let result = shell("\n   \n.class Dog\r\n\r\nage > 8")
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == run(["--class", "Dog", "age > 8"]))
    }

    @Test("a line that is not UTF-8 is a diagnostic pointing at the byte, and the script goes on")
    func notUTF8() {
        let bytes = Array(".class Dog\nname == '".utf8) + [0xFF] + Array("'\nage > 8\n".utf8)
        let result = shell(bytes: bytes)
        #expect(result.exitCode == 1)
        #expect(result.standardError.hasPrefix("line 2: error: the query is not valid UTF-8"))
        #expect(result.standardOutput == run(["--class", "Dog", "age > 8"]))
    }

    @Test("a line longer than the bound ends the session with exit 1, without reading the rest")
    func longLine() {
        let result = shell(bytes: Array(".class Dog\nage > 8\n".utf8) + [UInt8](repeating: 0, count: (1 << 20) + 2))
        #expect(result.exitCode == 1)
        #expect(result.standardOutput == run(["--class", "Dog", "age > 8"]))
        #expect(result.standardError == "error: line 3 is longer than 1048576 bytes\n")
        // Exactly the bound is a line like any other (here a syntax error).
        let atBound = shell(bytes: [UInt8](repeating: UInt8(ascii: " "), count: 1 << 20) + Array("\n".utf8))
        #expect(atBound.exitCode == 0, "\(atBound.standardError)")
    }

    @Test("the data is FILE or --data: a JSON dataset, and wrong usage exits 2")
    func dataset() {
        let files = ["notes.json": quotingDataset]
        let positional = shell(".class Note\nid > 1\n", ["notes.json"], files: files)
        let option = shell(".class Note\nid > 1\n", ["--data", "notes.json"], files: files)
        #expect(positional.exitCode == 0, "\(positional.standardError)")
        #expect(positional.standardOutput == run(["--data", "notes.json", "--class", "Note", "id > 1"], files: files))
        #expect(option == positional)
        for arguments in [
            ["notes.json", "--data", "notes.json"], ["a.json", "b.json"], ["--data", "-"], ["--format", "xml"],
            ["--class", "Note", "--demo"],
        ] {
            let result = shell("", arguments, files: files)
            #expect(result.exitCode == (arguments.contains("--demo") ? 1 : 2), "\(arguments)")
        }
        #expect(shell("", ["--data", "-"]).standardError.contains("reads its lines from standard input"))
    }

    @Test("run --format csv and the shell's .format csv quote as RFC 4180 says")
    func csvQuoting() {
        let files = ["notes.json": quotingDataset]
        let expected =
            "id,text,tags,score,parent\r\n" + "1,plain,[],1.5,\r\n" + "2,\"a, b\",\"[\"\"x\"\",\"\"y\"\"]\",,1\r\n"
            + "3,\"say \"\"hi\"\"\",\"[\"\"q\\\"\"uote\"\"]\",,\r\n" + "4,\"two\nlines\r\n\",[],,\r\n"
            + "5,\"\"\"\u{301}\",[],,\r\n"
        let result = RQLCommand.run(
            ["run", "--data", "notes.json", "--class", "Note", "--format", "csv", "TRUEPREDICATE"],
            environment: CommandEnvironment(files: files)
        )
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == expected)
        #expect(
            shell(".format csv\n.class Note\nTRUEPREDICATE\n", ["notes.json"], files: files).standardOutput == expected
        )
        // A link is its JSON text: a string key keeps its quotes (an int key reads as itself).
        let pets = #"""
            {"schema": {"Owner": {"primaryKey": "name", "properties": {"name": "string"}},
                        "Pet": {"properties": {"name": "string", "owner": "Owner?", "all": "list<Owner>"}}},
             "objects": {"Owner": [{"name": "Ann"}], "Pet": [{"name": "Rex", "owner": "Ann", "all": ["Ann"]}]}}
            """#
        let links = RQLCommand.run(
            ["run", "--data", "pets.json", "--class", "Pet", "--format", "csv", "TRUEPREDICATE"],
            environment: CommandEnvironment(files: ["pets.json": pets])
        )
        #expect(links.standardOutput == "name,owner,all\r\nRex,\"\"\"Ann\"\"\",\"[\"\"Ann\"\"]\"\r\n")
        // No match: the header alone.
        let none = shell(".format csv\n.class Note\nid < 0\n", ["notes.json"], files: files)
        #expect(none.standardOutput == "id,text,tags,score,parent\r\n")
    }

    @Test("the CSV field rules")
    func csvFields() {
        #expect(CSV.field("plain") == "plain")
        #expect(CSV.field("") == "")
        #expect(CSV.field("a,b") == "\"a,b\"")
        #expect(CSV.field("a\"b") == "\"a\"\"b\"")
        #expect(CSV.field("a\rb") == "\"a\rb\"")
        #expect(CSV.field("a\nb") == "\"a\nb\"")
        // A quote with a combining mark is one Character but still a quote to a CSV reader.
        #expect(CSV.field("\"\u{301}") == "\"\"\"\u{301}\"")
        #expect(CSV.line(["a", "b,c"]) == "a,\"b,c\"\r\n")
    }

    @Test("a store file answers in the shell as its JSON does")
    func storeFile() throws {
        let directory = try StoreCommandTests.Directory()
        let paths = try StoreCommandTests.importChecked(quotingDataset, name: "notes", in: directory)
        let script = ".class Note\n.format csv\nid > 1\n.schema\n.explain id == 2\n"
        let onStore = shellOnFiles(script, [paths.store])
        let onJSON = shellOnFiles(script, [paths.json])
        #expect(onStore.exitCode == 0, "\(onStore.standardError)")
        #expect(onStore == onJSON)
        #expect(onStore.standardOutput.hasPrefix("id,text,tags,score,parent\r\n2,"))
    }
}
