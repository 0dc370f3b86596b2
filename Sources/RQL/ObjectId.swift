import Foundation
import RQLCore
import Synchronization

/// A 12-byte (probably) unique object identifier, the BSON ObjectId: a 4-byte creation time in
/// seconds since 1970, a 5-byte random value fixed per process, and a 3-byte counter that
/// starts at a random value. Ids therefore sort in creation order (to the second).
///
/// ```swift
/// let id = ObjectId.generate()
/// id.timestamp                          // about now
/// let fixed = ObjectId("11223344556677889900aabb")
/// fixed.stringValue                     // "11223344556677889900aabb"
/// try ObjectId(string: "not hex")       // throws
/// ```
public struct ObjectId: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The value as the engine stores it.
    let core: RQLCore.ObjectId

    init(_ core: RQLCore.ObjectId) {
        self.core = core
    }

    /// The all-zero id.
    ///
    /// ```swift
    /// let id = ObjectId()  // all zeros; ObjectId.generate() makes a new one
    /// ```
    public init() {
        self.core = .zero
    }

    /// A new id, unique for this process and ordered after every id generated before it in the
    /// same second.
    ///
    /// ```swift
    /// let id = ObjectId.generate()
    /// ```
    public static func generate() -> ObjectId {
        let seconds = UInt32(truncatingIfNeeded: Int64(Date().timeIntervalSince1970.rounded(.down)))
        let count = ObjectIdGenerator.counter.add(1, ordering: .relaxed).newValue
        var bytes = [UInt8](repeating: 0, count: 12)
        for i in 0..<4 { bytes[i] = UInt8(truncatingIfNeeded: seconds >> (24 - 8 * UInt32(i))) }
        for i in 0..<5 { bytes[4 + i] = ObjectIdGenerator.processRandom[i] }
        for i in 0..<3 { bytes[9 + i] = UInt8(truncatingIfNeeded: count >> (16 - 8 * UInt32(i))) }
        // Twelve bytes always make an id.
        return ObjectId(RQLCore.ObjectId(bytes: bytes)!)
    }

    /// Reads 24 hexadecimal digits; throws for anything else.
    ///
    /// ```swift
    /// let id = try ObjectId(string: "6571cbe7b0a2c3d4e5f60718")
    /// ```
    public init(string: String) throws {
        do {
            core = try RQLCore.ObjectId(hex: string)
        } catch {
            throw RealmValueError.invalidObjectId(string)
        }
    }

    /// Reads 24 hexadecimal digits written in the program. Stops the program if they are not
    /// (as Realm Swift does); use `init(string:)` for text from outside the program.
    ///
    /// ```swift
    /// let id = ObjectId("6571cbe7b0a2c3d4e5f60718")
    /// ```
    public init(_ string: StaticString) {
        let text = string.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
        guard let core = try? RQLCore.ObjectId(hex: text) else {
            realmStop("'\(text)' is not an ObjectId: expected 24 hexadecimal digits")
        }
        self.core = core
    }

    /// An id with the given creation time and the older BSON layout's 3-byte machine and 2-byte
    /// process identifiers; the counter part is the next value of this process's counter.
    ///
    /// ```swift
    /// let id = ObjectId(timestamp: Date(), machineId: 1, processId: 2)
    /// ```
    public init(timestamp: Date, machineId: Int, processId: Int) {
        let seconds = UInt32(truncatingIfNeeded: Int64(timestamp.timeIntervalSince1970.rounded(.down)))
        let count = ObjectIdGenerator.counter.add(1, ordering: .relaxed).newValue
        var bytes = [UInt8](repeating: 0, count: 12)
        for i in 0..<4 { bytes[i] = UInt8(truncatingIfNeeded: seconds >> (24 - 8 * UInt32(i))) }
        for i in 0..<3 { bytes[4 + i] = UInt8(truncatingIfNeeded: machineId >> (16 - 8 * i)) }
        for i in 0..<2 { bytes[7 + i] = UInt8(truncatingIfNeeded: processId >> (8 - 8 * i)) }
        for i in 0..<3 { bytes[9 + i] = UInt8(truncatingIfNeeded: count >> (16 - 8 * UInt32(i))) }
        self.core = RQLCore.ObjectId(bytes: bytes)!
    }

    /// The creation time stored in the first four bytes (whole seconds).
    ///
    /// ```swift
    /// ObjectId.generate().timestamp  // now, to the second
    /// ```
    public var timestamp: Date {
        let bytes = core.bytes
        let seconds = bytes[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The 24 lower-case hexadecimal digits.
    ///
    /// ```swift
    /// ObjectId("6571cbe7b0a2c3d4e5f60718").stringValue  // "6571cbe7b0a2c3d4e5f60718"
    /// ```
    public var stringValue: String { core.hexString }

    public var description: String { core.hexString }

    public static func < (lhs: ObjectId, rhs: ObjectId) -> Bool { lhs.core < rhs.core }
}

extension ObjectId: Codable {
    /// Decodes the 24-digit string form.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        try self.init(string: container.decode(String.self))
    }

    /// Encodes the 24-digit string form.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }
}

/// The process-wide parts of generated ids.
private enum ObjectIdGenerator {
    static let processRandom: [UInt8] = (0..<5).map { _ in UInt8.random(in: 0...255) }
    static let counter = Atomic<UInt32>(UInt32.random(in: 0...0xFF_FFFF))
}
