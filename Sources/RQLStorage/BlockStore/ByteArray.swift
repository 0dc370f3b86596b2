import Foundation

/// Raw bytes holding one or more arrays of a block: a heap allocation today, a read-only range of a
/// mapped file in phase 2. Little-endian, 64-byte aligned at `base`; every array inside starts at
/// a multiple of `ByteStorage.alignment`.
///
/// Immutability is by ownership, Swift's copy-on-write rule applied by hand: a writer changes
/// bytes in place only while `isKnownUniquelyReferenced` says no snapshot can see them. The one
/// exception is the append watermark (see `ByteArray.splice`).
final class ByteStorage: @unchecked Sendable {
    /// Array starts inside a storage are multiples of this, so any fixed-width type can be loaded.
    static let alignment = 16

    let base: UnsafeMutableRawPointer
    let capacity: Int
    /// Whether the storage holds several arrays (a packed block): appends in place are then
    /// impossible, since the bytes after one array belong to the next.
    let isPacked: Bool
    /// For an unpacked storage: the bytes in use by the newest version that wrote it. Bytes past
    /// it are read by no version, so the single writer may append there while older snapshots
    /// read the bytes before it. Read and written only by the writer (under the write lock).
    var watermark: Int
    /// The read-only file mapping these bytes live in, or `nil` for a heap allocation. Mapped
    /// bytes are never written: every writer path copies them first.
    let mapping: AnyObject?

    init(capacity: Int, isPacked: Bool = false) {
        self.capacity = Swift.max(capacity, 0)
        base = .allocate(byteCount: Swift.max(capacity, 1), alignment: 64)
        self.isPacked = isPacked
        watermark = 0
        mapping = nil
    }

    /// `capacity` bytes at `base` inside `mapping`, which the storage keeps alive.
    init(mapped base: UnsafeRawPointer, capacity: Int, mapping: AnyObject) {
        self.base = UnsafeMutableRawPointer(mutating: base)
        self.capacity = capacity
        isPacked = true
        watermark = capacity
        self.mapping = mapping
    }

    var isMapped: Bool { mapping != nil }

    deinit {
        if mapping == nil { base.deallocate() }
    }
}

/// One array inside a `ByteStorage`: `capacity` bytes at `offset`. How many are in use is known
/// to the owner (a row count times a stride, or the last string offset), not stored here.
// Unchecked: as its `ByteStorage`, written only by an owner that holds the only reference.
struct ByteArray: @unchecked Sendable {
    var storage: ByteStorage
    var offset: Int
    var capacity: Int

    /// A fresh, empty array with room for `capacity` bytes in its own storage.
    init(capacity: Int) {
        storage = ByteStorage(capacity: capacity)
        offset = 0
        self.capacity = capacity
    }

    init(storage: ByteStorage, offset: Int, capacity: Int) {
        self.storage = storage
        self.offset = offset
        self.capacity = capacity
    }

    /// A fresh array holding a copy of `used` bytes of this one, with room for `capacity`.
    func copy(used: Int, capacity: Int) -> ByteArray {
        let fresh = ByteArray(capacity: Swift.max(capacity, used))
        fresh.pointer.copyMemory(from: pointer, byteCount: used)
        fresh.storage.watermark = used
        return fresh
    }

    @inline(__always)
    var pointer: UnsafeMutableRawPointer { storage.base + offset }

    @inline(__always)
    func load<T>(_ index: Int, as type: T.Type) -> T {
        pointer.load(fromByteOffset: index &* MemoryLayout<T>.stride, as: T.self)
    }

    /// The first `count` elements as a typed buffer; valid while the storage lives.
    @inline(__always)
    func buffer<T>(count: Int, as type: T.Type) -> UnsafeBufferPointer<T> {
        UnsafeBufferPointer(start: pointer.bindMemory(to: T.self, capacity: Swift.max(count, 0)), count: count)
    }

    /// Replaces bytes `range` of the `used` bytes in use with `insertCount` new bytes, keeping the
    /// bytes after the range, and returns where the caller must write the new bytes.
    ///
    /// Three ways, cheapest first:
    /// - the storage is referenced only from here (the writer's private copy) and has room: the
    ///   tail moves in place;
    /// - a pure append (`range == used ..< used`) to an unpacked storage whose watermark is
    ///   exactly `used`: the bytes land past everything any snapshot reads, and the watermark
    ///   moves (this makes an insert commit O(row), not O(block));
    /// - otherwise the array is copied to a fresh storage with room to grow, up to `limit`
    ///   bytes of capacity (a row array never needs more than a full block).
    mutating func splice(_ range: Range<Int>, insertCount: Int, used: Int, limit: Int = .max) -> UnsafeMutableRawPointer
    {
        let newUsed = used - range.count + insertCount
        if newUsed <= capacity && isKnownUniquelyReferenced(&storage) && !storage.isMapped {
            let tail = used - range.upperBound
            if tail > 0 && insertCount != range.count {
                // The ranges may overlap: memmove, not copyMemory.
                memmove(pointer + range.lowerBound + insertCount, pointer + range.upperBound, tail)
            }
            if !storage.isPacked { storage.watermark = newUsed }
            return pointer + range.lowerBound
        }
        if range.lowerBound == used && range.isEmpty && newUsed <= capacity && !storage.isPacked
            && storage.watermark == used && offset == 0
        {
            storage.watermark = newUsed
            return pointer + used
        }
        let grown = Swift.max(newUsed, Swift.min(Swift.max(used * 2, 256), limit))
        let fresh = ByteArray(capacity: grown)
        fresh.pointer.copyMemory(from: pointer, byteCount: range.lowerBound)
        (fresh.pointer + range.lowerBound + insertCount).copyMemory(
            from: pointer + range.upperBound,
            byteCount: used - range.upperBound
        )
        fresh.storage.watermark = newUsed
        self = fresh
        return fresh.pointer + range.lowerBound
    }

