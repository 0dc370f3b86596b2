import Foundation
import RQLCore
import Synchronization

/// One column of one block: the arrays a `ColumnView` points into. Items are rows for a
/// block's columns and elements for a collection's element segment; the owner knows the count.
///
/// Every change goes through `replace(_:with:count:limit:)` (items `range` become `values`), which
/// writes in place when the arrays are the writer's own and copies them otherwise (see
/// `ByteArray.splice`), so a snapshot that shares a segment never sees it change.
enum Segment: Sendable {
    /// Fixed-width values (or link keys) and an optional null bitmap.
    case fixed(FixedSegment)
    /// Strings or binaries.
    case bytes(BytesSegment)
    /// `mixed` values, encoded.
    case mixed(MixedSegment)
    /// Lists, sets and maps (boxed: a collection holds its element segment).
    indirect case collection(CollectionSegment)
    /// Computed backlinks: no storage (the table's backlink index answers).
    case backlinks

    /// An empty segment of `shape`.
    static func empty(_ shape: SegmentShape) -> Segment {
        switch shape {
        case .fixed(let type, let optional):
            return .fixed(
                FixedSegment(type: type, values: ByteArray(capacity: 0), nulls: optional ? ByteArray(capacity: 0) : nil)
            )
        case .bytes(let isString, let optional):
            return .bytes(BytesSegment(isString: isString, optional: optional))
        case .mixed:
            return .mixed(MixedSegment(encoded: BytesSegment(isString: false, optional: false), cache: MixedCache()))
        case .collection(let kind, let element):
            let offsets = ByteArray(capacity: 8)
            offsets.pointer.storeBytes(of: 0, as: Int.self)
            offsets.storage.watermark = 8
            return .collection(
                CollectionSegment(
                    kind: kind,
                    offsets: offsets,
                    elements: .empty(element),
                    keys: kind == .map ? BytesSegment(isString: true, optional: false) : nil
                )
            )
        case .backlinks:
            return .backlinks
        }
    }

    /// A segment of `shape` holding `values`.
    static func build(_ shape: SegmentShape, _ values: [Value], limit: Int = .max) -> Segment {
        var segment = Segment.empty(shape)
        segment.replace(0..<0, with: values, count: 0, limit: limit)
        return segment
    }

    /// Item `i` as a `Value` (collections as `.list` / `.map`; `.null` for backlinks, which the
    /// table computes).
    func value(at i: Int) -> Value {
        switch self {
        case .fixed(let s): s.value(at: i)
        case .bytes(let s): s.value(at: i)
        case .mixed(let s): s.value(at: i)
        case .collection(let s): s.value(at: i)
        case .backlinks: .null
        }
    }

    /// Replaces items `range` of the `count` items with `values` (already valid for the shape:
    /// sets sorted and unique, map entries as `.map`). `limit` caps the capacity a copy reserves,
    /// in items.
    mutating func replace(_ range: Range<Int>, with values: [Value], count: Int, limit: Int) {
        // Take the payload out and leave a placeholder, so that the arrays are referenced once
        // and `isKnownUniquelyReferenced` can allow writing in place.
        switch self {
        case .fixed(var s):
            self = .backlinks
            s.replace(range, with: values, count: count, limit: limit)
            self = .fixed(s)
        case .bytes(var s):
            self = .backlinks
            s.replace(range, with: values, count: count, limit: limit)
            self = .bytes(s)
        case .mixed(var s):
            self = .backlinks
            s.replace(range, with: values, count: count, limit: limit)
            self = .mixed(s)
        case .collection(var s):
            self = .backlinks
            s.replace(range, with: values, count: count, limit: limit)
            self = .collection(s)
        case .backlinks:
            break
        }
    }

    /// Appends `value` after the `count` items: `replace(count..<count, with: [value], …)` for
    /// one value, without the arrays a splice of many builds (a single-object insert appends one
    /// value to every column).
    mutating func append(_ value: Value, count: Int, limit: Int) {
        switch self {
        case .fixed(var s):
            self = .backlinks
            s.append(value, count: count, limit: limit)
            self = .fixed(s)
        case .bytes(var s):
            self = .backlinks
            s.append(value, count: count, limit: limit)
            self = .bytes(s)
        case .mixed, .collection:
            replace(count..<count, with: [value], count: count, limit: limit)
        case .backlinks:
            break
        }
    }

