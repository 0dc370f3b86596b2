/// Hand-written loops over the benchmark dataset's column buffers, one per query: the floor
/// the VM is compared against. Each writes the matching row numbers, ascending, to `out`
/// (capacity ≥ rows) and returns how many; Q9 only counts and Q10 returns its ten rows.
///
/// Shapes follow `reference/swift-kernels.md`: non-generic, `@inline(never)`, raw buffers, no
/// closures or ARC in the loop, and predicate bits turned into integers (`b2i`) so the loop
/// stores every row number and advances the cursor by the bit instead of branching.
/// String predicates compare UTF-8 bytes, a word at a time where the strings are short.

/// `true` → 1, `false` → 0, without a branch (`b ? 1 : 0` compiles to one in Swift 6.3 -O).
@inline(__always)
func b2i(_ b: Bool) -> Int { Int(unsafeBitCast(b, to: UInt8.self)) }

/// A string column as raw buffers: row `i` is `bytes[offsets[i] ..< offsets[i + 1]]`.
struct StringColumnView {
    let bytes: UnsafePointer<UInt8>
    let offsets: UnsafeBufferPointer<Int32>
    /// `isNull[i]`, or nil for a required column.
    let isNull: UnsafeBufferPointer<Bool>?

    @inline(__always) func start(_ i: Int) -> Int { Int(offsets[i]) }
    @inline(__always) func end(_ i: Int) -> Int { Int(offsets[i &+ 1]) }
}

