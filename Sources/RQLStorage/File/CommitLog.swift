import Foundation
import RQLCore

#if canImport(Glibc)
import Glibc
#endif

/// The commit log beside a store file, `<path>.log`: commits since the newest checkpoint, one
/// `CommitRecord` each, appended and synced once. A checkpoint (a commit written to the store
/// file as before, its slot naming it) covers every record before it and empties the log.
///
/// A companion file rather than a region of the store: an append syncs the log's bytes alone
/// (never the checkpoint's dirty pages), emptying it is a truncation, and the store file's
/// format is unchanged.
///
/// ```
/// header (64 bytes): "RQLCLOG\0", u32 format (1), u32 0, u64 generation, u64 checkpoint
///   version, u64 checkpoint checksum (its slot's dataChecksum), u64 store id (the store file's,
///   `FileHeader`), zeros, u64 checksum of bytes 0..<56
/// records: u32 length (all of it, a multiple of 8), u32 payload length, u64 generation, u64 version,
///   payload (CommitRecord), zero padding, u64 checksum of the bytes before it
/// ```
///
/// Records follow each other with consecutive versions from the checkpoint's plus one. A
/// record that does not check out ends the log: when no whole record of this generation comes
/// after it, it is the torn tail of a commit that never returned (a commit appends only after
/// the one before it is synced); otherwise it is damage, which `scan` reports.
struct CommitLog {
    static let magic: [UInt8] = Array("RQLCLOG\0".utf8)
    static let formatVersion: UInt32 = 1
    static let headerSize = 64
    static let frameOverhead = 32

    struct Header: Equatable {
        var generation: UInt64
        /// The checkpoint the records follow: its version and its slot's `dataChecksum`.
        var checkpoint: UInt64
        var checkpointChecksum: UInt64
        /// The store file's id (`FileHeader.storeIDOffset`).
        var store: UInt64

        func encoded() -> [UInt8] {
            var writer = ByteWriter()
            writer.bytes.append(contentsOf: CommitLog.magic)
            writer.u32(CommitLog.formatVersion)
            writer.u32(0)
            writer.u64(generation)
            writer.u64(checkpoint)
            writer.u64(checkpointChecksum)
            writer.u64(store)
            writer.bytes.append(contentsOf: repeatElement(0, count: 56 - writer.bytes.count))
            writer.u64(FileChecksum.of(writer.bytes))
            return writer.bytes
        }

        static func decode(_ bytes: [UInt8]) -> Header? {
            guard bytes.count >= CommitLog.headerSize, bytes.starts(with: CommitLog.magic) else { return nil }
            return bytes.withUnsafeBytes { raw -> Header? in
                var reader = ByteReader(raw, base: 0, at: 8, what: "commit log header")
                guard let format = try? reader.u32(), format == CommitLog.formatVersion, (try? reader.u32()) != nil,
                    let generation = try? reader.u64(), let checkpoint = try? reader.u64(),
                    let checksum = try? reader.u64(), let store = try? reader.u64()
                else { return nil }
                let stored = raw.loadUnaligned(fromByteOffset: 56, as: UInt64.self)
                guard UInt64(littleEndian: stored) == FileChecksum.of(UnsafeRawBufferPointer(rebasing: raw[0..<56]))
                else { return nil }
                return Header(
                    generation: generation,
                    checkpoint: checkpoint,
                    checkpointChecksum: checksum,
                    store: store
                )
            }
        }
    }

    /// One record's frame: what `append` writes.
    static func frame(_ payload: [UInt8], version: UInt64, generation: UInt64) -> [UInt8] {
        let length = (24 + payload.count + 7) / 8 * 8 + 8
        var writer = ByteWriter()
        writer.u32(length)
        writer.u32(payload.count)
        writer.u64(generation)
        writer.u64(version)
        writer.bytes.append(contentsOf: payload)
        writer.bytes.append(contentsOf: repeatElement(0, count: length - 8 - writer.bytes.count))
        writer.u64(FileChecksum.of(writer.bytes))
        return writer.bytes
    }

    /// A record found by `scan`.
    struct Entry {
        let offset: UInt64
        let version: UInt64
        let payload: [UInt8]
    }

    /// What `scan` found after the header.
    struct Scan {
        var entries: [Entry] = []
        /// The offset after the last whole record.
        var end: UInt64
        /// A record that does not check out with whole records after it: its offset and why.
        var damage: (offset: UInt64, reason: String)?
        /// Bytes after the last whole record that are not one (a commit cut short).
        var tornTail = false
    }

