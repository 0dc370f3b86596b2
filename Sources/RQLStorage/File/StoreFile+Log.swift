import Foundation
import RQLCore

#if canImport(Glibc)
import Glibc
#endif

/// What a `StoreFile` knows of its newest checkpoint and of the commit log after it.
struct FileState {
    var slot: HeaderSlot
    var freeList: FreeList
    /// The header slot (0 or 1) holding `slot`, when known; a checkpoint writes the other.
    var slotIndex: Int?
    /// The checkpoint's version as read or written: the base the next checkpoint frees from.
    var checkpoint: BlockSnapshot?
    /// The log as far as this process applied or wrote it: its header, the offset after the
    /// record of `version`, and `version`.
    var logApplied: LogPosition?
    /// The commit log's descriptor (-1: not open).
    var logDescriptor: Int32 = -1
    /// The log file's size as this process last saw or made it: a lower bound, as a log only
    /// grows while open, so an append that fits below it needs no `fstat`.
    var logSize: UInt64 = 0
    /// Whether commits append to the log (else each is a checkpoint, as before the log).
    var logging = true
    /// Whether a store open for writing makes an empty log when it finds none (not for a
    /// compacted copy, which stays one file).
    var makesLog = true
    /// The log's size past which a commit also writes a checkpoint.
    var checkpointThreshold = CommitLog.checkpointThreshold
    /// The store file's id, once read.
    var storeID: UInt64?
    /// The format version in the file's header, once read.
    var format: UInt32?
    /// Whether this process made the log's directory entry durable, as a checkpoint does before
    /// its slot first names the log.
    var logDirectorySynced = false
    /// The newest version on disk, as read since this process took the writer lock (which
    /// keeps other writers out until `unlock`): a commit on it need not read the disk again.
    var newestWhileLocked: UInt64?

    init(slot: HeaderSlot, freeList: FreeList) {
        self.slot = slot
        self.freeList = freeList
    }
}

struct LogPosition: Equatable {
    var header: CommitLog.Header
    var end: UInt64
    var version: UInt64
}

/// What `readLog` found.
enum LogRead {
    /// No log, or an empty one.
    case none
    /// The log follows a checkpoint newer than the slot it was read after: read the slots again.
    case stale(CommitLog.Header)
    /// The log cannot be used at all (its header is damaged, or it follows another checkpoint).
    case damaged(offset: UInt64, reason: String)
    case records(CommitLog.Header, CommitLog.Scan)
}

/// The newest version of a file: its checkpoint, and the log's records after it applied.
struct NewestRead {
    let snapshot: BlockSnapshot
    /// The checkpoint, when it was read from disk (not when `current` was built on).
    let checkpoint: StoreFile.ReadResult?
    /// Set when the version is older than the file's newest that could not be read (a slot or
    /// a log record), as `StoreFile.readNewestVersion` reports it.
    let fallback: StoreFileError?
    /// Records applied from the log.
    let logRecords: Int
    /// The change sets of the records applied, ascending by version (empty when there was no
    /// current version to build on: an open).
    let changes: [ChangeSet]
}

extension StoreFile {
    private func logError(_ operation: String) -> StoreFileError {
        FileSystem.failure(logPath, operation)
    }

