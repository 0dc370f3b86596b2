import Foundation

/// A fresh directory under the system's temporary directory for one test's files, removed with
/// everything in it (store files, their logs and lock files) when the test lets it go.
///
///     let directory = try TemporaryDirectory("import")
///     let store = directory.path("s.rql")   // …/rql-import-<UUID>/s.rql
public final class TemporaryDirectory {
    public let url: URL

    public init(_ name: String = "store") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("rql-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` in the directory.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Bytes of a file written in place, as a bad disk or a hostile edit leaves them: the damage
/// that the store's checks must name.
///
///     try FileBytes.overwrite(path, at: place.offset + 8, with: [UInt8](repeating: 0, count: 8))
public enum FileBytes {
    /// Writes `bytes` over the file at `path` from `offset`.
    public static func overwrite(_ path: String, at offset: UInt64, with bytes: [UInt8]) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: bytes)
    }

    /// An offset at or past the end of the file.
    public struct PastTheEnd: Error {
        public let path: String
        public let offset: UInt64
    }

    /// Flips the bits of `mask` in the byte at `offset` of the file at `path`.
    public static func flip(_ path: String, at offset: UInt64, mask: UInt8 = 0x10) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: offset)
        guard let byte = try handle.read(upToCount: 1)?.first else { throw PastTheEnd(path: path, offset: offset) }
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: [byte ^ mask])
    }
}
