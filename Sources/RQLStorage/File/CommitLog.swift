import Foundation
import RQLCore

#if canImport(Glibc)
import Glibc
#endif

/// The commit log beside a store file, `<path>.log`: commits since the newest checkpoint, one
/// `CommitRecord` each, appended and synced once. A checkpoint (a commit written to the store
/// file as before, its slot naming it) covers every record before it and starts a new log
/// generation in the same file.
///
/// A companion file rather than a region of the store: an append syncs the log's bytes alone
/// (never the checkpoint's dirty pages). The checkpoint's header slot names the generation of
/// the records after it (`HeaderSlot.logGeneration`): a store whose newest slot names one and
/// that finds no log of its own is an error (`.commitLogMissing`), never an older version.
///
/// ```
/// header (64 bytes): "RQLCLOG\0", u32 format (1), u32 0, u64 generation, u64 checkpoint
///   version, u64 checkpoint checksum (its slot's dataChecksum), u64 store id (the store file's,
///   `FileHeader`), zeros, u64 checksum of bytes 0..<56
/// records: u32 length (all of it, a multiple of 8, at most `maxFrameLength`), u32 payload
///   length, u64 generation, u64 version, payload (CommitRecord), zero padding, u64 checksum of
///   the bytes before it
/// ```
///
/// The file is preallocated with written zeros and kept across checkpoints, so that an append
/// overwrites bytes the file already has and its sync commits no new size: past the last record
/// are zeros or an older generation's bytes, never a record of this generation. Records follow
/// each other with consecutive versions from the checkpoint's plus one. A record that does not
/// check out ends the log: when no record of this generation begins in the `maxFrameLength`
/// bytes after it (where the record after it would), it is the torn tail of a commit that never
/// returned (a commit appends only after the one before it is synced) or the log's end;
/// otherwise it is damage, which `scan` reports.
struct CommitLog {
    static let magic: [UInt8] = Array("RQLCLOG\0".utf8)
    static let formatVersion: UInt32 = 1
    /// The log's checksum, whatever its store file's: records are short (at most
    /// `maxFrameLength`), so the faster `fourLanes` would save little, and format 1 stays.
    static let checksum = FileChecksum.twoChains
    static let headerSize = 64
    static let frameOverhead = 32
    /// The largest record frame: a commit whose record is longer is a checkpoint instead. It
    /// bounds how far past a record that does not check out the next one can begin.
    static let maxFrameLength = 1 << 16
    /// The largest payload a frame holds.
    static let maxPayloadLength = maxFrameLength - frameOverhead
    /// The log's size past which a commit also writes a checkpoint, unless set otherwise
    /// (`BlockStore.checkpointThreshold`). A checkpoint of updates spread over a large table
    /// rewrites most of its blocks (about 80 MB at 1M objects): 4 MiB of records, some 50,000
    /// one-property updates, spreads that below 2 KiB a commit.
    static let checkpointThreshold = 4 << 20
    /// The first step in which the log file grows (then doubling, up to the threshold).
    static let growthStep = 1 << 16

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
            writer.u64(CommitLog.checksum.of(writer.bytes))
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
                guard
                    UInt64(littleEndian: stored) == CommitLog.checksum.of(UnsafeRawBufferPointer(rebasing: raw[0..<56]))
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
        writer.bytes.reserveCapacity(length)
        writer.u32(length)
        writer.u32(payload.count)
        writer.u64(generation)
        writer.u64(version)
        writer.bytes.append(contentsOf: payload)
        writer.bytes.append(contentsOf: repeatElement(0, count: length - 8 - writer.bytes.count))
        writer.u64(CommitLog.checksum.of(writer.bytes))
        return writer.bytes
    }

    /// A record found by `scan`: where its payload is in the bytes scanned (`Scan.bytes`).
    struct Entry {
        let offset: UInt64
        let version: UInt64
        let payload: Range<Int>
    }

    /// What `scan` found after the header.
    struct Scan {
        /// The bytes scanned (the entries' payloads are ranges of them), from the file's offset `base`.
        var bytes: [UInt8] = []
        var base: UInt64 = 0
        var entries: [Entry] = []
        /// The offset after the last whole record.
        var end: UInt64
        /// A record that does not check out with a record of this generation after it: its
        /// offset and why.
        var damage: (offset: UInt64, reason: String)?
        /// Bytes of this generation after the last whole record that are not one (a commit cut short).
        var tornTail = false
        /// The bytes given ended before the scan could decide: scan again with more of the file.
        var needsMore = false
    }

    /// Reads the records of `generation` from `offset` (a record boundary) in `bytes` (the file
    /// from `offset`, reaching its end when `atEnd`), expecting versions from `firstVersion`;
    /// `start`: where in `bytes` to begin (`offset` is then that of `bytes[0]`), after records
    /// an earlier scan of fewer of the same bytes found.
    /// `following`: the bytes before `offset` were scanned before, by a reader following the
    /// log as other processes append to it; bytes past the end that begin no record of this
    /// generation are then the end without a look further for damage (a record is written
    /// whole before the next begins, so only a scan from the header, as open's, can meet a
    /// damaged record with records after it).
    static func scan(
        _ bytes: [UInt8],
        from offset: UInt64,
        generation: UInt64,
        firstVersion: UInt64,
        atEnd: Bool = true,
        following: Bool = false,
        start: Int = 0
    ) -> Scan {
        var scan = Scan(bytes: bytes, base: offset, end: offset + UInt64(start))
        var position = start
        var expected = firstVersion
        bytes.withUnsafeBytes { raw in
            while position < raw.count || !atEnd {
                switch frame(in: raw, at: position, generation: generation) {
                case .some(let (length, version, payloadLength)) where version == expected:
                    scan.entries.append(
                        Entry(
                            offset: offset + UInt64(position),
                            version: version,
                            payload: (position + 24)..<(position + 24 + payloadLength)
                        )
                    )
                    position += length
                    expected += 1
                    scan.end = offset + UInt64(position)
                    continue
                case .some(let (_, version, _)):
                    scan.damage = (offset + UInt64(position), "version \(version) where \(expected) should follow")
                    return
                case .none: break
                }
                let started = startsFrame(in: raw, at: position, generation: generation)
                if following, !started, raw.count - position >= 16 { return }
                // The record after this one, had it been whole, begins within `maxFrameLength`
                // bytes; one of this generation there (even cut short) was written after this
                // one was synced: this one is damage.
                let window = position + maxFrameLength + 16
                if raw.count < window, !atEnd {
                    scan.needsMore = true
                    return
                }
                var later = position + 8
                while later + 16 <= Swift.min(raw.count, window) {
                    if startsFrame(in: raw, at: later, generation: generation) {
                        scan.damage = (offset + UInt64(position), "its checksum does not match")
                        return
                    }
                    later += 8
                }
                scan.tornTail = started
                return
            }
        }
        return scan
    }

    /// Whether the bytes at `position` begin a frame of `generation` (its length plausible),
    /// whole or not.
    private static func startsFrame(in raw: UnsafeRawBufferPointer, at position: Int, generation: UInt64) -> Bool {
        guard raw.count - position >= 16 else { return false }
        let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt32.self)))
        return length >= frameOverhead && length % 8 == 0 && length <= maxFrameLength
            && UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position + 8, as: UInt64.self)) == generation
    }

    /// Whether `bytes` (a log's, from the first record's offset) hold a whole record of any
    /// generation newer than `version` near their start: what a log whose header does not check
    /// out is judged by. A header is rewritten only after a checkpoint that covers every record
    /// behind it is durable, so a header cut short by a crash has no newer record after it; a
    /// damaged header with commits after it has.
    static func holdsRecord(newerThan version: UInt64, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var position = 0
            while position + frameOverhead <= Swift.min(raw.count, maxFrameLength + frameOverhead) {
                let generation = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position + 8, as: UInt64.self))
                if let (_, found, _) = frame(in: raw, at: position, generation: generation), found > version {
                    return true
                }
                position += 8
            }
            return false
        }
    }

    /// The length and version of the whole record of `generation` at `position`, or nil.
    private static func frame(
        in raw: UnsafeRawBufferPointer,
        at position: Int,
        generation: UInt64
    ) -> (length: Int, version: UInt64, payloadLength: Int)? {
        guard raw.count - position >= frameOverhead else { return nil }
        let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt32.self)))
        guard length >= frameOverhead, length % 8 == 0, length <= maxFrameLength, length <= raw.count - position,
            UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position + 8, as: UInt64.self)) == generation
        else { return nil }
        let stored = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position + length - 8, as: UInt64.self))
        guard stored == CommitLog.checksum.of(UnsafeRawBufferPointer(rebasing: raw[position..<(position + length - 8)]))
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

    /// The largest log generation: a header slot holds it in the 62 bits above its flags.
    static let maxGeneration: UInt64 = (1 << 62) - 1

    /// The log file at `path` (`StoreCompanion.log`) open, or nil when there is none (and `create`
    /// is false). A log created here is made durable in its directory before it is used.
    static func openFile(path: String, readOnly: Bool, create: Bool) throws(StoreFileError) -> Int32? {
        let descriptor = Glibc.open(path, (readOnly ? O_RDONLY : O_RDWR) | O_CLOEXEC)
        if descriptor >= 0 { return descriptor }
        guard errno == ENOENT else { throw FileSystem.failure(path, "open") }
        guard create, !readOnly else { return nil }
        let created = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard created >= 0 else { throw FileSystem.failure(path, "open") }
        do {
            try syncDirectory(of: path)
        } catch {
            close(created)
            throw error
        }
        return created
    }

    /// Makes the log's directory entry durable: before a header slot names the log, so that a
    /// crash never leaves a slot naming a log that is not there.
    static func syncDirectory(of path: String) throws(StoreFileError) {
        let directory = (path as NSString).deletingLastPathComponent
        let descriptor = Glibc.open(directory.isEmpty ? "." : directory, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw FileSystem.failure(directory, "fsync") }
    }

    /// Starts `generation` (the one `checkpoint`'s slot names, or a fresh one when it names
    /// none) after `checkpoint`, synced. The file keeps its size and its bytes: the records
    /// behind the new header are of a generation no scan of this one reads.
    static func reset(
        _ descriptor: Int32,
        path: String,
        checkpoint: HeaderSlot,
        store: UInt64
    ) throws(StoreFileError) -> Header {
        let header = Header(
            generation: checkpoint.logGeneration != 0 ? checkpoint.logGeneration : UInt64.random(in: 1...maxGeneration),
            checkpoint: checkpoint.version,
            checkpointChecksum: checkpoint.dataChecksum,
            store: store
        )
        try FileSystem.write(descriptor, header.encoded(), at: 0, path)
        try FileSystem.sync(descriptor, path)
        return header
    }
}
