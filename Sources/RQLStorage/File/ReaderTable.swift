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
// Unchecked: every field is a `let`; `publish` writes the slot's bytes with one positioned
// write, called only under `VersionPins`' lock.
final class ReaderTable: @unchecked Sendable {
    static let slotCount = 1024
    static let slotSize = 16
    static let none = UInt64.max

    private let descriptor: Int32
    private let slot: Int
    private let path: String

    /// Who the lock file is (hashed device and inode, never 0): readers publishing in another
    /// lock file (`ReaderMark`) are told apart by it.
    let identity: UInt64

    /// Claims a slot in the lock file beside `storePath` (beside the file a symbolic link names,
    /// so every path to one store finds one table), publishing `version`. Returns nil when the
    /// lock file cannot be opened read-write or every slot is taken: the store's readers are then
    /// shown to writers by a `ReaderMark` alone (another user's file, a read-only directory).
    convenience init?(storePath: String, publishing version: UInt64) {
        self.init(path: StoreCompanion.lock.path(forStore: storePath), publishing: version)
    }

    /// The same with the lock file's path given (`StoreCompanion.lock`).
    init?(path: String, publishing version: UInt64) {
        self.path = path
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return nil
        }
        var claimed: Int?
        for index in 0..<Self.slotCount
        where OFDLock.set(fd, at: Self.offset(index), Int64(Self.slotSize), type: F_WRLCK) {
            claimed = index
            break
        }
        guard let claimed else {
            close(fd)
            return nil
        }
        descriptor = fd
        slot = claimed
        identity = ReaderMark.identity(FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
        publish(version)
    }

    private static func offset(_ slot: Int) -> Int64 { Int64(slot * slotSize) }

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
            guard OFDLock.isHeld(descriptor, at: Self.offset(index), Int64(Self.slotSize)) else {
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
        guard OFDLock.set(descriptor, at: Self.offset(index), Int64(Self.slotSize), type: F_WRLCK) else { return }
        var writer = ByteWriter()
        writer.u64(0)
        writer.u64(Self.none)
        try? FileSystem.write(descriptor, writer.bytes, at: UInt64(index * Self.slotSize), path)
        _ = OFDLock.set(descriptor, at: Self.offset(index), Int64(Self.slotSize), type: F_UNLCK)
    }
}

/// The versions this process's snapshots of one open file hold: each file-backed
/// `BlockSnapshot` carries a `VersionPin`, released when the last copy of the snapshot (and of
/// the tables taken from it) goes. The oldest pinned version is published to the reader table.
final class VersionPins: Sendable {
    private struct State {
        /// Each version held and how many pins hold it. A list, not a dictionary: a process
        /// holds a few versions, `publish` visits them all anyway, and the first dictionary of
        /// a key type costs the process a search of the runtime's conformance records.
        var counts: [(version: UInt64, count: Int)] = []
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
            if let index = state.counts.firstIndex(where: { $0.version == version }) {
                state.counts[index].count += 1
            } else {
                state.counts.append((version, 1))
            }
            publish(&state)
        }
        return VersionPin(version: version, pins: self)
    }

    fileprivate func release(_ version: UInt64) {
        state.withLock { state in
            if let index = state.counts.firstIndex(where: { $0.version == version }) {
                if state.counts[index].count > 1 {
                    state.counts[index].count -= 1
                } else {
                    state.counts.remove(at: index)
                }
            }
            publish(&state)
        }
    }

    /// The oldest version a snapshot of this process holds.
    var oldest: UInt64? { state.withLock { Self.oldest(in: $0) } }

    private static func oldest(in state: State) -> UInt64? {
        state.counts.lazy.map(\.version).min()
    }

    private func publish(_ state: inout State) {
        let oldest = Self.oldest(in: state) ?? ReaderTable.none
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
