import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only mapping of the first `size` bytes of a file. Blocks read from the file point
/// into it (their `ByteStorage` keeps it alive); it is unmapped when the last one goes.
/// A private mapping (`keepsCopies`) reads the file as a shared one does, and can keep a copy
/// of some of its pages as they are now (`keepCopy(of:)`), whatever the file gets there later.
///
/// Commits only ever grow a store file, so the mapping stays valid. A file cut shorter while
/// mapped is external tampering (as LMDB documents it): the next touch of a page past the new
/// end raises SIGBUS and ends the process, rather than reading other bytes as data
/// (`TruncatedMappingTests`).
// Unchecked: `base` and `size` are `let`s and the mapping is read-only (`PROT_READ`); a page
// `keepCopy(of:)` writes is written with the byte it already holds.
final class FileMapping: @unchecked Sendable {
    let base: UnsafeRawPointer?
    let size: Int
    /// Set once `keepCopy(of:)` gave the mapping a page of its own: `MADV_DONTNEED` would drop it
    /// and read the file's newer bytes there, so its pages are then never released.
    private let keepsCopiedPages = Atomic<Bool>(false)

    /// Whether pages of the mapping may be dropped and read again from the file.
    var releasesPages: Bool { !keepsCopiedPages.load(ordering: .acquiring) }

    init(descriptor: Int32, size: Int, path: String, keepsCopies: Bool = false) throws(StoreFileError) {
        self.size = size
        guard size > 0 else {
            base = nil
            return
        }
        let pointer = mmap(nil, size, PROT_READ, keepsCopies ? MAP_PRIVATE : MAP_SHARED, descriptor, 0)
        guard let pointer, pointer != MAP_FAILED else {
            throw StoreFileError(path: path, problem: .io(operation: "mmap", reason: String(cString: strerror(errno))))
        }
        base = UnsafeRawPointer(pointer)
        // Readers touch a few parts of each block, scattered over the file: the kernel's
        // read-around of a fault (the device's read-ahead, megabytes) would read and map the
        // parts between them too. Each part asks for its own pages instead (`willRead`).
        _ = madvise(pointer, size, MADV_RANDOM)
    }

    deinit {
        if let base { munmap(UnsafeMutableRawPointer(mutating: base), size) }
    }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: size) }

    /// The system's page size, to which `madvise` ranges are aligned.
    private static let systemPageSize = max(Int(sysconf(Int32(_SC_PAGESIZE))), 1)

    /// Keeps the pages of `bytes` (inside a private mapping) as they are now: each page is
    /// written with a byte it holds, which gives the mapping a copy of its own, so a later write
    /// of the file there changes nothing read through it. Readers may read the pages meanwhile:
    /// the copy holds the same bytes. Returns false when the pages cannot be copied. A copied
    /// page must never be given `MADV_DONTNEED`, which would drop the copy.
    func keepCopy(of bytes: UnsafeRawBufferPointer) -> Bool {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return true }
        let page = Self.systemPageSize
        let first = Int(bitPattern: start) / page * page
        let end = (Int(bitPattern: start) + bytes.count + page - 1) / page * page
        guard let region = UnsafeMutableRawPointer(bitPattern: first),
            mprotect(region, end - first, PROT_READ | PROT_WRITE) == 0
        else { return false }
        keepsCopiedPages.store(true, ordering: .releasing)
        defer { _ = mprotect(region, end - first, PROT_READ) }
        for offset in stride(from: 0, to: end - first, by: page) {
            // An atomic store: a plain store of the byte just loaded would be optimised away.
            let byte = (region + offset).assumingMemoryBound(to: Atomic<UInt8>.self)
            byte.pointee.store(byte.pointee.load(ordering: .relaxed), ordering: .relaxed)
        }
        return true
    }

    /// Tells the kernel that `bytes` (inside the mapping) are about to be read: their pages are
    /// read ahead in one request, rather than a page at a time as faults find them.
    func willRead(_ bytes: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        let page = Self.systemPageSize
        let first = Int(bitPattern: start) / page * page
        let end = Int(bitPattern: start) + bytes.count
        _ = madvise(UnsafeMutableRawPointer(bitPattern: first), end - first, MADV_WILLNEED)
    }

    /// Bytes `range` of the file, checked against the mapping.
    func bytes(
        _ offset: UInt64,
        _ length: UInt64,
        what: @autoclosure () -> String
    ) throws(StoreFileError.Problem) -> UnsafeRawBufferPointer {
        guard offset <= UInt64(size), length <= UInt64(size) - offset else {
            throw .pointerOutOfRange(what: what(), offset: offset)
        }
        return UnsafeRawBufferPointer(rebasing: bytes[Int(offset)..<Int(offset + length)])
    }
}

