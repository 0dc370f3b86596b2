import RQLCore

#if canImport(Glibc)
import Glibc
#endif

/// The blocks a write transaction of a store file has written before its commit: each finished
/// block goes to free space of the file as soon as it is produced, and the transaction keeps a
/// stub that reads it back through a mapping (checked against its checksums on first use, as
/// a block of a committed version is), so the transaction holds a block's bytes, not the
/// commit's.
///
/// The space comes from the free list the commit then continues (`StoreFile.write`): runs no
/// version the header slots name reaches, or the file's end. Until the commit publishes a root
/// that references them, nothing on disk does, so a crash leaves them unreferenced (free on
/// reopen) and the previous version intact; the commit syncs them before its slot. A spilled
/// block the committed version does not reach (replaced later in the transaction, or dropped by
/// a cancelled load) is freed by that commit, and a rolled-back transaction leaves its space
/// to the next one, which allocates from the same free list: failed transactions do not grow
/// the file again and again.
///
/// A rolled-back transaction's space is free at once, to writers of every process, but a
/// snapshot taken from the transaction (`WriteTransaction.reader`) may still hold stubs of it.
/// Those stubs read through a private mapping, and the rollback, before it gives up the writer
/// lock, has the mapping keep its own copy of the pages of the stubs still held
/// (`keepHeldStubs`): they read what was spilled, as the transaction did. Keeping the space
/// until such a snapshot goes would need every process's writers to know of it, which the
/// reader table (versions only) cannot tell them.
///
/// Spilling needs the transaction to write on the file's newest version (the caught-up base
/// the writer lock keeps current); otherwise blocks stay in memory and the commit decides, as
/// it always does.
final class BlockSpill {
    let file: StoreFile
    /// The newest checkpoint's slot when the spill began: the commit must build on it.
    let slot: HeaderSlot
    /// The free list the commit continues: released as a commit would, minus what was spilled.
    private(set) var freeList: FreeList
    /// Offsets and lengths of the blocks written so far.
    private(set) var runs: [(offset: UInt64, length: UInt64)] = []
    /// The mapping stubs read through; replaced by a larger one when a block lies past its end
    /// (stubs keep the mapping they were made with alive).
    private var mapping: FileMapping?
    /// Each stub made, and the bytes of the mapping it reads.
    private var stubs: [SpilledStub] = []
    /// Bytes spilled since the freed heap was last handed back (`returnFreedHeapIfDue`).
    private var spilledSinceHeapReturn = 0

    private struct SpilledStub {
        weak var block: Block?
        let mapping: FileMapping
        let bytes: UnsafeRawBufferPointer
    }

    /// Starts spilling for a transaction whose base is `base`, or nil when its blocks must stay
    /// in memory (read-only, a damaged or unaccepted file, or a base behind the file's newest).
    init?(file: StoreFile, base: UInt64) {
        guard !file.isReadOnly, file.pins.damage.commitRefusal == nil,
            file.state.withLock({ $0.newestWhileLocked }) == base
        else { return nil }
        self.file = file
        (slot, freeList) = file.commitFreeList()
    }

    var isEmpty: Bool { runs.isEmpty }

    /// Writes `block` (of a table of `shapes`, named for problems by `context`) to free space and
    /// returns a stub that reads it from there, its place set: the commit keeps it as written.
    func spill(
        _ block: Block,
        shapes: [SegmentShape],
        context: BlockCoding.Context
    ) throws(StoreFileError) -> Block {
        let algorithm = try file.checksum()
        let (bytes, checksum) = BlockCoding.encoded(block, algorithm: algorithm)
        let length = UInt64(bytes.count)
        let offset = freeList.allocate(length)
        spilledSinceHeapReturn += bytes.count
        // Listed before it is written: a run that failed to write is freed by the commit too.
        runs.append((offset, length))
        try FileSystem.write(file.descriptor, bytes, at: offset, file.path)
        let mapping = try self.mapping(covering: offset + length)
        let stored = UnsafeRawBufferPointer(rebasing: mapping.bytes[Int(offset)..<Int(offset + length)])
        let stub = BlockCoding.lazyBlock(
            stored,
            count: block.count,
            firstKey: block.firstKey,
            checksum: checksum,
            algorithm: algorithm,
            shapes: shapes,
            mapping: mapping,
            damage: file.pins.damage,
            context: context
        )
        stub.place = FilePlace(file: file.id, offset: offset, length: length, checksum: checksum)
        stubs.append(SpilledStub(block: stub, mapping: mapping, bytes: stored))
        return stub
    }

    /// For a rollback, once the transaction let go of its blocks and before the writer lock
    /// goes: the stubs something still holds (a snapshot taken from the transaction) keep the
    /// bytes they read, which the next writer may overwrite. A page that cannot be kept is
    /// left to the stub's checksum, which reports it as damage rather than reading other data.
    func keepHeldStubs() {
        for stub in stubs where stub.block != nil {
            _ = stub.mapping.keepCopy(of: stub.bytes)
        }
        stubs = []
    }

    /// How many bytes are spilled between two hand-backs of the freed heap: a few dozen blocks,
    /// so a pass keeps a few megabytes of freed heap resident, and the hand-back (a walk over
    /// the free lists of every arena of the process) is paid once per megabytes written.
    static let heapReturnInterval = 4 << 20

