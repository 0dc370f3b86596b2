import RQLCore

/// Reads one version of a store file from its mapping: the root record, then every table's
/// blocks (mapped in place, their arrays checked, nothing copied) and index trees.
///
/// Everything read is checked against the version's bytes: a reference outside them, a count
/// that cannot fit, a block whose offsets disagree with its length, an unreadable schema, all
/// throw a `StoreFileError.Problem`. Blocks and tree nodes other than the roots are read on
/// first use (unless `thorough`) and checked then, checksum first; what fails goes to `damage`.
struct VersionReader {
    let mapping: FileMapping
    let fileID: UInt64
    let slot: HeaderSlot
    /// The file's checksum (`FileChecksum(format:)`).
    let checksum: FileChecksum
    /// Also check what reading does not need (`verify()`): index order and counts, link targets.
    let thorough: Bool
    /// Where a block found damaged on first use records it (nil: nowhere).
    let damage: StoreDamage?

    /// The bytes referenced so far (blocks, nodes, the root): `verify` reports them.
    private(set) var reachableBytes: UInt64 = 0
    /// The version's free list (read with the root).
    private(set) var freeList = FreeList(fileEnd: UInt64(FileHeader.pageSize))
    /// What the version reaches, as offset and length (`thorough` only): none may be free.
    private var reachable: [(offset: UInt64, length: UInt64)] = []

    init(
        mapping: FileMapping,
        fileID: UInt64,
        slot: HeaderSlot,
        checksum: FileChecksum,
        thorough: Bool,
        damage: StoreDamage? = nil
    ) {
        self.mapping = mapping
        self.fileID = fileID
        self.slot = slot
        self.checksum = checksum
        self.thorough = thorough
        self.damage = damage
    }

    mutating func read() throws(StoreFileError.Problem) -> BlockSnapshot {
        let rootBytes = try mapping.bytes(slot.rootOffset, slot.rootLength, what: "the root")
        reachableBytes += slot.rootLength
        var root = ByteReader(rootBytes, base: slot.rootOffset, what: "root")
        let version = try root.u64()
        guard version == slot.version else {
            throw .malformed(what: "root", reason: "version \(version), the header slot says \(slot.version)")
        }
        _ = try CommitWriter.decodeWrittenRuns(&root, fileEnd: slot.fileEnd, writtenLength: slot.writtenLength)
        freeList = try FreeList.decode(from: &root, version: version)
        guard freeList.fileEnd == slot.fileEnd else {
            throw .malformed(
                what: "free list",
                reason: "file end \(freeList.fileEnd), the header slot says \(slot.fileEnd)"
            )
        }
        if thorough { reachable.append((slot.rootOffset, slot.rootLength)) }
        let schemaText = try root.string()
        let schema: Schema
        do {
            schema = try DatasetSchemaReader.read(try JSONValue.parse(schemaText))
        } catch {
            throw .malformed(what: "schema", reason: "\(error)")
        }
        let tableCount = try root.count(minimumSize: 8)
        guard tableCount == schema.classes.count else {
            throw .malformed(what: "root", reason: "\(tableCount) tables for \(schema.classes.count) classes")
        }
        var tables: [TableData] = []
        for objectSchema in schema.classes {
            tables.append(try readTable(objectSchema, &root))
        }
        if thorough { try checkFreeList() }
        return BlockSnapshot(schema: schema, version: version, tables: tables)
    }

    /// No page is both free and reachable (`verify`).
    private func checkFreeList() throws(StoreFileError.Problem) {
        for item in reachable {
            if let run = freeList.overlap(offset: item.offset, length: FreeList.rounded(item.length)) {
                throw .malformed(
                    what: "free list",
                    reason: "the run at \(run.offset) of \(run.length) bytes holds a page reachable at \(item.offset)"
                )
            }
        }
    }

    /// `what` is built only for a problem: open reads a place for every block of every table.
    private func place(
        _ reader: inout ByteReader,
        what: @autoclosure () -> String
    ) throws(StoreFileError.Problem) -> FilePlace {
        let offset = try reader.u64()
        let length = try reader.u64()
        let checksum = try reader.u64()
        guard offset >= UInt64(FileHeader.pageSize), offset <= slot.fileEnd, length <= slot.fileEnd - offset else {
            throw .pointerOutOfRange(what: what(), offset: offset)
        }
        return FilePlace(file: fileID, offset: offset, length: length, checksum: checksum)
    }