/// Thin, throwing wrappers of the system calls the store file uses.
package enum FileSystem {
    /// `path` with symbolic links resolved, or as given when it does not exist yet: where the
    /// files beside a store (its reader table, its commit log) are found, so that every path to
    /// one store through symbolic links finds the same ones.
    package static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    static func failure(_ path: String, _ operation: String, code: Int32 = errno) -> StoreFileError {
        StoreFileError(path: path, problem: .io(operation: operation, reason: String(cString: strerror(code))))
    }

    /// Opens `path` as a store must be: a regular file. Never waits (a FIFO's open would block
    /// until a writer came); anything else (a directory, a FIFO, a device, a socket) is
    /// `.notRegularFile`. Returns nil when there is no file at `path`.
    static func openRegular(_ path: String, flags: Int32) throws(StoreFileError) -> Int32? {
        let fd = Glibc.open(path, flags | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            if code == EISDIR { throw StoreFileError(path: path, problem: .notRegularFile(kind: "a directory")) }
            if code == ENXIO {
                throw StoreFileError(path: path, problem: .notRegularFile(kind: "a socket or a device"))
            }
            throw failure(path, "open", code: code)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw failure(path, "fstat", code: code)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw StoreFileError(path: path, problem: .notRegularFile(kind: kind(of: info.st_mode)))
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// What a file that is not a regular file is, for messages.
    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "of an unknown type"
        }
    }

    static func open(_ path: String, flags: Int32, mode: mode_t = 0o644) throws(StoreFileError) -> Int32 {
        let fd = Glibc.open(path, flags | O_CLOEXEC, mode)
        guard fd >= 0 else {
            if errno == EEXIST { throw StoreFileError(path: path, problem: .exists) }
            throw failure(path, "open")
        }
        return fd
    }

    static func size(_ fd: Int32, _ path: String) throws(StoreFileError) -> UInt64 {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure(path, "fstat") }
        return UInt64(info.st_size)
    }

    static func write(
        _ fd: Int32,
        _ bytes: UnsafeRawBufferPointer,
        at offset: UInt64,
        _ path: String
    )
        throws(StoreFileError)
    {
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw failure(path, "pwrite") }
            done += n
        }
    }

    static func write(_ fd: Int32, _ bytes: [UInt8], at offset: UInt64, _ path: String) throws(StoreFileError) {
        guard !bytes.isEmpty else { return }
        let result: Result<Void, StoreFileError> = bytes.withUnsafeBytes { raw in
            Result { () throws(StoreFileError) in try write(fd, raw, at: offset, path) }
        }
        try result.get()
    }

    static func read(_ fd: Int32, count: Int, at offset: UInt64, _ path: String) throws(StoreFileError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = buffer.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done))
            }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw failure(path, "pread") }
            if n == 0 { break }
            done += n
        }
        return Array(buffer[0..<done])
    }

    static func sync(_ fd: Int32, _ path: String) throws(StoreFileError) {
        guard fdatasync(fd) == 0 else { throw failure(path, "fdatasync") }
    }
}
