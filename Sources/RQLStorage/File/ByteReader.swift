/// Reads little-endian integers and byte runs from a range of a mapped file, checking every
/// read against the range: a read past the end throws `StoreFileError.Problem.truncated` or
/// the caller's problem, never traps.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    /// The offset of `bytes` in the file, for error messages.
    let base: UInt64
    private(set) var position: Int
    let what: String

    init(_ bytes: UnsafeRawBufferPointer, base: UInt64, at position: Int = 0, what: String) {
        self.bytes = bytes
        self.base = base
        self.position = position
        self.what = what
    }

    var remaining: Int { bytes.count - position }

    private func overrun(_ count: Int) -> StoreFileError.Problem {
        .malformed(what: what, reason: "needs \(count) bytes at offset \(base + UInt64(position)), past its end")
    }

    // Inlined: records are read a few bytes at a time, and a call costs more than the read.
    @inline(__always)
    mutating func integer<T: FixedWidthInteger>(_: T.Type) throws(StoreFileError.Problem) -> T {
        let size = MemoryLayout<T>.size
        guard position >= 0, size <= remaining else { throw overrun(size) }
        let value = T(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: T.self))
        position += size
        return value
    }

    @inline(__always) mutating func u64() throws(StoreFileError.Problem) -> UInt64 { try integer(UInt64.self) }
    @inline(__always) mutating func i64() throws(StoreFileError.Problem) -> Int64 { try integer(Int64.self) }
    @inline(__always) mutating func u32() throws(StoreFileError.Problem) -> UInt32 { try integer(UInt32.self) }
    @inline(__always) mutating func u8() throws(StoreFileError.Problem) -> UInt8 { try integer(UInt8.self) }

    /// A count that must fit in what is left at `minimumSize` bytes per item.
    @inline(__always)
    mutating func count(minimumSize: Int) throws(StoreFileError.Problem) -> Int {
        let raw = try u32()
        let count = Int(raw)
        guard count.multipliedReportingOverflow(by: Swift.max(minimumSize, 1)).partialValue <= remaining,
            count <= remaining * 8 + 1
        else { throw excess(raw) }
        return count
    }

    private func excess(_ count: UInt32) -> StoreFileError.Problem {
        .malformed(what: what, reason: "count \(count) at offset \(base + UInt64(position - 4)) exceeds its record")
    }

    mutating func take(_ count: Int) throws(StoreFileError.Problem) -> UnsafeRawBufferPointer {
        guard count >= 0, count <= remaining else { throw overrun(count) }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[position..<position + count])
        position += count
        return slice
    }

    /// A `u32` length and that many bytes.
    mutating func lengthPrefixed() throws(StoreFileError.Problem) -> UnsafeRawBufferPointer {
        let length = try u32()
        return try take(Int(length))
    }

    mutating func string() throws(StoreFileError.Problem) -> String {
        String(decoding: try lengthPrefixed(), as: UTF8.self)
    }
}

/// Appends little-endian integers and byte runs; the writer's half of `ByteReader`.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func integer<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func u64(_ value: UInt64) { integer(value) }
    mutating func i64(_ value: Int64) { integer(value) }
    mutating func u32(_ value: UInt32) { integer(value) }
    mutating func u32(_ value: Int) { integer(UInt32(truncatingIfNeeded: value)) }
    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func lengthPrefixed(_ payload: some Collection<UInt8>) {
        u32(payload.count)
        bytes.append(contentsOf: payload)
    }

    mutating func string(_ text: String) { lengthPrefixed(Array(text.utf8)) }
}
