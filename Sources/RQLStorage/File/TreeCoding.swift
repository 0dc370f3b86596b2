import RQLCore
import Synchronization

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
/// `n` child references (`u64` offset, `u64` length, `u64` checksum, `u8` leaf flag) and then its
/// `n` lower bounds. A child may lie anywhere in the file, above its parent too: a commit that
/// keeps a child written long ago may put the new parent in a reused run below it. Reading a
/// damaged file still ends, because a tree is at most `maximumDepth` levels deep and a read
/// takes at most a budget of nodes (`LoadBudget`) that the file's size bounds.
///
/// Opening reads a tree lazily: the root node now, every other node on first visit (a stub
/// `BTreeNode`), so open plus one lookup reads the nodes of one path. Every node read is checked
/// against the checksum its reference carries. `verify` reads eagerly and throws on the first
/// damaged node; a lazy read of a damaged node cannot throw, so it yields an empty node (the
/// tree stays well formed) and records the damage (`StoreDamage`), which throwing readers and
/// commits then throw.
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
            for (child, place) in zip(node.children, children) {
                writer.u64(place.offset)
                writer.u64(place.length)
                writer.u64(place.checksum)
                writer.u8(child.isLeaf ? 1 : 0)
            }
            for bound in node.lowerBounds { bound.encode(into: &writer) }
        }
        return writer.bytes
    }

    /// A child reference of a branch.
    struct ChildReference: Sendable {
        let place: FilePlace
        let isLeaf: Bool
    }

    /// One node's contents as stored.
    struct NodeContents<E: FileElement> {
        let isLeaf: Bool
        let elements: [E]
        let children: [ChildReference]
        let bounds: [E]
    }

    /// Reads the tree whose root node is at `place`: the root now and, unless `eager`, every
    /// other node on first visit.
    static func decodeTree<E: FileElement>(
        _: E.Type,
        root place: FilePlace,
        count: UInt64,
        context: TreeContext,
        what: String,
        eager: Bool
    ) throws(StoreFileError.Problem) -> PersistentBTree<E> {
        guard count <= UInt64(Int.max) else { throw .malformed(what: what, reason: "element count \(count)") }
        let budget = LoadBudget(context.mapping.size / 5 + 1)
        let contents: NodeContents<E> = try readNode(place, context: context, what: what, budget: budget)
        let root: BTreeNode<E>
        if eager {
            root = try build(contents, place: place, depth: 0, context: context, what: what, budget: budget)
        } else {
            root = node(contents, place: place, depth: 0, context: context, what: what, budget: budget)
        }
        return PersistentBTree(root: root, count: Int(count))
    }

    /// Reads one node's bytes and checks them (bounds, counts, child offsets past the header).
    static func readNode<E: FileElement>(
        _ place: FilePlace,
        context: TreeContext,
        what: String,
        budget: LoadBudget
    ) throws(StoreFileError.Problem) -> NodeContents<E> {
        guard budget.take() else { throw .malformed(what: what, reason: "more nodes than the file can hold") }
        guard place.offset >= UInt64(FileHeader.pageSize), place.length >= 5 else {
            throw .pointerOutOfRange(what: what + " node", offset: place.offset)
        }
        let bytes = try context.mapping.bytes(place.offset, place.length, what: what + " node")
        if context.checksum.of(bytes) != place.checksum {
            throw .malformed(what: what + " node at \(place.offset)", reason: "checksum mismatch")
        }
        var reader = ByteReader(bytes, base: place.offset, what: what + " node")
        let flag = try reader.u8()
        guard flag <= 1 else { throw .malformed(what: what, reason: "node kind \(flag) at \(place.offset)") }
        let n = try reader.count(minimumSize: 1)
        guard n <= PersistentBTree<E>.nodeCapacity * 4 else {
            throw .malformed(what: what, reason: "node of \(n) entries at \(place.offset)")
        }
        if flag == 1 {
            var elements: [E] = []
            elements.reserveCapacity(n)
            for _ in 0..<n { elements.append(try E.decode(from: &reader)) }
            return NodeContents(isLeaf: true, elements: elements, children: [], bounds: [])
        }
        guard n > 0 else { throw .malformed(what: what, reason: "empty branch at \(place.offset)") }
        var children: [ChildReference] = []
        children.reserveCapacity(n)
        for _ in 0..<n {
            let offset = try reader.u64()
            let length = try reader.u64()
            let checksum = try reader.u64()
            let leaf = try reader.u8()
            guard offset >= UInt64(FileHeader.pageSize), leaf <= 1 else {
                throw .pointerOutOfRange(what: what + " child", offset: offset)
            }
            children.append(
                ChildReference(
                    place: FilePlace(file: context.fileID, offset: offset, length: length, checksum: checksum),
                    isLeaf: leaf == 1
                )
            )
        }
        var bounds: [E] = []
        bounds.reserveCapacity(n)
        for _ in 0..<n { bounds.append(try E.decode(from: &reader)) }
        return NodeContents(isLeaf: false, elements: [], children: children, bounds: bounds)
    }

    /// The whole subtree, read now (`verify`).
    private static func build<E: FileElement>(
        _ contents: NodeContents<E>,
        place: FilePlace,
        depth: Int,
        context: TreeContext,
        what: String,
        budget: LoadBudget
    ) throws(StoreFileError.Problem) -> BTreeNode<E> {
        guard depth < maximumDepth else { throw .malformed(what: what, reason: "deeper than \(maximumDepth) levels") }
        let node: BTreeNode<E>
        if contents.isLeaf {
            node = BTreeNode(isLeaf: true, elements: contents.elements, children: [], lowerBounds: [])
        } else {
            var children: [BTreeNode<E>] = []
            for child in contents.children {
                let childContents: NodeContents<E> = try readNode(
                    child.place,
                    context: context,
                    what: what,
                    budget: budget
                )
                guard childContents.isLeaf == child.isLeaf else {
                    throw .malformed(
                        what: what,
                        reason: "node at \(child.place.offset) is not the kind its parent says"
                    )
                }
                children.append(
                    try build(
                        childContents,
                        place: child.place,
                        depth: depth + 1,
                        context: context,
                        what: what,
                        budget: budget
                    )
                )
            }
            node = BTreeNode(isLeaf: false, elements: [], children: children, lowerBounds: contents.bounds)
        }
        node.place = place
        return node
    }

    /// A node whose children are stubs read on first visit.
    private static func node<E: FileElement>(
        _ contents: NodeContents<E>,
        place: FilePlace,
        depth: Int,
        context: TreeContext,
        what: String,
        budget: LoadBudget
    ) -> BTreeNode<E> {
        let node: BTreeNode<E>
        if contents.isLeaf {
            node = BTreeNode(isLeaf: true, elements: contents.elements, children: [], lowerBounds: [])
        } else {
            let children = zip(contents.children, contents.bounds).map { child, bound in
                stub(child, fallbackBound: bound, depth: depth + 1, context: context, what: what, budget: budget)
            }
            node = BTreeNode(isLeaf: false, elements: [], children: children, lowerBounds: contents.bounds)
        }
        node.place = place
        return node
    }

    private static func stub<E: FileElement>(
        _ child: ChildReference,
        fallbackBound: E,
        depth: Int,
        context: TreeContext,
        what: String,
        budget: LoadBudget
    ) -> BTreeNode<E> {
        BTreeNode(lazy: child.isLeaf, place: child.place) {
            do throws(StoreFileError.Problem) {
                guard depth < maximumDepth else { throw .malformed(what: what, reason: "too deep") }
                let contents: NodeContents<E> = try readNode(child.place, context: context, what: what, budget: budget)
                guard contents.isLeaf == child.isLeaf else { throw .malformed(what: what, reason: "kind") }
                if contents.isLeaf { return (contents.elements, [], []) }
                let children = zip(contents.children, contents.bounds).map { grandchild, bound in
                    stub(
                        grandchild,
                        fallbackBound: bound,
                        depth: depth + 1,
                        context: context,
                        what: what,
                        budget: budget
                    )
                }
                return ([], children, contents.bounds)
            } catch {
                context.damage?.record(error)
                return child.isLeaf ? ([], [], []) : ([], [BTreeNode(elements: [])], [fallbackBound])
            }
        }
    }
}

/// How many more nodes reading one tree may read: a damaged file could make many parents share
/// one child, and a full walk would then read it once per path.
final class LoadBudget: Sendable {
    private let remaining: Atomic<Int>

    init(_ nodes: Int) {
        remaining = Atomic(nodes)
    }

    func take() -> Bool {
        remaining.wrappingSubtract(1, ordering: .relaxed).newValue >= 0
    }
}

/// What reading a version needs: its mapping and the number of the open file (for places).
struct TreeContext: Sendable {
    let mapping: FileMapping
    let fileID: UInt64
    /// The file's checksum (`FileChecksum(format:)`).
    let checksum: FileChecksum
    /// Where a node found damaged on a lazy first visit records it (nil: nowhere).
    let damage: StoreDamage?
}
