import Synchronization

/// An ordered multiset kept in a copy-on-write B+-tree: the shape of every index of the block
/// store (primary key, equality / range, full-text, backlinks).
///
/// Persistent: a snapshot holds the root, and a writer that changes a tree it shares copies only
/// the nodes on the path it changes (`isKnownUniquelyReferenced` at each level), so an insert or
/// a removal costs O(log n) node copies and every other node stays shared with older versions.
/// Equal elements are kept in insertion order; `remove` takes out one of them.
///
/// In phase 2 a node is a page: leaves and branches have a fixed capacity so that a node
/// serialises into one page, and a version's root is a page number.
///
/// ```swift
/// var tree = PersistentBTree<Int>()
/// for x in [5, 1, 3] { tree.insert(x) }
/// var found: [Int] = []
/// tree.forEach(from: { $0 < 2 }, body: { found.append($0); return true })  // found == [3, 5]
/// ```
struct PersistentBTree<Element: Comparable & Sendable>: Sendable {
    /// Elements per leaf, children per branch, at most.
    static var nodeCapacity: Int { 64 }

    private(set) var root: BTreeNode<Element>
    private(set) var count: Int

    /// A tree read back from a file.
    init(root: BTreeNode<Element>, count: Int) {
        self.root = root
        self.count = count
    }

    init() {
        root = BTreeNode(elements: [])
        count = 0
    }

    /// A tree of `sorted` (ascending), built level by level without comparisons.
    init(sorted: [Element]) {
        count = sorted.count
        let fill = Self.nodeCapacity * 3 / 4
        var level: [BTreeNode<Element>] = stride(from: 0, to: sorted.count, by: fill).map {
            BTreeNode(elements: Array(sorted[$0..<Swift.min($0 + fill, sorted.count)]))
        }
        if level.isEmpty { level = [BTreeNode(elements: [])] }
        while level.count > 1 {
            level = stride(from: 0, to: level.count, by: fill).map {
                BTreeNode(children: Array(level[$0..<Swift.min($0 + fill, level.count)]))
            }
        }
        root = level[0]
    }

    var isEmpty: Bool { count == 0 }

    mutating func insert(_ element: Element) {
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        if let right = root.insert(element) {
            root = BTreeNode(children: [root, right])
        }
        count += 1
    }

    /// Removes one element equal to `element`; false if there is none.
    @discardableResult
    mutating func remove(_ element: Element) -> Bool {
        guard contains(element) else { return false }
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        guard root.remove(element) else { return false }
        count -= 1
        while !root.isLeaf && root.children.count == 1 { root = root.children[0] }
        if !root.isLeaf && root.children.isEmpty { root = BTreeNode(elements: []) }
        return true
    }

    func contains(_ element: Element) -> Bool {
        var found = false
        forEach(
            from: { $0 < element },
            body: { candidate in
                found = candidate == element
                return false
            }
        )
        return found
    }

    /// Calls `body` with the elements from the first one for which `before` is false, in order,
    /// until `body` returns false. `before` must be true for a prefix of the order, then false.
    func forEach(from before: (Element) -> Bool, body: (Element) -> Bool) {
        _ = root.visit(before: before, body: body)
    }

    /// Every element, in order (tests and rebuilds).
    var elements: [Element] {
        var all: [Element] = []
        all.reserveCapacity(count)
        forEach(
            from: { _ in false },
            body: {
                all.append($0)
                return true
            }
        )
        return all
    }
}

/// A leaf (sorted elements) or a branch (children and a lower bound of each child's elements).
///
/// A node of a tree read from a store file may be a stub that reads its contents on first use
/// (`init(lazy:place:load:)`): opening a file then reads only the roots, and a lookup reads the
/// nodes on its path. Loading is thread-safe (readers of one snapshot share the nodes): an
/// atomic flag says the contents are there, a lock serialises the one load.
///
/// What needs the elements' order is in an extension: a protocol in the class's generic
/// signature is checked at run time when a node type's metadata is first made, by a search of
/// every conformance in the binary, which every process that opened a store paid per index kind.
final class BTreeNode<Element: Sendable>: @unchecked Sendable {
    let isLeaf: Bool
    private var storedElements: [Element]
    private var storedChildren: [BTreeNode]
    private var storedLowerBounds: [Element]
    /// Where this exact node is stored in a file, if it is; every change clears it.
    var place: FilePlace?
    /// Reads a stub's contents; nil once they are read (or for a node built in memory).
    private var loader: (@Sendable () -> (elements: [Element], children: [BTreeNode], lowerBounds: [Element]))?
    private let loading: LoadOnce

