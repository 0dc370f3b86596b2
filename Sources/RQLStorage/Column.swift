import Foundation
import RQLCore

/// One column's owned storage. Columns are immutable once built: a commit builds new ones,
/// so a snapshot can be read from any thread while the next version is prepared.
///
/// Fixed-width values sit in one array, with a separate null bitmap only when the property is
/// optional; strings and binaries are offsets into one byte array; collections are offset
/// ranges into an element column; links are target row keys (-1 for none).
indirect enum Column: Sendable {
    /// `bool` values.
    case bool(FixedWidthColumn<Bool>)
    /// `int` values.
    case int(FixedWidthColumn<Int64>)
    /// `float` values.
    case float(FixedWidthColumn<Float>)
    /// `double` values.
    case double(FixedWidthColumn<Double>)
    /// `decimal128` values.
    case decimal(FixedWidthColumn<Decimal128>)
    /// `date` values.
    case date(FixedWidthColumn<Timestamp>)
    /// `objectId` values.
    case objectId(FixedWidthColumn<ObjectId>)
    /// `uuid` values.
    case uuid(FixedWidthColumn<UUID>)
    /// `string` values, UTF-8.
    case string(BytesColumn)
    /// `data` values.
    case data(BytesColumn)
    /// `mixed` values.
    case mixed(FixedWidthColumn<Value>)
    /// To-one links or embedded objects: the target's row key, -1 for none.
    case link(target: String, keys: [Int64])
    /// Lists, sets, maps, backlinks.
    case collection(CollectionColumn)

    /// Calls `body` with an unsafe view of the column; the view must not escape.
    func withView<R>(_ body: (ColumnView) throws -> R) rethrows -> R {
        switch self {
        case .bool(let c): return try c.withView { try body(.bool($0)) }
        case .int(let c): return try c.withView { try body(.int($0)) }
        case .float(let c): return try c.withView { try body(.float($0)) }
        case .double(let c): return try c.withView { try body(.double($0)) }
        case .decimal(let c): return try c.withView { try body(.decimal($0)) }
        case .date(let c): return try c.withView { try body(.date($0)) }
        case .objectId(let c): return try c.withView { try body(.objectId($0)) }
        case .uuid(let c): return try c.withView { try body(.uuid($0)) }
        case .string(let c): return try c.withView { try body(.string($0)) }
        case .data(let c): return try c.withView { try body(.data($0)) }
        case .mixed(let c): return try c.withView { try body(.mixed($0)) }
        case .link(let target, let keys):
            return try keys.withUnsafeBufferPointer { try body(.link(LinkColumnView(targetClass: target, keys: $0))) }
        case .collection(let c):
            return try c.offsets.withUnsafeBufferPointer { offsets in
                try c.elements.withView { elements in
                    if let keys = c.keys {
                        return try keys.withView { keyView in
                            try body(
                                .collection(
                                    CollectionColumnView(
                                        kind: c.kind,
                                        offsets: offsets,
                                        elements: elements,
                                        keys: keyView
                                    )
                                )
                            )
                        }
                    }
                    return try body(
                        .collection(CollectionColumnView(kind: c.kind, offsets: offsets, elements: elements, keys: nil))
                    )
                }
            }
        }
    }

    /// Row `i` as a `Value` (collections as `.list`/`.map`, links as `.link`/`.null`).
    func value(at i: Int) -> Value {
        switch self {
        case .bool(let c): return c.isNull(i) ? .null : .bool(c.values[i])
        case .int(let c): return c.isNull(i) ? .null : .int(c.values[i])
        case .float(let c): return c.isNull(i) ? .null : .float(c.values[i])
        case .double(let c): return c.isNull(i) ? .null : .double(c.values[i])
        case .decimal(let c): return c.isNull(i) ? .null : .decimal(c.values[i])
        case .date(let c): return c.isNull(i) ? .null : .date(c.values[i])
        case .objectId(let c): return c.isNull(i) ? .null : .objectId(c.values[i])
        case .uuid(let c): return c.isNull(i) ? .null : .uuid(c.values[i])
        case .string(let c): return c.isNull(i) ? .null : .string(String(decoding: c.bytes(at: i), as: UTF8.self))
        case .data(let c): return c.isNull(i) ? .null : .data(Array(c.bytes(at: i)))
        case .mixed(let c): return c.values[i]
        case .link(let target, let keys):
            return keys[i] < 0 ? .null : .link(ObjectLink(className: target, key: RowKey(keys[i])))
        case .collection(let c):
            let range = c.offsets[i]..<c.offsets[i + 1]
            if let keys = c.keys {
                return .map(
                    MixedMap(
                        range.map { (String(decoding: keys.bytes(at: $0), as: UTF8.self), c.elements.value(at: $0)) }
                    )
                )
            }
            return .list(range.map { c.elements.value(at: $0) })
        }
    }
}

