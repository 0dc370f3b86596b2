import Foundation
import RQLCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One open store file: its descriptor (whose `flock` serialises writers across processes;
/// readers only mark it, `ReaderMark`), the newest version's header slot and free list, and the
/// versions this process's snapshots hold (`VersionPins`, published to the reader table beside
/// the file). Opening and creating: `StoreFile+Opening.swift`.
///
/// Pages are reused: a commit frees what the version before it reached and it does not
/// (`CommitWriter`), and writes into runs freed at a version no reader, in this process or
/// another, still holds, nor either of the two newest versions (which the header slots name).
/// `BlockStore.compact(to:)` writes a fresh, minimal file.
// Unchecked: the fields are `let`s; what changes is in `state` (a `Mutex`), `pins` (its own
// lock) and the file, which commits write only under the store's write lock.
final class StoreFile: @unchecked Sendable {
    let path: String
    /// The commit log's path: beside the file `path` resolves to (`StoreCompanion.log`).
    let logPath: String
    let id: UInt64
    let isReadOnly: Bool
    let descriptor: Int32
    /// The newest checkpoint this process read or wrote (its slot, free list and snapshot) and
    /// how far it read or wrote the commit log. Changed under the store's write lock (and the
    /// file lock) or by a refresh, read under the mutex.
    let state: Mutex<FileState>
    /// The versions this process's snapshots hold.
    let pins: VersionPins
    /// The header bytes `newestSlotOnDisk` last found naming the slot this process knew as the
    /// newest, and that slot: a commit of this process alone finds the same bytes again, and
    /// then decodes and checksums no slot.
    private let checkedHeader = Mutex<(bytes: [UInt8], slot: HeaderSlot)?>(nil)

    private static let nextID = Atomic<UInt64>(1)

    /// Takes over `descriptor` (closed with the file) and registers this process as a reader of
    /// version 0 ("everything") until a version is read: in the reader table beside the file and
    /// by a `ReaderMark`, so no writer reuses anything meanwhile. Throws when neither can be
    /// taken: a reader no writer can see could be handed pages a commit reuses.
    init(path: String, descriptor: Int32, isReadOnly: Bool) throws(StoreFileError) {
        self.path = path
        let resolved = FileSystem.resolved(path)
        logPath = StoreCompanion.log.path(besideResolved: resolved)
        self.descriptor = descriptor
        self.isReadOnly = isReadOnly
        id = Self.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        state = Mutex(FileState(slot: Self.emptySlot, freeList: FreeList(fileEnd: UInt64(FileHeader.pageSize))))
        let table = ReaderTable(path: StoreCompanion.lock.path(besideResolved: resolved), publishing: 0)
        let marked = ReaderMark.take(descriptor, table: table)
        pins = VersionPins(table: table, damage: StoreDamage(path: path))
        guard table != nil || marked else {
            throw StoreFileError(
                path: path,
                problem: .io(operation: "lock", reason: "cannot register as a reader (no lock file, no file locks)")
            )
        }
    }

    deinit {
        close(descriptor)
        let log = state.withLock { $0.logDescriptor }
        if log >= 0 { close(log) }
    }

    var newestSlot: HeaderSlot { state.withLock { $0.slot } }

    private func error(_ problem: StoreFileError.Problem) -> StoreFileError {
        StoreFileError(path: path, problem: problem)
    }

    static let emptySlot = HeaderSlot(
        version: 0,
        rootOffset: 0,
        rootLength: 0,
        writtenLength: 0,
        fileEnd: UInt64(FileHeader.pageSize),
        dataChecksum: 0,
        pagesSynced: true
    )

    /// Maps the file and reads the newest version whose slot and pages check out, falling back
    /// to the other slot; throws the newest slot's problem when neither reads.
    func readNewest(thorough: Bool) throws(StoreFileError) -> (HeaderSlot, BlockSnapshot) {
        let result = try readNewestVersion(thorough: thorough)
        return (result.slot, result.snapshot)
    }

    struct ReadResult {
        let slot: HeaderSlot
        /// The version read, pinned for as long as it (or a copy) lives.
        let snapshot: BlockSnapshot
        let freeList: FreeList
        let fileSize: UInt64
        let reachableBytes: UInt64
        /// Set when the version read is not the file's newest (`.newestVersionUnreadable`).
        var fallback: StoreFileError? = nil
    }

    /// Reads the newest version whose slot and pages check out. When that is not the newest
    /// slot's version (or a header slot is damaged), the result says so (`fallback`) and the
    /// fallback is recorded (`StoreDamage`), so commits refuse it until the caller accepts.
    func readNewestVersion(thorough: Bool) throws(StoreFileError) -> ReadResult {
        // A commit of another process may land while this reads: its slot naming pages past the
        // mapped size, or a slot caught half-copied, is not damage. Such a read is repeated
        // while the header or the size moved under it.
        var attempt = 0
        while true {
            attempt += 1
            let seen = try headerState()
            let outcome = Result { () throws(StoreFileError) in try readVersion(thorough: thorough) }
            let settled: Bool
            switch outcome {
            case .success((_, nil)): settled = true
            default: settled = attempt >= 16 || (try? headerState()).map { $0 == seen } ?? true
            }
            guard settled else { continue }
            var (result, fallback) = try outcome.get()
            guard let fallback else { return result }
            let problem = StoreFileError.Problem.newestVersionUnreadable(
                newest: fallback.slot?.version,
                intact: result.slot.version,
                problem: fallback.problem
            )
            pins.damage.recordFallback(problem, slot: fallback.slot)
            result.fallback = error(problem)
            return result
        }
    }

    /// The file's size and its header slots' bytes, read with system calls (not the mapping).
    private func headerState() throws(StoreFileError) -> (size: UInt64, slots: [UInt8]) {
        let size = try FileSystem.size(descriptor, path)
        let end = FileHeader.slotOffsets.last! + FileHeader.slotSize
        let header = try FileSystem.read(descriptor, count: end, at: 0, path)
        return (size, Array(header.dropFirst(FileHeader.slotOffsets[0])))
    }

    /// Why the newest version was not read: its slot (nil when the slot is unreadable) and the problem.
    private struct Fallback {
        let slot: HeaderSlot?
        let problem: StoreFileError.Problem
    }

    private func readVersion(thorough: Bool) throws(StoreFileError) -> (ReadResult, Fallback?) {
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
        // The store's id and format, each read once (`storeID()`, `formatVersion()`), are in the
        // page just mapped: open reads them here rather than with a system call each.
        let storeID = UInt64(
            littleEndian: bytes.loadUnaligned(fromByteOffset: FileHeader.storeIDOffset, as: UInt64.self)
        )
        let format = UInt32(
            littleEndian: bytes.loadUnaligned(fromByteOffset: FileHeader.formatVersionOffset, as: UInt32.self)
        )
        state.withLock { state in
            if state.storeID == nil { state.storeID = storeID }
            if state.format == nil { state.format = format }
        }
        let algorithm = FileChecksum(format: format)
        var slots: [HeaderSlot] = []
        // A slot that is not all zeros yet fails its checksum may have named a newer version.
        var damagedSlot: Int?
        var emptySlot = false
        for (index, offset) in FileHeader.slotOffsets.enumerated() {
            let raw = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + FileHeader.slotSize])
            if let slot = HeaderSlot.decode(raw, algorithm), slot.rootLength > 0 {
                slots.append(slot)
            } else if raw.allSatisfy({ $0 == 0 }) {
                emptySlot = true
            } else {
                damagedSlot = index
            }
        }
        slots.sort { $0.version > $1.version }
        guard !slots.isEmpty else { throw error(.headerChecksum) }
        let readWritten = { (offset: UInt64, length: UInt64) throws(StoreFileError.Problem) -> [UInt8] in
            Array(try mapping.bytes(offset, length, what: "the commit"))
        }
        // The version is the one open picks: the newest whose slot, commit checksum and
        // structure read. `thorough` (verify) then checks that version completely and reports
        // what it finds, rather than falling back past real damage.
        var unreadable: Fallback?
        for slot in slots {
            do throws(StoreFileError.Problem) {
                try slot.checkRanges(fileSize: size)
                try slot.checkCommit(readWritten, algorithm)
                var reader = VersionReader(
                    mapping: mapping,
                    fileID: id,
                    slot: slot,
                    checksum: algorithm,
                    thorough: false,
                    damage: pins.damage
                )
                let snapshot = try reader.read()
                if !thorough {
                    let result = ReadResult(
                        slot: slot,
                        snapshot: snapshot.pinned(pins.pin(slot.version)),
                        freeList: reader.freeList,
                        fileSize: size,
                        reachableBytes: reader.reachableBytes
                    )
                    return (result, unreadable ?? Self.slotFallback(slot, damagedSlot, emptySlot))
                }
            } catch {
                if unreadable == nil { unreadable = Fallback(slot: slot, problem: error) }
                continue
            }
            do throws(StoreFileError.Problem) {
                var reader = VersionReader(
                    mapping: mapping,
                    fileID: id,
                    slot: slot,
                    checksum: algorithm,
                    thorough: true,
                    damage: pins.damage
                )
                let snapshot = try reader.read()
                let result = ReadResult(
                    slot: slot,
                    snapshot: snapshot.pinned(pins.pin(slot.version)),
                    freeList: reader.freeList,
                    fileSize: size,
                    reachableBytes: reader.reachableBytes
                )
                return (result, unreadable ?? Self.slotFallback(slot, damagedSlot, emptySlot))
            } catch {
                throw self.error(error)
            }
        }
        throw self.error(unreadable?.problem ?? .headerChecksum)
    }

    /// The fallback a read of `slot` is when the other header slot is damaged, or empty although
    /// `slot` is not version 0 (every commit after the first fills the other slot).
    private static func slotFallback(_ slot: HeaderSlot, _ damaged: Int?, _ empty: Bool) -> Fallback? {
        if let damaged { return Fallback(slot: nil, problem: .slotChecksum(slot: damaged)) }
        guard empty, slot.version > 0 else { return nil }
        return Fallback(slot: nil, problem: .slotChecksum(slot: Int(1 - slot.version % 2)))
    }

    /// The newest version on disk now whose slot and pages check out (another process may have
    /// committed since this one read), without reading the version. A slot left by a commit
    /// that crashed before its pages were whole does not count.
    func newestSlotOnDisk() throws(StoreFileError) -> HeaderSlot? {
        let header = try FileSystem.read(descriptor, count: 192, at: 0, path)
        guard header.count >= 192 else { return nil }
        let known = newestSlot
        let algorithm = try checksum()
        if checkedHeader.withLock({ $0.map { $0.slot == known && $0.bytes == header } ?? false }) { return known }
        let slots = header.withUnsafeBytes { raw in
            FileHeader.slotOffsets.compactMap { offset in
                HeaderSlot.decode(
                    UnsafeRawBufferPointer(rebasing: raw[offset..<offset + FileHeader.slotSize]),
                    algorithm
                )
            }.filter { $0.rootLength > 0 }.sorted { $0.version > $1.version }
        }
        // The slot this process knows is the newest before every commit it makes alone: the
        // file's size is needed only to check a slot another process wrote.
        if slots.first == known {
            checkedHeader.withLock { $0 = (header, known) }
            return known
        }
        let size = try FileSystem.size(descriptor, path)
        let descriptor = descriptor
        let path = path
        let readWritten = { (offset: UInt64, length: UInt64) throws(StoreFileError.Problem) -> [UInt8] in
            guard length <= size, offset <= size - length else {
                throw .pointerOutOfRange(what: "the commit", offset: offset)
            }
            do throws(StoreFileError) {
                return try FileSystem.read(descriptor, count: Int(length), at: offset, path)
            } catch {
                throw error.problem
            }
        }
        for slot in slots {
            if slot == known { return slot }
            // The version open could not read does not count: a commit accepted on top of the
            // fallback replaces it.
            guard !pins.damage.isUnreadable(slot), (try? slot.checkRanges(fileSize: size)) != nil,
                (try? slot.checkCommit(readWritten, algorithm)) != nil
            else { continue }
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
        state.withLock { $0.newestWhileLocked = nil }
        flock(descriptor, LOCK_UN)
    }

    /// Makes `snapshot` (whose version is one more than `base`'s) the newest version on disk and
    /// returns it pinned. Call with the lock held.
    func commit(
        _ snapshot: BlockSnapshot,
        base: BlockSnapshot,
        changes: ChangeSet? = nil,
        spill: BlockSpill? = nil
    ) throws(StoreFileError) -> BlockSnapshot {
        guard !isReadOnly else { throw error(.readOnly) }
        // A damaged block reads as empty rows: committing would write them back as data. On a
        // fallback, the commit would overwrite the newest version unless the caller accepted.
        if let refusal = pins.damage.commitRefusal { throw refusal }
        if state.withLock({ $0.newestWhileLocked }) != base.version, let onDisk = try newestVersionOnDisk(),
            onDisk != base.version
        {
            throw error(.conflict(expected: base.version, found: onDisk))
        }
        // A commit on an accepted fallback replaces what could not be read: a checkpoint, after
        // which the log starts a new generation. So is one that spilled blocks: only a root can reference them.
        let spill = spill.flatMap { $0.isEmpty ? nil : $0 }
        if spill == nil, let changes, !changes.schemaChanged, pins.damage.fallback == nil,
            let logged = try appendToLog(snapshot, base: base, changes: changes)
        {
            return logged
        }
        let written = try checkpoint(snapshot, spill: spill)
        pins.damage.clearFallback()
        return written
    }

    /// The newest checkpoint's slot and the free list a commit on it allocates from: its free
    /// list with every run no reader can still need released.
    func commitFreeList() -> (HeaderSlot, FreeList) {
        let (slot, freeList) = state.withLock { ($0.slot, $0.freeList) }
        var released = freeList
        released.release(upTo: reuseLimit(base: slot.version))
        return (slot, released)
    }

    /// The oldest version a reader of any process holds, bounded by the version before `base`
    /// (the other header slot's, which open falls back to).
    private func reuseLimit(base: UInt64) -> UInt64 {
        var limit = base > 0 ? base - 1 : 0
        if let oldest = pins.oldest { limit = Swift.min(limit, oldest) }
        if let table = pins.table {
            if let others = table.oldestOfOthers() { limit = Swift.min(limit, others) }
            // A reader the table does not show may hold any version.
            if ReaderMark.othersOutside(descriptor, table: table) { limit = 0 }
        } else {
            // No reader table: another process's readers cannot be seen, so reuse nothing new.
            limit = 0
        }
        return limit
    }

    func write(
        _ snapshot: BlockSnapshot,
        base: BlockSnapshot?,
        slotIndex: Int,
        presync forced: Bool = false,
        spill: BlockSpill? = nil,
        logGeneration: UInt64 = 0
    ) throws(StoreFileError) {
        let previous: HeaderSlot
        let freeList: FreeList
        if let spill {
            // The spill allocated from this checkpoint's free list: the commit continues it.
            previous = state.withLock { $0.slot }
            guard previous == spill.slot else {
                throw error(.conflict(expected: spill.slot.version, found: previous.version))
            }
            freeList = spill.freeList
        } else {
            (previous, freeList) = commitFreeList()
        }
        let algorithm = try checksum()
        var writer = CommitWriter(
            fileID: id,
            descriptor: descriptor,
            path: path,
            freeList: freeList,
            checksum: algorithm
        )
        let root = try writer.write(
            snapshot,
            base: base,
            baseRoot: previous.rootLength > 0 ? (previous.rootOffset, previous.rootLength) : nil,
            spilled: spill?.runs ?? []
        )
        // Spilled blocks were written unsynced: the pages are synced before the slot.
        let presync =
            forced || writer.streamed || writer.writtenLength > UInt64(FileHeader.presyncThreshold)
            || spill != nil
        // A synced commit's slot covers its root (the tail of the bytes); blocks and nodes carry
        // their own. Otherwise nothing was streamed: the buffer holds every byte written.
        let checksum = presync ? algorithm.of(root.bytes) : algorithm.of(writer.buffer)
        let slot = HeaderSlot(
            version: snapshot.version,
            rootOffset: root.offset,
            rootLength: UInt64(root.bytes.count),
            writtenLength: writer.writtenLength,
            fileEnd: writer.freeList.fileEnd,
            dataChecksum: checksum,
            pagesSynced: presync,
            logGeneration: logGeneration
        )
        try writer.flush()
        if presync { try FileSystem.sync(descriptor, path) }
        try FileSystem.write(descriptor, slot.encoded(algorithm), at: UInt64(FileHeader.slotOffsets[slotIndex]), path)
        try FileSystem.sync(descriptor, path)
        writer.applyPlaces()
        state.withLock {
            $0.slot = slot
            $0.freeList = writer.freeList
            $0.slotIndex = slotIndex
            $0.checkpoint = snapshot
        }
    }

    /// Adopts a version read from disk as the newest checkpoint (after another process wrote one).
    func adopt(_ result: ReadResult) {
        state.withLock {
            $0.slot = result.slot
            $0.freeList = result.freeList
            $0.slotIndex = nil
            $0.checkpoint = result.snapshot
            $0.logApplied = nil
        }
    }
}