    private mutating func readTable(
        _ objectSchema: ObjectSchema,
        _ root: inout ByteReader
    )
        throws(StoreFileError.Problem) -> TableData
    {
        let name = objectSchema.name
        var table = TableData(objectSchema: objectSchema)
        table.nextKey = try root.i64()
        let shapes = table.shapes
        let columnNames = objectSchema.properties.map(\.name)
        let blockCount = try root.count(minimumSize: 36)
        var lastKey: Int64 = -1
        var blocks: [Block] = []
        blocks.reserveCapacity(blockCount)
        let stored = BlockCoding.StoredTable(
            shapes: shapes,
            algorithm: checksum,
            mapping: mapping,
            damage: damage,
            className: name,
            columns: columnNames
        )
        for b in 0..<blockCount {
            let place = try place(&root, what: "block \(b) of '\(name)'")
            let rows = Int(try root.u32())
            let firstKey = try root.i64()
            guard place.offset % 64 == 0 else {
                throw .blockOffsets(className: name, block: b, reason: "offset \(place.offset) is not 64-byte aligned")
            }
            guard rows > 0, rows <= TableBlock.capacity else {
                throw .blockOffsets(
                    className: name,
                    block: b,
                    reason: "row count \(rows) outside 1...\(TableBlock.capacity)"
                )
            }
            guard firstKey > lastKey else {
                throw .blockOffsets(className: name, block: b, reason: "row keys overlap the previous block's")
            }
            // Named only when it fails (see `place`).
            guard let bytes = try? mapping.bytes(place.offset, place.length, what: "") else {
                throw .pointerOutOfRange(what: "block \(b) of '\(name)'", offset: place.offset)
            }
            let block: Block
            if thorough {
                block = try BlockCoding.decode(
                    bytes,
                    count: rows,
                    shapes: shapes,
                    checksum: place.checksum,
                    algorithm: checksum,
                    mapping: mapping,
                    context: (name, b, columnNames)
                )
                guard block.firstKey == firstKey, block.firstKey > lastKey else {
                    throw .blockOffsets(className: name, block: b, reason: "row keys overlap the previous block's")
                }
                lastKey = block.lastKey
            } else {
                // Checked and mapped on first use, part by part: open reads the root record alone.
                block = BlockCoding.lazyBlock(
                    bytes,
                    count: rows,
                    firstKey: firstKey,
                    checksum: place.checksum,
                    block: b,
                    table: stored
                )
                lastKey = firstKey
            }
            block.place = place
            reachableBytes += place.length
            if thorough { reachable.append((place.offset, place.length)) }
            blocks.append(block)
        }
        table.blocks = BlockList(blocks)
        guard table.nextKey > lastKey else {
            throw .malformed(what: "table '\(name)'", reason: "next key \(table.nextKey) is not above key \(lastKey)")
        }
        let context = TreeContext(mapping: mapping, fileID: fileID, checksum: checksum, damage: damage)
        let indexCount = try root.count(minimumSize: 37)
        var indexes: [Int: PropertyIndex] = [:]
        for _ in 0..<indexCount {
            let property = Int(try root.u32())
            let kind = try root.u8()
            let place = try place(&root, what: "an index of '\(name)'")
            let count = try root.u64()
            guard property < objectSchema.properties.count, kind <= 1 else {
                throw .malformed(what: "table '\(name)'", reason: "an index of property \(property), kind \(kind)")
            }
            let what = "index '\(name).\(objectSchema.properties[property].name)'"
            indexes[property] =
                kind == 0
                ? .int(try tree(IntIndexEntry.self, place, count, context, what))
                : .value(try tree(ValueIndexEntry.self, place, count, context, what))
        }
        guard Set(indexes.keys) == Set(table.indexes.keys) else {
            throw .malformed(what: "table '\(name)'", reason: "its indexes do not match the schema's")
        }
        for (property, index) in indexes {
            let expectsInt = objectSchema.properties[property].type == .int
            if case .int = index, !expectsInt, index.count > 0 {
                throw .malformed(what: "table '\(name)'", reason: "an integer index on a non-integer property")
            }
            if case .value = index, expectsInt {
                throw .malformed(what: "table '\(name)'", reason: "a value index on an integer property")
            }
        }
        table.indexes = indexes
        let fullTextCount = try root.count(minimumSize: 36)
        var fullText: [Int: FullTextTree] = [:]
        for _ in 0..<fullTextCount {
            let property = Int(try root.u32())
            let place = try place(&root, what: "a full-text index of '\(name)'")
            let count = try root.u64()
            guard property < objectSchema.properties.count else {
                throw .malformed(what: "table '\(name)'", reason: "a full-text index of property \(property)")
            }
            fullText[property] = FullTextTree(tree: try tree(TokenEntry.self, place, count, context, "full-text index"))
        }
        guard Set(fullText.keys) == Set(table.fullText.keys) else {
            throw .malformed(what: "table '\(name)'", reason: "its full-text indexes do not match the schema's")
        }
        table.fullText = fullText
        let originCount = try root.count(minimumSize: 8)
        var origins: [BacklinkOrigin] = []
        for _ in 0..<originCount {
            origins.append(BacklinkOrigin(className: try root.string(), property: try root.string()))
        }
        let backlinkPlace = try place(&root, what: "the backlinks of '\(name)'")
        let backlinkCount = try root.u64()
        let backlinks = try tree(BacklinkEntry.self, backlinkPlace, backlinkCount, context, "backlinks of '\(name)'")
        // Readers skip an entry whose origin is unknown (`BacklinkIndex.incoming`); verify names it.
        if thorough {
            var badOrigin = false
            backlinks.forEach(
                from: { _ in false },
                body: { entry in
                    badOrigin = Int(entry.origin) >= origins.count
                    return !badOrigin
                }
            )
            guard !badOrigin else { throw .malformed(what: "backlinks of '\(name)'", reason: "an unknown origin") }
        }
        table.backlinks = BacklinkIndex(origins: origins, tree: backlinks)
        if thorough { try check(table) }
        return table
    }

