import Foundation

/// Which rows of a column are null: bit `i` of the words is set when row `i` is null. An empty
/// mask means no row is null (non-optional columns carry none).
///
/// Views are valid only inside the `withColumn` call that produced them.
// Unchecked: a read-only view of a snapshot's memory, valid only inside the `withColumn` call
// that made it; nothing writes that memory while the view exists.
public struct NullMask: @unchecked Sendable {
    /// 64 rows per word, row `i` at bit `i % 64` of word `i / 64`.
    public let words: UnsafeBufferPointer<UInt64>

    public init(words: UnsafeBufferPointer<UInt64>) {
        self.words = words
    }

    /// Whether row `i` is null.
    @inlinable @inline(__always)
    public func isNull(_ i: Int) -> Bool {
        words.isEmpty ? false : (words[i &>> 6] &>> UInt64(i & 63)) & 1 == 1
    }

    /// Whether the column may hold nulls at all.
    public var hasNulls: Bool { !words.isEmpty }
}

/// A column of fixed-width values: row `i` is `values[i]` unless `nulls.isNull(i)` (then
/// `values[i]` is the type's zero value).
///
/// ```swift
/// table.withColumn(ageIndex) { view in
///     if case .int(let ages) = view { for i in 0..<ages.values.count where ages.values[i] > 2 { … } }
/// }
/// ```
// Unchecked: a read-only view of a snapshot's memory, valid only inside the `withColumn` call
// that made it; nothing writes that memory while the view exists.
public struct FixedWidthColumnView<Element>: @unchecked Sendable {
    public let values: UnsafeBufferPointer<Element>
    public let nulls: NullMask

    public init(values: UnsafeBufferPointer<Element>, nulls: NullMask) {
        self.values = values
        self.nulls = nulls
    }
}

/// A column of variable-length byte strings (UTF-8 strings or binaries): row `i` is
/// `bytes[offsets[i] ..< offsets[i + 1]]`; `offsets` has one more entry than there are rows.
// Unchecked: a read-only view of a snapshot's memory, valid only inside the `withColumn` call
// that made it; nothing writes that memory while the view exists.
public struct BytesColumnView: @unchecked Sendable {
    public let offsets: UnsafeBufferPointer<Int>
    public let bytes: UnsafeBufferPointer<UInt8>
    public let nulls: NullMask

    public init(offsets: UnsafeBufferPointer<Int>, bytes: UnsafeBufferPointer<UInt8>, nulls: NullMask) {
        self.offsets = offsets
        self.bytes = bytes
        self.nulls = nulls
    }

    /// The number of rows.
    public var count: Int { Swift.max(offsets.count - 1, 0) }

    /// The bytes of row `i` (empty for null; check `nulls`).
    @inlinable @inline(__always)
    public func bytes(at i: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[offsets[i]..<offsets[i &+ 1]])
    }
}

/// A column of links: row `i` points at the row with key `keys[i]` in `targetClass`, or at
/// nothing when `keys[i]` is negative.
// Unchecked: a read-only view of a snapshot's memory, valid only inside the `withColumn` call
// that made it; nothing writes that memory while the view exists.
public struct LinkColumnView: @unchecked Sendable {
    public let targetClass: String
    public let keys: UnsafeBufferPointer<Int64>

    public init(targetClass: String, keys: UnsafeBufferPointer<Int64>) {
        self.targetClass = targetClass
        self.keys = keys
    }
}

/// A list, set or map column (or computed backlinks): row `i` owns elements
/// `offsets[i] ..< offsets[i + 1]` of `elements`; for maps, `keys` holds each element's key.
/// Sets are stored in `ValueOrdering` order, maps in key byte order.
// Unchecked: a read-only view of a snapshot's memory, valid only inside the `withColumn` call
// that made it; nothing writes that memory while the view exists.
public struct CollectionColumnView: @unchecked Sendable {
    public let kind: CollectionKind
    public let offsets: UnsafeBufferPointer<Int>
    public let elements: ColumnView
    /// The keys of a map's entries, parallel to `elements`; `nil` for lists and sets.
    public let keys: BytesColumnView?

    public init(kind: CollectionKind, offsets: UnsafeBufferPointer<Int>, elements: ColumnView, keys: BytesColumnView?) {
        self.kind = kind
        self.offsets = offsets
        self.elements = elements
        self.keys = keys
    }

    /// The element range of row `i`.
    @inlinable @inline(__always)
    public func range(of i: Int) -> Range<Int> { offsets[i]..<offsets[i &+ 1] }
}

/// A typed, contiguous view of one column, as executors scan it.
// Unchecked: a read-only view of a snapshot's memory, valid only inside the `withColumn` call
// that made it; nothing writes that memory while the view exists.
public indirect enum ColumnView: @unchecked Sendable {
    /// `bool` values.
    case bool(FixedWidthColumnView<Bool>)
    /// `int` values.
    case int(FixedWidthColumnView<Int64>)
    /// `float` values.
    case float(FixedWidthColumnView<Float>)
    /// `double` values.
    case double(FixedWidthColumnView<Double>)
    /// `decimal128` values.
    case decimal(FixedWidthColumnView<Decimal128>)
    /// `date` values.
    case date(FixedWidthColumnView<Timestamp>)
    /// `objectId` values.
    case objectId(FixedWidthColumnView<ObjectId>)
    /// `uuid` values.
    case uuid(FixedWidthColumnView<UUID>)
    /// `string` values as UTF-8.
    case string(BytesColumnView)
    /// `data` values.
    case data(BytesColumnView)
    /// `mixed` values, one `Value` per row (null rows are `.null`).
    case mixed(FixedWidthColumnView<Value>)
    /// To-one links (and embedded objects, whose target is the embedded class's table).
    case link(LinkColumnView)
    /// Lists, sets, maps and backlinks: offset ranges into an element column.
    case collection(CollectionColumnView)
}
