import Foundation
import RQLCore

/// String filters over a block's UTF-8 bytes: no `String` is built per row.
extension Kernels {
    /// Rows whose string satisfies `op` against the matcher's needle (`!=` is the negation of
    /// `==`); a null row satisfies only `!=`. Plain equality compares bytes directly.
    @inline(never)
    static func filterString(
        _ view: BytesColumnView,
        _ op: ComparisonOperator,
        _ matcher: StringMatcher,
        _ rows: UnsafeMutablePointer<Int32>,
        _ count: Int,
        dense: Bool
    ) -> Int {
        let negate = op == .notEqual
        if matcher.options.isEmpty, let offsets = view.offsets.baseAddress {
            switch op {
            case .equal, .notEqual, .beginsWith, .endsWith:
                return filterBytes(view, offsets, op, matcher.needle, rows, count, dense: dense)
            case .contains, .like, .less, .lessOrEqual, .greater, .greaterOrEqual:
                break
            }
        }
        let plainEquality = (op == .equal || op == .notEqual) && matcher.options.isEmpty
        var m = 0
        matcher.needle.withUnsafeBufferPointer { needle in
            for j in 0..<count {
                let r = dense ? Int32(truncatingIfNeeded: j) : rows[j]
                rows[m] = r
                let row = Int(r)
                let keep: Bool
                if view.nulls.isNull(row) {
                    keep = negate
                } else {
                    let bytes = view.bytes(at: row)
                    let hit = plainEquality ? equalBytes(bytes, needle) : matcher.matches(bytes)
                    keep = hit != negate
                }
                m &+= bit(keep)
            }
        }
        return m
    }

    /// `==`, `!=`, BEGINSWITH and ENDSWITH without folding: a length test and one `memcmp` per
    /// row over the column's raw offsets and bytes.
    @inline(never)
    static func filterBytes(
        _ view: BytesColumnView,
        _ offsets: UnsafePointer<Int>,
        _ op: ComparisonOperator,
        _ needle: [UInt8],
        _ rows: UnsafeMutablePointer<Int32>,
        _ count: Int,
        dense: Bool
    ) -> Int {
        let negate = op == .notEqual
        let hasNulls = view.nulls.hasNulls
        let n = needle.count
        guard let bytes = view.bytes.baseAddress else {
            // No bytes at all: every string is empty (or null).
            return nullAware(view.nulls, op, rows, count, dense: dense) { _ in
                switch op {
                case .equal: n == 0
                case .notEqual: n != 0
                default: n == 0
                }
            }
        }
        return needle.withUnsafeBufferPointer { needleBuffer -> Int in
            let k = needleBuffer.baseAddress ?? UnsafePointer(bytes)
            var m = 0
            for j in 0..<count {
                let r = dense ? Int32(truncatingIfNeeded: j) : rows[j]
                rows[m] = r
                let row = Int(r)
                let start = offsets[row]
                let length = offsets[row &+ 1] &- start
                let hit: Bool
                switch op {
                case .beginsWith: hit = length >= n && memcmp(bytes + start, k, n) == 0
                case .endsWith: hit = length >= n && memcmp(bytes + start + length - n, k, n) == 0
                default: hit = length == n && memcmp(bytes + start, k, n) == 0
                }
                let keep = hasNulls && view.nulls.isNull(row) ? negate : hit != negate
                m &+= bit(keep)
            }
            return m
        }
    }

    @inline(__always)
    static func equalBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let x = a.baseAddress, let y = b.baseAddress else { return true }
        return memcmp(x, y, a.count) == 0
    }

    /// Rows whose string is one of `set` (null rows when `nullMatches`).
    @inline(never)
    static func filterStringIn(
        _ view: BytesColumnView,
        _ set: ByteStringSet,
        nullMatches: Bool,
        _ rows: UnsafeMutablePointer<Int32>,
        _ count: Int,
        dense: Bool
    ) -> Int {
        var m = 0
        for j in 0..<count {
            let r = dense ? Int32(truncatingIfNeeded: j) : rows[j]
            rows[m] = r
            let row = Int(r)
            let keep = view.nulls.isNull(row) ? nullMatches : set.contains(view.bytes(at: row))
            m &+= bit(keep)
        }
        return m
    }
}

/// A hash set of byte strings that answers membership for a buffer without copying it: the
/// IN list of a string column (`city IN {'a', 'b', …}` with 40,000 names stays one probe a row).
struct ByteStringSet {
    private var strings: [[UInt8]] = []
    private var slots: [Int32]
    private let mask: Int

    init(_ members: [[UInt8]]) {
        var size = 16
        while size < members.count * 2 { size <<= 1 }
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
        for member in members where !member.withUnsafeBufferPointer({ contains($0) }) {
            var slot = member.withUnsafeBufferPointer { Self.hash($0) } & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(strings.count)
            strings.append(member)
        }
    }

    func contains(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var slot = Self.hash(bytes) & mask
        while true {
            let index = slots[slot]
            if index < 0 { return false }
            let found = strings[Int(index)].withUnsafeBufferPointer { Kernels.equalBytes($0, bytes) }
            if found { return true }
            slot = (slot + 1) & mask
        }
    }

    /// FNV-1a.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }
}
