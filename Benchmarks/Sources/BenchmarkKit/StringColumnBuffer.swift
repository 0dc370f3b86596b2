/// A column of UTF-8 strings as one byte array and N + 1 offsets, the layout of RQLStorage's
/// `BytesColumn`: row `i` is `bytes[offsets[i] ..< offsets[i + 1]]`. Null rows (if the column is
/// optional) are empty and marked in `isNull`.
///
///     var names = StringColumnBuffer()
///     names.append("Mari")
///     names.string(at: 0)   // "Mari"
public struct StringColumnBuffer: Sendable {
    /// Every row's bytes, back to back.
    public private(set) var bytes: [UInt8] = []
    /// `offsets[i] ..< offsets[i + 1]` is row `i`; `offsets[0] == 0`.
    public private(set) var offsets: [Int32] = [0]
    /// `isNull[i]` for optional columns; empty for required ones.
    public private(set) var isNull: [Bool] = []

    public init(optional: Bool = false, reservingRows rows: Int = 0, bytesPerRow: Int = 0) {
        offsets.reserveCapacity(rows + 1)
        bytes.reserveCapacity(rows * bytesPerRow)
        if optional { isNull.reserveCapacity(rows) }
        self.optional = optional
    }

    private let optional: Bool

    public var count: Int { offsets.count - 1 }

    /// Appends one row whose bytes the caller has already appended with `appendByte`.
    @inline(__always)
    public mutating func endRow(isNull null: Bool = false) {
        offsets.append(Int32(bytes.count))
        if optional { isNull.append(null) }
    }

    @inline(__always)
    public mutating func appendByte(_ byte: UInt8) {
        bytes.append(byte)
    }

    @inline(__always)
    public mutating func appendBytes(_ string: StaticString) {
        string.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends the decimal digits of `value`, as `String(value)` would.
    @inline(__always)
    public mutating func appendDecimal(_ value: UInt64) {
        if value >= 10 { appendDecimal(value / 10) }
        bytes.append(UInt8(truncatingIfNeeded: value % 10) &+ 0x30)
    }

    public mutating func append(_ string: String) {
        bytes.append(contentsOf: string.utf8)
        endRow()
    }

    public mutating func appendNull() {
        endRow(isNull: true)
    }

    /// Row `i` as a `String`, nil for a null row. For checks and printing, never in a scan.
    public func string(at i: Int) -> String? {
        if optional && isNull[i] { return nil }
        return String(decoding: bytes[Int(offsets[i])..<Int(offsets[i + 1])], as: UTF8.self)
    }
}
