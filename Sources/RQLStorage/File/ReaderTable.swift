import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Which versions of a store file the readers of every process still hold, so a writer reuses
/// only pages no reader can read (LMDB's reader table).
///
/// Beside the store, `<path>.lock` holds `slotCount` slots of 16 bytes (`u64` process id,
/// `u64` oldest version held; `UInt64.max` for none). Each open `StoreFile` claims one slot by
/// taking an open-file-description write lock (`F_OFD_SETLK`) on its bytes and writes there the
/// oldest version its snapshots hold (`VersionPins`). The kernel drops the lock when the
/// process dies, however it dies, so a writer counts a slot only while its lock is held: the
/// slot of a killed process is stale and ignored, and the next opener claims it.
///
/// Opening publishes version 0 ("everything") before it reads the header, and the version it
/// read once it has read it, so no writer can reuse a page between the two.
final class ReaderTable: @unchecked Sendable {
    static let slotCount = 1024
    static let slotSize = 16
    static let none = UInt64.max

    private let descriptor: Int32
    private let slot: Int
    private let path: String

    /// Claims a slot in the lock file beside `storePath`, publishing `version`. Returns nil when
    /// the lock file cannot be opened or every slot is taken: the store then runs without
    /// cross-process protection for its readers (a read-only directory, say).
    init?(storePath: String, publishing version: UInt64) {
        path = storePath + ".lock"
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        var claimed: Int?
        for index in 0..<Self.slotCount where Self.lock(fd, slot: index, command: Self.setLock, type: F_WRLCK) {
            claimed = index
            break
        }
        guard let claimed else {
            close(fd)
            return nil
        }
        descriptor = fd
        slot = claimed
        publish(version)
    }

    deinit {
        publish(Self.none)
        close(descriptor)
    }

    /// Writes the oldest version this store's readers hold into its slot.
    func publish(_ version: UInt64) {
        var writer = ByteWriter()
        writer.u64(UInt64(getpid()))
        writer.u64(version)
        try? FileSystem.write(descriptor, writer.bytes, at: UInt64(slot * Self.slotSize), path)
    }

    /// The oldest version any other live slot holds, or nil when none holds one.
    func oldestOfOthers() -> UInt64? {
        guard let bytes = try? FileSystem.read(descriptor, count: Self.slotCount * Self.slotSize, at: 0, path) else {
            return 0
        }
        var oldest: UInt64?
        for index in 0..<bytes.count / Self.slotSize where index != slot {
            let version = bytes.withUnsafeBytes {
                UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: index * Self.slotSize + 8, as: UInt64.self))
            }
            guard version != Self.none else { continue }
            // A written slot counts only while its owner's lock holds (a dead process's does not).
            guard Self.isLocked(descriptor, slot: index) else {
                clearStale(index)
                continue
            }
            if version < (oldest ?? .max) { oldest = version }
        }
        return oldest
    }

    /// Marks the slot of a dead process empty, so it is not read again as a version. The slot is
    /// locked while it is cleared: an opener claiming it meanwhile takes the next one instead,
    /// and one that claimed it first keeps its lock, so this does nothing.
    private func clearStale(_ index: Int) {
        guard Self.lock(descriptor, slot: index, command: Self.setLock, type: F_WRLCK) else { return }
        var writer = ByteWriter()
        writer.u64(0)
        writer.u64(Self.none)
        try? FileSystem.write(descriptor, writer.bytes, at: UInt64(index * Self.slotSize), path)
        _ = Self.lock(descriptor, slot: index, command: Self.setLock, type: F_UNLCK)
    }

    // MARK: Open-file-description locks

    /// `F_OFD_GETLK` and `F_OFD_SETLK` (Linux): locks owned by the open file, not the process,
    /// so two stores open in one process hold two slots and closing one keeps the other's.
    private static let getLock: Int32 = 36
    private static let setLock: Int32 = 37

    private static func lock(_ fd: Int32, slot: Int, command: Int32, type: Int32) -> Bool {
        var request = flock()
        request.l_type = Int16(type)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = off_t(slot * slotSize)
        request.l_len = off_t(slotSize)
        request.l_pid = 0
        return fcntl(fd, command, &request) == 0
    }

    private static func isLocked(_ fd: Int32, slot: Int) -> Bool {
        var request = flock()
        request.l_type = Int16(F_WRLCK)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = off_t(slot * slotSize)
        request.l_len = off_t(slotSize)
        request.l_pid = 0
        guard fcntl(fd, getLock, &request) == 0 else { return true }
        return request.l_type != Int16(F_UNLCK)
    }
}

/// The versions this process's snapshots of one open file hold: each file-backed
/// `BlockSnapshot` carries a `VersionPin`, released when the last copy of the snapshot (and of
/// the tables taken from it) goes. The oldest pinned version is published to the reader table.
final class VersionPins: Sendable {
    private struct State {
        var counts: [UInt64: Int] = [:]
        var published: UInt64?
    }

    private let state = Mutex(State())
    let table: ReaderTable?
    /// The file's first damaged block met by any of its snapshots.
    let damage: StoreDamage

    init(table: ReaderTable?, damage: StoreDamage) {
        self.table = table
        self.damage = damage
    }

    func pin(_ version: UInt64) -> VersionPin {
        state.withLock { state in
            state.counts[version, default: 0] += 1
            publish(&state)
        }
        return VersionPin(version: version, pins: self)
    }

    fileprivate func release(_ version: UInt64) {
        state.withLock { state in
            if let count = state.counts[version], count > 1 {
                state.counts[version] = count - 1
            } else {
                state.counts[version] = nil
            }
            publish(&state)
        }
    }

    /// The oldest version a snapshot of this process holds.
    var oldest: UInt64? { state.withLock { $0.counts.keys.min() } }

    private func publish(_ state: inout State) {
        let oldest = state.counts.keys.min() ?? ReaderTable.none
        guard oldest != state.published else { return }
        state.published = oldest
        table?.publish(oldest)
    }
}

/// Holds one version of a store file readable: while it lives, no commit (in any process)
/// reuses a page that version reaches.
final class VersionPin: Sendable {
    let version: UInt64
    private let pins: VersionPins

    fileprivate init(version: UInt64, pins: VersionPins) {
        self.version = version
        self.pins = pins
    }

    deinit { pins.release(version) }

    /// The first damaged block met in the pinned version's file, if any.
    var damage: StoreFileError? { pins.damage.error }
}
