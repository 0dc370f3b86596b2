import RQLCore

/// Lays out one commit: every block and tree node the previous versions did not already store
/// in this file, then the version's root record, each in a run the free list gives (a reusable
/// free run, or the file's end).
///
/// Blocks and nodes carry their `FilePlace` once written, and every change clears it, so a
/// commit that touched k blocks writes those k blocks, the O(log n) nodes on each changed index
/// path, and the root (the tables' block lists): never the database. What the base version
/// reached and this one does not (replaced blocks, the old nodes of changed paths, the old root)
/// goes on the free list, tagged with this version.
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
    /// The free list: the base version's, released up to the oldest version a reader holds;
    /// this commit allocates from it and adds what it frees.
    private(set) var freeList: FreeList
    /// Every byte written, in order (items padded to the free list's granule).
    private(set) var bytes: [UInt8] = []
    /// Where `bytes` go: consecutive pieces, each a file offset and a length.
    private(set) var pieces: [(offset: UInt64, length: UInt64)] = []
    /// Blocks and nodes written by this commit and where; applied once the commit is durable.
    private(set) var newBlockPlaces: [(Block, FilePlace)] = []
    private(set) var newNodePlaces: [(AnyObject, FilePlace)] = []
    /// Offsets of items of this file the new version reaches without writing them.
    private var kept: Set<UInt64> = []

    init(fileID: UInt64, freeList: FreeList) {
        self.fileID = fileID
        self.freeList = freeList
    }

    private func stored(_ place: FilePlace?) -> FilePlace? {
        guard let place, place.file == fileID else { return nil }
        return place
    }

    /// Allocates room for `item` and appends it; returns its offset.
    private mutating func append(_ item: UnsafeRawBufferPointer) -> UInt64 {
        let offset = freeList.allocate(UInt64(item.count))
        let size = FreeList.rounded(UInt64(Swift.max(item.count, 1)))
        bytes.append(contentsOf: item)
        bytes.append(contentsOf: repeatElement(0, count: Int(size) - item.count))
        if let last = pieces.last, last.offset + last.length == offset {
            pieces[pieces.count - 1].length += size
        } else {
            pieces.append((offset, size))
        }
        return offset
    }

    mutating func write(_ block: Block) -> FilePlace {
        if let place = stored(block.place) {
            kept.insert(place.offset)
            return place
        }
        let (encoded, checksum) = BlockCoding.encoded(block)
        let offset = encoded.withUnsafeBytes { append($0) }
        let place = FilePlace(file: fileID, offset: offset, length: UInt64(encoded.count), checksum: checksum)
        newBlockPlaces.append((block, place))
        return place
    }

    mutating func write<E: FileElement>(_ node: BTreeNode<E>) -> FilePlace {
        if let place = stored(node.place) {
            kept.insert(place.offset)
            return place
        }
        let children = node.isLeaf ? [] : node.children.map { write($0) }
        let encoded = TreeCoding.encodeNode(node, children: children)
        let offset = encoded.withUnsafeBytes { append($0) }
        let place = FilePlace(
            file: fileID,
            offset: offset,
            length: UInt64(encoded.count),
            checksum: FileChecksum.of(encoded)
        )
        newNodePlaces.append((node, place))
        return place
    }

    private mutating func tree<E: FileElement>(_ tree: PersistentBTree<E>, into root: inout ByteWriter) {
        let place = write(tree.root)
        root.u64(place.offset)
        root.u64(place.length)
        root.u64(place.checksum)
        root.u64(UInt64(tree.count))
    }

    /// Writes everything `snapshot` needs that is not stored yet, frees what `base` (stored at
    /// `baseRoot`) reached and `snapshot` does not, then writes the root; returns the root's
    /// offset and length.
    mutating func write(
        _ snapshot: BlockSnapshot,
        base: BlockSnapshot?,
        baseRoot: (offset: UInt64, length: UInt64)?
    ) -> (offset: UInt64, length: UInt64) {
        var body = ByteWriter()
        body.string(DatasetSchemaReader.write(snapshot.schema).serialized(pretty: false))
        body.u32(snapshot.tables.count)
        for table in snapshot.tables {
            body.i64(table.nextKey)
            let blocks = table.blocks.filter { $0.count > 0 }
            body.u32(blocks.count)
            for block in blocks {
                let place = write(block)
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
                    tree(t, into: &body)
                case .value(let t):
                    body.u8(1)
                    tree(t, into: &body)
                case .detached:
                    body.u8(0)
                    tree(PersistentBTree<IntIndexEntry>(), into: &body)
                }
            }
            body.u32(table.fullText.count)
            for (property, index) in table.fullText.sorted(by: { $0.key < $1.key }) {
                body.u32(property)
                tree(index.tree, into: &body)
            }
            body.u32(table.backlinks.origins.count)
            for origin in table.backlinks.origins {
                body.string(origin.className)
                body.string(origin.property)
            }
            tree(table.backlinks.tree, into: &body)
        }
        var freed: [(offset: UInt64, length: UInt64)] = []
        if let base { freed = released(by: base) }
        if let baseRoot, baseRoot.length > 0 { freed.append(baseRoot) }
        freeList.free(freed, version: snapshot.version)
        // The root's size depends on the free list after its own allocation, which changes the
        // list by at most one run: allocate for one run more than now, and pad.
        let runs = pieces
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
        bytes.append(contentsOf: root.bytes)
        pieces.append((rootOffset, UInt64(length)))
        return (rootOffset, UInt64(length))
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