    /// For a collection segment: replaces elements `range` of row `row` (indices within the
    /// row) with `values` (and, for maps, `keys`).
    mutating func replaceElements(row: Int, range: Range<Int>, with values: [Value], keys: [String]?, rowCount: Int) {
        guard case .collection(var s) = self else { return }
        self = .backlinks
        s.replaceElements(row: row, range: range, with: values, keys: keys, rowCount: rowCount)
        self = .collection(s)
    }
}

/// `items × stride + plus` bytes, saturating at `.max` (an unlimited item count stays unlimited).
@inline(__always)
func byteLimit(_ items: Int, _ stride: Int, plus: Int = 0) -> Int {
    let (bytes, overflow) = items.multipliedReportingOverflow(by: stride)
    let (total, overflowAgain) = bytes.addingReportingOverflow(plus)
    return overflow || overflowAgain ? .max : total
}

/// Fixed-width values (or link keys): `values` holds `count × stride` bytes; `nulls` is the null
/// bitmap of an optional non-link property.
struct FixedSegment: Sendable {
    var type: FixedType
    var values: ByteArray
    var nulls: ByteArray?

    func isNull(_ i: Int) -> Bool {
        nulls.map { NullBits.isNull($0, i) } ?? false
    }

    func value(at i: Int) -> Value {
        isNull(i) ? .null : type.load(at: values.pointer + i * type.stride)
    }

    mutating func replace(_ range: Range<Int>, with newValues: [Value], count: Int, limit: Int) {
        let stride = type.stride
        let p = values.splice(
            range.lowerBound * stride..<range.upperBound * stride,
            insertCount: newValues.count * stride,
            used: count * stride,
            limit: byteLimit(limit, stride)
        )
        for (j, value) in newValues.enumerated() { type.store(value, at: p + j * stride) }
        if nulls != nil { NullBits.splice(&nulls!, count: count, range: range, newNulls: newValues.map(\.isNull)) }
    }

    /// `replace(count..<count, with: [value], count: count, limit: limit)`.
    mutating func append(_ value: Value, count: Int, limit: Int) {
        let stride = type.stride
        let p = values.splice(
            count * stride..<count * stride,
            insertCount: stride,
            used: count * stride,
            limit: byteLimit(limit, stride)
        )
        type.store(value, at: p)
        if nulls != nil { NullBits.append(&nulls!, count: count, isNull: value.isNull) }
    }
}

/// Strings or binaries: item `i` is `bytes[offsets[i] ..< offsets[i + 1]]`, `offsets` holding
/// `count + 1` `Int`s from 0.
struct BytesSegment: Sendable {
    var isString: Bool
    var offsets: ByteArray
    var bytes: ByteArray
    var nulls: ByteArray?

    init(isString: Bool, optional: Bool) {
        self.isString = isString
        offsets = ByteArray(capacity: 8)
        offsets.pointer.storeBytes(of: 0, as: Int.self)
        offsets.storage.watermark = 8
        bytes = ByteArray(capacity: 0)
        nulls = optional ? ByteArray(capacity: 0) : nil
    }

    init(isString: Bool, offsets: ByteArray, bytes: ByteArray, nulls: ByteArray?) {
        self.isString = isString
        self.offsets = offsets
        self.bytes = bytes
        self.nulls = nulls
    }

    @inline(__always)
    func offset(_ i: Int) -> Int { offsets.load(i, as: Int.self) }

    func isNull(_ i: Int) -> Bool {
        nulls.map { NullBits.isNull($0, i) } ?? false
    }

    /// The bytes of item `i`.
    func raw(_ i: Int) -> UnsafeRawBufferPointer {
        let start = offset(i)
        return UnsafeRawBufferPointer(start: bytes.pointer + start, count: offset(i + 1) - start)
    }

    func string(at i: Int) -> String { String(decoding: raw(i), as: UTF8.self) }

    func value(at i: Int) -> Value {
        if isNull(i) { return .null }
        return isString ? .string(string(at: i)) : .data(Array(raw(i)))
    }

    mutating func replace(_ range: Range<Int>, with values: [Value], count: Int, limit: Int) {
        var payload: [UInt8] = []
        var lengths: [Int] = []
        lengths.reserveCapacity(values.count)
        for value in values {
            let before = payload.count
            switch value {
            case .string(let s): payload.append(contentsOf: s.utf8)
            case .data(let d): payload.append(contentsOf: d)
            default: break
            }
            lengths.append(payload.count - before)
        }
        replace(range, payload: payload, lengths: lengths, nulls: values.map(\.isNull), count: count, limit: limit)
    }

