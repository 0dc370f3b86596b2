import RQLCore

/// The equality-and-range index of one property (the primary key's, or a hash-indexed
/// property's): `(value, row key)` pairs in `ValueOrdering` order, so one tree answers `==`
/// (`indexLookup`, `position(ofPrimaryKey:)`) and ranges (`indexRange`). Row keys, not
/// positions, are stored: a deletion elsewhere in the table moves positions but no entry.
///
/// `int` properties get a tree of plain integers (half the size, no `Value` comparisons);
/// every other type a tree of `Value`s.
enum PropertyIndex: Sendable {
    /// Entries of an `int` property.
    case int(PersistentBTree<IntIndexEntry>)
    /// Entries of any other indexable property.
    case value(PersistentBTree<ValueIndexEntry>)
    /// Only while a change is in progress: holds nothing, so the tree being changed is
    /// referenced once and its nodes can be written in place.
    case detached

    init(for property: Property) {
        self = property.type == .int ? .int(PersistentBTree()) : .value(PersistentBTree())
    }

    /// An index of `entries` (value, row key), in any order.
    init(for property: Property, entries: [(Value, Int64)]) {
        if property.type == .int {
            self.init(intEntries: entries.map { IntIndexEntry($0.0, row: $0.1) })
        } else {
            self = .value(PersistentBTree(sorted: entries.map { ValueIndexEntry(key: $0.0, row: $0.1) }.sorted()))
        }
    }

    /// An index of an `int` property's entries, in any order (sorted in place: a bulk build
    /// holds the entries and the tree, not a copy of each).
    init(intEntries entries: [IntIndexEntry]) {
        var sorted = entries
        if !zip(sorted, sorted.dropFirst()).allSatisfy({ $0 < $1 }) { sorted.sort() }
        self = .int(PersistentBTree(sorted: sorted))
    }

    var count: Int {
        switch self {
        case .int(let tree): tree.count
        case .value(let tree): tree.count
        case .detached: 0
        }
    }

    mutating func insert(_ value: Value, row: Int64) {
        switch self {
        case .int(var tree):
            self = .detached
            tree.insert(IntIndexEntry(value, row: row))
            self = .int(tree)
        case .value(var tree):
            self = .detached
            tree.insert(ValueIndexEntry(key: value, row: row))
            self = .value(tree)
        case .detached:
            break
        }
    }

    mutating func remove(_ value: Value, row: Int64) {
        switch self {
        case .int(var tree):
            self = .detached
            tree.remove(IntIndexEntry(value, row: row))
            self = .int(tree)
        case .value(var tree):
            self = .detached
            tree.remove(ValueIndexEntry(key: value, row: row))
            self = .value(tree)
        case .detached:
            break
        }
    }

    /// The row keys whose value equals `value` under Realm equality, ascending.
    func rows(equalTo value: Value, limit: Int = .max) -> [Int64] {
        var rows: [Int64] = []
        switch self {
        case .int(let tree):
            let probe: IntIndexEntry
            switch EqualityKey(value).value {
            case .int(let i): probe = IntIndexEntry(isNull: false, key: i, row: .min)
            case .null: probe = IntIndexEntry(isNull: true, key: 0, row: .min)
            default: return []
            }
            tree.forEach(
                from: { $0 < probe },
                body: { entry in
                    guard entry.isNull == probe.isNull, entry.key == probe.key else { return false }
                    rows.append(entry.row)
                    return rows.count < limit
                }
            )
        case .value(let tree):
            let wanted = EqualityKey(value)
            tree.forEach(
                from: { ValueOrdering.compare($0.key, value) < 0 },
                body: { entry in
                    guard ValueOrdering.compare(entry.key, value) == 0 else { return false }
                    if EqualityKey(entry.key) == wanted { rows.append(entry.row) }
                    return rows.count < limit
                }
            )
            // Ties under the ordering that are not equal (none today) could leave rows unsorted.
            if !zip(rows, rows.dropFirst()).allSatisfy({ $0 < $1 }) { rows.sort() }
        case .detached:
            break
        }
        return rows
    }