/// Eight bytes from `p + offset`, little-endian. String columns are padded with eight zero
/// bytes after the last row, so a load at any row start stays inside the allocation.
@inline(__always)
func load64(_ p: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 {
    UInt64(littleEndian: UnsafeRawPointer(p + offset).loadUnaligned(as: UInt64.self))
}

/// `byte` in all eight bytes.
@inline(__always)
func splat(_ byte: UInt8) -> UInt64 { UInt64(byte) &* 0x0101_0101_0101_0101 }

/// The high bit of every byte of `v` that is zero, and no other bit. Exact, unlike the
/// `(v - 0x01…) & ~v & 0x80…` form, whose borrow can flag a byte above a real zero.
@inline(__always)
func zeroBytes(_ v: UInt64) -> UInt64 {
    let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    return ~(((v & low7) &+ low7) | v | low7)
}

/// The high bits of bytes `0 ..< k`, for any `k` (clamped to 0 ... 8). Swift's `<<` by 64
/// gives 0, so `k = 8` needs no special case.
@inline(__always)
func highBits(below k: Int) -> UInt64 {
    let bytes = UInt64(truncatingIfNeeded: min(max(k, 0), 8))
    return ((1 << (8 &* bytes)) &- 1) & 0x8080_8080_8080_8080
}

/// A string constant of at most eight bytes packed into a word, compared with one load.
struct ShortConstant {
    let value: UInt64
    let mask: UInt64
    let count: Int

    init(_ string: String) {
        let bytes = Array(string.utf8)
        precondition(bytes.count <= 8, "a ShortConstant has at most eight bytes")
        var value: UInt64 = 0
        for (i, byte) in bytes.enumerated() { value |= UInt64(byte) << (8 * UInt64(i)) }
        self.value = value
        mask = (1 << (8 * UInt64(bytes.count))) &- 1
        count = bytes.count
    }

    /// Whether the row `bytes[start ..< end]` equals the constant, without a branch.
    @inline(__always)
    func equals(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        (end &- start == count) & (load64(bytes, start) & mask == value)
    }

    /// Whether the row `bytes[start ..< end]` begins with the constant, without a branch.
    @inline(__always)
    func isPrefix(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        (end &- start >= count) & (load64(bytes, start) & mask == value)
    }
}

/// Non-short-circuit `&` and `|` on `Bool`: both sides are cheap and already loaded, and a
/// data-dependent branch costs more than evaluating both.
@inline(__always)
func & (lhs: Bool, rhs: Bool) -> Bool {
    unsafeBitCast(unsafeBitCast(lhs, to: UInt8.self) & unsafeBitCast(rhs, to: UInt8.self), to: Bool.self)
}
@inline(__always)
func | (lhs: Bool, rhs: Bool) -> Bool {
    unsafeBitCast(unsafeBitCast(lhs, to: UInt8.self) | unsafeBitCast(rhs, to: UInt8.self), to: Bool.self)
}

/// Q1 `age > 90`.
@inline(never)
func baselineQ1(_ age: UnsafeBufferPointer<Int64>, _ out: UnsafeMutablePointer<Int32>) -> Int {
    var m = 0
    for i in 0..<age.count {
        out[m] = Int32(truncatingIfNeeded: i)
        m &+= b2i(age[i] > 90)
    }
    return m
}

/// Q2 `age >= 20 AND age < 30 AND active == true`: one unsigned compare for the range.
@inline(never)
func baselineQ2(
    _ age: UnsafeBufferPointer<Int64>,
    _ active: UnsafeBufferPointer<Bool>,
    _ out: UnsafeMutablePointer<Int32>
) -> Int {
    var m = 0
    for i in 0..<age.count {
        out[m] = Int32(truncatingIfNeeded: i)
        let inRange = UInt64(bitPattern: age[i] &- 20) < 10
        m &+= b2i(inRange) & b2i(active[i])
    }
    return m
}

/// Q3 `name BEGINSWITH 'Ma'`.
@inline(never)
func baselineQ3(_ name: StringColumnView, _ prefix: ShortConstant, _ out: UnsafeMutablePointer<Int32>) -> Int {
    var m = 0
    for i in 0..<name.offsets.count &- 1 {
        out[m] = Int32(truncatingIfNeeded: i)
        m &+= b2i(prefix.isPrefix(name.bytes, name.start(i), name.end(i)))
    }
    return m
}

/// Q4 `name CONTAINS[c] 'an'`: ASCII case folding by `| 0x20`, exact for letters (no other
/// byte folds to 'a' or 'n'). Rows of up to eight bytes (every generated name) are searched
/// in one word: a zero byte of `v ^ "aaaaaaaa"` followed by one of `(v >> 8) ^ "nnnnnnnn"`.
@inline(never)
func baselineQ4(_ name: StringColumnView, _ out: UnsafeMutablePointer<Int32>) -> Int {
    var m = 0
    let bytes = name.bytes
    for i in 0..<name.offsets.count &- 1 {
        let s = name.start(i)
        let e = name.end(i)
        var found: Bool
        if e &- s <= 8 {
            let v = load64(bytes, s) | splat(0x20)
            found = zeroBytes(v ^ splat(0x61)) & zeroBytes((v >> 8) ^ splat(0x6E)) & highBits(below: e &- s &- 1) != 0
        } else {
            found = false
            var j = s
            while j &+ 1 < e {
                if bytes[j] | 0x20 == 0x61 && bytes[j &+ 1] | 0x20 == 0x6E {
                    found = true
                    break
                }
                j &+= 1
            }
        }
        out[m] = Int32(truncatingIfNeeded: i)
        m &+= b2i(found)
    }
    return m
}

/// Q5 `city == 'City42'`, scanning.
@inline(never)
func baselineQ5(_ city: StringColumnView, _ constant: ShortConstant, _ out: UnsafeMutablePointer<Int32>) -> Int {
    var m = 0
    for i in 0..<city.offsets.count &- 1 {
        out[m] = Int32(truncatingIfNeeded: i)
        m &+= b2i(constant.equals(city.bytes, city.start(i), city.end(i)))
    }
    return m
}

/// Q5 with an index on `city`: a hash lookup to the value's ascending row list, copied out.
@inline(never)
func baselineQ5Indexed(_ index: [String: [Int32]], _ key: String, _ out: UnsafeMutablePointer<Int32>) -> Int {
    guard let rows = index[key] else { return 0 }
    rows.withUnsafeBufferPointer { out.update(from: $0.baseAddress!, count: $0.count) }
    return rows.count
}

/// Q6 `id == 123456`, scanning (the contract has no baseline for it: a primary key lookup).
@inline(never)
func baselineQ6(_ id: UnsafeBufferPointer<Int64>, _ out: UnsafeMutablePointer<Int32>) -> Int {
    var m = 0
    for i in 0..<id.count {
        out[m] = Int32(truncatingIfNeeded: i)
        m &+= b2i(id[i] == 123_456)
    }
    return m
}

/// Q7 `score > 0.5 AND (age < 10 OR city IN {'City1', 'City2', 'City3'})`: every test on
/// every row, combined without branches.
@inline(never)
func baselineQ7(
    _ score: UnsafeBufferPointer<Double>,
    _ age: UnsafeBufferPointer<Int64>,
    _ city: StringColumnView,
    _ c1: ShortConstant,
    _ c2: ShortConstant,
    _ c3: ShortConstant,
    _ out: UnsafeMutablePointer<Int32>
) -> Int {
    var m = 0
    for i in 0..<score.count {
        out[m] = Int32(truncatingIfNeeded: i)
        let s = city.start(i)
        let e = city.end(i)
        let inSet = c1.equals(city.bytes, s, e) | c2.equals(city.bytes, s, e) | c3.equals(city.bytes, s, e)
        m &+= b2i((score[i] > 0.5) & ((age[i] < 10) | inSet))
    }
    return m
}

/// Q8 `nickname == nil`.
@inline(never)
func baselineQ8(_ isNull: UnsafeBufferPointer<Bool>, _ out: UnsafeMutablePointer<Int32>) -> Int {
    var m = 0
    for i in 0..<isNull.count {
        out[m] = Int32(truncatingIfNeeded: i)
        m &+= b2i(isNull[i])
    }
    return m
}

/// Q9 the count of `age > 90`: `x > k` ⇔ `k - x < 0`, the sign bit as the count.
@inline(never)
func baselineQ9(_ age: UnsafeBufferPointer<Int64>) -> Int {
    var c: Int64 = 0
    for x in age { c &-= (90 &- x) >> 63 }
    return Int(c)
}

/// Q10 `age > 50 SORT(score DESC) LIMIT(10)`: top 10 with a threshold. Each 1,024-row block
/// first counts its candidates branch-free; only blocks with any are walked to insert.
/// Ties keep the lower row first, as a stable sort would.
@inline(never)
func baselineQ10(
    _ age: UnsafeBufferPointer<Int64>,
    _ score: UnsafeBufferPointer<Double>,
    _ out: UnsafeMutablePointer<Int32>
) -> Int {
    let limit = 10
    var best = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    var rows = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    return withUnsafeMutableBytes(of: &best) { bestRaw in
        withUnsafeMutableBytes(of: &rows) { rowsRaw in
            let best = bestRaw.bindMemory(to: Double.self)
            let bi = rowsRaw.bindMemory(to: Int.self)
            var k = 0
            var threshold = -Double.infinity
            let n = age.count
            var b0 = 0
            while b0 < n {
                let b1 = min(n, b0 &+ 1024)
                var candidates = 0
                for i in b0..<b1 { candidates &+= b2i(age[i] > 50) & b2i(score[i] > threshold) }
                if candidates > 0 {
                    for i in b0..<b1 where age[i] > 50 && score[i] > threshold {
                        let s = score[i]
                        var j = k < limit ? k : limit - 1
                        if k < limit { k += 1 }
                        while j > 0 && best[j - 1] < s {
                            best[j] = best[j - 1]
                            bi[j] = bi[j - 1]
                            j -= 1
                        }
                        best[j] = s
                        bi[j] = i
                        if k == limit { threshold = best[limit - 1] }
                    }
                }
                b0 = b1
            }
            for j in 0..<k { out[j] = Int32(truncatingIfNeeded: bi[j]) }
            return k
        }
    }
}

/// Q11 `name LIKE '*an?a*'`: some `j` with "an" at `j` and "a" at `j + 3`. Rows of up to
/// eight bytes are matched in one word, as in Q4. The wildcard byte is always ASCII here;
/// a general kernel would step over a whole code point.
@inline(never)
func baselineQ11(_ name: StringColumnView, _ out: UnsafeMutablePointer<Int32>) -> Int {
    var m = 0
    let bytes = name.bytes
    for i in 0..<name.offsets.count &- 1 {
        let s = name.start(i)
        let e = name.end(i)
        var found: Bool
        if e &- s <= 8 {
            let v = load64(bytes, s)
            let a = splat(0x61)
            found =
                zeroBytes(v ^ a) & zeroBytes((v >> 8) ^ splat(0x6E)) & zeroBytes((v >> 24) ^ a)
                & highBits(below: e &- s &- 3) != 0
        } else {
            found = false
            var j = s
            while j &+ 3 < e {
                if bytes[j] == 0x61 && bytes[j &+ 1] == 0x6E && bytes[j &+ 3] == 0x61 {
                    found = true
                    break
                }
                j &+= 1
            }
        }
        out[m] = Int32(truncatingIfNeeded: i)
        m &+= b2i(found)
    }
    return m
}

/// Q12 `age BETWEEN {30, 40} AND nickname BEGINSWITH 'nick1'`: a null row is empty, so it
/// fails the prefix test by its length.
@inline(never)
func baselineQ12(
    _ age: UnsafeBufferPointer<Int64>,
    _ nickname: StringColumnView,
    _ prefix: ShortConstant,
    _ out: UnsafeMutablePointer<Int32>
) -> Int {
    var m = 0
    for i in 0..<age.count {
        out[m] = Int32(truncatingIfNeeded: i)
        let inRange = UInt64(bitPattern: age[i] &- 30) <= 10
        m &+= b2i(inRange & prefix.isPrefix(nickname.bytes, nickname.start(i), nickname.end(i)))
    }
    return m
}
