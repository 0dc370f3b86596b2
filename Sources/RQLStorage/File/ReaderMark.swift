#if canImport(Glibc)
import Glibc
#endif

/// A reader's mark on the store file itself, so that a writer sees readers its reader table
/// does not show: a process that cannot open `<path>.lock` read-write (another user's file, a
/// read-only directory) or that publishes in another lock file (one deleted and made again, a
/// hard link's). Such a reader may hold any version, so a writer that meets one reuses no page
/// freed since (the file grows instead), and never hands it a page it still reads.
///
/// Every open `StoreFile` takes, before it reads a header, a shared open-file-description lock on
/// one byte far past the end of the store file: at `base + identity` of the lock file it
/// publishes in, or at `base` when it publishes in none. The kernel drops the lock with the
/// descriptor, however the process ends. A writer publishing in lock file `i` asks whether any
/// other descriptor holds a mark in `base..<base + span` other than at `base + i`.
///
/// ```swift
/// ReaderMark.take(descriptor, table: table)                // when a store file is opened
/// if ReaderMark.othersOutside(descriptor, table: table) {}  // before a commit reuses pages
/// ```
enum ReaderMark {
    static let base: Int64 = 1 << 62
    static let span: Int64 = 1 << 40

    /// The mark offset (from `base`) of a lock file: never 0, which marks "no lock file".
    static func identity(_ file: FileIdentity) -> UInt64 {
        let mixed = (file.device &* 0x9E37_79B9_7F4A_7C15) ^ (file.inode &* 0xC2B2_AE3D_27D4_EB4F)
        return mixed % UInt64(span - 1) + 1
    }

    /// Marks the file open by a reader publishing in `table` (or in none); false when the kernel
    /// refused the lock (a file system without locks).
    static func take(_ descriptor: Int32, table: ReaderTable?) -> Bool {
        OFDLock.set(descriptor, at: base + Int64(table?.identity ?? 0), 1, type: F_RDLCK)
    }

    /// Whether another descriptor of the file marks any reader at all, for a store that publishes
    /// in no reader table.
    static func others(_ descriptor: Int32) -> Bool {
        OFDLock.isHeld(descriptor, at: base, span)
    }

    /// Whether another descriptor of the file marks a reader that `table` does not show.
    static func othersOutside(_ descriptor: Int32, table: ReaderTable) -> Bool {
        let own = Int64(table.identity)
        return OFDLock.isHeld(descriptor, at: base, own)
            || OFDLock.isHeld(descriptor, at: base + own + 1, span - own - 1)
    }
}

/// Open-file-description locks (`F_OFD_SETLK`, `F_OFD_GETLK`, Linux): owned by the open file,
/// not the process, so two stores open in one process hold their locks apart and closing one
/// keeps the other's; the kernel drops them when the last descriptor of the open file closes.
enum OFDLock {
    private static let getLock: Int32 = 36
    private static let setLock: Int32 = 37

    /// Takes (`F_RDLCK`, `F_WRLCK`) or releases (`F_UNLCK`) the bytes `offset..<offset + length`
    /// without waiting; false when another open file holds a conflicting lock.
    static func set(_ descriptor: Int32, at offset: Int64, _ length: Int64, type: Int32) -> Bool {
        var request = request(offset, length, type: type)
        return fcntl(descriptor, setLock, &request) == 0
    }

    /// Whether another open file holds a lock on any of the bytes `offset..<offset + length`
    /// (true when the kernel cannot tell: a writer then assumes a reader).
    static func isHeld(_ descriptor: Int32, at offset: Int64, _ length: Int64) -> Bool {
        guard length > 0 else { return false }
        var request = request(offset, length, type: F_WRLCK)
        guard fcntl(descriptor, getLock, &request) == 0 else { return true }
        return request.l_type != Int16(F_UNLCK)
    }

    private static func request(_ offset: Int64, _ length: Int64, type: Int32) -> flock {
        var request = flock()
        request.l_type = Int16(type)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = off_t(offset)
        request.l_len = off_t(length)
        request.l_pid = 0
        return request
    }
}

extension StoreFile {
    /// Whether another open store file of this file (this process's or another's) is a reader
    /// now: a live slot of the reader table, or a mark the table does not show. Without a table
    /// this file's own mark is the one at `ReaderMark.base`, which its own probe does not see.
    var hasOtherReaders: Bool {
        guard let table = pins.table else { return ReaderMark.others(descriptor) }
        return table.oldestOfOthers() != nil || ReaderMark.othersOutside(descriptor, table: table)
    }
}
