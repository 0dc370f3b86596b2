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
            case .contains, .like, .less, .lessOrEqual, .greater, .greaterOrEqual, .in, .text, .matches:
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
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .beginsWith, .endsWith, .in, .text,
            .matches:
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
        matcher.needle.withUnsafeBufferPointer { needle -> Int in
            let k = needle.baseAddress!
            let n = needle.count
            let first = k[0]
            return selectStrings(view, offsets, rows, count, dense: dense, nullKeeps: false) { start, length in
                let h = bytes + start
                if !isASCII(h, length) { return matcher.matches(UnsafeBufferPointer(start: h, count: length)) }
                guard length >= n else { return false }
                var p = 0
                while p <= length &- n {
                    if lowerASCII(h[p]) == first {
                        var i = 1
                        while i < n && lowerASCII(h[p &+ i]) == k[i] { i &+= 1 }
                        if i == n { return true }
                    }
                    p &+= 1
                }
                return false
            }
        }
    }

    /// `StringFolding.lowerASCII`, inlined here (across modules it would be a call per byte) and
    /// branch-free (mixed-case text mispredicts a branch on every letter).
    @inline(__always)
    static func lowerASCII(_ byte: UInt8) -> UInt8 {
        byte | (unsafeBitCast(byte &- 0x41 < 26, to: UInt8.self) &<< 5)
    }

    /// `==`, `!=`, BEGINSWITH and ENDSWITH without folding, a word at a time: per row one
    /// unaligned load of eight bytes where the needle must sit (the row's start, or its end
    /// less the needle for ENDSWITH), compared under the mask of the needle's first ≤ 8 bytes,
    /// and the length test folded in as a bit; only rows whose first word matches a longer
    /// needle compare the rest. No branch depends on the row, where the byte loop before
    /// mispredicted on every row whose length differed from its neighbours'.
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
        let head = WordHead(needle)
        let byteCount = view.bytes.count
        return needle.withUnsafeBufferPointer { needleBuffer -> Int in
            let k = needleBuffer.baseAddress ?? UnsafePointer(bytes)
            switch op {
            case .beginsWith:
                return selectStrings(view, offsets, rows, count, dense: dense, nullKeeps: false) { start, length in
                    head.sits(at: start, fits: length >= n, bytes, byteCount, k)
                }
            case .endsWith:
                return selectStrings(view, offsets, rows, count, dense: dense, nullKeeps: false) { start, length in
                    let fits = length >= n
                    return head.sits(at: fits ? start &+ length &- n : start, fits: fits, bytes, byteCount, k)
                }
            case .notEqual:
                return selectStrings(view, offsets, rows, count, dense: dense, nullKeeps: true) { start, length in
                    !head.sits(at: start, fits: length == n, bytes, byteCount, k)
                }
            default:
                return selectStrings(view, offsets, rows, count, dense: dense, nullKeeps: false) { start, length in
                    head.sits(at: start, fits: length == n, bytes, byteCount, k)
                }
            }
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
