/// The checksum of header slots and of every block, node and root a commit writes: a 64-bit
/// hash over 8-byte words, enough to tell a torn or damaged write from a whole one. Not
/// cryptographic: it guards against accidents, not adversaries. A store file uses one of them
/// throughout, the one its format version names (`init(format:)`); the commit log uses
/// `twoChains` (`CommitLog.checksum`).
///
/// What `fourLanes` guarantees: every step is a bijection of the hash state for the data that
/// follows it, so a change confined to one 8-byte word (one aligned word, or the tail after the
/// last) always changes the checksum: any single bit flip, any damage inside one word. Damage
/// across several words (a torn write, a zeroed or stale page, words swapped or moved, bytes
/// shifted) is caught unless it happens to meet a 64-bit coincidence, a chance near 2⁻⁶⁴ for
/// damage that does not depend on the data: the lanes start from different seeds, each mixes
/// a word with two multiplications and a rotation between them (with one, a difference that
/// reaches only a product's top bit stays one bit, and a flip in the lane's next word cancels
/// it), and the lanes are merged in order, so a word in another lane or stripe is a different
/// input. The length is hashed too: a shorter or longer range of the same bytes is a different
/// input. `FileChecksumTests` checks these on every bit, word pair and length of its inputs.
enum FileChecksum: Sendable, Equatable {
    /// Formats 3 and 4 (and the commit log): two chains of dependent multiply-rotates, one
    /// multiplication after the other, so the processor waits on each (about 6 GB/s).
    case twoChains
    /// Format 5 on: four independent lanes, each taking every fourth word with xxHash64's round
    /// (`round`), so the processor overlaps their multiplications (about 2.3 times as fast).
    case fourLanes

    /// What files of format `version` store; a file of another version is refused before any
    /// checksum is read (`FileHeader.checkPrologue`).
    init(format version: UInt32) {
        self = version < FileHeader.fourLaneFormat ? .twoChains : .fourLanes
    }

    /// What this build writes in a new file.
    static let current = FileChecksum.fourLanes

    /// What the store file whose first bytes are `header` uses (its format version), or
    /// `current` when they are too short to say.
    init(storeHeader header: UnsafeRawBufferPointer) {
        let end = FileHeader.formatVersionOffset + 4
        guard header.count >= end else {
            self = .current
            return
        }
        self.init(
            format: UInt32(
                littleEndian: header.loadUnaligned(fromByteOffset: FileHeader.formatVersionOffset, as: UInt32.self)
            )
        )
    }

    func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        switch self {
        case .twoChains: Self.twoChains(bytes)
        case .fourLanes: Self.fourLanes(bytes)
        }
    }

    func of(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { of($0) }
    }

    private static func twoChains(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var a: UInt64 = 0x9E37_79B9_7F4A_7C15
        var b: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        let words = bytes.count / 8
        var i = 0
        while i + 1 < words {
            let x = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
            let y = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i * 8 + 8, as: UInt64.self))
            a = rotate((a ^ x) &* 0x1000_0000_01B3, 29) &+ y
            b = rotate((b ^ y) &* 0xFF51_AFD7_ED55_8CCD, 31) &+ x
            i += 2
        }
        if i < words {
            a = rotate(
                (a ^ UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)))
                    &* 0x1000_0000_01B3,
                29
            )
        }
        var tail: UInt64 = UInt64(bytes.count)
        for k in (words * 8)..<bytes.count { tail = (tail << 8) | UInt64(bytes[k]) }
        b ^= tail &* 0xC4CE_B9FE_1A85_EC53
        var h = a ^ rotate(b, 17)
        h ^= h >> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        return h
    }

    // xxHash64's primes.
    private static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// Stripes of 32 bytes, word `k` of each to lane `k`; then the lanes, the words left over
    /// and the bytes left over (as one little-endian word) are merged one after the other into
    /// a state that starts from the length, and the state is finished with xxHash64's
    /// avalanche. Every merge step is a bijection of the state (`merge`).
    private static func fourLanes(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let count = bytes.count
        var h = p5 &+ UInt64(count)
        guard let base = bytes.baseAddress else { return finished(h) }
        @inline(__always) func word(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        let stripes = count / 32
        if stripes > 0 {
            var l0 = p1 &+ p2
            var l1 = p2
            var l2: UInt64 = 0
            var l3 = 0 &- p1
            // Four chains with no dependence between them: each round's multiplications overlap
            // the other lanes' (one multiplication waited on per 32 bytes, not per word). A
            // count of stripes and a moving pointer: no overflow check per stripe.
            var stripe = base
            for _ in 0..<stripes {
                l0 = round(l0, UInt64(littleEndian: stripe.loadUnaligned(as: UInt64.self)))
                l1 = round(l1, UInt64(littleEndian: stripe.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
                l2 = round(l2, UInt64(littleEndian: stripe.loadUnaligned(fromByteOffset: 16, as: UInt64.self)))
                l3 = round(l3, UInt64(littleEndian: stripe.loadUnaligned(fromByteOffset: 24, as: UInt64.self)))
                stripe += 32
            }
            h = merge(h, l0)
            h = merge(h, l1)
            h = merge(h, l2)
            h = merge(h, l3)
        }
        var offset = stripes * 32
        while offset + 8 <= count {
            h = merge(h, word(offset))
            offset += 8
        }
        if offset < count {
            var tail: UInt64 = 0
            for k in offset..<count { tail |= UInt64(bytes[k]) << (8 * UInt64(k - offset)) }
            h = merge(h, tail)
        }
        return finished(h)
    }

    /// xxHash64's round: a bijection of `lane` for a given word and of the word for a given
    /// lane; the rotation between the two multiplications moves a difference in the top bit
    /// (which a multiplication does not spread) to where the second one spreads it.
    @inline(__always)
    private static func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        rotate(lane &+ word &* p2, 31) &* p1
    }

    /// One value into the state: a bijection of the state for a given value and of the value
    /// for a given state, so a difference in either survives.
    @inline(__always)
    private static func merge(_ h: UInt64, _ value: UInt64) -> UInt64 {
        rotate(h ^ round(0, value), 27) &* p1 &+ p4
    }

    private static func finished(_ state: UInt64) -> UInt64 {
        var h = state
        h ^= h >> 33
        h = h &* p2
        h ^= h >> 29
        h = h &* p3
        h ^= h >> 32
        return h
    }

    @inline(__always)
    private static func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
}

extension StoreFile {
    /// The checksum this file's blocks, nodes, roots and slots use, from its format version.
    func checksum() throws(StoreFileError) -> FileChecksum {
        FileChecksum(format: try formatVersion())
    }
}
