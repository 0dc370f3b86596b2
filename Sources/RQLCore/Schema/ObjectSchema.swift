/// The schema of one class: its properties in declaration order, primary key and embedding.
///
/// ```swift
/// let toy = ObjectSchema(
///     name: "DogToy",
///     properties: [Property(name: "id", type: .objectId), Property(name: "name", type: .string)],
///     primaryKey: "id")
/// toy.propertyIndex(named: "name")  // 1
/// ```
public struct ObjectSchema: Hashable, Sendable {
    /// The class name; any non-empty UTF-8 text.
    public let name: String
    /// The properties in the order written; a property's position is its column number.
    public let properties: [Property]
    /// The primary key property's name, if the class has one.
    public let primaryKey: String?
    /// Whether objects of this class live only inside a parent object's link.
    public let isEmbedded: Bool
    /// By name bytes (`UTF8Key`): names that differ only in Unicode normalization are distinct.
    private let indexByName: [UTF8Key: Int]

    public init(name: String, properties: [Property], primaryKey: String? = nil, isEmbedded: Bool = false) {
        self.name = name
        self.properties = properties
        self.primaryKey = primaryKey
        self.isEmbedded = isEmbedded
        var indexByName: [UTF8Key: Int] = [:]
        // The first declaration wins; `Schema` rejects duplicates anyway.
        for (i, property) in properties.enumerated() where indexByName[UTF8Key(property.name)] == nil {
            indexByName[UTF8Key(property.name)] = i
        }
        self.indexByName = indexByName
    }

    /// Up to this many properties, a name is looked up by comparing the names' bytes in order:
    /// cheaper than hashing it (a single-object insert looks up each of its values' names).
    static let linearLookupLimit = 16

    /// The column number of the named property.
    public func propertyIndex(named name: String) -> Int? {
        guard properties.count <= Self.linearLookupLimit else { return indexByName[UTF8Key(name)] }
        let key = UTF8Key(name)
        let length = name.utf8.count
        // In declaration order: the first declaration wins, as in `indexByName`.
        for i in properties.indices where properties[i].name.utf8.count == length {
            if UTF8Key(properties[i].name) == key { return i }
        }
        return nil
    }

    /// The named property.
    public func property(named name: String) -> Property? { indexByName[UTF8Key(name)].map { properties[$0] } }

    /// The column number of the primary key.
    public var primaryKeyIndex: Int? { primaryKey.flatMap { indexByName[UTF8Key($0)] } }
}
