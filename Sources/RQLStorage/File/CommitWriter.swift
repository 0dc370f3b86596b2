import RQLCore

/// Lays out one commit: every block and tree node the previous versions did not already store
/// in this file, then the version's root record, each in a run the free list gives (a reusable
/// free run, or the file's end).
///
/// Blocks and nodes carry their `FilePlace` once written, and every change clears it, so a
/// commit that touched k blocks writes those k blocks, the O(log n) nodes on each changed index
/// path, and the root (the tables' block lists): never the database. What the base version
/// reached and this one does not (replaced blocks, the old nodes of changed paths, the old root)
/// goes on the free list, tagged with this version, and so does what the transaction wrote
/// before the commit (`BlockSpill`) that this version does not reach.
///
/// The bytes are streamed to the file a chunk at a time (`chunkSize`): a commit holds a chunk,
/// not the commit. A commit that wrote no chunk before its root holds every byte it wrote, and
/// its slot can checksum them all; a larger one syncs its pages before the slot.
///
/// The root record:
/// ```
/// u64 version;
/// u32 runs written by the commit before the root, each u64 offset, u64 length;
/// free list (`FreeList`);
/// string schema (the dataset format's JSON), u32 table count, then per table:
///   i64 next key; u32 blocks, each u64 offset, u64 length, u64 checksum (of its
///     part directory, `BlockCoding`), u32 rows, i64 first key;
///   u32 indexes, each u32 property, u8 kind (0 int, 1 value), tree;
///   u32 full-text indexes, each u32 property, tree;
///   u32 backlink origins, each string class, string property; tree (the backlinks)
/// tree = u64 root offset, u64 root length, u64 root checksum, u64 element count
/// ```
struct CommitWriter {
    let fileID: UInt64
    /// Where the bytes go.
    let descriptor: Int32
    let path: String
    /// The file's checksum (`FileChecksum(format:)`): what blocks and nodes are written with.
    let checksum: FileChecksum
    /// The free list: the base version's, released up to the oldest version a reader holds;
    /// this commit allocates from it and adds what it frees.
    private(set) var freeList: FreeList
    /// Every run written, in order, adjacent ones merged (items padded to the free list's
    /// granule): what the root lists.
    private(set) var runs: [(offset: UInt64, length: UInt64)] = []
    /// Bytes written so far, root included.
    private(set) var writtenLength: UInt64 = 0
    /// Bytes not yet in the file, and the consecutive pieces (offset, length) they go to. The
    /// commit is streamed: once they pass `chunkSize`, they are written and dropped, so a large
    /// commit holds a chunk of its bytes, never all of them.
    private(set) var buffer: [UInt8] = []
    private var pending: [(offset: UInt64, length: UInt64)] = []
    /// Whether some bytes went to the file before the root: the checksum in the slot can then
    /// cover only the root, and the pages are synced before it (`HeaderSlot.pagesSynced`).
    private(set) var streamed = false
    /// Blocks and nodes written by this commit and where; applied once the commit is durable.
    private(set) var newBlockPlaces: [(Block, FilePlace)] = []
    private(set) var newNodePlaces: [(AnyObject, FilePlace)] = []
    /// Offsets of items of this file the new version reaches without writing them.
    private var kept: Set<UInt64> = []

    /// The buffer is written out once it holds this much: past it, a commit syncs its pages
    /// before the slot anyway (`FileHeader.presyncThreshold`).
    static let chunkSize = FileHeader.presyncThreshold

    init(fileID: UInt64, descriptor: Int32, path: String, freeList: FreeList, checksum: FileChecksum) {
        self.fileID = fileID
        self.descriptor = descriptor
        self.path = path
        self.freeList = freeList
        self.checksum = checksum
    }

    private func stored(_ place: FilePlace?) -> FilePlace? {
        guard let place, place.file == fileID else { return nil }
        return place
    }

    /// Allocates room for `item` and appends it; returns its offset.
    private mutating func append(_ item: [UInt8]) throws(StoreFileError) -> UInt64 {
        let offset = freeList.allocate(UInt64(item.count))
        let size = FreeList.rounded(UInt64(Swift.max(item.count, 1)))
        buffer.append(contentsOf: item)
        buffer.append(contentsOf: repeatElement(0, count: Int(size) - item.count))
        Self.add((offset, size), to: &runs)
        Self.add((offset, size), to: &pending)
        writtenLength += size
        if buffer.count >= Self.chunkSize { try flush() }
        return offset
    }