    /// `replace(count..<count, with: [value], count: count, limit: limit)`.
    mutating func append(_ value: Value, count: Int, limit: Int) {
        switch value {
        case .string(var text):
            text.withUTF8 { append(UnsafeRawBufferPointer($0), isNull: false, count: count, limit: limit) }
        case .data(let data):
            data.withUnsafeBytes { append($0, isNull: false, count: count, limit: limit) }
        default:
            append(UnsafeRawBufferPointer(start: nil, count: 0), isNull: value.isNull, count: count, limit: limit)
        }
    }

    private mutating func append(_ payload: UnsafeRawBufferPointer, isNull: Bool, count: Int, limit: Int) {
        let total = offset(count)
        let target = bytes.splice(total..<total, insertCount: payload.count, used: total)
        if let source = payload.baseAddress, payload.count > 0 {
            target.copyMemory(from: source, byteCount: payload.count)
        }
        let entry = offsets.splice(
            (count + 1) * 8..<(count + 1) * 8,
            insertCount: 8,
            used: (count + 1) * 8,
            limit: byteLimit(limit, 8, plus: 8)
        )
        entry.storeBytes(of: total + payload.count, as: Int.self)
        if nulls != nil { NullBits.append(&nulls!, count: count, isNull: isNull) }
    }

    /// Replaces items `range` with items of `lengths` bytes each, back to back in `payload`.
    mutating func replace(
        _ range: Range<Int>,
        payload: [UInt8],
        lengths: [Int],
        nulls newNulls: [Bool],
        count: Int,
        limit: Int
    ) {
        let start = offset(range.lowerBound)
        let end = offset(range.upperBound)
        let total = offset(count)
        let target = bytes.splice(start..<end, insertCount: payload.count, used: total)
        if !payload.isEmpty {
            payload.withUnsafeBytes { target.copyMemory(from: $0.baseAddress!, byteCount: payload.count) }
        }
        offsets.replaceOffsets(range, lengths: lengths, count: count, limit: limit)
        if nulls != nil { NullBits.splice(&nulls!, count: count, range: range, newNulls: newNulls) }
    }
}

/// `mixed` values: each item's `MixedCoding` bytes in `encoded` (null is encoded too), and a
/// lazily filled cache of the decoded `Value`s that views hand out.
struct MixedSegment: Sendable {
    var encoded: BytesSegment
    var cache: MixedCache

    func value(at i: Int) -> Value {
        MixedCoding.decode(encoded.raw(i)) ?? .null
    }

    mutating func replace(_ range: Range<Int>, with values: [Value], count: Int, limit: Int) {
        var payload: [UInt8] = []
        var lengths: [Int] = []
        for value in values {
            let before = payload.count
            MixedCoding.encode(value, into: &payload)
            lengths.append(payload.count - before)
        }
        encoded.replace(
            range,
            payload: payload,
            lengths: lengths,
            nulls: [Bool](repeating: false, count: values.count),
            count: count,
            limit: limit
        )
        cache = MixedCache()
    }
}

/// The decoded values of one mixed segment, built on first use by a view and kept for the
/// segment's life (a changed segment gets a new cache). Thread-safe: snapshots are read from
/// any thread.
final class MixedCache: Sendable {
    private let decoded = Mutex<DecodedValues?>(nil)

    func values(of segment: BytesSegment, count: Int) -> DecodedValues {
        decoded.withLock { cached in
            if let cached, cached.values.count == count { return cached }
            let fresh = DecodedValues((0..<count).map { MixedCoding.decode(segment.raw($0)) ?? .null })
            cached = fresh
            return fresh
        }
    }
}

/// `Value`s and their null bitmap in stable memory, so views can point at them.
// Unchecked: the buffers are filled in `init` and never written again; `MixedCache` publishes
// an instance under its mutex.
final class DecodedValues: @unchecked Sendable {
    let values: UnsafeMutableBufferPointer<Value>
    let nullWords: UnsafeMutableBufferPointer<UInt64>

