/// Checks that bytes are UTF-8 before they become a `String`, so that input with invalid bytes
/// is refused with the offset of the first one instead of being silently repaired with U+FFFD.
/// Queries given as bytes (`rqlc` arguments, query files), datasets and JSON arguments use it.
///
///     UTF8Validation.firstInvalidOffset(in: Array("añb".utf8))   // nil
///     UTF8Validation.firstInvalidOffset(in: [0x61, 0xFF, 0x62])  // 1
public enum UTF8Validation {
    /// The offset of the first byte that does not begin or continue a well-formed UTF-8 sequence
    /// (overlong forms, surrogates and values past U+10FFFF are ill-formed), or nil if all are
    /// valid. A sequence cut short by the end of the bytes is invalid at its first byte.
    public static func firstInvalidOffset(in bytes: some Collection<UInt8>) -> Int? {
        if let offset = bytes.withContiguousStorageIfAvailable({ firstInvalidOffset(inBuffer: $0) }) {
            return offset
        }
        return Array(bytes).withUnsafeBufferPointer { firstInvalidOffset(inBuffer: $0) }
    }

    /// `bytes` as a `String`, or the error naming the first byte that is not UTF-8.
    ///
    ///     try UTF8Validation.decode([0x61, 0x62])  // "ab"
    public static func decode(_ bytes: some Collection<UInt8>) throws(InvalidUTF8Error) -> String {
        if let offset = firstInvalidOffset(in: bytes) {
            throw InvalidUTF8Error(offset: offset, byte: bytes[bytes.index(bytes.startIndex, offsetBy: offset)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The length of the well-formed sequence that starts at `index`, or nil if there is none.
    @inline(__always)
    public static func sequenceLength(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        if lead < 0x80 { return 1 }
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            secondRange = 0x80...0x9F
        case 0xF0:
            length = 4
            secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            secondRange = 0x80...0x8F
        default: return nil
        }
        guard index + length <= bytes.count, secondRange.contains(bytes[index + 1]) else { return nil }
        for next in index + 2..<index + length where bytes[next] & 0xC0 != 0x80 { return nil }
        return length
    }

    private static func firstInvalidOffset(inBuffer bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        while index < bytes.count {
            // Eight ASCII bytes at a time while the input is ASCII.
            while index + 8 <= bytes.count,
                UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
                    & 0x8080_8080_8080_8080 == 0
            {
                index += 8
            }
            guard index < bytes.count else { break }
            guard let length = sequenceLength(in: bytes, at: index) else { return index }
            index += length
        }
        return nil
    }
}

/// Bytes that were to be text but are not UTF-8: where the first bad byte is, and what it is.
public struct InvalidUTF8Error: Error, Hashable, Sendable, CustomStringConvertible {
    /// Offset of the first invalid byte from the start of the input.
    public var offset: Int
    /// The byte at `offset`.
    public var byte: UInt8

    public init(offset: Int, byte: UInt8) {
        self.offset = offset
        self.byte = byte
    }

    /// `byte 0xFF at byte offset 3`.
    public var location: String {
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x\(hex.count == 1 ? "0" + hex : hex) at byte offset \(offset)"
    }

    public var description: String { "not valid UTF-8: \(location)" }
}
