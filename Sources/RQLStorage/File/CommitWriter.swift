import RQLCore

/// Lays out one commit: every block and tree node the previous versions did not already store
/// in this file, then the version's root record, as one run of bytes appended at `start`.
///
/// Blocks and nodes carry their `FilePlace` once written, and every change clears it, so a
/// commit that touched k blocks writes those k blocks, the O(log n) nodes on each changed index
/// path, and the root (the tables' block lists): never the database.
///
/// The root record:
/// ```
/// u64 version, string schema (the dataset format's JSON), u32 table count, then per table:
///   i64 next key; u32 blocks, each u64 offset, u64 length, u64 checksum, u32 rows;
///   u32 indexes, each u32 property, u8 kind (0 int, 1 value), tree;
///   u32 full-text indexes, each u32 property, tree;
///   u32 backlink origins, each string class, string property; tree (the backlinks)
/// tree = u64 root offset, u64 root length, u64 root checksum, u64 element count
/// ```
struct CommitWriter {
    let fileID: UInt64
    let start: UInt64
    private(set) var bytes: [UInt8] = []
    /// Blocks and nodes written by this commit and where; applied once the commit is durable.
    private(set) var newBlockPlaces: [(Block, FilePlace)] = []
    private(set) var newNodePlaces: [(AnyObject, FilePlace)] = []

    init(fileID: UInt64, start: UInt64) {
        self.fileID = fileID
        self.start = start
    }

    var end: UInt64 { start + UInt64(bytes.count) }

    /// Pads to a multiple of `alignment` bytes from the file's start.
    private mutating func align(_ alignment: Int) {
        let misaligned = Int(end % UInt64(alignment))
        if misaligned != 0 { bytes.append(contentsOf: repeatElement(0, count: alignment - misaligned)) }
    }

    private func stored(_ place: FilePlace?) -> FilePlace? {
        guard let place, place.file == fileID else { return nil }
        return place
    }

    mutating func write(_ block: Block) -> FilePlace {
        if let place = stored(block.place) { return place }
        align(64)
        let offset = end
        let (_, storage) = BlockCoding.packed(block)
        let raw = UnsafeRawBufferPointer(start: storage.base, count: storage.capacity)
        bytes.append(contentsOf: raw)
        let place = FilePlace(
            file: fileID,
            offset: offset,
            length: UInt64(storage.capacity),
            checksum: FileChecksum.of(raw)
        )
        newBlockPlaces.append((block, place))
        return place
    }

    mutating func write<E: FileElement>(_ node: BTreeNode<E>) -> FilePlace {
        if let place = stored(node.place) { return place }
        let children = node.isLeaf ? [] : node.children.map { write($0) }
        align(8)
        let offset = end
        let encoded = TreeCoding.encodeNode(node, children: children)
        bytes.append(contentsOf: encoded)
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

    /// Writes everything `snapshot` needs that is not stored yet, then its root; returns the
    /// root's offset and length.
    mutating func write(_ snapshot: BlockSnapshot) -> (offset: UInt64, length: UInt64) {
        var root = ByteWriter()
        root.u64(snapshot.version)
        root.string(DatasetSchemaReader.write(snapshot.schema).serialized(pretty: false))
        root.u32(snapshot.tables.count)
        for table in snapshot.tables {
            root.i64(table.nextKey)
            let blocks = table.blocks.filter { $0.count > 0 }
            root.u32(blocks.count)
            for block in blocks {
                let place = write(block)
                root.u64(place.offset)
                root.u64(place.length)
                root.u64(place.checksum)
                root.u32(block.count)
            }
            root.u32(table.indexes.count)
            for (property, index) in table.indexes.sorted(by: { $0.key < $1.key }) {
                root.u32(property)
                switch index {
                case .int(let t):
                    root.u8(0)
                    tree(t, into: &root)
                case .value(let t):
                    root.u8(1)
                    tree(t, into: &root)
                case .detached:
                    root.u8(0)
                    tree(PersistentBTree<IntIndexEntry>(), into: &root)
                }
            }
            root.u32(table.fullText.count)
            for (property, index) in table.fullText.sorted(by: { $0.key < $1.key }) {
                root.u32(property)
                tree(index.tree, into: &root)
            }
            root.u32(table.backlinks.origins.count)
            for origin in table.backlinks.origins {
                root.string(origin.className)
                root.string(origin.property)
            }
            tree(table.backlinks.tree, into: &root)
        }
        align(8)
        let offset = end
        bytes.append(contentsOf: root.bytes)
        return (offset, UInt64(root.bytes.count))
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