    private mutating func tree<E: FileElement>(
        _ type: E.Type,
        _ place: FilePlace,
        _ count: UInt64,
        _ context: TreeContext,
        _ what: String
    ) throws(StoreFileError.Problem) -> PersistentBTree<E> {
        let tree = try TreeCoding.decodeTree(
            type,
            root: place,
            count: count,
            context: context,
            what: what,
            eager: thorough
        )
        if thorough {
            var seen = 0
            var previous: E?
            var sorted = true
            tree.forEach(
                from: { _ in false },
                body: { element in
                    if let previous, element < previous { sorted = false }
                    previous = element
                    seen += 1
                    return sorted
                }
            )
            guard sorted else { throw .malformed(what: what, reason: "entries out of order") }
            guard seen == tree.count else {
                throw .malformed(what: what, reason: "\(seen) entries, the root says \(tree.count)")
            }
            var nodes: [BTreeNode<E>] = [tree.root]
            while let node = nodes.popLast() {
                reachableBytes += node.place?.length ?? 0
                if let place = node.place { reachable.append((place.offset, place.length)) }
                nodes.append(contentsOf: node.children)
            }
        }
        return tree
    }

    /// The checks only `verify` makes: each index holds one entry per row, pointing at a row.
    private func check(_ table: TableData) throws(StoreFileError.Problem) {
        let name = table.objectSchema.name
        for (property, index) in table.indexes {
            guard index.count == table.rowCount else {
                throw .malformed(
                    what: "index '\(name).\(table.objectSchema.properties[property].name)'",
                    reason: "\(index.count) entries for \(table.rowCount) rows"
                )
            }
        }
        var rows: [Int64] = []
        for (_, index) in table.indexes {
            switch index {
            case .int(let tree): rows = tree.elements.map(\.row)
            case .value(let tree): rows = tree.elements.map(\.row)
            case .detached: rows = []
            }
            for row in rows where table.locate(key: row) == nil {
                throw .malformed(what: "an index of '\(name)'", reason: "an entry for missing row \(row)")
            }
        }
        for b in table.blocks.indices {
            let block = table.blocks[b]
            for c in 0..<block.columnCount {
                if case .mixed(let segment) = block.column(c) {
                    for i in 0..<block.count where MixedCoding.decode(segment.encoded.raw(i)) == nil {
                        throw .blockOffsets(className: name, block: b, reason: "an undecodable mixed value in row \(i)")
                    }
                }
            }
        }
    }
}
