import Foundation
import Testing

@testable import RQLTools

/// `Tests/Hostile`: the hostile inputs `.ci/run` also feeds to the `rqlc` binary.
private let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Hostile")

private func files(_ directory: String, _ suffix: String) -> [String] {
    let path = corpus.appendingPathComponent(directory).path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    return names.filter { $0.hasSuffix(suffix) }.sorted().map { directory + "/" + $0 }
}

private func run(_ arguments: [CommandArgument]) -> CommandResult {
    let output = CommandOutput.memory()
    let errors = CommandOutput.memory()
    let code = RQLCommand.run(arguments, environment: CommandEnvironment(), output: output, errors: errors)
    return CommandResult(exitCode: code, standardOutput: output.text, standardError: errors.text)
}

/// The exit code a corpus file's name asks for: `bad-` 1, `ok-` 0, otherwise 0 or 1.
private func expectedCodes(_ file: String) -> Set<Int32> {
    let name = (file as NSString).lastPathComponent
    return name.hasPrefix("bad-") ? [1] : name.hasPrefix("ok-") ? [0] : [0, 1]
}

/// Nothing `rqlc` prints holds a raw control character other than tab and newline.
private func isEscaped(_ result: CommandResult) -> Bool {
    (result.standardOutput + result.standardError).unicodeScalars.allSatisfy {
        $0 == "\n" || $0 == "\t" || !($0.value < 0x20 || (0x7F...0x9F).contains($0.value))
    }
}

@Suite("The hostile corpus, in process")
struct HostileCorpusTests {
    @Test("queries: check and run agree, exit as named, and echo nothing raw", arguments: files("queries", ".rql"))
    func query(file: String) {
        let path = CommandArgument(corpus.appendingPathComponent(file).path)
        let check = run(["check", "--class", "Dog", "--query-file", path])
        let result = run(["run", "--class", "Dog", "--count", "--query-file", path])
        let format = run(["format", "--query-file", path])
        #expect(check.exitCode == result.exitCode, "\(check.standardError)")
        #expect(expectedCodes(file).contains(result.exitCode), "\(result.standardError)")
        #expect(format.exitCode <= 1)
        #expect(isEscaped(check) && isEscaped(result) && isEscaped(format))
    }

    @Test(
        "datasets: load or fail as named, and check reads them without crashing",
        arguments: files("datasets", ".json")
    )
    func dataset(file: String) {
        let path = CommandArgument(corpus.appendingPathComponent(file).path)
        let result = run(["run", "--class", "Dog", "--data", path, "--count", "TRUEPREDICATE"])
        #expect(expectedCodes(file).contains(result.exitCode), "\(result.standardError)")
        #expect(run(["check", "--class", "Dog", "--data", path, "TRUEPREDICATE"]).exitCode <= 1)
        #expect(isEscaped(result))
    }

    @Test("arguments: run and check agree and exit as named", arguments: files("arguments", ".json"))
    func argument(file: String) throws {
        let bytes = [UInt8](try Data(contentsOf: corpus.appendingPathComponent(file)))
        let query: CommandArgument = bytes.first == UInt8(ascii: "[") ? "companion IN $0" : "companion == $0"
        let result = run(["run", "--class", "Dog", "--count", "--arg", CommandArgument(bytes: bytes), query])
        let check = run(["check", "--class", "Dog", "--arg", CommandArgument(bytes: bytes), query])
        #expect(expectedCodes(file).contains(result.exitCode), "\(result.standardError)")
        #expect(check.exitCode == result.exitCode)
        #expect(!result.standardError.contains("invalid dataset"))
        #expect(isEscaped(result))
    }

    @Test("the corpus is there")
    func present() {
        #expect(files("queries", ".rql").count > 30)
        #expect(files("datasets", ".json").count > 30)
        #expect(files("arguments", ".json").count > 15)
    }
}
