/// One property of a class: its name, element type, optionality, collection kind and indexes.
///
/// ```swift
/// let p = try Property(name: "dogs", typeSyntax: "list<Dog>", className: "Person")
/// p.collection          // .list
/// p.type                // .object("Dog")
/// p.typeSyntax          // "list<Dog>"
/// ```
public struct Property: Hashable, Sendable {
    /// The name as written; any non-empty UTF-8 text.
    public let name: String
    /// The type of the value, or of each element of a collection.
    public let type: PropertyType
    /// Whether the value (or each element) may be null. Always true for `mixed` and for
    /// to-one links.
    public let isOptional: Bool
    /// One value, a list, a set or a map.
    public let collection: CollectionKind
    /// Whether a hash index answers equality lookups on this property.
    public var isIndexed: Bool
    /// Whether a full-text index answers `TEXT` on this (string) property.
    public var isFullText: Bool

    public init(
        name: String,
        type: PropertyType,
        isOptional: Bool = false,
        collection: CollectionKind = .single,
        isIndexed: Bool = false,
        isFullText: Bool = false
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional || type == .mixed
        self.collection = collection
        self.isIndexed = isIndexed
        self.isFullText = isFullText
    }

    /// Reads the dataset format's type syntax: `int`, `int?`, `list<int?>`, `set<string>`,
    /// `map<Dog?>`, `DogToy?`, `linkingObjects<DogClub.members>`. Class names are not checked
    /// here (`Schema` does); `className` only names the owner in errors.
    public init(name: String, typeSyntax: String, className: String) throws(SchemaError) {
        let unknown = SchemaError.unknownType(className: className, property: name, type: typeSyntax)
        var text = Substring(typeSyntax)
        var collection = CollectionKind.single
        for (prefix, kind) in [("list<", CollectionKind.list), ("set<", .set), ("map<", .map)]
        where text.hasPrefix(prefix) {
            guard text.hasSuffix(">") else { throw unknown }
            collection = kind
            text = text.dropFirst(prefix.count).dropLast()
            break
        }
        if text.hasPrefix("linkingObjects<") {
            guard collection == .single, text.hasSuffix(">") else { throw unknown }
            let inner = text.dropFirst("linkingObjects<".count).dropLast()
            guard let dot = inner.lastIndex(of: "."), dot != inner.startIndex, inner.index(after: dot) != inner.endIndex
            else { throw unknown }
            let type = PropertyType.linkingObjects(
                className: String(inner[..<dot]),
                property: String(inner[inner.index(after: dot)...])
            )
            self.init(name: name, type: type, collection: .list)
            return
        }
        var optional = false
        if text.hasSuffix("?") {
            optional = true
            text = text.dropLast()
        }
        guard !text.isEmpty, !text.contains("<"), !text.contains(">"), !text.contains("?") else { throw unknown }
        let type = PropertyType(keyword: String(text)) ?? .object(String(text))
        self.init(name: name, type: type, isOptional: optional, collection: collection)
    }

    /// The type in the dataset format's syntax; `Property(typeSyntax:)` reads it back.
    public var typeSyntax: String {
        if case .linkingObjects = type { return type.keyword }
        let element = type.keyword + (isOptional && type != .mixed ? "?" : "")
        switch collection {
        case .single: return element
        case .list: return "list<\(element)>"
        case .set: return "set<\(element)>"
        case .map: return "map<\(element)>"
        }
    }

    /// Whether the property links to objects (a to-one link, a collection of links, or backlinks).
    public var isLink: Bool { type.targetClassName != nil }

    /// Whether the property is the computed inverse of another class's link.
    public var isBacklink: Bool {
        if case .linkingObjects = type { return true }
        return false
    }

    /// Whether a key path through this property is multi-valued (a collection or backlinks).
    public var isToMany: Bool { collection != .single }
}
