import Foundation
import RQLCore

/// The byte encoding of `mixed` values in blocks (and, in phase 2, on disk), since a Swift
/// `Value` cannot be stored in a file: one tag byte (`ValueKind.rawValue`), then the payload,
/// little-endian:
///
/// | kind | payload |
/// | --- | --- |
/// | null | none |
/// | bool | 1 byte, 0 or 1 |
/// | int, double | 8 bytes |
/// | float | 4 bytes |
/// | decimal | kind byte, sign byte, exponent (4 bytes), coefficient (16 bytes) |
/// | string, data | length (4 bytes), the bytes |
/// | date | seconds (8 bytes), nanoseconds (4 bytes) |
/// | objectId | 12 bytes, most significant first |
/// | uuid | 16 bytes |
/// | link | class name as a string payload, row key (8 bytes) |
/// | list | count (4 bytes), the items |
/// | map | count (4 bytes), then per entry the key as a string payload and the value |
///
/// Decoding is bounds-checked and validates every field, so bytes from a damaged file decode to
/// `nil`, never to a trap or an invalid value.
///
/// ```swift
/// var bytes: [UInt8] = []
/// MixedCoding.encode(.list([.int(1), .string("a")]), into: &bytes)
/// bytes.withUnsafeBytes { MixedCoding.decode($0) }  // .list([.int(1), .string("a")])
/// ```
enum MixedCoding {
    static func encode(_ value: Value, into bytes: inout [UInt8]) {
        bytes.append(UInt8(value.kind.rawValue))
        switch value {
        case .null: break
        case .bool(let b): bytes.append(b ? 1 : 0)
        case .int(let i): append(i, to: &bytes)
        case .float(let f): append(f.bitPattern, to: &bytes)
        case .double(let d): append(d.bitPattern, to: &bytes)
        case .decimal(let d):
            bytes.append(d.kind.rawValue)
            bytes.append(d.isNegative ? 1 : 0)
            append(d.exponent, to: &bytes)
            append(UInt64(truncatingIfNeeded: d.coefficient), to: &bytes)
            append(UInt64(truncatingIfNeeded: d.coefficient >> 64), to: &bytes)
        case .string(let s): appendBytes(s.utf8, to: &bytes)
        case .data(let d): appendBytes(d, to: &bytes)
        case .date(let t):
            append(t.seconds, to: &bytes)
            append(t.nanoseconds, to: &bytes)
        case .objectId(let id): bytes.append(contentsOf: id.bytes)
        case .uuid(let u): bytes.append(contentsOf: u.byteArray)
        case .link(let link):
            appendBytes(link.className.utf8, to: &bytes)
            append(link.key.rawValue, to: &bytes)
        case .list(let items):
            append(UInt32(items.count), to: &bytes)
            for item in items { encode(item, into: &bytes) }
        case .map(let map):
            append(UInt32(map.count), to: &bytes)
            for entry in map {
                appendBytes(entry.key.utf8, to: &bytes)
                encode(entry.value, into: &bytes)
            }
        }
    }

    /// The one value encoded in `bytes` (all of them), or `nil` if they are not a valid encoding.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> Value? {
        var reader = Reader(bytes: bytes)
        guard let value = reader.value(depth: 0), reader.offset == bytes.count else { return nil }
        return value
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func appendBytes(_ payload: some Collection<UInt8>, to bytes: inout [UInt8]) {
        append(UInt32(payload.count), to: &bytes)
        bytes.append(contentsOf: payload)
    }

    /// Nesting deeper than this is refused when decoding, so a hostile file cannot exhaust the stack.
    static let maximumDepth = 256

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        mutating func take(_ count: Int) -> UnsafeRawBufferPointer? {
            guard count >= 0, count <= bytes.count - offset else { return nil }
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
        }

        mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
            guard let raw = take(MemoryLayout<T>.size) else { return nil }
            return T(littleEndian: raw.loadUnaligned(as: T.self))
        }

        mutating func payload() -> UnsafeRawBufferPointer? {
            guard let length = integer(UInt32.self) else { return nil }
            return take(Int(length))
        }

        mutating func value(depth: Int) -> Value? {
            guard depth < MixedCoding.maximumDepth, let tag = integer(UInt8.self),
                let kind = ValueKind(rawValue: Int(tag))
            else { return nil }
            switch kind {
            case .null: return .null
            case .bool:
                guard let b = integer(UInt8.self), b <= 1 else { return nil }
                return .bool(b == 1)
            case .int: return integer(Int64.self).map { .int($0) }
            case .float: return integer(UInt32.self).map { .float(Float(bitPattern: $0)) }
            case .double: return integer(UInt64.self).map { .double(Double(bitPattern: $0)) }
            case .decimal: return decimal().map { .decimal($0) }
            case .string: return payload().map { .string(String(decoding: $0, as: UTF8.self)) }
            case .data: return payload().map { .data(Array($0)) }
            case .date:
                guard let seconds = integer(Int64.self), let nanos = integer(Int32.self),
                    let t = Timestamp(seconds: seconds, nanoseconds: nanos)
                else { return nil }
                return .date(t)
            case .objectId: return take(12).flatMap { ObjectId(bytes: Array($0)) }.map { .objectId($0) }
            case .uuid:
                guard let raw = take(16) else { return nil }
                let b = Array(raw)
                return .uuid(
                    UUID(
                        uuid: (
                            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                            b[14], b[15]
                        )
                    )
                )
            case .link:
                guard let name = payload(), let key = integer(Int64.self) else { return nil }
                return .link(ObjectLink(className: String(decoding: name, as: UTF8.self), key: RowKey(key)))
            case .list:
                guard let count = integer(UInt32.self), Int(count) <= bytes.count - offset else { return nil }
                var items: [Value] = []
                items.reserveCapacity(Int(count))
                for _ in 0..<count {
                    guard let item = value(depth: depth + 1) else { return nil }
                    items.append(item)
                }
                return .list(items)
            case .map:
                guard let count = integer(UInt32.self), Int(count) <= bytes.count - offset else { return nil }
                var entries: [(String, Value)] = []
                for _ in 0..<count {
                    guard let key = payload(), let item = value(depth: depth + 1) else { return nil }
                    entries.append((String(decoding: key, as: UTF8.self), item))
                }
                return .map(MixedMap(entries))
            }
        }

        mutating func decimal() -> Decimal128? {
            guard let kindByte = integer(UInt8.self), let kind = Decimal128.Kind(rawValue: kindByte),
                let sign = integer(UInt8.self), sign <= 1, let exponent = integer(Int32.self),
                let low = integer(UInt64.self), let high = integer(UInt64.self)
            else { return nil }
            let negative = sign == 1
            switch kind {
            case .nan: return .nan
            case .infinity: return negative ? .negativeInfinity : .infinity
            case .finite:
                let coefficient = UInt128(high) << 64 | UInt128(low)
                guard coefficient < Decimal128.coefficientLimit, exponent >= Decimal128.minExponent,
                    exponent <= Decimal128.maxExponent
                else { return nil }
                return Decimal128(isNegative: negative, coefficient: coefficient, exponent: Int(exponent))
            }
        }
    }
}
