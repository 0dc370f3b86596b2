/// Bytes read front to back, a chunk at a time: a file, a pipe, standard input or memory. The
/// JSON parser reads datasets through it, so a command that needs only a dataset's schema stops
/// reading after the schema, and a pipe can be read at all.
///
///     let input = MemoryInput(Array(#"{"schema": {}}"#.utf8))
///     let schema = try DatasetLoader.loadSchema(from: input)
public protocol ByteInput: AnyObject {
    /// Appends up to `count` bytes to `buffer` and returns how many; 0 means the end of the
    /// input, or a failure that `failure` then describes.
    func read(appendingTo buffer: inout [UInt8], upTo count: Int) -> Int

    /// Why reading stopped before the end of the input, if it did.
    var failure: InputFailure? { get }

    /// How many bytes are left to read, if known (a regular file's size), so that reading it
    /// all allocates once.
    var sizeHint: Int? { get }
}

extension ByteInput {
    public var sizeHint: Int? { nil }

    /// Everything left to read, or the failure that stopped the reading. A file of known size
    /// is read into one allocation of that size; a pipe into a buffer that doubles.
    ///
    ///     let bytes = try FileInput(path: "dogs.json").readAll()
    public func readAll() throws(InputFailure) -> [UInt8] {
        var bytes: [UInt8] = []
        // One byte more than the size, so the read that finds the end needs no new allocation.
        bytes.reserveCapacity((sizeHint ?? (1 << 16)) + 1)
        while true {
            let room = bytes.capacity - bytes.count
            if read(appendingTo: &bytes, upTo: room > 0 ? room : max(1 << 16, bytes.count)) == 0 { break }
        }
        if let failure { throw failure }
        return bytes
    }
}

/// Why a file or stream could not be read, in plain words (`'d.json' is a directory`).
public struct InputFailure: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// Bytes already in memory, as a `ByteInput`.
public final class MemoryInput: ByteInput {
    private let bytes: [UInt8]
    private var position = 0

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public func read(appendingTo buffer: inout [UInt8], upTo count: Int) -> Int {
        let end = min(bytes.count, position + count)
        buffer.append(contentsOf: bytes[position..<end])
        defer { position = end }
        return end - position
    }

    public var failure: InputFailure? { nil }

    public var sizeHint: Int? { bytes.count - position }
}