    /// Once `heapReturnInterval` bytes were spilled since the last time, hands the pages of
    /// malloc's free memory back to the kernel; called once a spilled block is let go. glibc
    /// raises its mmap threshold to the size of each large block it frees, so the blocks after
    /// it (a block's arrays and its encoding, 130-200 KB) come from the thread's arena, and
    /// freed there they stay resident between the small objects the arena keeps: a pass that
    /// spills a table block after block (a migration) would hold a few blocks yet grow its
    /// resident set with the table. Handing back every block as it goes (pages of its own for
    /// each large storage) costs every bulk write fresh pages; this costs only spilling
    /// transactions, whose memory is meant to stay a few blocks: the walk, and faulting the
    /// handed-back pages in again when malloc reuses them (in any thread: the trim covers every
    /// arena).
    func returnFreedHeapIfDue() {
        guard spilledSinceHeapReturn >= Self.heapReturnInterval else { return }
        spilledSinceHeapReturn = 0
        #if canImport(Glibc)
        _ = Self.mallocTrim?(0)
        #endif
    }

    #if canImport(Glibc)
    /// glibc's `malloc_trim` (declared in `<malloc.h>`, which the Glibc module leaves out).
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = dlsym(nil, "malloc_trim").map {
        unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self)
    }
    #endif

    /// A mapping of at least the first `end` bytes. Pages past the file's end are mapped but
    /// never touched: a stub reads only the bytes written for it.
    private func mapping(covering end: UInt64) throws(StoreFileError) -> FileMapping {
        if let mapping, UInt64(mapping.size) >= end { return mapping }
        let page = UInt64(FileHeader.pageSize)
        let size = Swift.max(end * 2, 64 << 20)
        let mapping = try FileMapping(
            descriptor: file.descriptor,
            size: Int((size + page - 1) / page * page),
            path: file.path,
            keepsCopies: true
        )
        self.mapping = mapping
        return mapping
    }
}

extension WriteTransaction {
    /// How many changed blocks a transaction of a store file holds in memory before it writes
    /// the ones it has not changed since the last look (`spillIdleBlocks`).
    static let heldBlockLimit = 8
    /// How many operations pass between two looks at the changed blocks.
    static let spillCheckInterval = 4096

    /// Block `b` of table `t` is finished (full, or done with by a pass over the table): on a
    /// store file, write it now and keep a stub of it. A block already stored, empty, or
    /// whose write fails stays as it is (the commit writes it, and reports a failing disk).
    func spillFinishedBlock(_ t: Int, _ b: Int) {
        let block = tables[t].blocks[b]
        guard block.place == nil, block.count > 0, let spill = startSpill() else { return }
        let objectSchema = tables[t].objectSchema
        guard
            let stub = try? spill.spill(
                block,
                shapes: tables[t].shapes,
                context: (objectSchema.name, b, objectSchema.properties.map(\.name))
            )
        else { return }
        tables[t].blocks.replace(b, with: stub)
        spill.returnFreedHeapIfDue()
    }

    /// Called once an operation: every `spillCheckInterval` operations, writes the changed blocks
    /// that were already changed and in memory at the previous look, once more than
    /// `heldBlockLimit` are: a long transaction of single-object writes (a migration block)
    /// then holds the blocks it is working on, not every block it changed.
    func spillIdleBlocks() {
        operationsSinceSpillCheck += 1
        guard operationsSinceSpillCheck >= Self.spillCheckInterval, store.file != nil else { return }
        operationsSinceSpillCheck = 0
        var held: [(table: Int, block: Int, id: ObjectIdentifier)] = []
        for t in tables.indices {
            for b in tables[t].blocks.indices {
                let block = tables[t].blocks[b]
                if block.place == nil && block.count > 0 { held.append((t, b, ObjectIdentifier(block))) }
            }
        }
        let previous = heldAtLastCheck
        heldAtLastCheck = Set(held.map(\.id))
        guard held.count > Self.heldBlockLimit else { return }
        for entry in held where previous.contains(entry.id) {
            spillFinishedBlock(entry.table, entry.block)
            heldAtLastCheck.remove(entry.id)
        }
    }

    private func startSpill() -> BlockSpill? {
        if let spill { return spill }
        guard !spillUnavailable, let file = store.file, let started = BlockSpill(file: file, base: base.version)
        else {
            spillUnavailable = true
            return nil
        }
        spill = started
        return started
    }
}

extension Block {
    /// The span the pages of a block are released in: the kernel maps the cached pages around a
    /// faulting one too ("fault-around", 64 KiB by default on Linux), so reading a block maps
    /// the ends of its neighbours. Released to the block's own pages only, a pass over a table
    /// would leave behind a neighbour's pages it had already released, a few per block: memory
    /// growing with the table.
    private static let releaseSpan = Swift.max(Int(sysconf(Int32(_SC_PAGESIZE))), 64 << 10)

    /// Drops this process's mapping of the pages of a block read from a mapping, and of the
    /// pages around it that a fault may have mapped with them: a writer that copied the block out
    /// to change it, or a pass that read it, does not keep it resident. The file keeps the pages
    /// and a later read (of this block or a neighbour) faults them in again, so nothing is lost;
    /// a mapping that kept copies of pages of its own (`FileMapping.keepCopy(of:)`) is left
    /// alone. Does nothing for a block in memory or one whose parts were never read.
    func releaseMappedPages() {
        guard isRead else { return }
        let storage = keys.values.storage
        guard storage.isMapped, storage.capacity > 0, let mapping = storage.mapping as? FileMapping,
            mapping.releasesPages, let base = mapping.base
        else {
            return
        }
        let span = UInt(Self.releaseSpan)
        let mapped = UInt(bitPattern: base)
        let start = Swift.max(UInt(bitPattern: storage.base) / span * span, mapped)
        let blockEnd = UInt(bitPattern: storage.base) + UInt(storage.capacity)
        let end = Swift.min((blockEnd + span - 1) / span * span, mapped + UInt(mapping.size))
        guard end > start else { return }
        _ = madvise(UnsafeMutableRawPointer(bitPattern: start), Int(end - start), MADV_DONTNEED)
    }
}