    init(_ items: [Value]) {
        values = .allocate(capacity: items.count)
        _ = values.initialize(from: items)
        nullWords = .allocate(capacity: NullBits.wordCount(items.count))
        nullWords.initialize(repeating: 0)
        for (i, item) in items.enumerated() where item.isNull { nullWords[i >> 6] |= 1 << UInt64(i & 63) }
    }

    deinit {
        values.deinitialize().deallocate()
        nullWords.deallocate()
    }
}

/// A collection per row: row `i` owns elements `offsets[i] ..< offsets[i + 1]` of `elements`
/// (and of `keys`, for a map). Sets are kept in `ValueOrdering` order, maps in key byte order.
struct CollectionSegment: Sendable {
    var kind: CollectionKind
    var offsets: ByteArray
    var elements: Segment
    var keys: BytesSegment?

    @inline(__always)
    func offset(_ i: Int) -> Int { offsets.load(i, as: Int.self) }

    func range(of row: Int) -> Range<Int> { offset(row)..<offset(row + 1) }

    func value(at row: Int) -> Value {
        let range = range(of: row)
        if let keys {
            return .map(MixedMap(range.map { (keys.string(at: $0), elements.value(at: $0)) }))
        }
        return .list(range.map { elements.value(at: $0) })
    }

    /// Rows `range` become `values` (`.list` or `.map` each).
    mutating func replace(_ range: Range<Int>, with values: [Value], count: Int, limit: Int) {
        var flat: [Value] = []
        var flatKeys: [String] = []
        var lengths: [Int] = []
        for value in values {
            switch value {
            case .list(let items):
                flat.append(contentsOf: items)
                lengths.append(items.count)
            case .map(let map):
                for entry in map {
                    flatKeys.append(entry.key)
                    flat.append(entry.value)
                }
                lengths.append(map.count)
            default:
                lengths.append(0)
            }
        }
        let start = offset(range.lowerBound)
        let end = offset(range.upperBound)
        let total = offset(count)
        spliceElements(start..<end, with: flat, keys: flatKeys, total: total)
        offsets.replaceOffsets(range, lengths: lengths, count: count, limit: limit)
    }

    /// Elements `range` of row `row` (indices within the row) become `values` / `keys`.
    mutating func replaceElements(
        row: Int,
        range: Range<Int>,
        with values: [Value],
        keys newKeys: [String]?,
        rowCount: Int
    ) {
        let base = offset(row)
        let total = offset(rowCount)
        spliceElements(
            (base + range.lowerBound)..<(base + range.upperBound),
            with: values,
            keys: newKeys ?? [],
            total: total
        )
        let delta = values.count - range.count
        guard delta != 0 else { return }
        let all = offsets.mutableBytes((row + 1) * 8..<(rowCount + 1) * 8, used: (rowCount + 1) * 8)
            .bindMemory(to: Int.self, capacity: rowCount - row)
        for i in 0..<(rowCount - row) { all[i] += delta }
    }

    private mutating func spliceElements(_ range: Range<Int>, with values: [Value], keys newKeys: [String], total: Int)
    {
        elements.replace(range, with: values, count: total, limit: .max)
        if keys != nil {
            keys!.replace(range, with: newKeys.map { .string($0) }, count: total, limit: .max)
        }
    }
}

extension ByteArray {
    /// In a table of `count + 1` offsets (`Int`s: item `i` spans `[i] ..< [i + 1]` of a payload
    /// that the caller has already spliced), items `range` become items of `lengths`, the first
    /// starting where `range` started, and the items after move by the change in length.
    /// `limit` caps the capacity a copy reserves, in items.
    mutating func replaceOffsets(_ range: Range<Int>, lengths: [Int], count: Int, limit: Int) {
        let start = load(range.lowerBound, as: Int.self)
        let end = load(range.upperBound, as: Int.self)
        let entries = splice(
            (range.lowerBound + 1) * 8..<(range.upperBound + 1) * 8,
            insertCount: lengths.count * 8,
            used: (count + 1) * 8,
            limit: byteLimit(limit, 8, plus: 8)
        )
        var next = start
        for (j, length) in lengths.enumerated() {
            next += length
            entries.storeBytes(of: next, toByteOffset: j * 8, as: Int.self)
        }
        let delta = next - end
        let newCount = count - range.count + lengths.count
        if delta != 0 {
            let all = pointer.bindMemory(to: Int.self, capacity: newCount + 1)
            for i in (range.lowerBound + lengths.count + 1)..<(newCount + 1) { all[i] += delta }
        }
    }
}
