import Foundation
import RQLCore
import Testing

@testable import RQLBytecode

@Suite("Opcode table")
struct OpcodeTableTests {
    @Test("the table has one row per opcode, in opcode order")
    func tableOrder() {
        #expect(OpcodeInfo.table.count == Opcode.allCases.count)
        for (index, info) in OpcodeInfo.table.enumerated() {
            #expect(info.opcode.rawValue == UInt8(index), "row \(index) is \(info.name)")
            #expect(info.roles.count == 5, "\(info.name) needs five operand roles")
            #expect(!info.doc.isEmpty && !info.synopsis.isEmpty)
        }
        #expect(Set(OpcodeInfo.table.map(\.name)).count == OpcodeInfo.table.count)
    }

    @Test("Opcodes.md is the table's generated reference")
    func referenceIsCurrent() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Opcodes.md")
        if ProcessInfo.processInfo.environment["RQL_REGENERATE_OPCODES"] == "1" {
            try OpcodeReference.markdown().write(to: url, atomically: true, encoding: .utf8)
        }
        let checkedIn = try String(contentsOf: url, encoding: .utf8)
        #expect(checkedIn == OpcodeReference.markdown(), "regenerate Opcodes.md from OpcodeReference.markdown()")
    }

    @Test("the plain-text reference names every opcode")
    func plainText() {
        let text = OpcodeReference.plainText()
        for info in OpcodeInfo.table { #expect(text.contains(info.name + "  ")) }
    }
}
