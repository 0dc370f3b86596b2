/// The dictionary inside a mixed value or a `map<T>` property: string keys, each at most once,
/// kept in UTF-8 byte order of the keys (Realm's dictionary order). The fixed order makes
/// equality, hashing and printing deterministic.
///
/// ```swift
/// let m = MixedMap(["b": .int(2), "a": .int(1)])
/// m.keys        // ["a", "b"]
/// m["b"]        // .int(2)
/// ```
public struct MixedMap: Hashable, Sendable, Sequence {
    /// One key/value entry.
    public struct Entry: Hashable, Sendable {
        public let key: String
        public let value: Value

        public init(key: String, value: Value) {
            self.key = key
            self.value = value
        }

        // Keys are bytes, as everywhere in Realm: no Unicode canonical equivalence.
        public static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.key.utf8.elementsEqual(rhs.key.utf8) && lhs.value == rhs.value
        }

        public func hash(into hasher: inout Hasher) {
            for byte in key.utf8 { hasher.combine(byte) }
            hasher.combine(value)
        }
    }

    /// The entries in key order.
    public private(set) var entries: [Entry]

    /// An empty map.
    public init() {
        entries = []
    }

    /// A map of the given pairs; a repeated key keeps its last value. Pairs already in key
    /// order are taken as they are; others are sorted once (O(n log n), where inserting them one
    /// by one into the sorted entries would move half of them each time).
    public init(_ pairs: some Sequence<(String, Value)>) {
        let given = pairs.map { Entry(key: $0.0, value: $0.1) }
        if Self.isStrictlyOrdered(given) {
            entries = given
            return
        }
        // Sorted by each key's first eight bytes as one integer, the keys themselves compared
        // only where those are equal; equal keys stay in the order given (the index breaks the
        // tie), so the last of each run wins.
        var order = given.indices.map { (prefix: Self.prefix(given[$0].key), index: $0) }
        order.sort { a, b in
            if a.prefix != b.prefix { return a.prefix < b.prefix }
            let order = compareUTF8(given[a.index].key, given[b.index].key)
            return order != 0 ? order < 0 : a.index < b.index
        }
        var sorted: [Entry] = []
        sorted.reserveCapacity(given.count)
        var lastPrefix: UInt64 = 0
        for (prefix, i) in order {
            if !sorted.isEmpty, prefix == lastPrefix, compareUTF8(sorted[sorted.count - 1].key, given[i].key) == 0 {
                sorted[sorted.count - 1] = given[i]
            } else {
                sorted.append(given[i])
            }
            lastPrefix = prefix
        }
        entries = sorted
    }

    /// The key's first eight UTF-8 bytes as a big-endian integer (zeros past its end): two keys
    /// whose prefixes differ are in the prefixes' order.
    private static func prefix(_ key: String) -> UInt64 {
        var key = key
        return key.withUTF8 { bytes in
            var prefix: UInt64 = 0
            for i in 0..<8 { prefix = prefix << 8 | UInt64(i < bytes.count ? bytes[i] : 0) }
            return prefix
        }
    }

    private static func isStrictlyOrdered(_ entries: [Entry]) -> Bool {
        var i = 1
        while i < entries.count {
            if compareUTF8(entries[i - 1].key, entries[i].key) >= 0 { return false }
            i += 1
        }
        return true
    }

    /// A map of a Swift dictionary's entries.
    public init(_ dictionary: [String: Value]) {
        self.init(dictionary.map { ($0.key, $0.value) })
    }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }
    public var keys: [String] { entries.map(\.key) }
    public var values: [Value] { entries.map(\.value) }

    /// The value under `key`, or `nil`; assigning `nil` removes the entry.
    public subscript(key: String) -> Value? {
        get {
            let (index, found) = search(key)
            return found ? entries[index].value : nil
        }
        set {
            let (index, found) = search(key)
            switch (found, newValue) {
            case (true, let value?): entries[index] = Entry(key: key, value: value)
            case (true, nil): entries.remove(at: index)
            case (false, let value?): entries.insert(Entry(key: key, value: value), at: index)
            case (false, nil): break
            }
        }
    }

    public func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }

    /// Binary search by UTF-8 byte order: the insertion index and whether the key is there.
    private func search(_ key: String) -> (Int, Bool) {
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            let order = compareUTF8(entries[mid].key, key)
            if order == 0 { return (mid, true) }
            if order < 0 { low = mid + 1 } else { high = mid }
        }
        return (low, false)
    }
}

/// Byte-wise comparison of two strings' UTF-8 (`memcmp` order, Realm's string order).
@inlinable
public func compareUTF8(_ a: String, _ b: String) -> Int {
    var a = a
    var b = b
    return a.withUTF8 { x in b.withUTF8 { y in compareBytes(x, y) } }
}

/// Lexicographic comparison of two byte buffers: negative, zero or positive.
@inlinable
public func compareBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
    let n = min(a.count, b.count)
    var i = 0
    while i < n {
        let x = a[i]
        let y = b[i]
        if x != y { return x < y ? -1 : 1 }
        i &+= 1
    }
    return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
}