    /// The log's descriptor, opened on first use; nil when there is none. A store open for
    /// writing makes an empty log when there is none (an empty log reads as none), unless
    /// `makesEmpty` is false; with `create` a log that cannot be made is an error. When the
    /// newest checkpoint names a log `generation`, a missing log is `.commitLogMissing`: an
    /// empty one made here would hide the commits of the log this path does not find.
    private func logDescriptor(
        create: Bool,
        named generation: UInt64 = 0,
        makesEmpty: Bool = true
    ) throws(StoreFileError) -> Int32? {
        let known = state.withLock { $0.logDescriptor }
        if known >= 0 { return known }
        let found: Int32?
        if generation != 0 {
            found = try CommitLog.openFile(path: logPath, readOnly: isReadOnly, create: false)
            guard found != nil else {
                throw error(.commitLogMissing(log: logPath, generation: generation, foreign: false))
            }
        } else if create || isReadOnly || !makesEmpty || !state.withLock({ $0.makesLog }) {
            found = try CommitLog.openFile(path: logPath, readOnly: isReadOnly, create: create)
        } else {
            // A directory this process may not write to: no log until a commit needs one.
            if let made = try? CommitLog.openFile(path: logPath, readOnly: false, create: true) {
                found = made
            } else {
                found = try CommitLog.openFile(path: logPath, readOnly: false, create: false)
            }
        }
        guard let opened = found else { return nil }
        return state.withLock { state in
            if state.logDescriptor >= 0 {
                close(opened)
            } else {
                state.logDescriptor = opened
            }
            return state.logDescriptor
        }
    }

    /// Reads the log's records after `slot`'s checkpoint, from `position` when it is of the
    /// same log generation.
    func readLog(after slot: HeaderSlot, from position: LogPosition?) throws(StoreFileError) -> LogRead {
        // A checkpoint that names no log is read without making one: an empty log made beside
        // this path (a hard link's, say) would be read as the log a later checkpoint names beside
        // another path, hiding the commits logged there. Of format 4 on, it has no records after
        // it (a commit logs only after a checkpoint naming its log), so no log is even looked for.
        if slot.logGeneration == 0, try formatVersion() >= FileHeader.logNamingFormat { return .none }
        guard let descriptor = try logDescriptor(create: false, named: slot.logGeneration, makesEmpty: false) else {
            return .none
        }
        if let position, let scan = try recordsAfter(position, following: slot, in: descriptor) {
            return .records(position.header, scan)
        }
        let size = try FileSystem.size(descriptor, logPath)
        var headerBytes = try FileSystem.read(descriptor, count: CommitLog.headerSize, at: 0, logPath)
        if CommitLog.Header.decode(headerBytes) == nil, size > UInt64(CommitLog.headerSize) {
            // A checkpoint may be writing the header at this moment: read it again before judging.
            headerBytes = try FileSystem.read(descriptor, count: CommitLog.headerSize, at: 0, logPath)
        }
        guard let header = CommitLog.Header.decode(headerBytes) else {
            guard size > UInt64(CommitLog.headerSize) else { return .none }
            let records = try FileSystem.read(
                descriptor,
                count: Int(Swift.min(size, UInt64(CommitLog.headerSize + 2 * CommitLog.maxFrameLength))),
                at: UInt64(CommitLog.headerSize),
                logPath
            )
            return CommitLog.holdsRecord(newerThan: slot.version, records)
                ? .damaged(offset: 0, reason: "the commit log's header does not check out") : .none
        }
        if header.store != (try storeID()) {
            // A log left beside this path by another store file (this one was made since, or its
            // id was damaged, or this is a copy beside another store's log): its records are not
            // this file's, and those of the log the checkpoint names are elsewhere.
            if slot.logGeneration != 0 {
                throw error(.commitLogMissing(log: logPath, generation: slot.logGeneration, foreign: true))
            }
            return size <= UInt64(CommitLog.headerSize)
                ? .none : .damaged(offset: 0, reason: "the commit log belongs to another store file")
        }
        if header.checkpoint > slot.version { return .stale(header) }
        if header.checkpoint == slot.version, header.checkpointChecksum != slot.dataChecksum {
            return .damaged(offset: 0, reason: "the commit log follows another file's version \(slot.version)")
        }
        var start = UInt64(CommitLog.headerSize)
        var first = header.checkpoint + 1
        var following = false
        if let position, position.header == header, position.end <= size {
            start = position.end
            first = position.version + 1
            following = true
        }
        guard size > start else { return .records(header, CommitLog.Scan(end: start)) }
        // The log is preallocated: its size says nothing of where its records end. Read what the
        // scan asks for, a page past a known end, more from the header; when it asks for more,
        // the next bytes are read after those it has, and it goes on from its last whole record.
        var count = following ? 1 << 12 : 1 << 18
        var retried = false
        var bytes: [UInt8] = []
        var found: [CommitLog.Entry] = []
        var scanned = start
        while true {
            let length = Int(Swift.min(UInt64(count), size - start - UInt64(bytes.count)))
            let more = try FileSystem.read(descriptor, count: length, at: start + UInt64(bytes.count), logPath)
            bytes += more
            var scan = CommitLog.scan(
                bytes,
                from: start,
                generation: header.generation,
                firstVersion: found.last.map { $0.version + 1 } ?? first,
                atEnd: more.count < length || start + UInt64(bytes.count) >= size,
                following: following,
                start: Int(scanned - start)
            )
            found += scan.entries
            scan.entries = found
            scanned = scan.end
            if scan.needsMore {
                count *= 2
            } else if scan.damage != nil, !retried {
                // A record another process was writing as it was read is whole the second time.
                retried = true
                bytes = []
                found = []
                scanned = start
                count = following ? 1 << 12 : 1 << 18
            } else {
                return .records(header, scan)
            }
        }
    }