    var elements: [Element] {
        get {
            loadIfNeeded()
            return storedElements
        }
        set {
            loadIfNeeded()
            storedElements = newValue
        }
        _modify {
            loadIfNeeded()
            yield &storedElements
        }
    }

    var children: [BTreeNode] {
        get {
            loadIfNeeded()
            return storedChildren
        }
        set {
            loadIfNeeded()
            storedChildren = newValue
        }
        _modify {
            loadIfNeeded()
            yield &storedChildren
        }
    }

    /// `lowerBounds[i] <= ` every element of `children[i]` (`i >= 1`), and `>=` every element of
    /// `children[i - 1]`. A removal may leave a bound below its child's new minimum; routing
    /// stays correct.
    var lowerBounds: [Element] {
        get {
            loadIfNeeded()
            return storedLowerBounds
        }
        set {
            loadIfNeeded()
            storedLowerBounds = newValue
        }
        _modify {
            loadIfNeeded()
            yield &storedLowerBounds
        }
    }

    init(elements: [Element]) {
        isLeaf = true
        storedElements = elements
        storedChildren = []
        storedLowerBounds = []
        loading = LoadOnce(done: true)
    }

    init(children: [BTreeNode]) {
        isLeaf = false
        storedElements = []
        storedChildren = children
        storedLowerBounds = children.map { $0.minimum! }
        loading = LoadOnce(done: true)
    }

    init(isLeaf: Bool, elements: [Element], children: [BTreeNode], lowerBounds: [Element]) {
        self.isLeaf = isLeaf
        storedElements = elements
        storedChildren = children
        storedLowerBounds = lowerBounds
        loading = LoadOnce(done: true)
    }

    /// A stub of a node stored at `place`, whose contents `load` reads on first use. `load`
    /// must not fail: on a damaged node it returns contents that keep the tree usable (an
    /// empty leaf; a branch of one empty leaf), and `verify` reports the damage.
    init(
        lazy isLeaf: Bool,
        place: FilePlace,
        load: @escaping @Sendable () -> (elements: [Element], children: [BTreeNode], lowerBounds: [Element])
    ) {
        self.isLeaf = isLeaf
        storedElements = []
        storedChildren = []
        storedLowerBounds = []
        self.place = place
        loader = load
        loading = LoadOnce(done: false)
    }

    @inline(__always)
    private func loadIfNeeded() {
        if !loading.isDone { loadContents() }
    }

    private func loadContents() {
        loading.run {
            guard let loader else { return false }
            let contents = loader()
            storedElements = contents.elements
            storedChildren = contents.children
            storedLowerBounds = contents.lowerBounds
            self.loader = nil
            return true
        }
    }

    func copy() -> BTreeNode {
        BTreeNode(isLeaf: isLeaf, elements: elements, children: children, lowerBounds: lowerBounds)
    }

    var minimum: Element? { isLeaf ? elements.first : lowerBounds.first }

    var size: Int { isLeaf ? elements.count : children.count }

    /// The first index `i >= 1` whose bound is not `before`, or `children.count`.
    private func firstBound(notBefore before: (Element) -> Bool) -> Int {
        // One read of the property (it checks the node is loaded), then plain array accesses.
        let bounds = lowerBounds
        var low = 1
        var high = bounds.count
        while low < high {
            let mid = (low + high) >> 1
            if before(bounds[mid]) { low = mid + 1 } else { high = mid }
        }
        return low
    }

}

