import Foundation
import RQLCore
import Testing

@testable import RQLStorage

#if canImport(Glibc)
import Glibc
#endif

/// A store file is read in place through a shared mapping, as LMDB's is; RQL never shrinks a
/// file, so a file cut shorter under a reader is external tampering. The documented behaviour
/// (README, `FileMapping`): the reader's next touch of a page past the new end raises SIGBUS,
/// which ends the process; it never reads other bytes as data. A process that opens the cut
/// file afterwards gets a typed error or a reported fallback.
@Suite("Store file: truncated under a reader's mapping")
struct TruncatedMappingTests {
    @Test("a reader whose file is cut under its mapping dies of SIGBUS; the next open reports the damage")
    func readerDiesOfSIGBUS() throws {
        let directory = try TemporaryDirectory("sigbus")
        let path = directory.path("held.rql")
        let store = try FreePagesTests.makeStore(path)
        try FreePagesTests.update(store, commits: 3, seed: 1)
        let process = Process()
        process.executableURL = try StoreCrashTests.helper
        process.arguments = ["hold", path]
        // No backtrace from the Swift runtime: the signal is the behaviour under test.
        process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var first = Data()
        while !first.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            first.append(chunk)
        }
        #expect(first.contains(UInt8(ascii: "\n")), "the reader printed nothing")
        // Everything but the header page goes: every block the reader mapped is past the end.
        #expect(truncate(path, 4096) == 0)
        // Throws, where `write(_:)` traps, when the helper has died: the test fails, the run goes on.
        try input.fileHandleForWriting.write(contentsOf: Data("go\n".utf8))
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGBUS)
        #expect(output.fileHandleForReading.readDataToEndOfFile().isEmpty, "the reader printed a second digest")
        #expect(throws: StoreFileError.self) { try BlockStore.open(path: path, readOnly: true) }
    }
}
