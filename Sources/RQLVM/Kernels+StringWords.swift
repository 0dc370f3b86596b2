import Foundation
import RQLCore

/// A needle of at most eight bytes, some of which may match any byte, searched for eight
/// haystack bytes at a time: `CONTAINS` (and `LIKE '*…*'`, whose `?` is a wildcard byte in ASCII
/// text). Each needle byte is compared with a whole word of the row at once (a zero-byte test
/// of `word ^ splat(byte)`), and the per-byte results, shifted into line, say at which offsets
/// the whole needle sits: no branch per haystack byte, where the scalar search spent 7–10 ns a
/// row in mispredicted branches.
///
///     WordNeedle(contains: [0x61, 0x6E])                      // "an"
///     WordNeedle(likePattern: Array("*an?a*".utf8))           // "an", any byte, "a"
struct WordNeedle {
    /// The needle's bytes, byte `i` at bits `8i ..< 8i + 8`.
    let bytes: UInt64
    /// Bit `i` set when needle byte `i` is a wildcard.
    let wildcards: UInt8
    /// The needle's length, 1 ... 8.
    let count: Int

    static let high: UInt64 = 0x8080_8080_8080_8080
    static let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    static let ones: UInt64 = 0x0101_0101_0101_0101

    init?(contains needle: [UInt8]) {
        guard !needle.isEmpty, needle.count <= 8 else { return nil }
        var word: UInt64 = 0
        for (i, byte) in needle.enumerated() { word |= UInt64(byte) << (8 * UInt64(i)) }
        bytes = word
        wildcards = 0
        count = needle.count
    }

    /// A `LIKE` pattern that is one run of literal bytes and `?` between a leading and a trailing
    /// `*` (`'*an?a*'`): the run, with `?` as a wildcard byte. `nil` for any other shape.
    init?(likePattern pattern: [UInt8]) {
        let star = UInt8(ascii: "*")
        var first = 0
        var last = pattern.count
        while first < last && pattern[first] == star { first += 1 }
        while last > first && pattern[last - 1] == star { last -= 1 }
        let run = pattern[first..<last]
        guard first > 0, last < pattern.count, !run.isEmpty, run.count <= 8, !run.contains(star) else { return nil }
        var word: UInt64 = 0
        var wild: UInt8 = 0
        for (i, byte) in run.enumerated() {
            if byte == UInt8(ascii: "?") {
                wild |= 1 << UInt8(i)
            } else {
                word |= UInt64(byte) << (8 * UInt64(i))
            }
        }
        bytes = word
        wildcards = wild
        count = run.count
    }

    /// Whether the needle contains a byte of 0x80 or more.
    var isASCII: Bool { bytes & Self.high == 0 }

    /// Per needle byte, the byte repeated across a word (`splats[i]`) and, for a wildcard, the
    /// high bits of every byte (`wild[i]`); the search loop reads these instead of unpacking.
    func tables(_ splats: UnsafeMutablePointer<UInt64>, _ wild: UnsafeMutablePointer<UInt64>) {
        for i in 0..<count {
            splats[i] = ((bytes >> UInt64(8 * i)) & 0xFF) &* Self.ones
            wild[i] = (wildcards >> UInt8(i)) & 1 == 1 ? Self.high : 0
        }
    }

    /// The high bit of byte `p` of the result is set when the needle (as `tables` gave it) sits
    /// at offset `p` of `word`; offsets whose needle would run past the word are not
    /// meaningful: mask them.
    @inline(__always)
    static func offsets(
        in word: UInt64,
        _ splats: UnsafeMutablePointer<UInt64>,
        _ wild: UnsafeMutablePointer<UInt64>,
        _ count: Int
    ) -> UInt64 {
        var hits = zeroBytes(word ^ splats[0]) | wild[0]
        var i = 1
        while i < count {
            hits &= (zeroBytes(word ^ splats[i]) | wild[i]) >> UInt64(8 &* i)
            i &+= 1
        }
        return hits
    }

    /// The high bit of each byte of `x` that is zero (exact: no borrow between bytes).
    @inline(__always)
    static func zeroBytes(_ x: UInt64) -> UInt64 {
        ~(((x & low7) &+ low7) | x | low7)
    }

    /// ASCII letters `A`–`Z` of `word` lowered (every byte of `word` must be below 0x80).
    @inline(__always)
    static func lowerASCII(_ word: UInt64) -> UInt64 {
        let atLeastA = word &+ (0x80 &- 0x41) &* ones
        let pastZ = word &+ (0x80 &- 0x5B) &* ones
        return word | ((atLeastA & ~pastZ & high) >> 2)
    }

    /// The high bits of bytes `0 ..< n` (n ≤ 8).
    @inline(__always)
    static func highBits(below n: Int) -> UInt64 {
        n >= 8 ? high : high & ((1 << UInt64(8 * n)) &- 1)
    }
}

