/// The first page of a store file: magic, format version, and two slots, each naming one
/// committed version (its root record and what its commit wrote, with checksums).
///
/// ```
/// 0    "RQLSTOR\0"            8 bytes
/// 8    format version         u32 (5: checksums are `FileChecksum.fourLanes`; 4: slots name
///                             their commit log's generation, checksums `twoChains`; 3, read
///                             and written, becomes 4 when a slot first names one; 3 and 4
///                             stay `twoChains` files, whose commits write `twoChains`; 2 had
///                             one checksum per block and no log, and is refused)
/// 12   page size              u32 (4096)
/// 16   store id               u64, random, made with the file (0 in files of earlier builds);
///                             the commit log names it, so a log left by another file is not read as this one's
/// 64   slot 0                 64 bytes
/// 128  slot 1                 64 bytes
/// 4096 pages: blocks, index nodes and roots, written by commits into free runs or appended
/// ```
///
/// A slot: u64 version, root offset, root length, written length, file end, data checksum,
/// flags (bits 0-1) and log generation (bits 2-63), checksum of the 56 bytes before it. Every
/// checksum in the file, the slots' too, is the one its format version names
/// (`FileChecksum(format:)`), so a file is never read with another's.
///
/// A checkpoint of a store that logs names in its slot the generation of the commit log records
/// after it (`CommitLog`), once the log file exists in its directory. Open and refresh then
/// require that log: found through the store's resolved path, so a symbolic link finds it,
/// but a hard link under another name or a copy of the store file alone does not, and that is
/// `.commitLogMissing` rather than the checkpoint read as the newest version. An empty log
/// (created, then a crash before its header was written) holds no records, and a log of an
/// older generation (a crash between the slot and the log's reset) holds none newer than the
/// checkpoint.
///
/// A commit writes its blocks, nodes and root into free runs (`FreeList`) or after the space in
/// use, then writes the slot the newest version does not occupy (version `v` goes to slot
/// `v % 2`), and syncs once. The slot's `dataChecksum` covers every byte the commit wrote (the
/// root lists the runs), so a crash that left the slot on disk but not all of the pages is
/// caught on open, which then takes the other slot: the previous version, whose pages no commit
/// overwrites (a commit reuses only pages that neither of the two newest versions reaches). A large commit (over
/// `FileHeader.presyncThreshold` bytes) syncs its pages before writing the slot and marks the
/// slot `pagesSynced`; its `dataChecksum` then covers the root alone, so open never checksums
/// megabytes, and its blocks and nodes are checked against the checksums their references
/// carry when first read. Open reports a fallback to the other slot
/// (`.newestVersionUnreadable`): the pages cannot tell a torn commit from a damaged one.
struct FileHeader {
    static let magic: [UInt8] = Array("RQLSTOR\0".utf8)
    /// The one place the format version is said: what a new file gets. Files of a version
    /// outside `oldestReadableFormat...formatVersion` are refused (`unsupportedFormat`).
    static let formatVersion: UInt32 = 5
    /// The first format whose slots may name a commit log: a slot of a file of format 3 never
    /// does, and the first that does makes the file 4.
    static let logNamingFormat: UInt32 = 4
    /// The first format whose checksums are `FileChecksum.fourLanes`.
    static let fourLaneFormat: UInt32 = 5
    /// The oldest format this build opens: a file of 2 has whole-block checksums, which this
    /// build does not read.
    static let oldestReadableFormat: UInt32 = 3
    /// Where the format version is (a u32).
    static let formatVersionOffset = 8
    static let pageSize = 4096
    static let slotOffsets = [64, 128]
    static let storeIDOffset = 16
    static let slotSize = 64
    /// Commits writing more than this sync their pages before the slot (two syncs, no open-time checksum).
    static let presyncThreshold = 1 << 20

    /// The fixed first 16 bytes (of a file of `format`, the newest but in tests).
    static func prologue(format: UInt32 = formatVersion) -> [UInt8] {
        var writer = ByteWriter()
        writer.bytes.append(contentsOf: magic)
        writer.u32(format)
        writer.u32(UInt32(pageSize))
        return writer.bytes
    }

    /// Checks the magic and the format version of the first bytes of a file.
    static func checkPrologue(_ bytes: UnsafeRawBufferPointer) throws(StoreFileError.Problem) {
        guard bytes.count >= 16 else {
            throw bytes.starts(with: magic.prefix(bytes.count)) && !bytes.isEmpty
                ? .truncated(expected: UInt64(pageSize), actual: UInt64(bytes.count)) : .badMagic
        }
        guard bytes.prefix(8).elementsEqual(magic) else { throw .badMagic }
        var reader = ByteReader(bytes, base: 0, at: 8, what: "header")
        let version = try reader.u32()
        guard (oldestReadableFormat...formatVersion).contains(version) else {
            throw .unsupportedFormat(version: version)
        }
        let pageSize = try reader.u32()
        guard pageSize == UInt32(Self.pageSize) else {
            throw .malformed(what: "header", reason: "page size \(pageSize), expected \(Self.pageSize)")
        }
    }

    /// Whether `bytes` start like a store file (rqlc uses it to tell a store from JSON).
    static func hasMagic(_ bytes: [UInt8]) -> Bool {
        // Compared by index: a generic algorithm (`elementsEqual`) looked the array's
        // conformances up at run time, a search of every conformance in the binary.
        guard bytes.count >= magic.count else { return false }
        for index in magic.indices where bytes[index] != magic[index] { return false }
        return true
    }
}

