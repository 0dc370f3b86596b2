/// The checksum of header slots and of the bytes a commit wrote: a 64-bit multiply-rotate hash
/// over 8-byte words (several GB/s), enough to tell a torn or damaged write from a whole one.
/// Not cryptographic: it guards against accidents, not adversaries.
enum FileChecksum {
    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
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

    static func of(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { of($0) }
    }

    @inline(__always)
    private static func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
}
