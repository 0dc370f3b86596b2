import Foundation
import RQLCore

/// The class info of a stored class read without its Swift declaration: every property gets
/// the field type its stored type would be declared with (`Int?`, `List<String>`,
/// `DynamicObject?` for a link), so that a `DynamicObject` reads and writes it through the same
/// paths as a declared object does.
///
/// ```swift
/// let info = ClassInfo.dynamic(storedDogSchema)  // type DynamicObject, className "Dog"
/// ```
extension ClassInfo {
    /// The dynamic info of `stored`, made once per distinct stored schema of a class.
    static func dynamic(_ stored: RQLCore.ObjectSchema) -> ClassInfo {
        dynamicLock.withLock {
            if let existing = dynamicInfos[stored] { return existing }
            let properties = stored.properties.map { property in
                let field = DynamicFields.field(for: property)
                return PersistedProperty(
                    name: property.name,
                    columnName: property.name,
                    offset: 0,
                    field: field,
                    schemaType: field.schemaType,
                    target: property.type.targetClassName == nil ? nil : DynamicObject.self,
                    core: property
                )
            }
            let info = ClassInfo(
                type: DynamicObject.self,
                className: stored.name,
                properties: properties,
                primaryKey: stored.primaryKey,
                prototype: DynamicObject(),
                isEmbedded: stored.isEmbedded
            )
            dynamicInfos[stored] = info
            return info
        }
    }

    private static let dynamicLock = NSLock()
    /// Kept for the process: objects hold their info unretained. One entry per stored shape of
    /// a class, so the table grows with schema changes, not with objects.
    nonisolated(unsafe) private static var dynamicInfos: [RQLCore.ObjectSchema: ClassInfo] = [:]
}

/// The `Persisted` field type for each stored property type.
enum DynamicFields {
    static func field(for property: RQLCore.Property) -> any PersistedField.Type {
        let optional = property.isOptional
        let collection = property.collection
        switch property.type {
        case .bool: return field(Bool.self, optional, collection)
        case .int: return field(Int.self, optional, collection)
        case .float: return field(Float.self, optional, collection)
        case .double: return field(Double.self, optional, collection)
        case .string: return field(String.self, optional, collection)
        case .data: return field(Data.self, optional, collection)
        case .date: return field(Date.self, optional, collection)
        case .decimal128: return field(Decimal128.self, optional, collection)
        case .objectId: return field(ObjectId.self, optional, collection)
        case .uuid: return field(UUID.self, optional, collection)
        case .mixed: return field(AnyRealmValue.self, collection)
        // A single link and a map's values are optional; list and set elements are not.
        case .object: return field(DynamicObject.self, collection == .single || collection == .map, collection)
        case .linkingObjects: return Persisted<LinkingObjects<DynamicObject>>.self
        }
    }

    private static func field<T: _RealmCollectionValueInsideOptional>(
        _: T.Type,
        _ optional: Bool,
        _ collection: CollectionKind
    ) -> any PersistedField.Type {
        optional ? field(T?.self, collection) : field(T.self, collection)
    }

    private static func field<T: RealmCollectionValue>(
        _: T.Type,
        _ collection: CollectionKind
    ) -> any PersistedField.Type {
        switch collection {
        case .single: Persisted<T>.self
        case .list: Persisted<List<T>>.self
        case .set: Persisted<MutableSet<T>>.self
        case .map: Persisted<Map<String, T>>.self
        }
    }
}
