/// A 12-byte MongoDB/Realm ObjectId. Ordering is byte order, which for generated ids is
/// creation-time order (the first four bytes are a big-endian timestamp).
///
/// ```swift
/// let id = try ObjectId(hex: "11223344556677889900aabb")
/// id.hexString  // "11223344556677889900aabb"
/// id < (try ObjectId(hex: "11223344556677889900aabc"))  // true
/// ```
public struct ObjectId: Hashable, Comparable, Sendable, CustomStringConvertible {
    // Two big-endian integers so that integer order is byte order and hashing is cheap.
    private let high: UInt64
    private let low: UInt32

    /// The all-zero id, the default of a non-optional `objectId` property.
    public static let zero = ObjectId(high: 0, low: 0)

    private init(high: UInt64, low: UInt32) {
        self.high = high
        self.low = low
    }

    /// Builds an id from exactly 12 bytes; `nil` for any other count.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 12 else { return nil }
        var high: UInt64 = 0
        var low: UInt32 = 0
        for (i, byte) in bytes.enumerated() {
            if i < 8 {
                high = high << 8 | UInt64(byte)
            } else {
                low = low << 8 | UInt32(byte)
            }
        }
        self.high = high
        self.low = low
    }

    /// Reads 24 hexadecimal digits (either case).
    public init(hex text: String) throws(ValueParseError) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 24 else { throw .invalidObjectId(text) }
        var bytes = [UInt8](repeating: 0, count: 12)
        for i in 0..<12 {
            guard let hi = hexDigitValue(utf8[2 * i]), let lo = hexDigitValue(utf8[2 * i + 1]) else {
                throw .invalidObjectId(text)
            }
            bytes[i] = hi << 4 | lo
        }
        guard let id = ObjectId(bytes: bytes) else { throw .invalidObjectId(text) }
        self = id
    }

    /// The 12 bytes, most significant first.
    public var bytes: [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64($0))) }
            + (0..<4).map { UInt8(truncatingIfNeeded: low >> (24 - 8 * UInt32($0))) }
    }

    /// The 24 lower-case hexadecimal digits.
    public var hexString: String {
        String(decoding: bytes.flatMap { [hexDigits[Int($0 >> 4)], hexDigits[Int($0 & 0xF)]] }, as: UTF8.self)
    }

    public var description: String { hexString }

    public static func < (lhs: ObjectId, rhs: ObjectId) -> Bool {
        lhs.high != rhs.high ? lhs.high < rhs.high : lhs.low < rhs.low
    }
}

private let hexDigits = Array("0123456789abcdef".utf8)

/// The value of one ASCII hexadecimal digit, or `nil`: the one hex reader for ObjectIds, JSON
/// `\u` escapes and query literals.
@inlinable
public func hexDigitValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x41...0x46: byte - 0x41 + 10
    case 0x61...0x66: byte - 0x61 + 10
    default: nil
    }
}
