import Foundation
import RQLCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One open store file: its descriptor (whose `flock` serialises writers across processes, so
/// there is no separate lock file; readers never lock), and the newest version's header slot
/// (where the next commit appends).
///
/// Pages are never overwritten: a commit appends after the newest version's end, so every
/// version that any snapshot, in this process or another, can read stays intact. Space is
/// not reused in place; `BlockStore.compact(to:)` writes a fresh, minimal file.
final class StoreFile: @unchecked Sendable {
    let path: String
    let id: UInt64
    let isReadOnly: Bool
    private let descriptor: Int32
    /// The slot of the newest version this process read or wrote. Changed under the store's
    /// write lock (and the file lock), read under `state`'s mutex.
    private let state: Mutex<HeaderSlot>

    private static let nextID = Atomic<UInt64>(1)

    private init(path: String, descriptor: Int32, isReadOnly: Bool, slot: HeaderSlot) {
        self.path = path
        self.descriptor = descriptor
        self.isReadOnly = isReadOnly
        id = Self.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        state = Mutex(slot)
    }

    deinit {
        close(descriptor)
    }

    var newestSlot: HeaderSlot { state.withLock { $0 } }

    private func error(_ problem: StoreFileError.Problem) -> StoreFileError {
        StoreFileError(path: path, problem: problem)
    }

    // MARK: Creating and opening

    /// Creates a new file holding `snapshot` (version 0 of an empty store) and returns it open.
    static func create(path: String, schema: Schema) throws(StoreFileError) -> (StoreFile, BlockSnapshot) {
        let fd = try FileSystem.open(path, flags: O_RDWR | O_CREAT | O_EXCL)
        var header = FileHeader.prologue()
        header.append(contentsOf: repeatElement(0, count: FileHeader.pageSize - header.count))
        let empty = HeaderSlot(
            version: 0,
            rootOffset: 0,
            rootLength: 0,
            commitStart: UInt64(FileHeader.pageSize),
            end: UInt64(FileHeader.pageSize),
            dataChecksum: 0,
            pagesSynced: true
        )
        let file = StoreFile(path: path, descriptor: fd, isReadOnly: false, slot: empty)
        try FileSystem.write(fd, header, at: 0, path)
        let snapshot = BlockSnapshot(schema: schema)
        file.lock()
        defer { file.unlock() }
        try file.write(snapshot, slotIndex: 0)
        return (file, snapshot)
    }

    /// Opens an existing file and reads its newest valid version.
    static func open(path: String, readOnly: Bool) throws(StoreFileError) -> (StoreFile, BlockSnapshot) {
        let fd = try FileSystem.open(path, flags: readOnly ? O_RDONLY : O_RDWR)
        let file = StoreFile(
            path: path,
            descriptor: fd,
            isReadOnly: readOnly,
            slot: HeaderSlot(
                version: 0,
                rootOffset: 0,
                rootLength: 0,
                commitStart: 0,
                end: 0,
                dataChecksum: 0,
                pagesSynced: true
            )
        )
        let (slot, snapshot) = try file.readNewest(thorough: false)
        file.state.withLock { $0 = slot }
        return (file, snapshot)
    }

    /// Maps the file and reads the newest version whose slot and pages check out, falling back
    /// to the other slot; throws the newest slot's problem when neither reads.
    func readNewest(thorough: Bool) throws(StoreFileError) -> (HeaderSlot, BlockSnapshot) {
        let result = try readNewestVersion(thorough: thorough)
        return (result.slot, result.snapshot)
    }

    struct ReadResult {
        let slot: HeaderSlot
        let snapshot: BlockSnapshot
        let fileSize: UInt64
        let reachableBytes: UInt64
    }

    func readNewestVersion(thorough: Bool) throws(StoreFileError) -> ReadResult {
        let size = try FileSystem.size(descriptor, path)
        guard size <= UInt64(Int.max) else { throw error(.malformed(what: "file", reason: "too large")) }
        let mapping = try FileMapping(descriptor: descriptor, size: Int(size), path: path)
        let bytes = mapping.bytes
        do {
            try FileHeader.checkPrologue(bytes)
        } catch {
            throw self.error(error)
        }
        guard bytes.count >= FileHeader.pageSize else {
            throw error(.truncated(expected: UInt64(FileHeader.pageSize), actual: size))
        }
        let slots = FileHeader.slotOffsets.compactMap { offset in
            HeaderSlot.decode(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + FileHeader.slotSize]))
        }.filter { $0.rootLength > 0 }.sorted { $0.version > $1.version }
        guard !slots.isEmpty else { throw error(.headerChecksum) }
        // The version is the one open picks: the newest whose slot, commit checksum and
        // structure read. `thorough` (verify) then checks that version completely and reports
        // what it finds, rather than falling back past real damage.
        var firstProblem: StoreFileError.Problem?
        for slot in slots {
            do throws(StoreFileError.Problem) {
                try slot.checkRanges(fileSize: size)
                if !slot.pagesSynced {
                    let written = try mapping.bytes(slot.commitStart, slot.end - slot.commitStart, what: "the commit")
                    guard FileChecksum.of(written) == slot.dataChecksum else {
                        throw StoreFileError.Problem.dataChecksum(version: slot.version)
                    }
                }
                var reader = VersionReader(mapping: mapping, fileID: id, slot: slot, thorough: false)
                let snapshot = try reader.read()
                guard thorough else {
                    return ReadResult(
                        slot: slot,
                        snapshot: snapshot,
                        fileSize: size,
                        reachableBytes: reader.reachableBytes
                    )
                }
            } catch {
                if firstProblem == nil { firstProblem = error }
                continue
            }
            do throws(StoreFileError.Problem) {
                let written = try mapping.bytes(slot.commitStart, slot.end - slot.commitStart, what: "the commit")
                guard FileChecksum.of(written) == slot.dataChecksum else {
                    throw StoreFileError.Problem.dataChecksum(version: slot.version)
                }
                var reader = VersionReader(mapping: mapping, fileID: id, slot: slot, thorough: true)
                let snapshot = try reader.read()
                return ReadResult(slot: slot, snapshot: snapshot, fileSize: size, reachableBytes: reader.reachableBytes)
            } catch {
                throw self.error(error)
            }
        }
        throw self.error(firstProblem ?? .headerChecksum)
    }

    /// The newest version on disk now whose slot and pages check out (another process may have
    /// committed since this one read), without reading the version. A slot left by a commit
    /// that crashed before its pages were whole does not count.
    func newestSlotOnDisk() throws(StoreFileError) -> HeaderSlot? {
        let header = try FileSystem.read(descriptor, count: 192, at: 0, path)
        guard header.count >= 192 else { return nil }
        let size = try FileSystem.size(descriptor, path)
        let known = newestSlot
        let slots = header.withUnsafeBytes { raw in
            FileHeader.slotOffsets.compactMap { offset in
                HeaderSlot.decode(UnsafeRawBufferPointer(rebasing: raw[offset..<offset + FileHeader.slotSize]))
            }.filter { $0.rootLength > 0 }.sorted { $0.version > $1.version }
        }
        for slot in slots {
            if slot == known { return slot }
            guard (try? slot.checkRanges(fileSize: size)) != nil else { continue }
            if !slot.pagesSynced {
                let written = try FileSystem.read(
                    descriptor,
                    count: Int(slot.end - slot.commitStart),
                    at: slot.commitStart,
                    path
                )
                guard FileChecksum.of(written) == slot.dataChecksum else { continue }
            }
            return slot
        }
        return nil
    }

    // MARK: Writing

    /// Takes the cross-process writer lock (waits while another process writes).
    func lock() {
        while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
    }

    func unlock() {
        flock(descriptor, LOCK_UN)
    }

    /// Makes `snapshot` (whose version is one more than `baseVersion`) the newest version on disk.
    /// Call with the lock held.
    func commit(_ snapshot: BlockSnapshot, baseVersion: UInt64) throws(StoreFileError) {
        guard !isReadOnly else { throw error(.readOnly) }
        if let onDisk = try newestSlotOnDisk(), onDisk.version != baseVersion {
            throw error(.conflict(expected: baseVersion, found: onDisk.version))
        }
        try write(snapshot, slotIndex: Int(snapshot.version % 2))
    }

    private func write(_ snapshot: BlockSnapshot, slotIndex: Int) throws(StoreFileError) {
        let previous = newestSlot
        var writer = CommitWriter(fileID: id, start: previous.end)
        let root = writer.write(snapshot)
        let checksum = FileChecksum.of(writer.bytes)
        let presync = writer.bytes.count > FileHeader.presyncThreshold
        let slot = HeaderSlot(
            version: snapshot.version,
            rootOffset: root.offset,
            rootLength: root.length,
            commitStart: previous.end,
            end: writer.end,
            dataChecksum: checksum,
            pagesSynced: presync
        )
        try FileSystem.write(descriptor, writer.bytes, at: previous.end, path)
        if presync { try FileSystem.sync(descriptor, path) }
        try FileSystem.write(descriptor, slot.encoded(), at: UInt64(FileHeader.slotOffsets[slotIndex]), path)
        try FileSystem.sync(descriptor, path)
        writer.applyPlaces()
        state.withLock { $0 = slot }
    }

    /// Adopts a version read from disk as the newest (after another process committed).
    func adopt(_ slot: HeaderSlot) {
        state.withLock { $0 = slot }
    }
}
