/// A validated set of classes. Construction checks every rule of the dataset format and
/// throws the first `SchemaError` found, in class order then property order.
///
/// ```swift
/// let schema = try Schema([
///     ObjectSchema(name: "Dog", properties: [
///         try Property(name: "name", typeSyntax: "string", className: "Dog"),
///         try Property(name: "owners", typeSyntax: "linkingObjects<Person.dogs>", className: "Dog"),
///     ]),
///     ObjectSchema(name: "Person", properties: [
///         try Property(name: "dogs", typeSyntax: "list<Dog>", className: "Person"),
///     ]),
/// ])
/// schema["Dog"]?.properties.count  // 2
/// ```
public struct Schema: Hashable, Sendable {
    /// The classes in the order given.
    public let classes: [ObjectSchema]
    /// By name bytes (`UTF8Key`): names that differ only in Unicode normalization are distinct.
    private let indexByName: [UTF8Key: Int]

    public init(_ classes: [ObjectSchema]) throws(SchemaError) {
        var indexByName: [UTF8Key: Int] = [:]
        for (i, objectSchema) in classes.enumerated() {
            guard !objectSchema.name.isEmpty else { throw .emptyClassName }
            guard indexByName[UTF8Key(objectSchema.name)] == nil else { throw .duplicateClass(objectSchema.name) }
            indexByName[UTF8Key(objectSchema.name)] = i
        }
        self.classes = classes
        self.indexByName = indexByName
        for objectSchema in classes { try validate(objectSchema) }
    }

    /// The named class.
    public subscript(className: String) -> ObjectSchema? {
        indexByName[UTF8Key(className)].map { classes[$0] }
    }

    /// The position of the named class in `classes`.
    public func classIndex(named className: String) -> Int? { indexByName[UTF8Key(className)] }

    private func validate(_ objectSchema: ObjectSchema) throws(SchemaError) {
        let className = objectSchema.name
        var seen = Set<UTF8Key>()
        for property in objectSchema.properties {
            guard !property.name.isEmpty else { throw .emptyPropertyName(className: className) }
            guard seen.insert(UTF8Key(property.name)).inserted else {
                throw .duplicateProperty(className: className, property: property.name)
            }
            try validateType(of: property, in: className)
            try validateIndexes(of: property, in: className)
        }
        if let key = objectSchema.primaryKey {
            guard let property = objectSchema.property(named: key) else {
                throw .unknownPrimaryKey(className: className, property: key)
            }
            guard !objectSchema.isEmbedded else {
                throw .primaryKeyOnEmbeddedClass(className: className, property: key)
            }
            let keyable: Bool =
                switch property.type {
                case .int, .string, .objectId, .uuid: property.collection == .single
                default: false
                }
            guard keyable else {
                throw .invalidPrimaryKeyType(className: className, property: key, type: property.typeSyntax)
            }
        }
    }

    private func validateType(of property: Property, in className: String) throws(SchemaError) {
        switch property.type {
        case .object(let target):
            guard let targetSchema = self[target] else {
                // A bare word that is neither a scalar type nor a class (`integer`) is a type
                // typo; written as a link (`Dgo?`, `list<Dgo>`) it is a class typo.
                if property.collection == .single && !property.isOptional {
                    throw .unknownType(className: className, property: property.name, type: property.typeSyntax)
                }
                throw .unknownClass(className: className, property: property.name, target: target)
            }
            switch property.collection {
            case .single:
                guard property.isOptional else {
                    throw .linkNotOptional(className: className, property: property.name, target: target)
                }
            case .list, .set:
                guard !property.isOptional else {
                    throw .optionalLinkInCollection(className: className, property: property.name)
                }
                if property.collection == .set && targetSchema.isEmbedded {
                    throw .setOfEmbeddedObjects(className: className, property: property.name)
                }
            case .map:
                break
            }
        case .linkingObjects(let originClass, let originProperty):
            let origin = "\(originClass).\(originProperty)"
            guard let originSchema = self[originClass] else {
                throw .unknownClass(className: className, property: property.name, target: originClass)
            }
            guard let link = originSchema.property(named: originProperty) else {
                throw .unknownBacklinkOrigin(className: className, property: property.name, origin: origin)
            }
            guard link.type == .object(className) else {
                throw .backlinkToNonLink(className: className, property: property.name, origin: origin)
            }
        default:
            break
        }
    }

    private func validateIndexes(of property: Property, in className: String) throws(SchemaError) {
        if property.isIndexed {
            let indexable: Bool =
                switch property.type {
                // Realm's indexable types, plus the floating-point and decimal types, which get a
                // sorted index for range queries (`score > 0.99`; see `Property.hasSortedIndex`).
                case .bool, .int, .float, .double, .decimal128, .string, .date, .objectId, .uuid, .mixed:
                    property.collection == .single
                default: false
                }
            guard indexable else {
                throw .invalidIndexType(className: className, property: property.name, type: property.typeSyntax)
            }
        }
        if property.isFullText {
            guard property.type == .string, property.collection == .single else {
                throw .invalidFullTextType(className: className, property: property.name, type: property.typeSyntax)
            }
        }
    }
}
