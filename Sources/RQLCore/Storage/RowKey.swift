/// The stable identity of a row within its table. A key never changes while the row exists and
/// is never reused for another row, unlike a row's *position* (its index in a scan).
///
/// ```swift
/// let key = RowKey(3)
/// table.position(of: key)  // where the row sits in the current snapshot, or nil if deleted
/// ```
public struct RowKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The key's integer value; non-negative for a real row.
    public let rawValue: Int64

    public init(_ rawValue: Int64) {
        self.rawValue = rawValue
    }

    public var description: String { "O\(rawValue)" }

    public static func < (lhs: RowKey, rhs: RowKey) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A reference to one object: its class name and its row key in that class's table.
///
/// ```swift
/// Value.link(ObjectLink(className: "Dog", key: RowKey(0)))
/// ```
public struct ObjectLink: Hashable, Sendable, CustomStringConvertible {
    /// The class (table) the object belongs to.
    public let className: String
    /// The object's row key in that table.
    public let key: RowKey

    public init(className: String, key: RowKey) {
        self.className = className
        self.key = key
    }

    public var description: String { "\(className)[\(key)]" }
}