    /// The records after `position` when it follows the log `slot` names from `slot`'s own
    /// checkpoint: only a checkpoint rewrites the log's header, and it writes (and syncs) a new
    /// slot first, so the header read with `position` still holds and the bytes after
    /// `position` are all there is to read. Nil when `position` does not follow `slot` so, or
    /// the scan needs more than its first read: `readLog` then reads the header and the size.
    /// What a writer reads at the start of each transaction: two `pread`s (the slots, and this).
    private func recordsAfter(
        _ position: LogPosition,
        following slot: HeaderSlot,
        in descriptor: Int32
    ) throws(StoreFileError) -> CommitLog.Scan? {
        let header = position.header
        guard slot.logGeneration != 0, header.generation == slot.logGeneration, header.checkpoint == slot.version,
            header.checkpointChecksum == slot.dataChecksum, position.version >= slot.version
        else { return nil }
        // A small commit's record, or the zeros after the last one: a longer record is read whole
        // by `readLog`.
        let count = 512
        let bytes = try FileSystem.read(descriptor, count: count, at: position.end, logPath)
        let scan = CommitLog.scan(
            bytes,
            from: position.end,
            generation: header.generation,
            firstVersion: position.version + 1,
            atEnd: bytes.count < count,
            following: true
        )
        return scan.needsMore || scan.damage != nil ? nil : scan
    }

    private func error(_ problem: StoreFileError.Problem) -> StoreFileError {
        StoreFileError(path: path, problem: problem)
    }

    /// The newest version on disk now: the newest checkpoint whose slot and pages check out,
    /// or the last whole record of the log after it.
    func newestVersionOnDisk() throws(StoreFileError) -> UInt64? {
        guard let slot = try newestSlotOnDisk() else { return nil }
        let position = state.withLock { $0.logApplied }.flatMap { $0.header.checkpoint == slot.version ? $0 : nil }
        switch try readLog(after: slot, from: position) {
        case .none, .damaged: return slot.version
        case .stale(let header): return header.checkpoint
        case .records(let header, let scan):
            let last =
                scan.entries.last?.version ?? (position?.header == header ? position!.version : header.checkpoint)
            return Swift.max(slot.version, last)
        }
    }