    /// The row keys whose non-null value lies between the bounds in `ValueOrdering`, in value order.
    func rows(lower: Value?, lowerInclusive: Bool, upper: Value?, upperInclusive: Bool) -> [Int64] {
        func below(_ key: Value) -> Bool {
            guard let lower else { return false }
            let order = ValueOrdering.compare(key, lower)
            return lowerInclusive ? order < 0 : order <= 0
        }
        func above(_ key: Value) -> Bool {
            guard let upper else { return false }
            let order = ValueOrdering.compare(key, upper)
            return upperInclusive ? order > 0 : order >= 0
        }
        var rows: [Int64] = []
        switch self {
        case .int(let tree):
            tree.forEach(
                from: { $0.isNull || below(.int($0.key)) },
                body: { entry in
                    guard !above(.int(entry.key)) else { return false }
                    rows.append(entry.row)
                    return true
                }
            )
        case .value(let tree):
            tree.forEach(
                from: { $0.key.isNull || below($0.key) },
                body: { entry in
                    guard !above(entry.key) else { return false }
                    // NaN sorts before every number yet lies in no range (`f < 0` is false for NaN, as
                    // the in-memory sorted index, which leaves NaN out, answers); without a lower
                    // bound the walk starts at the NaNs.
                    if !NumericComparison.isNaN(entry.key) { rows.append(entry.row) }
                    return true
                }
            )
        case .detached:
            break
        }
        return rows
    }
}

/// One entry of an `int` property's index; nulls sort first.
struct IntIndexEntry: Comparable, Sendable {
    let isNull: Bool
    let key: Int64
    let row: Int64

    init(isNull: Bool, key: Int64, row: Int64) {
        self.isNull = isNull
        self.key = key
        self.row = row
    }

    init(_ value: Value, row: Int64) {
        if case .int(let i) = value {
            self.init(isNull: false, key: i, row: row)
        } else {
            self.init(isNull: true, key: 0, row: row)
        }
    }

    static func < (a: IntIndexEntry, b: IntIndexEntry) -> Bool {
        if a.isNull != b.isNull { return a.isNull }
        if a.key != b.key { return a.key < b.key }
        return a.row < b.row
    }
}

/// One entry of a non-`int` property's index, ordered by `ValueOrdering` then row key.
struct ValueIndexEntry: Comparable, Sendable {
    let key: Value
    let row: Int64

    static func < (a: ValueIndexEntry, b: ValueIndexEntry) -> Bool {
        let order = ValueOrdering.compare(a.key, b.key)
        return order != 0 ? order < 0 : a.row < b.row
    }

    static func == (a: ValueIndexEntry, b: ValueIndexEntry) -> Bool {
        a.row == b.row && ValueOrdering.compare(a.key, b.key) == 0
    }
}

/// The full-text index of one string property: `(token, row key)` pairs in token byte order, one
/// per distinct token of each row (`FullTextTokenizer`).
struct FullTextTree: Sendable {
    private(set) var tree = PersistentBTree<TokenEntry>()

    init() {}

    /// An index over an existing tree (read back from a file).
    init(tree: PersistentBTree<TokenEntry>) {
        self.tree = tree
    }

    /// An index of `texts` (text, row key), in any order.
    init(texts: [(String, Int64)]) {
        var entries: [TokenEntry] = []
        for (text, row) in texts {
            for token in Set(FullTextTokenizer.tokens(in: text)) { entries.append(TokenEntry(token: token, row: row)) }
        }
        tree = PersistentBTree(sorted: entries.sorted())
    }

    mutating func insert(_ text: String, row: Int64) {
        for token in Set(FullTextTokenizer.tokens(in: text)) { tree.insert(TokenEntry(token: token, row: row)) }
    }

    mutating func remove(_ text: String, row: Int64) {
        for token in Set(FullTextTokenizer.tokens(in: text)) { tree.remove(TokenEntry(token: token, row: row)) }
    }

    /// The row keys whose text has `token` (or, with `prefix`, a token starting with it), ascending.
    func rows(_ token: String, prefix: Bool) -> [Int64] {
        let folded = FullTextTokenizer.tokens(in: token).first ?? ""
        var rows: [Int64] = []
        tree.forEach(
            from: { compareUTF8($0.token, folded) < 0 },
            body: { entry in
                if prefix {
                    guard entry.token.utf8.starts(with: folded.utf8) else { return false }
                } else {
                    guard compareUTF8(entry.token, folded) == 0 else { return false }
                }
                rows.append(entry.row)
                return true
            }
        )
        return prefix ? Array(Set(rows)).sorted() : rows
    }
}