/// One header slot: a committed version, where its root is, and a checksum of what its commit
/// wrote (the runs its root lists, then the root).
struct HeaderSlot: Equatable {
    var version: UInt64
    var rootOffset: UInt64
    var rootLength: UInt64
    /// The bytes this version's commit wrote, root included.
    var writtenLength: UInt64
    /// The end of the space this version's file uses (its free list's `fileEnd`).
    var fileEnd: UInt64
    var dataChecksum: UInt64
    /// The commit synced its pages before writing the slot, and `dataChecksum` covers its root
    /// alone (flag 2). Flag 0, and flag 1 of earlier builds, cover everything the commit wrote.
    var pagesSynced: Bool
    /// The commit log generation whose records follow this checkpoint (at most
    /// `CommitLog.maxGeneration`), or 0: no log is named (a store that does not log, a file of
    /// format 3).
    var logGeneration: UInt64 = 0

    func encoded(_ checksum: FileChecksum) -> [UInt8] {
        var writer = ByteWriter()
        writer.u64(version)
        writer.u64(rootOffset)
        writer.u64(rootLength)
        writer.u64(writtenLength)
        writer.u64(fileEnd)
        writer.u64(dataChecksum)
        writer.u64(logGeneration << 2 | (pagesSynced ? 2 : 0))
        writer.u64(checksum.of(writer.bytes))
        return writer.bytes
    }

    /// The slot in `bytes` (64 of them), or `nil` when its checksum (`checksum`, the file's)
    /// does not match (never written, torn, or damaged).
    static func decode(_ bytes: UnsafeRawBufferPointer, _ checksum: FileChecksum) -> HeaderSlot? {
        guard bytes.count >= FileHeader.slotSize else { return nil }
        var reader = ByteReader(bytes, base: 0, what: "header slot")
        guard let version = try? reader.u64(), let rootOffset = try? reader.u64(),
            let rootLength = try? reader.u64(), let writtenLength = try? reader.u64(),
            let fileEnd = try? reader.u64(),
            let dataChecksum = try? reader.u64(), let flags = try? reader.u64(), let stored = try? reader.u64(),
            stored == checksum.of(UnsafeRawBufferPointer(rebasing: bytes[0..<56])),
            flags & 3 <= 2
        else { return nil }
        return HeaderSlot(
            version: version,
            rootOffset: rootOffset,
            rootLength: rootLength,
            writtenLength: writtenLength,
            fileEnd: fileEnd,
            dataChecksum: dataChecksum,
            pagesSynced: flags & 3 == 2,
            logGeneration: flags >> 2
        )
    }

    /// Checks that the slot's ranges lie inside a file of `size` bytes.
    func checkRanges(fileSize size: UInt64) throws(StoreFileError.Problem) {
        let headerEnd = UInt64(FileHeader.pageSize)
        guard fileEnd >= headerEnd else {
            throw .pointerOutOfRange(what: "version \(version)'s file end", offset: fileEnd)
        }
        guard fileEnd <= size else { throw .truncated(expected: fileEnd, actual: size) }
        // Each comparison before the subtraction it guards.
        guard rootOffset >= headerEnd, rootOffset <= fileEnd, rootLength <= fileEnd - rootOffset,
            rootLength <= writtenLength
        else {
            throw .pointerOutOfRange(what: "version \(version)'s root", offset: rootOffset)
        }
    }

    /// Checks what this version's commit wrote against `dataChecksum`: the root alone for a
    /// `pagesSynced` commit, else everything (`writtenChecksum`).
    func checkCommit(
        _ read: (UInt64, UInt64) throws(StoreFileError.Problem) -> [UInt8],
        _ checksum: FileChecksum
    ) throws(StoreFileError.Problem) {
        guard try commitChecksum(read, checksum) == dataChecksum else { throw .dataChecksum(version: version) }
    }

    /// The checksum `dataChecksum` should hold (see `checkCommit`).
    func commitChecksum(
        _ read: (UInt64, UInt64) throws(StoreFileError.Problem) -> [UInt8],
        _ checksum: FileChecksum
    ) throws(StoreFileError.Problem)
        -> UInt64
    {
        pagesSynced ? checksum.of(try read(rootOffset, rootLength)) : try writtenChecksum(read, checksum)
    }

    /// The checksum of what this version's commit wrote, read through `read` (offset, length →
    /// bytes, checked against the file): the runs the root lists, in order, then the root.
    /// Throws when the root's list is out of range.
    func writtenChecksum(
        _ read: (UInt64, UInt64) throws(StoreFileError.Problem) -> [UInt8],
        _ checksum: FileChecksum
    ) throws(StoreFileError.Problem) -> UInt64 {
        let root = try read(rootOffset, rootLength)
        var written: [UInt8] = []
        let parsed = root.withUnsafeBytes { raw in
            Result { () throws(StoreFileError.Problem) in
                var reader = ByteReader(raw, base: rootOffset, what: "root")
                _ = try reader.u64()
                return try CommitWriter.decodeWrittenRuns(&reader, fileEnd: fileEnd, writtenLength: writtenLength)
            }
        }
        let runs = try parsed.get()
        for run in runs { written.append(contentsOf: try read(run.offset, run.length)) }
        written.append(contentsOf: root)
        guard UInt64(written.count) == writtenLength else { throw .dataChecksum(version: version) }
        return checksum.of(written)
    }
}