    /// The newest version: the newest checkpoint (re-read unless it is the one `current`, this
    /// process's newest version, builds on) with the log's records after it applied. A damaged
    /// log record stops the replay: the version before it is returned, and the damage is
    /// recorded as a fallback (commits refuse it until accepted).
    func readNewest(current: BlockSnapshot?, thorough: Bool) throws(StoreFileError) -> NewestRead {
        var attempt = 0
        while true {
            attempt += 1
            let known = state.withLock { ($0.slot, $0.logApplied) }
            var base: BlockSnapshot
            var checkpoint: ReadResult?
            var position: LogPosition?
            if let current, !thorough, let onDisk = try newestSlotOnDisk(), onDisk == known.0,
                current.version >= onDisk.version
            {
                base = current
                position = known.1.flatMap { $0.version == current.version ? $0 : nil }
            } else {
                let result = try readNewestVersion(thorough: thorough)
                checkpoint = result
                base = result.snapshot
            }
            let slot = checkpoint?.slot ?? known.0
            let read = try readLog(after: slot, from: position)
            if case .stale = read, attempt < 16 { continue }
            var snapshot = base
            var applied = position
            var damage: (offset: UInt64, reason: String)?
            var records = 0
            var changes: [ChangeSet] = []
            switch read {
            case .none: break
            case .stale(let header):
                // After a checkpoint that could not be read, the slot's fallback says it all.
                if checkpoint?.fallback == nil {
                    damage = (
                        0, "the commit log follows version \(header.checkpoint), newer than the store's checkpoint"
                    )
                }
            case .damaged(let offset, let reason): damage = (offset, reason)
            case .records(let header, let scan):
                if applied == nil {
                    // Up to the first record newer than the base (all of them are, when it is the checkpoint).
                    let next = scan.entries.first { $0.version > base.version }?.offset ?? scan.end
                    applied = LogPosition(header: header, end: next, version: base.version)
                }
                let entries = scan.entries.drop(while: { $0.version <= snapshot.version })
                let replayed = CommitRecord.apply(entries, of: scan.bytes, to: snapshot, damage: pins.damage)
                snapshot = replayed.snapshot
                records = replayed.applied
                // Only a refresh reports them (`BlockStore.refreshedChanges`); open has no use for them.
                if current != nil {
                    changes = entries.prefix(replayed.applied).map { entry in
                        CommitRecord.decodeApplied(scan.bytes, entry).changes(in: snapshot.schema)
                    }
                }
                if replayed.applied > 0 {
                    let i = entries.startIndex + replayed.applied
                    applied = LogPosition(
                        header: header,
                        end: i < scan.entries.endIndex ? scan.entries[i].offset : scan.end,
                        version: snapshot.version
                    )
                }
                if let failure = replayed.failure { damage = failure }
                if damage == nil, let found = scan.damage { damage = found }
                if applied?.version != snapshot.version { applied = nil }
            }
            var fallback = checkpoint?.fallback
            if let damage {
                let problem = StoreFileError.Problem.newestVersionUnreadable(
                    newest: nil,
                    intact: snapshot.version,
                    problem: .malformed(what: "commit log record at offset \(damage.offset)", reason: damage.reason)
                )
                pins.damage.recordFallback(problem, slot: nil)
                fallback = error(problem)
            }
            if let checkpoint { adopt(checkpoint) }
            state.withLock { $0.logApplied = applied }
            return NewestRead(
                snapshot: snapshot,
                checkpoint: checkpoint,
                fallback: fallback,
                logRecords: records,
                changes: changes
            )
        }
    }