/// One token of one row.
struct TokenEntry: Comparable, Sendable {
    let token: String
    let row: Int64

    static func < (a: TokenEntry, b: TokenEntry) -> Bool {
        let order = compareUTF8(a.token, b.token)
        return order != 0 ? order < 0 : a.row < b.row
    }

    static func == (a: TokenEntry, b: TokenEntry) -> Bool {
        a.row == b.row && compareUTF8(a.token, b.token) == 0
    }
}

/// Every link into one table: `(target row, origin, source row)` once per link (a list holding an
/// object twice gives two entries), ordered so that one target's links from one origin are
/// contiguous and in source key order, which is origin table order.
struct BacklinkIndex: Sendable {
    private(set) var tree = PersistentBTree<BacklinkEntry>()
    /// The origins (class, property) that have linked here; an entry's `origin` indexes this.
    private(set) var origins: [BacklinkOrigin] = []

    init() {}

    /// An index over an existing tree (read back from a file); every entry's origin indexes `origins`.
    init(origins: [BacklinkOrigin], tree: PersistentBTree<BacklinkEntry>) {
        self.origins = origins
        self.tree = tree
    }

    init(origins: [BacklinkOrigin], sortedEntries: [BacklinkEntry]) {
        self.origins = origins
        tree = PersistentBTree(sorted: sortedEntries)
    }

    func originID(_ origin: BacklinkOrigin) -> Int32? {
        origins.firstIndex(of: origin).map { Int32($0) }
    }

    mutating func registerOrigin(_ origin: BacklinkOrigin) -> Int32 {
        if let id = originID(origin) { return id }
        origins.append(origin)
        return Int32(origins.count - 1)
    }

    /// Renames an origin (a renamed class property); entries keep their origin number.
    mutating func renameOrigin(_ old: BacklinkOrigin, to new: BacklinkOrigin) {
        if let id = originID(old) { origins[Int(id)] = new }
    }

    mutating func add(target: Int64, origin: BacklinkOrigin, source: Int64) {
        tree.insert(BacklinkEntry(target: target, origin: registerOrigin(origin), source: source))
    }

    mutating func remove(target: Int64, origin: BacklinkOrigin, source: Int64) {
        guard let id = originID(origin) else { return }
        tree.remove(BacklinkEntry(target: target, origin: id, source: source))
    }

    /// The source rows of `origin` linking to `target`, once per link, ascending.
    func sources(target: Int64, origin: BacklinkOrigin) -> [Int64] {
        guard let id = originID(origin) else { return [] }
        var sources: [Int64] = []
        let first = BacklinkEntry(target: target, origin: id, source: .min)
        tree.forEach(
            from: { $0 < first },
            body: { entry in
                guard entry.target == target, entry.origin == id else { return false }
                sources.append(entry.source)
                return true
            }
        )
        return sources
    }

    /// Every link into `target`: its origin and source row.
    func incoming(target: Int64) -> [(origin: BacklinkOrigin, source: Int64)] {
        var links: [(BacklinkOrigin, Int64)] = []
        tree.forEach(
            from: { $0.target < target },
            body: { entry in
                guard entry.target == target else { return false }
                // An entry read from a damaged file may name no origin: skip it.
                if Int(entry.origin) < origins.count { links.append((origins[Int(entry.origin)], entry.source)) }
                return true
            }
        )
        return links
    }

    func count(target: Int64) -> Int {
        var count = 0
        tree.forEach(
            from: { $0.target < target },
            body: { entry in
                guard entry.target == target else { return false }
                count += 1
                return true
            }
        )
        return count
    }
}

/// One link: the target row (in the table that owns the index), the origin's number, the source row.
struct BacklinkEntry: Comparable, Sendable {
    let target: Int64
    let origin: Int32
    let source: Int64

    static func < (a: BacklinkEntry, b: BacklinkEntry) -> Bool {
        if a.target != b.target { return a.target < b.target }
        if a.origin != b.origin { return a.origin < b.origin }
        return a.source < b.source
    }
}

/// A link property that can point at a table's rows: the origin class and property names.
struct BacklinkOrigin: Hashable, Sendable {
    let className: String
    let property: String
}
