/// Standard base64 (RFC 4648, `+` and `/`): `B64"…"` query literals, `data` values in datasets,
/// and printed binary values all go through it.
///
/// Written here rather than taken from Foundation so that RQLCore and RQLSyntax stay free of it,
/// and so that decoding works on a slice of a query's bytes without copying it into `Data`.
///
///     Base64.encode(Array("Hi".utf8))   // "SGk="
///     Base64.decode("SGk".utf8)         // [72, 105]: padding is optional
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The bytes `text` encodes, or nil if it is not base64. Padding is optional, but where present
    /// it must be at the end and complete the last group of four.
    public static func decode<Text: Collection>(_ text: Text) -> [UInt8]? where Text.Element == UInt8 {
        var padding = 0
        var significant = 0
        for byte in text {
            if byte == UInt8(ascii: "=") {
                padding += 1
            } else {
                guard padding == 0 else { return nil }
                significant += 1
            }
        }
        guard padding <= 2, significant % 4 != 1, padding == 0 || (significant + padding) % 4 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(significant * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in text where byte != UInt8(ascii: "=") {
            guard let value = sextet(byte) else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return bytes
    }

    /// The padded base64 text of `bytes`.
    public static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var group: UInt32 = 0
            for (position, byte) in chunk.enumerated() { group |= UInt32(byte) << (16 - 8 * UInt32(position)) }
            for position in 0..<4 {
                text.append(
                    position <= chunk.count
                        ? alphabet[Int(group >> (18 - 6 * UInt32(position)) & 0x3F)]
                        : UInt8(ascii: "=")
                )
            }
            index += 3
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