    /// Appends the commit that made `snapshot` from `base` to the log and syncs it; nil when
    /// the commit is to be a checkpoint instead (logging is off, or the record is large).
    func appendToLog(
        _ snapshot: BlockSnapshot,
        base: BlockSnapshot,
        changes: ChangeSet
    ) throws(StoreFileError) -> BlockSnapshot? {
        let (logging, threshold, slot, known) = state.withLock {
            ($0.logging, $0.checkpointThreshold, $0.slot, $0.logApplied)
        }
        guard logging,
            let payload = CommitRecord.encoded(
                snapshot: snapshot,
                changes: changes,
                limit: CommitLog.maxPayloadLength
            )
        else { return nil }
        guard let descriptor = try logDescriptor(create: true) else { return nil }
        // A checkpoint that names no log (a new store, a compacted copy, a file of format 3):
        // this commit is a checkpoint naming one, so that no record is written that a copy of
        // the store file alone, or a hard link to it, would silently not see.
        guard slot.logGeneration != 0 else { return nil }
        var position: LogPosition
        if let known, known.header.checkpoint == slot.version {
            position = known
        } else {
            // No record after the checkpoint this commit follows: start the log after it.
            guard base.version == slot.version else {
                throw error(.conflict(expected: base.version, found: known?.version ?? slot.version))
            }
            let header = try CommitLog.reset(descriptor, path: logPath, checkpoint: slot, store: try storeID())
            position = LogPosition(header: header, end: UInt64(CommitLog.headerSize), version: slot.version)
        }
        guard position.version == base.version else {
            throw error(.conflict(expected: base.version, found: position.version))
        }
        // The record overwrites what follows the last whole record: zeros, an older
        // generation's bytes, or a commit that never returned.
        let frame = CommitLog.frame(payload, version: snapshot.version, generation: position.header.generation)
        let needed = position.end + UInt64(frame.count)
        var allocated = state.withLock { $0.logSize }
        if needed > allocated { allocated = try FileSystem.size(descriptor, logPath) }
        if needed > allocated {
            // Zeros written ahead, in steps doubling up to the checkpoint threshold: the appends
            // after this one change no size, so their syncs write the record alone.
            let step = Swift.min(Swift.max(allocated, UInt64(CommitLog.growthStep)), UInt64(threshold))
            let target = (Swift.max(needed, allocated + step) + 4095) / 4096 * 4096
            try FileSystem.write(
                descriptor,
                [UInt8](repeating: 0, count: Int(target - allocated)),
                at: allocated,
                logPath
            )
            allocated = target
        }
        state.withLock { $0.logSize = Swift.max($0.logSize, allocated) }
        try FileSystem.write(descriptor, frame, at: position.end, logPath)
        try FileSystem.sync(descriptor, logPath)
        position.end += UInt64(frame.count)
        position.version = snapshot.version
        state.withLock { $0.logApplied = position }
        let logged = snapshot.pinned(base.pin ?? pins.pin(slot.version))
        if position.end > UInt64(threshold) {
            // The commit is durable; a checkpoint that fails now is tried again by the next one.
            if let written = try? checkpoint(logged) { return written }
        }
        return logged
    }

    /// Writes `snapshot` as a checkpoint: its blocks copy-on-write and its root, published
    /// through the header slot the newest checkpoint does not occupy, then starts a new log
    /// generation after it (the records before are all in the checkpoint), the one the slot
    /// names when the store logs. Call with the lock held.
    func checkpoint(_ snapshot: BlockSnapshot, spill: BlockSpill? = nil) throws(StoreFileError) -> BlockSnapshot {
        let (current, index, hasLog, names) = state.withLock {
            ($0.slot, $0.slotIndex, $0.logApplied != nil, $0.logging && $0.makesLog)
        }
        let slotIndex = 1 - (index ?? slotIndexOnDisk(of: current))
        let pin = pins.pin(snapshot.version)
        let base = state.withLock { $0.checkpoint }
        let log = try logDescriptor(create: false)
        var generation: UInt64 = 0
        if names, log != nil {
            generation = UInt64.random(in: 1...CommitLog.maxGeneration)
            try prepareToNameLog()
        }
        // Pages synced before the slot: a checkpoint cut short is then never a reported fallback.
        try write(snapshot, base: base, slotIndex: slotIndex, presync: hasLog, spill: spill, logGeneration: generation)
        // An empty log (a store that never logged) reads as none: nothing to empty.
        if let log, hasLog ? true : try FileSystem.size(log, logPath) > 0 {
            let slot = state.withLock { $0.slot }
            let header = try CommitLog.reset(log, path: logPath, checkpoint: slot, store: try storeID())
            state.withLock {
                $0.logApplied = LogPosition(header: header, end: UInt64(CommitLog.headerSize), version: slot.version)
            }
        }
        return snapshot.pinned(pin)
    }