extension Kernels {
    /// Rows that contain `needle` somewhere in their bytes, eight bytes at a time.
    ///
    /// - `fold`: lower ASCII letters of the row first (`[c]`; the needle is already folded).
    /// - `asciiOnly`: a row with any byte of 0x80 or more goes to `matcher` instead (folding and
    ///   `?` need its code points); without it the row is searched as bytes.
    ///
    /// A null row (whose bytes are empty) never contains a needle of one byte or more.
    @inline(never)
    static func filterWordContains(
        _ view: BytesColumnView,
        _ needle: WordNeedle,
        fold: Bool,
        asciiOnly: Bool,
        _ matcher: StringMatcher,
        _ rows: UnsafeMutablePointer<Int32>,
        _ count: Int,
        dense: Bool
    ) -> Int {
        guard let offsets = view.offsets.baseAddress, let bytes = view.bytes.baseAddress else { return 0 }
        let byteCount = view.bytes.count
        let n = needle.count
        // Offsets a word can hold the whole needle at, and how far the next word starts.
        let step = 9 &- n
        let splats = UnsafeMutablePointer<UInt64>.allocate(capacity: 16)
        defer { splats.deallocate() }
        let wild = splats + 8
        needle.tables(splats, wild)
        return selectStrings(view, offsets, rows, count, dense: dense, nullKeeps: false) { start, length in
            if length <= 8 {
                // The common case: the whole row in one word.
                var word = loadWord(bytes, byteCount, start, length)
                if asciiOnly && word & WordNeedle.high != 0 {
                    return matcher.matches(UnsafeBufferPointer(start: bytes + start, count: length))
                }
                guard length >= n else { return false }
                if fold { word = WordNeedle.lowerASCII(word) }
                return WordNeedle.offsets(in: word, splats, wild, n) & WordNeedle.highBits(below: length &- n &+ 1) != 0
            }
            if asciiOnly && !isASCII(bytes + start, length) {
                return matcher.matches(UnsafeBufferPointer(start: bytes + start, count: length))
            }
            var s = 0
            while s &+ n <= length {
                let width = min(8, length &- s)
                var word = loadWord(bytes, byteCount, start &+ s, width)
                if fold { word = WordNeedle.lowerASCII(word) }
                let hits =
                    WordNeedle.offsets(in: word, splats, wild, n)
                    & WordNeedle.highBits(below: min(step, length &- s &- n &+ 1))
                if hits != 0 { return true }
                s &+= step
            }
            return false
        }
    }

    /// The row loop every string kernel shares: for each row of the selection (dense: the
    /// identity), `test(start, length)` on the place of its bytes in the column's buffer, and
    /// the row kept when it holds; a null row (whose bytes are empty) keeps `nullKeeps`
    /// instead. The row's offset is written unconditionally and the cursor advanced by the
    /// bit, so a test without branches of its own leaves the loop without any.
    @inline(__always)
    static func selectStrings(
        _ view: BytesColumnView,
        _ offsets: UnsafePointer<Int>,
        _ rows: UnsafeMutablePointer<Int32>,
        _ count: Int,
        dense: Bool,
        nullKeeps: Bool,
        _ test: (_ start: Int, _ length: Int) -> Bool
    ) -> Int {
        let nulls = view.nulls
        let hasNulls = nulls.hasNulls
        var m = 0
        for j in 0..<count {
            let r = dense ? Int32(truncatingIfNeeded: j) : rows[j]
            rows[m] = r
            let row = Int(r)
            let start = offsets[row]
            let hit = test(start, offsets[row &+ 1] &- start)
            let keep = hasNulls && nulls.isNull(row) ? nullKeeps : hit
            m &+= bit(keep)
        }
        return m
    }

    /// Bytes `at ..< at + width` (width ≤ 8) as a little-endian word, the rest zero: one
    /// unaligned load when eight bytes are inside the buffer, a copy at its end.
    @inline(__always)
    static func loadWord(_ bytes: UnsafePointer<UInt8>, _ byteCount: Int, _ at: Int, _ width: Int) -> UInt64 {
        if at &+ 8 <= byteCount {
            let word = UnsafeRawPointer(bytes + at).loadUnaligned(as: UInt64.self)
            return width >= 8 ? word : word & ((1 << UInt64(8 * width)) &- 1)
        }
        var word: UInt64 = 0
        withUnsafeMutableBytes(of: &word) { $0.baseAddress!.copyMemory(from: bytes + at, byteCount: width) }
        return word
    }

    /// Whether `length` bytes from `p` are all below 0x80.
    @inline(__always)
    static func isASCII(_ p: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        var high: UInt8 = 0
        for i in 0..<length { high |= p[i] }
        return high < 0x80
    }
}

/// The first eight bytes (or fewer) of a needle as a word and its byte mask, for the byte
/// comparisons that know where in the row the needle must sit (`==`, BEGINSWITH, ENDSWITH).
struct WordHead {
    /// Needle bytes `0 ..< min(count, 8)`, byte `i` at bits `8i ..< 8i + 8`.
    let word: UInt64
    /// Ones over the bytes `word` holds.
    let mask: UInt64
    /// The whole needle's length.
    let count: Int

    init(_ needle: [UInt8]) {
        var word: UInt64 = 0
        for (i, byte) in needle.prefix(8).enumerated() { word |= UInt64(byte) << (8 * UInt64(i)) }
        self.word = word
        mask = needle.count >= 8 ? ~0 : (1 << (8 * UInt64(needle.count))) &- 1
        count = needle.count
    }

    /// Whether the needle (`k`, `count` bytes) sits at byte `at` of `bytes`, given that it
    /// `fits` there (inside the row); when it does not fit the answer is false, and `at` must
    /// still be inside the buffer. One word compare, and `memcmp` of the rest only for a
    /// needle longer than a word whose first word matched.
    @inline(__always)
    func sits(at: Int, fits: Bool, _ bytes: UnsafePointer<UInt8>, _ byteCount: Int, _ k: UnsafePointer<UInt8>) -> Bool {
        let loaded =
            at &+ 8 <= byteCount
            ? UnsafeRawPointer(bytes + at).loadUnaligned(as: UInt64.self)
            : Kernels.loadWord(bytes, byteCount, at, Swift.min(8, byteCount &- at))
        let headMatches = Kernels.bit(fits) & Kernels.bit((loaded ^ word) & mask == 0) != 0
        if count > 8 && headMatches { return memcmp(bytes + at + 8, k + 8, count &- 8) == 0 }
        return headMatches
    }
}