    /// Reads the records of `generation` from `offset` (a record boundary) to the end of `bytes`
    /// (the file from `offset`), expecting versions from `firstVersion`.
    static func scan(_ bytes: [UInt8], from offset: UInt64, generation: UInt64, firstVersion: UInt64) -> Scan {
        var scan = Scan(end: offset)
        var position = 0
        var expected = firstVersion
        bytes.withUnsafeBytes { raw in
            while position < raw.count {
                switch frame(in: raw, at: position, generation: generation) {
                case .some(let (length, version, payloadLength)) where version == expected:
                    let payload = Array(raw[(position + 24)..<(position + 24 + payloadLength)])
                    scan.entries.append(Entry(offset: offset + UInt64(position), version: version, payload: payload))
                    position += length
                    expected += 1
                    scan.end = offset + UInt64(position)
                case .some(let (_, version, _)):
                    scan.damage = (offset + UInt64(position), "version \(version) where \(expected) should follow")
                    return
                case .none:
                    // Bytes past the end its intact header names, or a whole record further on,
                    // were written after this record was synced: damage.
                    if raw.count - position >= 16,
                        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position + 8, as: UInt64.self))
                            == generation
                    {
                        let length = Int(
                            UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt32.self))
                        )
                        if length >= frameOverhead, length % 8 == 0, length < raw.count - position {
                            scan.damage = (offset + UInt64(position), "its checksum does not match")
                            return
                        }
                    }
                    var later = position + 8
                    while later + frameOverhead <= raw.count {
                        if frame(in: raw, at: later, generation: generation) != nil {
                            scan.damage = (offset + UInt64(position), "its checksum does not match")
                            return
                        }
                        later += 8
                    }
                    scan.tornTail = true
                    return
                }
            }
        }
        return scan
    }

    /// The length and version of the whole record of `generation` at `position`, or nil.
    private static func frame(
        in raw: UnsafeRawBufferPointer,
        at position: Int,
        generation: UInt64
    ) -> (length: Int, version: UInt64, payloadLength: Int)? {
        guard raw.count - position >= frameOverhead else { return nil }
        let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt32.self)))
        guard length >= frameOverhead, length % 8 == 0, length <= raw.count - position,
            UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position + 8, as: UInt64.self)) == generation
        else { return nil }
        let stored = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position + length - 8, as: UInt64.self))
        guard stored == FileChecksum.of(UnsafeRawBufferPointer(rebasing: raw[position..<(position + length - 8)]))
        else {
            return nil
        }
        let payload = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: position + 4, as: UInt32.self)))
        guard payload <= length - frameOverhead else { return nil }
        return (
            length, UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position + 16, as: UInt64.self)), payload
        )
    }

    // MARK: The file

    static func path(forStore storePath: String) -> String { storePath + ".log" }

    /// The log file's descriptor, or nil when there is none (and `create` is false). A log
    /// created here is made durable in its directory before it is used.
    static func openFile(storePath: String, readOnly: Bool, create: Bool) throws(StoreFileError) -> Int32? {
        let path = path(forStore: storePath)
        let descriptor = Glibc.open(path, (readOnly ? O_RDONLY : O_RDWR) | O_CLOEXEC)
        if descriptor >= 0 { return descriptor }
        guard errno == ENOENT else { throw FileSystem.failure(path, "open") }
        guard create, !readOnly else { return nil }
        let created = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard created >= 0 else { throw FileSystem.failure(path, "open") }
        let directory = (path as NSString).deletingLastPathComponent
        let directoryDescriptor = Glibc.open(directory.isEmpty ? "." : directory, O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            defer { close(directoryDescriptor) }
            guard fsync(directoryDescriptor) == 0 else { throw FileSystem.failure(directory, "fsync") }
        }
        return created
    }

    /// Empties the log and starts a generation after `checkpoint`, synced.
    static func reset(
        _ descriptor: Int32,
        storePath: String,
        checkpoint: HeaderSlot,
        store: UInt64
    ) throws(StoreFileError) -> Header {
        let path = path(forStore: storePath)
        guard ftruncate(descriptor, 0) == 0 else { throw FileSystem.failure(path, "ftruncate") }
        let header = Header(
            generation: UInt64.random(in: 1 ... .max),
            checkpoint: checkpoint.version,
            checkpointChecksum: checkpoint.dataChecksum,
            store: store
        )
        try FileSystem.write(descriptor, header.encoded(), at: 0, path)
        try FileSystem.sync(descriptor, path)
        return header
    }
}