    /// Bytes `range` made writable in place, keeping their contents (the array is copied first,
    /// whole, if anything else references its storage).
    mutating func mutableBytes(_ range: Range<Int>, used: Int) -> UnsafeMutableRawPointer {
        if !isKnownUniquelyReferenced(&storage) || storage.isMapped {
            self = copy(used: used, capacity: Swift.max(capacity, used))
        }
        return pointer + range.lowerBound
    }
}

/// Null bitmaps: bit `i % 64` of word `i / 64` is set when item `i` is null. Bits past the item
/// count are always zero, so appending a non-null item to a partly filled word writes nothing.
enum NullBits {
    static func wordCount(_ count: Int) -> Int { (count + 63) >> 6 }

    @inline(__always)
    static func isNull(_ words: ByteArray, _ i: Int) -> Bool {
        (words.load(i >> 6, as: UInt64.self) >> UInt64(i & 63)) & 1 == 1
    }

    /// Replaces the bits of items `range` (of `count`) with `newNulls`, shifting later bits.
    static func splice(_ words: inout ByteArray, count: Int, range: Range<Int>, newNulls: [Bool]) {
        let newCount = count - range.count + newNulls.count
        let oldWords = wordCount(count)
        let newWords = wordCount(newCount)
        if range.lowerBound == count && range.isEmpty {
            // Appending: add zero words, then set the new nulls' bits (which may lie in a word
            // older snapshots read, so `mutableBytes` copies the words unless they are ours).
            if newWords > oldWords {
                let p = words.splice(
                    oldWords * 8..<oldWords * 8,
                    insertCount: (newWords - oldWords) * 8,
                    used: oldWords * 8
                )
                p.initializeMemory(as: UInt8.self, repeating: 0, count: (newWords - oldWords) * 8)
            }
            guard newNulls.contains(true) else { return }
            let p = words.mutableBytes(0..<newWords * 8, used: newWords * 8)
                .bindMemory(to: UInt64.self, capacity: newWords)
            for (j, isNull) in newNulls.enumerated() where isNull {
                let i = count + j
                p[i >> 6] |= 1 << UInt64(i & 63)
            }
            return
        }
        // Same length: set or clear bits in place.
        if range.count == newNulls.count {
            guard !range.isEmpty else { return }
            let firstWord = range.lowerBound >> 6
            let lastWord = (range.upperBound - 1) >> 6
            let p = words.mutableBytes(firstWord * 8..<(lastWord + 1) * 8, used: oldWords * 8)
                .bindMemory(to: UInt64.self, capacity: lastWord - firstWord + 1)
            for (j, isNull) in newNulls.enumerated() {
                let i = range.lowerBound + j
                let bit = UInt64(1) << UInt64(i & 63)
                if isNull { p[(i >> 6) - firstWord] |= bit } else { p[(i >> 6) - firstWord] &= ~bit }
            }
            return
        }
        // General: rebuild the words (a block's row bitmap is at most 512 bytes).
        var result = [UInt64](repeating: 0, count: newWords)
        func set(_ i: Int) { result[i >> 6] |= 1 << UInt64(i & 63) }
        for i in 0..<range.lowerBound where isNull(words, i) { set(i) }
        for (j, isNull) in newNulls.enumerated() where isNull { set(range.lowerBound + j) }
        let shift = newNulls.count - range.count
        for i in range.upperBound..<count where isNull(words, i) { set(i + shift) }
        let p = words.splice(0..<oldWords * 8, insertCount: newWords * 8, used: oldWords * 8)
        if newWords > 0 { result.withUnsafeBytes { p.copyMemory(from: $0.baseAddress!, byteCount: $0.count) } }
    }

    /// `splice(&words, count: count, range: count..<count, newNulls: [isNull])`.
    static func append(_ words: inout ByteArray, count: Int, isNull: Bool) {
        let oldWords = wordCount(count)
        let newWords = wordCount(count + 1)
        if newWords > oldWords {
            let p = words.splice(oldWords * 8..<oldWords * 8, insertCount: 8, used: oldWords * 8)
            p.initializeMemory(as: UInt8.self, repeating: 0, count: 8)
        }
        guard isNull else { return }
        let p = words.mutableBytes(0..<newWords * 8, used: newWords * 8).bindMemory(to: UInt64.self, capacity: newWords)
        p[count >> 6] |= 1 << UInt64(count & 63)
    }

    /// A fresh bitmap of `nulls`.
    static func make(_ nulls: [Bool]) -> ByteArray {
        var array = ByteArray(capacity: wordCount(nulls.count) * 8)
        splice(&array, count: 0, range: 0..<0, newNulls: nulls)
        return array
    }
}