extension BTreeNode where Element: Comparable {
    /// Inserts after any equal elements; returns a new right sibling if the node split.
    func insert(_ element: Element) -> BTreeNode? {
        place = nil
        let capacity = PersistentBTree<Element>.nodeCapacity
        if isLeaf {
            var low = 0
            var high = elements.count
            while low < high {
                let mid = (low + high) >> 1
                if element < elements[mid] { high = mid } else { low = mid + 1 }
            }
            elements.insert(element, at: low)
            guard elements.count > capacity else { return nil }
            let half = elements.count / 2
            let right = BTreeNode(elements: Array(elements[half...]))
            elements.removeSubrange(half...)
            return right
        }
        // The last child whose bound is <= element.
        let i = firstBound(notBefore: { !(element < $0) }) - 1
        if !isKnownUniquelyReferenced(&children[i]) { children[i] = children[i].copy() }
        if element < lowerBounds[i] { lowerBounds[i] = element }
        if let right = children[i].insert(element) {
            children.insert(right, at: i + 1)
            lowerBounds.insert(right.minimum!, at: i + 1)
        }
        guard children.count > capacity else { return nil }
        let half = children.count / 2
        let right = BTreeNode(
            isLeaf: false,
            elements: [],
            children: Array(children[half...]),
            lowerBounds: Array(lowerBounds[half...])
        )
        children.removeSubrange(half...)
        lowerBounds.removeSubrange(half...)
        return right
    }

    /// Removes one element equal to `element` from this subtree (which the caller holds alone).
    func remove(_ element: Element) -> Bool {
        place = nil
        if isLeaf {
            var low = 0
            var high = elements.count
            while low < high {
                let mid = (low + high) >> 1
                if elements[mid] < element { low = mid + 1 } else { high = mid }
            }
            guard low < elements.count, elements[low] == element else { return false }
            elements.remove(at: low)
            return true
        }
        // The first element >= `element` is in child i - 1 or starts child i.
        let i = firstBound(notBefore: { $0 < element })
        for c in Swift.max(i - 1, 0)..<Swift.min(i + 1, children.count) {
            guard children[c].contains(element) else { continue }
            if !isKnownUniquelyReferenced(&children[c]) { children[c] = children[c].copy() }
            guard children[c].remove(element) else { return false }
            rebalance(c)
            return true
        }
        return false
    }

    private func contains(_ element: Element) -> Bool {
        var found = false
        _ = visit(
            before: { $0 < element },
            body: { candidate in
                found = candidate == element
                return false
            }
        )
        return found
    }

    /// Drops an emptied child and merges a small one into a neighbour when both fit in one node.
    private func rebalance(_ c: Int) {
        let capacity = PersistentBTree<Element>.nodeCapacity
        if children[c].size == 0 {
            children.remove(at: c)
            lowerBounds.remove(at: c)
            return
        }
        guard children[c].size < capacity / 4, children.count > 1 else { return }
        let left = c > 0 ? c - 1 : c
        let right = left + 1
        guard children[left].size + children[right].size <= capacity else { return }
        if !isKnownUniquelyReferenced(&children[left]) { children[left] = children[left].copy() }
        children[left].place = nil
        let absorbed = children[right]
        if children[left].isLeaf {
            children[left].elements.append(contentsOf: absorbed.elements)
        } else {
            children[left].children.append(contentsOf: absorbed.children)
            children[left].lowerBounds.append(contentsOf: absorbed.lowerBounds)
        }
        children.remove(at: right)
        lowerBounds.remove(at: right)
    }

    /// In-order visit from the first element that is not `before`; false once `body` stops.
    func visit(before: (Element) -> Bool, body: (Element) -> Bool) -> Bool {
        if isLeaf {
            let elements = self.elements
            var low = 0
            var high = elements.count
            while low < high {
                let mid = (low + high) >> 1
                if before(elements[mid]) { low = mid + 1 } else { high = mid }
            }
            for k in low..<elements.count where !body(elements[k]) { return false }
            return true
        }
        let start = Swift.max(firstBound(notBefore: before) - 1, 0)
        let children = self.children
        for c in start..<children.count where !children[c].visit(before: before, body: body) { return false }
        return true
    }
}
