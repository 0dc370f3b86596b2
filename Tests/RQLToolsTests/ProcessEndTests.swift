import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage
@testable import RQLTools

/// `rqlc run` leaves the store it read to the process's exit, and only in `rqlc`'s own
/// process: a process that goes on (tests, an embedding tool) gets every store released.
@Suite("rqlc: data kept for the process's exit")
struct ProcessEndTests {
    /// Whether a store handed to `keepUntilExit` outlives the command's own references.
    static func isKept(endsProcess: Bool) throws -> Bool {
        weak var kept: BlockStore?
        do {
            let schema = try DatasetLoader.loadSchema(json: #"{"schema": {"Item": {"properties": {"id": "int"}}}}"#)
            let store = BlockStore(schema: schema)
            kept = store
            var environment = CommandEnvironment()
            environment.endsProcess = endsProcess
            CommandData(reader: store.snapshot, file: store).keepUntilExit(environment)
        }
        return kept != nil
    }

    @Test("a process that goes on after the command gets its store released")
    func releasedWhenTheProcessGoesOn() throws {
        #expect(!CommandEnvironment().endsProcess)
        #expect(try !Self.isKept(endsProcess: false))
    }

    @Test("rqlc's own process keeps the store for its exit to free")
    func keptForTheExit() throws {
        #expect(try Self.isKept(endsProcess: true))
    }
}
