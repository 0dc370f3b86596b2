import RQLCore

/// An element of an index tree as the file stores it (little-endian, fixed or length-prefixed).
protocol FileElement: Comparable, Sendable {
    func encode(into writer: inout ByteWriter)
    static func decode(from reader: inout ByteReader) throws(StoreFileError.Problem) -> Self
}

extension IntIndexEntry: FileElement {
    func encode(into writer: inout ByteWriter) {
        writer.u8(isNull ? 1 : 0)
        writer.i64(key)
        writer.i64(row)
    }

    static func decode(from reader: inout ByteReader) throws(StoreFileError.Problem) -> IntIndexEntry {
        let flag = try reader.u8()
        guard flag <= 1 else { throw .malformed(what: reader.what, reason: "null flag \(flag)") }
        return IntIndexEntry(isNull: flag == 1, key: try reader.i64(), row: try reader.i64())
    }
}

extension ValueIndexEntry: FileElement {
    func encode(into writer: inout ByteWriter) {
        var bytes: [UInt8] = []
        MixedCoding.encode(key, into: &bytes)
        writer.lengthPrefixed(bytes)
        writer.i64(row)
    }

    static func decode(from reader: inout ByteReader) throws(StoreFileError.Problem) -> ValueIndexEntry {
        guard let key = MixedCoding.decode(try reader.lengthPrefixed()) else {
            throw .malformed(what: reader.what, reason: "an undecodable index value")
        }
        return ValueIndexEntry(key: key, row: try reader.i64())
    }
}

extension TokenEntry: FileElement {
    func encode(into writer: inout ByteWriter) {
        writer.string(token)
        writer.i64(row)
    }

    static func decode(from reader: inout ByteReader) throws(StoreFileError.Problem) -> TokenEntry {
        TokenEntry(token: try reader.string(), row: try reader.i64())
    }
}

extension BacklinkEntry: FileElement {
    func encode(into writer: inout ByteWriter) {
        writer.i64(target)
        writer.integer(origin)
        writer.i64(source)
    }

    static func decode(from reader: inout ByteReader) throws(StoreFileError.Problem) -> BacklinkEntry {
        let target = try reader.i64()
        let origin = try reader.integer(Int32.self)
        guard origin >= 0 else { throw .malformed(what: reader.what, reason: "negative backlink origin") }
        return BacklinkEntry(target: target, origin: origin, source: try reader.i64())
    }
}

/// A tree node on disk: `u8` leaf flag, `u32` count `n`; a leaf then holds `n` elements, a branch
/// `n` child references (`u64` offset, `u64` length, `u64` checksum) and then its `n` lower bounds. Children are
/// always written before their parent, so a child's offset is below its parent's: reading
/// follows strictly decreasing offsets and cannot loop.
enum TreeCoding {
    /// The deepest tree read (64-way nodes: 2⁶⁴ elements fit in 11 levels).
    static let maximumDepth = 24

    static func encodeNode<E: FileElement>(_ node: BTreeNode<E>, children: [FilePlace]) -> [UInt8] {
        var writer = ByteWriter()
        writer.u8(node.isLeaf ? 1 : 0)
        if node.isLeaf {
            writer.u32(node.elements.count)
            for element in node.elements { element.encode(into: &writer) }
        } else {
            writer.u32(node.children.count)
            for child in children {
                writer.u64(child.offset)
                writer.u64(child.length)
                writer.u64(child.checksum)
            }
            for bound in node.lowerBounds { bound.encode(into: &writer) }
        }
        return writer.bytes
    }

    /// Reads the tree whose root node is at `place`; `budget` bounds the nodes read (a damaged
    /// file could share one child among many parents).
    static func decodeTree<E: FileElement>(
        _: E.Type,
        root place: FilePlace,
        count: UInt64,
        context: TreeContext,
        what: String
    ) throws(StoreFileError.Problem) -> PersistentBTree<E> {
        var budget = context.mapping.size / 5 + 1
        let root: BTreeNode<E> = try decodeNode(place, depth: 0, budget: &budget, context: context, what: what)
        guard count <= UInt64(Int.max) else { throw .malformed(what: what, reason: "element count \(count)") }
        return PersistentBTree(root: root, count: Int(count))
    }

    private static func decodeNode<E: FileElement>(
        _ place: FilePlace,
        depth: Int,
        budget: inout Int,
        context: TreeContext,
        what: String
    ) throws(StoreFileError.Problem) -> BTreeNode<E> {
        guard depth < maximumDepth else { throw .malformed(what: what, reason: "deeper than \(maximumDepth) levels") }
        budget -= 1
        guard budget >= 0 else { throw .malformed(what: what, reason: "more nodes than the file can hold") }
        guard place.offset >= UInt64(FileHeader.pageSize), place.length >= 5 else {
            throw .pointerOutOfRange(what: what + " node", offset: place.offset)
        }
        let bytes = try context.mapping.bytes(place.offset, place.length, what: what + " node")
        if context.checksums && FileChecksum.of(bytes) != place.checksum {
            throw .malformed(what: what + " node at \(place.offset)", reason: "checksum mismatch")
        }
        var reader = ByteReader(bytes, base: place.offset, what: what + " node")
        let flag = try reader.u8()
        guard flag <= 1 else { throw .malformed(what: what, reason: "node kind \(flag) at \(place.offset)") }
        let capacity = PersistentBTree<E>.nodeCapacity * 4
        let n = try reader.count(minimumSize: 1)
        guard n <= capacity else { throw .malformed(what: what, reason: "node of \(n) entries at \(place.offset)") }
        let node: BTreeNode<E>
        if flag == 1 {
            var elements: [E] = []
            elements.reserveCapacity(n)
            for _ in 0..<n { elements.append(try E.decode(from: &reader)) }
            node = BTreeNode(isLeaf: true, elements: elements, children: [], lowerBounds: [])
        } else {
            guard n > 0 else { throw .malformed(what: what, reason: "empty branch at \(place.offset)") }
            var childPlaces: [FilePlace] = []
            for _ in 0..<n {
                let offset = try reader.u64()
                let length = try reader.u64()
                let checksum = try reader.u64()
                guard offset < place.offset else {
                    throw .pointerOutOfRange(what: what + " child", offset: offset)
                }
                childPlaces.append(FilePlace(file: context.fileID, offset: offset, length: length, checksum: checksum))
            }
            var bounds: [E] = []
            for _ in 0..<n { bounds.append(try E.decode(from: &reader)) }
            var children: [BTreeNode<E>] = []
            for child in childPlaces {
                children.append(try decodeNode(child, depth: depth + 1, budget: &budget, context: context, what: what))
            }
            node = BTreeNode(isLeaf: false, elements: [], children: children, lowerBounds: bounds)
        }
        node.place = place
        return node
    }
}

/// What reading a version needs: its mapping and the number of the open file (for places).
struct TreeContext {
    let mapping: FileMapping
    let fileID: UInt64
    /// Check every node's checksum (`verify()`).
    let checksums: Bool
}
