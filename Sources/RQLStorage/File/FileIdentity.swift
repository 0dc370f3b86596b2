#if canImport(Glibc)
import Glibc
#endif

/// Which file a path or descriptor reaches, whatever the path: its device and inode. Two paths to
/// one file (a symbolic link, a hard link, `a/../b`) have one identity, so what is kept per file
/// (a realm's store and its locks) is kept once.
///
/// ```swift
/// FileIdentity(path: "link.realm") == FileIdentity(path: "target.realm")  // true
/// ```
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// The file at `path` (symbolic links followed), or nil when there is none.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The file an open descriptor reads.
    init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