    /// What must be on disk before a slot first names the log: the log's directory entry, and
    /// format 4 in a file of format 3 (whose readers would refuse the slot). The format is
    /// written in the header page the slot is in, so the slot's sync writes both.
    private func prepareToNameLog() throws(StoreFileError) {
        if !state.withLock({ $0.logDirectorySynced }) {
            try CommitLog.syncDirectory(of: logPath)
            state.withLock { $0.logDirectorySynced = true }
        }
        // 4, not the newest format: the file keeps the checksum of format 3 (`FileChecksum`).
        guard try formatVersion() < FileHeader.logNamingFormat else { return }
        var writer = ByteWriter()
        writer.u32(FileHeader.logNamingFormat)
        try FileSystem.write(descriptor, writer.bytes, at: UInt64(FileHeader.formatVersionOffset), path)
        state.withLock { $0.format = FileHeader.logNamingFormat }
    }

    /// The store file's id (`FileHeader.storeIDOffset`), read once.
    func storeID() throws(StoreFileError) -> UInt64 {
        if let known = state.withLock({ $0.storeID }) { return known }
        let bytes = try FileSystem.read(descriptor, count: 8, at: UInt64(FileHeader.storeIDOffset), path)
        var id: UInt64 = 0
        for (i, byte) in bytes.enumerated() { id |= UInt64(byte) << (8 * UInt64(i)) }
        state.withLock { $0.storeID = id }
        return id
    }

    /// The format version in the file's header, read once.
    func formatVersion() throws(StoreFileError) -> UInt32 {
        if let known = state.withLock({ $0.format }) { return known }
        let bytes = try FileSystem.read(descriptor, count: 4, at: UInt64(FileHeader.formatVersionOffset), path)
        var format: UInt32 = 0
        for (i, byte) in bytes.enumerated() { format |= UInt32(byte) << (8 * UInt32(i)) }
        state.withLock { $0.format = format }
        return format
    }

    /// Empties a log left beside a file just made at `path` by another store file (deleted
    /// without its log): its records are not this file's, and would read as damage.
    func discardForeignLog() throws(StoreFileError) {
        guard let descriptor = try CommitLog.openFile(path: logPath, readOnly: false, create: false) else { return }
        defer { close(descriptor) }
        let bytes = try FileSystem.read(descriptor, count: CommitLog.headerSize, at: 0, logPath)
        if let header = CommitLog.Header.decode(bytes), header.store == (try storeID()) { return }
        guard try FileSystem.size(descriptor, logPath) > 0 else { return }
        guard ftruncate(descriptor, 0) == 0 else { throw logError("ftruncate") }
        try FileSystem.sync(descriptor, logPath)
    }

    /// Which header slot holds `slot` (its version's parity when neither reads as it).
    private func slotIndexOnDisk(of slot: HeaderSlot) -> Int {
        guard let header = try? FileSystem.read(descriptor, count: 192, at: 0, path), header.count >= 192,
            let algorithm = try? checksum()
        else {
            return Int(slot.version % 2)
        }
        for (index, offset) in FileHeader.slotOffsets.enumerated() {
            let decoded = header.withUnsafeBytes {
                HeaderSlot.decode(
                    UnsafeRawBufferPointer(rebasing: $0[offset..<offset + FileHeader.slotSize]),
                    algorithm
                )
            }
            if decoded == slot { return index }
        }
        return Int(slot.version % 2)
    }

    /// Whether the log holds records a checkpoint would cover.
    var hasLogRecords: Bool {
        state.withLock { state in state.logApplied.map { $0.version > state.slot.version } ?? false }
    }

    /// Takes the writer lock without waiting; false when another process holds it.
    func tryLock() -> Bool {
        flock(descriptor, LOCK_EX | LOCK_NB) == 0
    }
}
