import Foundation
import Testing

@testable import RQLStorage

/// The reader table in `<path>.lock`: a slot written by a process that died (its lock gone) is
/// ignored and cleared by the first writer that meets it; a live slot counts and stays.
@Suite("Store file: reader table")
struct ReaderTableTests {
    static func slotVersion(_ lockPath: String, _ index: Int) throws -> UInt64 {
        let data = try Data(contentsOf: URL(fileURLWithPath: lockPath))
        let offset = index * ReaderTable.slotSize + 8
        return data[offset..<offset + 8].withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
    }

    @Test("a dead process's slot is skipped and cleared; a live one counts and is kept")
    func clearsStaleSlot() throws {
        let directory = try TemporaryDirectory("readers")
        let storePath = directory.path("store.rql")
        let lockPath = storePath + ".lock"
        let own = try #require(ReaderTable(storePath: storePath, publishing: 7))
        let other = try #require(ReaderTable(storePath: storePath, publishing: 5))
        // Slot 40, as a killed process left it: pid 1, version 2, no lock held.
        var stale = ByteWriter()
        stale.u64(1)
        stale.u64(2)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: lockPath))
        try handle.seek(toOffset: UInt64(40 * ReaderTable.slotSize))
        handle.write(Data(stale.bytes))
        try handle.close()
        #expect(try Self.slotVersion(lockPath, 40) == 2)
        #expect(own.oldestOfOthers() == 5)
        #expect(try Self.slotVersion(lockPath, 40) == ReaderTable.none)
        #expect(try Self.slotVersion(lockPath, 1) == 5)
        withExtendedLifetime(other) {}
    }
}