    private static func add(
        _ piece: (offset: UInt64, length: UInt64),
        to list: inout [(offset: UInt64, length: UInt64)]
    ) {
        if let last = list.last, last.offset + last.length == piece.offset {
            list[list.count - 1].length += piece.length
        } else {
            list.append(piece)
        }
    }

    /// Writes the buffered bytes where they go, and empties the buffer.
    mutating func flush() throws(StoreFileError) {
        guard !buffer.isEmpty else { return }
        let pieces = pending
        let descriptor = descriptor
        let path = path
        let result: Result<Void, StoreFileError> = buffer.withUnsafeBytes { raw in
            Result { () throws(StoreFileError) in
                var start = 0
                for piece in pieces {
                    let length = Int(piece.length)
                    try FileSystem.write(
                        descriptor,
                        UnsafeRawBufferPointer(rebasing: raw[start..<start + length]),
                        at: piece.offset,
                        path
                    )
                    start += length
                }
            }
        }
        try result.get()
        streamed = true
        buffer.removeAll(keepingCapacity: true)
        pending.removeAll()
    }

    mutating func write(_ block: Block) throws(StoreFileError) -> FilePlace {
        if let place = stored(block.place) {
            kept.insert(place.offset)
            return place
        }
        let (encoded, checksum) = BlockCoding.encoded(block, algorithm: self.checksum)
        let offset = try append(encoded)
        let place = FilePlace(file: fileID, offset: offset, length: UInt64(encoded.count), checksum: checksum)
        newBlockPlaces.append((block, place))
        return place
    }

    mutating func write<E: FileElement>(_ node: BTreeNode<E>) throws(StoreFileError) -> FilePlace {
        if let place = stored(node.place) {
            kept.insert(place.offset)
            return place
        }
        var children: [FilePlace] = []
        if !node.isLeaf {
            children.reserveCapacity(node.children.count)
            for child in node.children { children.append(try write(child)) }
        }
        let encoded = TreeCoding.encodeNode(node, children: children)
        let offset = try append(encoded)
        let place = FilePlace(
            file: fileID,
            offset: offset,
            length: UInt64(encoded.count),
            checksum: self.checksum.of(encoded)
        )
        newNodePlaces.append((node, place))
        return place
    }

    private mutating func tree<E: FileElement>(
        _ tree: PersistentBTree<E>,
        into root: inout ByteWriter
    ) throws(StoreFileError) {
        let place = try write(tree.root)
        root.u64(place.offset)
        root.u64(place.length)
        root.u64(place.checksum)
        root.u64(UInt64(tree.count))
    }

    /// Writes everything `snapshot` needs that is not stored yet, frees what `base` (stored at
    /// `baseRoot`) reached and `snapshot` does not, and what the transaction spilled
    /// (`spilled`, `BlockSpill`) that `snapshot` does not reach, then buffers the root; returns
    /// the root's offset and bytes. The caller writes what is buffered (`flush()`).
    mutating func write(
        _ snapshot: BlockSnapshot,
        base: BlockSnapshot?,
        baseRoot: (offset: UInt64, length: UInt64)?,
        spilled: [(offset: UInt64, length: UInt64)] = []
    ) throws(StoreFileError) -> (offset: UInt64, bytes: [UInt8]) {
        var body = ByteWriter()
        body.string(DatasetSchemaReader.write(snapshot.schema).serialized(pretty: false))
        body.u32(snapshot.tables.count)
        for table in snapshot.tables {
            body.i64(table.nextKey)
            let blocks = table.blocks.filter { $0.count > 0 }
            body.u32(blocks.count)
            for block in blocks {
                let place = try write(block)
                body.u64(place.offset)
                body.u64(place.length)
                body.u64(place.checksum)
                body.u32(block.count)
                body.i64(block.firstKey)
            }
            body.u32(table.indexes.count)
            for (property, index) in table.indexes.sorted(by: { $0.key < $1.key }) {
                body.u32(property)
                switch index {
                case .int(let t):
                    body.u8(0)
                    try tree(t, into: &body)
                case .value(let t):
                    body.u8(1)
                    try tree(t, into: &body)
                case .detached:
                    body.u8(0)
                    try tree(PersistentBTree<IntIndexEntry>(), into: &body)
                }
            }
            body.u32(table.fullText.count)
            for (property, index) in table.fullText.sorted(by: { $0.key < $1.key }) {
                body.u32(property)
                try tree(index.tree, into: &body)
            }
            body.u32(table.backlinks.origins.count)
            for origin in table.backlinks.origins {
                body.string(origin.className)
                body.string(origin.property)
            }
            try tree(table.backlinks.tree, into: &body)
        }
        var freed: [(offset: UInt64, length: UInt64)] = []
        if let base { freed = released(by: base) }
        if let baseRoot, baseRoot.length > 0 { freed.append(baseRoot) }
        freed += spilled.filter { !kept.contains($0.offset) }
        freeList.free(freed, version: snapshot.version)
        // The root's size depends on the free list after its own allocation, which changes the
        // list by at most one run: allocate for one run more than now, and pad.
        let runs = runs
        let estimate = 8 + 4 + 16 * runs.count + 12 + 24 * (freeList.runs.count + 1) + body.bytes.count
        let rootOffset = freeList.allocate(UInt64(estimate))
        var root = ByteWriter()
        root.u64(snapshot.version)
        root.u32(runs.count)
        for run in runs {
            root.u64(run.offset)
            root.u64(run.length)
        }
        freeList.encode(into: &root)
        root.bytes.append(contentsOf: body.bytes)
        let length = Int(FreeList.rounded(UInt64(estimate)))
        precondition(root.bytes.count <= length, "the root outgrew its estimate")
        root.bytes.append(contentsOf: repeatElement(0, count: length - root.bytes.count))
        buffer.append(contentsOf: root.bytes)
        Self.add((rootOffset, UInt64(length)), to: &pending)
        writtenLength += UInt64(length)
        return (rootOffset, root.bytes)
    }

