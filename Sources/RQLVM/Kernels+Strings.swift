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
        if let (needle, fold, asciiOnly) = wordSearch(op, matcher) {
            return filterWordContains(
                view,
                needle,
                fold: fold,
                asciiOnly: asciiOnly,
                matcher,
                rows,
                count,
                dense: dense
            )
        }
        if matcher.options.isEmpty, let offsets = view.offsets.baseAddress {
            switch op {
            case .equal, .notEqual, .beginsWith, .endsWith:
                return filterBytes(view, offsets, op, matcher.needle, rows, count, dense: dense)
            case .contains, .like, .less, .lessOrEqual, .greater, .greaterOrEqual:
                break
            }
        }
        if op == .contains, matcher.options == .caseInsensitive, matcher.needle.allSatisfy({ $0 < 0x80 }),
            !matcher.needle.isEmpty, let offsets = view.offsets.baseAddress, let bytes = view.bytes.baseAddress
        {
            return filterContainsFoldingASCII(view, offsets, bytes, matcher, rows, count, dense: dense)
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

    /// The word-at-a-time search that answers `op` with `matcher`'s needle, if one does:
    /// `CONTAINS` with a needle of up to eight bytes (ASCII when folded) and `LIKE '*…*'` with
    /// one run of up to eight ASCII bytes and `?`s. `fold` lowers ASCII rows; `asciiOnly` sends
    /// other rows to the matcher (Unicode folding, `?` as a code point).
    static func wordSearch(_ op: ComparisonOperator, _ matcher: StringMatcher) -> (WordNeedle, Bool, Bool)? {
        guard !matcher.isBinary else { return nil }
        let fold = matcher.options.contains(.caseInsensitive)
        switch op {
        case .contains:
            guard let needle = WordNeedle(contains: matcher.needle) else { return nil }
            if matcher.options.isEmpty { return (needle, false, false) }
            return needle.isASCII ? (needle, fold, true) : nil
        case .like:
            guard let needle = WordNeedle(likePattern: matcher.needle), needle.isASCII else { return nil }
            return (needle, fold, !matcher.options.isEmpty || needle.wildcards != 0)
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .beginsWith, .endsWith:
            return nil
        }
    }

    /// `CONTAINS[c]` with an ASCII needle: an ASCII row is searched with its letters lowered on
    /// the fly (what `StringMatcher` does for ASCII text); a row with other characters goes to
    /// the matcher, which folds it fully.
    @inline(never)
    static func filterContainsFoldingASCII(
        _ view: BytesColumnView,
        _ offsets: UnsafePointer<Int>,
        _ bytes: UnsafePointer<UInt8>,
        _ matcher: StringMatcher,
        _ rows: UnsafeMutablePointer<Int32>,
        _ count: Int,
        dense: Bool
    ) -> Int {
        let hasNulls = view.nulls.hasNulls
        return matcher.needle.withUnsafeBufferPointer { needle -> Int in
            let k = needle.baseAddress!
            let n = needle.count
            let first = k[0]
            var m = 0
            for j in 0..<count {
                let r = dense ? Int32(truncatingIfNeeded: j) : rows[j]
                rows[m] = r
                let row = Int(r)
                let start = offsets[row]
                let length = offsets[row &+ 1] &- start
                let h = bytes + start
                var high: UInt8 = 0
                for i in 0..<length { high |= h[i] }
                var hit = false
                if high >= 0x80 {
                    hit = matcher.matches(UnsafeBufferPointer(start: h, count: length))
                } else if length >= n {
                    var p = 0
                    while p <= length &- n {
                        if lowerASCII(h[p]) == first {
                            var i = 1
                            while i < n && lowerASCII(h[p &+ i]) == k[i] { i &+= 1 }
                            if i == n {
                                hit = true
                                break
                            }
                        }
                        p &+= 1
                    }
                }
                let keep = hasNulls && view.nulls.isNull(row) ? false : hit
                m &+= bit(keep)
            }
            return m
        }
    }

    /// `StringFolding.lowerASCII`, inlined here (across modules it would be a call per byte) and
    /// branch-free (mixed-case text mispredicts a branch on every letter).
    @inline(__always)
    static func lowerASCII(_ byte: UInt8) -> UInt8 {
        byte | (unsafeBitCast(byte &- 0x41 < 26, to: UInt8.self) &<< 5)
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
            switch op {
            case .beginsWith:
                return scanBytes(view, offsets, bytes, k, n, negate: false, rows, count, dense: dense, hasNulls) {
                    length in length >= n ? 0 : -1
                }
            case .endsWith:
                return scanBytes(view, offsets, bytes, k, n, negate: false, rows, count, dense: dense, hasNulls) {
                    length in length >= n ? length - n : -1
                }
            default:
                return scanBytes(view, offsets, bytes, k, n, negate: negate, rows, count, dense: dense, hasNulls) {
                    length in length == n ? 0 : -1
                }
            }
        }
    }

    /// The loop of `filterBytes`: `where(length)` gives the offset in the row where the needle
    /// must sit, or -1 when it cannot; short needles compare without a call.
    @inline(__always)
    static func scanBytes(
        _ view: BytesColumnView,
        _ offsets: UnsafePointer<Int>,
        _ bytes: UnsafePointer<UInt8>,
        _ k: UnsafePointer<UInt8>,
        _ n: Int,
        negate: Bool,
        _ rows: UnsafeMutablePointer<Int32>,
        _ count: Int,
        dense: Bool,
        _ hasNulls: Bool,
        _ where: (_ length: Int) -> Int
    ) -> Int {
        let byteCount = view.bytes.count
        // The needle as a little-endian word and the mask of its bytes (for needles up to 8 bytes).
        var needleWord: UInt64 = 0
        for i in 0..<min(n, 8) { needleWord |= UInt64(k[i]) << (8 * UInt64(i)) }
        let needleMask: UInt64 = n >= 8 ? ~0 : (1 << (8 * UInt64(n))) &- 1
        var m = 0
        for j in 0..<count {
            let r = dense ? Int32(truncatingIfNeeded: j) : rows[j]
            rows[m] = r
            let row = Int(r)
            let start = offsets[row]
            let at = `where`(offsets[row &+ 1] &- start)
            var hit = false
            if at >= 0 {
                let p = bytes + start + at
                if n <= 8 && start + at + 8 <= byteCount {
                    // One unaligned word load, masked to the needle's length.
                    let word = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)
                    hit = (word ^ needleWord) & needleMask == 0
                } else if n <= 16 {
                    var difference: UInt8 = 0
                    for i in 0..<n { difference |= p[i] ^ k[i] }
                    hit = difference == 0
                } else {
                    hit = memcmp(p, k, n) == 0
                }
            }
            let keep = hasNulls && view.nulls.isNull(row) ? negate : hit != negate
            m &+= bit(keep)
        }
        return m
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