/// Fixed-width values plus a null bitmap (empty when the column cannot hold null).
struct FixedWidthColumn<Element: Sendable>: Sendable {
    var values: [Element]
    var nullWords: [UInt64]

    func isNull(_ i: Int) -> Bool {
        nullWords.isEmpty ? false : (nullWords[i >> 6] >> UInt64(i & 63)) & 1 == 1
    }

    func withView<R>(_ body: (FixedWidthColumnView<Element>) throws -> R) rethrows -> R {
        try values.withUnsafeBufferPointer { values in
            try nullWords.withUnsafeBufferPointer { words in
                try body(FixedWidthColumnView(values: values, nulls: NullMask(words: words)))
            }
        }
    }
}

/// Variable-length byte strings: row `i` is `bytes[offsets[i] ..< offsets[i + 1]]`.
struct BytesColumn: Sendable {
    var offsets: [Int] = [0]
    var bytes: [UInt8] = []
    var nullWords: [UInt64] = []

    func isNull(_ i: Int) -> Bool {
        nullWords.isEmpty ? false : (nullWords[i >> 6] >> UInt64(i & 63)) & 1 == 1
    }

    func bytes(at i: Int) -> ArraySlice<UInt8> { bytes[offsets[i]..<offsets[i + 1]] }

    func withView<R>(_ body: (BytesColumnView) throws -> R) rethrows -> R {
        try offsets.withUnsafeBufferPointer { offsets in
            try bytes.withUnsafeBufferPointer { bytes in
                try nullWords.withUnsafeBufferPointer { words in
                    try body(BytesColumnView(offsets: offsets, bytes: bytes, nulls: NullMask(words: words)))
                }
            }
        }
    }
}

/// A collection column: row `i` owns `elements[offsets[i] ..< offsets[i + 1]]` (and, for maps,
/// the keys at the same positions).
final class CollectionColumn: Sendable {
    let kind: CollectionKind
    let offsets: [Int]
    let elements: Column
    let keys: BytesColumn?

    init(kind: CollectionKind, offsets: [Int], elements: Column, keys: BytesColumn?) {
        self.kind = kind
        self.offsets = offsets
        self.elements = elements
        self.keys = keys
    }
}

extension Column {
    /// Calls `body` with every link row `i` holds: a to-one link, each link of a list, set or
    /// map, and links anywhere inside a mixed value (nested ones included), as realm-core counts
    /// them as incoming links of their targets.
    func forEachLink(at i: Int, _ body: (ObjectLink) -> Void) {
        switch self {
        case .link(let target, let keys):
            if keys[i] >= 0 { body(ObjectLink(className: target, key: RowKey(keys[i]))) }
        case .mixed(let c):
            c.values[i].forEachLink(body)
        case .collection(let c):
            for element in c.offsets[i]..<c.offsets[i + 1] { c.elements.forEachLink(at: element, body) }
        default:
            break
        }
    }

    /// Whether the column can hold links at all (link, collection of links, or mixed).
    var canHoldLinks: Bool {
        switch self {
        case .link, .mixed: true
        case .collection(let c): c.elements.canHoldLinks
        default: false
        }
    }
}