    /// What `base` stores in this file that the version being written does not reach: blocks
    /// it does not keep, and tree nodes on paths it replaced (reading a node of a dropped tree
    /// loads it; a shared subtree is never entered).
    private func released(by base: BlockSnapshot) -> [(offset: UInt64, length: UInt64)] {
        var freed: [(offset: UInt64, length: UInt64)] = []
        for table in base.tables {
            for block in table.blocks {
                guard let place = stored(block.place), !kept.contains(place.offset) else { continue }
                freed.append((place.offset, place.length))
            }
            for (_, index) in table.indexes {
                switch index {
                case .int(let t): release(t.root, into: &freed)
                case .value(let t): release(t.root, into: &freed)
                case .detached: break
                }
            }
            for (_, index) in table.fullText { release(index.tree.root, into: &freed) }
            release(table.backlinks.tree.root, into: &freed)
        }
        return freed
    }

    private func release<E: FileElement>(_ node: BTreeNode<E>, into freed: inout [(offset: UInt64, length: UInt64)]) {
        if let place = stored(node.place) {
            if kept.contains(place.offset) { return }
            freed.append((place.offset, place.length))
        }
        if !node.isLeaf {
            for child in node.children { release(child, into: &freed) }
        }
    }

    /// The runs a root lists as written before it, checked against the file's end and the
    /// commit's length.
    static func decodeWrittenRuns(
        _ reader: inout ByteReader,
        fileEnd: UInt64,
        writtenLength: UInt64
    ) throws(StoreFileError.Problem) -> [(offset: UInt64, length: UInt64)] {
        let count = try reader.count(minimumSize: 16)
        var runs: [(offset: UInt64, length: UInt64)] = []
        runs.reserveCapacity(count)
        var total: UInt64 = 0
        for _ in 0..<count {
            let offset = try reader.u64()
            let length = try reader.u64()
            guard offset >= UInt64(FileHeader.pageSize), offset <= fileEnd, length <= fileEnd - offset,
                length <= writtenLength - total
            else {
                throw .pointerOutOfRange(what: "a run the commit wrote", offset: offset)
            }
            total += length
            runs.append((offset, length))
        }
        return runs
    }

    /// Records the places of what this commit wrote (call once it is durable).
    func applyPlaces() {
        for (block, place) in newBlockPlaces { block.place = place }
        for (node, place) in newNodePlaces { (node as? PlaceHolding)?.setPlace(place) }
    }
}

/// A tree node of any element type, whose place can be set.
protocol PlaceHolding: AnyObject {
    func setPlace(_ place: FilePlace)
}

extension BTreeNode: PlaceHolding {
    func setPlace(_ place: FilePlace) { self.place = place }
}
