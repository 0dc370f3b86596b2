import RQLCore

/// An unmanaged `Map`'s entries: found by key in O(1), listed in the UTF-8 byte order of their
/// keys as a managed map lists them. Keys are equal when their bytes are, as in the store
/// (Swift's `==` would take canonically equivalent spellings for one key). The order is sorted
/// when it is asked for after keys were added or removed, not kept sorted by each insert (which
/// moved every entry after the new key: a fill was quadratic).
struct UnmanagedMapEntries<Key: _MapKey, Value> {
    /// The entries in the order they were added; a removal moves the last one into its place.
    private var entries: [(key: Key, value: Value)] = []
    /// Each key's position in `entries`.
    private var positions: [UTF8Key: Int] = [:]
    /// The positions of `entries` in key order; nil once a key was added or removed.
    private var order: [Int]? = []

    init() {}

    init(_ pairs: [(key: Key, value: Value)]) {
        for (key, value) in pairs { updateValue(value, forKey: key) }
    }

    var count: Int { entries.count }

    /// The key as the store keeps it.
    static func text(_ key: Key) -> String { (key as? String) ?? "\(key)" }

    subscript(key: Key) -> Value? {
        positions[UTF8Key(Self.text(key))].map { entries[$0].value }
    }

    mutating func updateValue(_ value: Value, forKey key: Key) {
        let text = UTF8Key(Self.text(key))
        if let position = positions[text] {
            entries[position].value = value
            return
        }
        positions[text] = entries.count
        entries.append((key, value))
        order = nil
    }

    mutating func removeValue(forKey key: Key) {
        guard let position = positions.removeValue(forKey: UTF8Key(Self.text(key))) else { return }
        let last = entries.removeLast()
        if position < entries.count {
            entries[position] = last
            positions[UTF8Key(Self.text(last.key))] = position
        }
        order = nil
    }

    mutating func removeAll() {
        entries = []
        positions = [:]
        order = []
    }

    /// The entries in key order (sorted once after keys were added or removed).
    mutating func sorted() -> [(key: Key, value: Value)] {
        let order = self.order ?? sortedPositions()
        self.order = order
        return order.map { entries[$0] }
    }

    private func sortedPositions() -> [Int] {
        let texts = entries.map { Self.text($0.key) }
        return entries.indices.sorted { compareUTF8(texts[$0], texts[$1]) < 0 }
    }
}
