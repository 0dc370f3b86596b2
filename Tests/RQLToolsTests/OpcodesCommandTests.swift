import RQLBytecode
import Testing

@testable import RQLTools

@Suite("rqlc opcodes")
struct OpcodesCommandTests {
    @Test("prints OpcodeReference's plain text and exits 0")
    func printsReference() {
        let result = RQLCommand.run(["opcodes"])
        #expect(result == CommandResult(exitCode: 0, standardOutput: OpcodeReference.plainText()))
    }

    @Test("lists every opcode of the table, in table order, each with its synopsis on the next line")
    func everyOpcode() {
        let lines = RQLCommand.run(["opcodes"]).standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!OpcodeInfo.table.isEmpty)
        var searchFrom = 0
        for info in OpcodeInfo.table {
            let heading = lines[searchFrom...].firstIndex { $0 == info.name || $0.hasPrefix(info.name + "  ") }
            #expect(heading != nil, "\(info.name) is not listed after line \(searchFrom)")
            guard let heading, heading + 1 < lines.count else { continue }
            #expect(lines[heading + 1] == "    " + info.synopsis[...], "\(info.name)'s synopsis")
            searchFrom = heading + 1
        }
    }

    @Test("is listed in rqlc --help")
    func listedInHelp() {
        let help = RQLCommand.run(["--help"]).standardOutput
        #expect(help.contains("opcodes"))
        #expect(help.contains(OpcodesCommand.summary))
    }

    @Test("wrong usage exits 2", arguments: [["opcodes", "extra"], ["opcodes", "--bogus"]])
    func wrongUsage(arguments: [String]) {
        let result = RQLCommand.run(arguments)
        #expect(result.exitCode == 2)
        #expect(result.standardOutput.isEmpty)
    }
}
