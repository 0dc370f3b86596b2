import RQLCore
import RQLStorage
import RQLTestSupport
import Testing

@testable import RQLTools

/// `rqlc run` and `rqlc export` on a store whose embedded objects nest deeper than a store keeps
/// them (a damaged store): exit status 1 with the object named, and none of its text printed.
@Suite("rqlc on embedded objects nested too deep")
struct DeepEmbeddedCommandTests {
    static let message =
        "error: Holder[0].root: embedded objects nested more than "
        + "\(WriteTransaction.maximumEmbeddedDepth) levels deep\n"

    /// The failure `body` throws, and what it wrote.
    static func failure(_ body: (CommandOutput) throws(CommandFailure) -> Void) -> (String?, String) {
        let output = CommandOutput.memory()
        do {
            try body(output)
            return (nil, output.text)
        } catch {
            return (error.message(command: nil), output.text)
        }
    }

    @Test("each result format and export stop with the object named", arguments: ResultFormat.allCases)
    func formats(format: ResultFormat) throws {
        let store = try EmbeddedChainStore(levels: 100_000)
        let holders = try #require(store.table(named: "Holder"))
        let (message, text) = Self.failure { output throws(CommandFailure) in
            try format.write([holders.rowKey(at: 0)], in: holders, store: store, to: output)
        }
        if format == .keys {
            // Keys print no embedded object.
            #expect(message == nil)
            #expect(text == "0\n")
        } else {
            #expect(message == Self.message)
            #expect(!text.contains("\"level\""))
        }
    }

    @Test("export stops with the object named, none of it printed")
    func export() throws {
        let store = try EmbeddedChainStore(levels: 100_000)
        let (message, text) = Self.failure { output throws(CommandFailure) in
            try ExportCommand.write(store, to: output)
        }
        #expect(message == Self.message)
        #expect(!text.contains("\"level\""))
    }
}
