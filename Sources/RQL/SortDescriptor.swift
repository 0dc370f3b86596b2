import Foundation

/// One key of a sort: a key path (through to-one links only) and a direction, plus RQL's
/// case-insensitive option (Realm Swift has none).
///
/// ```swift
/// dogs.sorted(by: [SortDescriptor(keyPath: "age", ascending: false), "name"])
/// dogs.sorted(by: [SortDescriptor(keyPath: "name", ascending: true, caseInsensitive: true)])
/// ```
public struct SortDescriptor: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The key path, dotted (`"favoriteToy.name"`).
    ///
    /// ```swift
    /// SortDescriptor(keyPath: "favoriteToy.name").keyPath  // "favoriteToy.name"
    /// ```
    public let keyPath: String
    /// Whether smaller values (nulls first) come first.
    ///
    /// ```swift
    /// SortDescriptor(keyPath: "age", ascending: false).ascending  // false
    /// ```
    public let ascending: Bool
    /// Whether strings are compared with case folded (`"apple"` before `"Banana"`); ties keep
    /// Realm's order.
    ///
    /// ```swift
    /// dogs.sorted(by: [SortDescriptor(keyPath: "name", caseInsensitive: true)])  // "apple", "Banana", "cherry"
    /// ```
    public let caseInsensitive: Bool

    /// A sort key: `SortDescriptor(keyPath: "age", ascending: false)`.
    ///
    /// ```swift
    /// dogs.sorted(by: [SortDescriptor(keyPath: "age", ascending: false)])
    /// ```
    public init(keyPath: String, ascending: Bool = true) {
        self.init(keyPath: keyPath, ascending: ascending, caseInsensitive: false)
    }

    /// A sort key with RQL's case-insensitive option.
    ///
    /// ```swift
    /// dogs.sorted(by: [SortDescriptor(keyPath: "name", ascending: true, caseInsensitive: true)])
    /// ```
    public init(keyPath: String, ascending: Bool = true, caseInsensitive: Bool) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.caseInsensitive = caseInsensitive
    }

    /// A sort key from a typed key path of a model class.
    ///
    /// ```swift
    /// SortDescriptor(keyPath: \Dog.name, ascending: false)
    /// ```
    public init<Root: ObjectBase>(keyPath: PartialKeyPath<Root>, ascending: Bool = true, caseInsensitive: Bool = false)
    {
        self.init(keyPath: _name(for: keyPath), ascending: ascending, caseInsensitive: caseInsensitive)
    }

    /// `"name"` sorts ascending by `name`.
    ///
    /// ```swift
    /// dogs.sorted(by: ["name"])
    /// ```
    public init(stringLiteral value: String) {
        self.init(keyPath: value)
    }

    /// The same key in the other direction.
    ///
    /// ```swift
    /// SortDescriptor(keyPath: "age").reversed().ascending  // false
    /// ```
    public func reversed() -> SortDescriptor {
        SortDescriptor(keyPath: keyPath, ascending: !ascending, caseInsensitive: caseInsensitive)
    }

    public var description: String {
        "SortDescriptor(keyPath: \(keyPath), direction: \(ascending ? "ascending" : "descending")"
            + (caseInsensitive ? ", caseInsensitive" : "") + ")"
    }
}

/// The dotted name of the persisted properties a key path reads (`\Dog.favoriteToy?.name` is
/// `"favoriteToy.name"`); a key path that reads none stops the program with its description.
///
/// ```swift
/// _name(for: \Person.address?.city)   // "address.city"
/// ```
public func _name<Root: ObjectBase>(for keyPath: PartialKeyPath<Root>) -> String {
    guard let names = KeyPathRecording.names(of: keyPath, on: Root.self) else {
        realmStop("\(keyPath) does not read a persisted property of \(Root.className())")
    }
    return names.joined(separator: ".")
}
