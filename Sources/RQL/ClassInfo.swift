import Foundation
import RQLCore
import RQLStorage
@_spi(Reflection) import Swift

/// One `@Persisted` property of a model class, as discovery found it.
struct PersistedProperty {
    /// The Swift property name (the storage label without its leading underscore).
    let name: String
    /// The name of the stored column (`propertiesMapping()`), usually `name`.
    let columnName: String
    /// Where the `Persisted` wrapper lives inside an instance.
    let offset: Int
    let field: any PersistedField.Type
    let schemaType: _RQLSchemaType
    /// The linked (or backlinking) class.
    let target: ObjectBase.Type?
    let core: RQLCore.Property
}

/// Everything known about one model class: its properties in schema order, its schema, and the
/// prototype that records key paths. Discovered once per class without an Objective-C runtime:
/// the runtime lists the class's stored fields (names, offsets, types) and a prototype instance
/// gives each `@Persisted` declaration's flags.
// Unchecked: every field is a `let` of plain values, except `prototype`, an object whose
// `@Persisted` fields record key paths; `KeyPathRecording` touches it only under its lock.
final class ClassInfo: @unchecked Sendable {
    let type: ObjectBase.Type
    let className: String
    let isEmbedded: Bool
    /// In the store's column order: a property's ordinal is its column. For a class discovered
    /// from its declaration, superclass properties first, then declaration order; a store that
    /// keeps the same properties in another order gets a copy in its order (`matching(_:)`).
    let properties: [PersistedProperty]
    /// The ordinals in declaration order: what users see (`objectSchema`, `description`, an
    /// array given to `init(value:)`), whatever order the store keeps the columns in.
    let declaredOrder: [Int]
    let primaryKey: String?
    let objectSchema: RQLCore.ObjectSchema
    /// An instance whose fields are in the recording state (see `KeyPathRecording`).
    let prototype: ObjectBase
    private let indexByName: [String: Int]
    /// Per property: whether adding an object writes it after the object has its row (links,
    /// embedded objects, collections of them and mixed values, which may lead back to it).
    let deferredOnAdd: [Bool]
    /// Whether objects of the class can be added column by column in one bulk insert: a
    /// top-level class with no deferred property.
    let isBulkInsertable: Bool
    /// Per property: whether it is computed linking objects.
    let isBacklink: [Bool]
    /// Per property: whether it is a collection (list, set, map, linking objects), whose
    /// managed value is a live view.
    let isCollection: [Bool]
    /// Per property: where its `Persisted` wrapper lives inside an instance.
    let offsets: [Int]

    init(
        type: ObjectBase.Type,
        className: String,
        properties: [PersistedProperty],
        primaryKey: String?,
        prototype: ObjectBase,
        declaredOrder: [Int]? = nil,
        isEmbedded: Bool? = nil
    ) {
        let isEmbedded = isEmbedded ?? type._rqlIsEmbedded
        self.type = type
        self.className = className
        self.declaredOrder = declaredOrder ?? Array(properties.indices)
        self.isEmbedded = isEmbedded
        self.properties = properties
        self.primaryKey = primaryKey
        self.prototype = prototype
        self.objectSchema = RQLCore.ObjectSchema(
            name: className,
            properties: properties.map(\.core),
            primaryKey: primaryKey,
            isEmbedded: isEmbedded
        )
        var indexByName: [String: Int] = [:]
        for (i, property) in properties.enumerated() { indexByName[property.name] = i }
        self.indexByName = indexByName
        deferredOnAdd = properties.map { property in
            switch property.core.type {
            case .object, .mixed: !property.schemaType.isBacklink
            default: false
            }
        }
        isBulkInsertable = !isEmbedded && !deferredOnAdd.contains(true)
        isBacklink = properties.map(\.schemaType.isBacklink)
        // A dynamic object has no `Persisted` fields: every access goes through its ordinal.
        offsets = type == DynamicObject.self ? [] : properties.map(\.offset)
        isCollection = properties.map { $0.schemaType.collection != .single || $0.schemaType.isBacklink }
    }

    /// The property number of the named property.
    func propertyIndex(named name: String) -> Int? { indexByName[name] }

    /// The wrapper of property `ordinal` inside `object` (an instance of this class or a subclass).
    func field(_ ordinal: Int, of object: ObjectBase) -> UnsafeMutableRawPointer {
        Unmanaged.passUnretained(object).toOpaque() + properties[ordinal].offset
    }

    /// An instance bound to the stored object `key` of `context`, whose class is at
    /// `classIndex` of the store's schema; `row` is where `version` has it, when known.
    func makeManaged(
        context: RealmContext,
        key: RowKey,
        classIndex: Int,
        version: StoreVersion? = nil,
        row: BlockRow? = nil
    ) -> ObjectBase {
        let object = type.init()
        // Only the state word changes (at the same offset in every `Persisted`), so no
        // generic code runs per property.
        withExtendedLifetime(object) {
            let base = Unmanaged.passUnretained(object).toOpaque()
            for (ordinal, offset) in offsets.enumerated() {
                PersistedState.set(PersistedState(managed: ordinal), at: base + offset)
            }
        }
        object._rqlBind(context: context, info: self, key: key, classIndex: classIndex, version: version, row: row)
        if context.isFrozen { object._rqlPrimeFrozen() }
        return object
    }

    // MARK: Discovery

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [ObjectIdentifier: Result<ClassInfo, SchemaDiscoveryError>] = [:]

    /// The class's info, discovered on first use.
    static func info(for type: ObjectBase.Type) throws(SchemaDiscoveryError) -> ClassInfo {
        let id = ObjectIdentifier(type)
        if let cached = lock.withLock({ cache[id] }) { return try cached.get() }
        // Discover outside the lock: the prototype's initializer is user code.
        let result: Result<ClassInfo, SchemaDiscoveryError>
        do {
            result = .success(try discover(type))
        } catch {
            result = .failure(error)
        }
        let stored = lock.withLock {
            if let existing = cache[id] { return existing }
            cache[id] = result
            return result
        }
        return try stored.get()
    }

    private static func discover(_ type: ObjectBase.Type) throws(SchemaDiscoveryError) -> ClassInfo {
        let className = type.className()
        let classBytes = className.utf8.count
        guard classBytes <= 57 else { throw .classNameTooLong(className: className, byteCount: classBytes) }

        var fields: [(name: String, offset: Int, field: any PersistedField.Type)] = []
        // `.classType` (bit 0), spelled by value: the stdlib declares the option as a mutable static.
        let listed = _forEachField(of: type, options: _EachFieldOptions(rawValue: 1 << 0)) {
            label,
            offset,
            fieldType,
            _ in
            if let field = fieldType as? any PersistedField.Type {
                var name = String(cString: label)
                if name.hasPrefix("_") { name.removeFirst() }
                fields.append((name, offset, field))
            }
            return true
        }
        guard listed else { throw .unreflectable(className: className) }

        let prototype = type.init()
        let ignored = Set(type.ignoredProperties())
        let mapping = type.propertiesMapping()
        let indexedByMethod = Set(type.indexedProperties())
        var primaryKey: String?
        var properties: [PersistedProperty] = []

        try withExtendedLifetime(prototype) { () throws(SchemaDiscoveryError) in
            let base = UnsafeRawPointer(Unmanaged.passUnretained(prototype).toOpaque())
            for (name, offset, field) in fields where !ignored.contains(name) {
                let declaration = field.declaration(at: base + offset)
                if declaration.primary {
                    if let first = primaryKey {
                        throw .duplicatePrimaryKey(className: className, first: first, second: name)
                    }
                    primaryKey = name
                }
                properties.append(
                    try property(
                        name,
                        columnName: mapping[name] ?? name,
                        offset: offset,
                        field: field,
                        indexed: declaration.indexed || indexedByMethod.contains(name),
                        origin: declaration.origin,
                        className: className
                    )
                )
            }
        }
        guard !properties.isEmpty else { throw .noProperties(className: className) }
        let names = Set(properties.map(\.name))
        if let declared = type.primaryKey() {
            guard names.contains(declared) else {
                throw .unknownProperty(className: className, property: declared, declaredBy: "primaryKey()")
            }
            if let first = primaryKey, first != declared {
                throw .duplicatePrimaryKey(className: className, first: first, second: declared)
            }
            primaryKey = declared
        }
        for name in indexedByMethod where !names.contains(name) {
            throw .unknownProperty(className: className, property: name, declaredBy: "indexedProperties()")
        }
        if let primaryKey, type._rqlIsEmbedded {
            throw .primaryKeyOnEmbeddedClass(className: className, property: primaryKey)
        }

        let info = ClassInfo(
            type: type,
            className: className,
            properties: properties,
            primaryKey: primaryKey,
            prototype: prototype
        )
        withExtendedLifetime(prototype) {
            for ordinal in properties.indices {
                PersistedState.set(PersistedState(recording: ordinal), at: info.field(ordinal, of: prototype))
            }
        }
        return info
    }

    /// Checks one property's declaration and describes it for the engine.
    private static func property(
        _ name: String,
        columnName: String,
        offset: Int,
        field: any PersistedField.Type,
        indexed: Bool,
        origin: String?,
        className: String
    ) throws(SchemaDiscoveryError) -> PersistedProperty {
        for spelling in Set([name, columnName]) where spelling.utf8.count > 63 {
            throw .propertyNameTooLong(className: className, property: spelling, byteCount: spelling.utf8.count)
        }
        let schemaType = field.schemaType
        let coreType: RQLCore.PropertyType
        var target: ObjectBase.Type?
        switch schemaType.element {
        case .unsupported(let reason):
            throw .unsupportedType(className: className, property: name, reason: reason)
        case .scalar(let type):
            coreType = type
        case .object(let objectType):
            target = objectType
            let targetName = objectType.className()
            if schemaType.isBacklink {
                guard let origin else { throw .missingOriginProperty(className: className, property: name) }
                coreType = .linkingObjects(className: targetName, property: origin)
            } else {
                coreType = .object(targetName)
                switch schemaType.collection {
                case .single where !schemaType.isOptional:
                    throw .linkNotOptional(className: className, property: name, target: targetName)
                case .list, .set:
                    if schemaType.isOptional {
                        throw .unsupportedType(
                            className: className,
                            property: name,
                            reason: "a list or set of objects cannot hold nil ('\(schemaType.swiftName)')"
                        )
                    }
                case .map:
                    if !schemaType.isOptional {
                        throw .unsupportedType(
                            className: className,
                            property: name,
                            reason: "a map of objects must hold optional values ('Map<String, \(targetName)?>')"
                        )
                    }
                default:
                    break
                }
            }
        }
        let core = RQLCore.Property(
            name: name,
            type: coreType,
            isOptional: schemaType.isOptional,
            collection: schemaType.isBacklink ? .list : schemaType.collection,
            isIndexed: indexed
        )
        return PersistedProperty(
            name: name,
            columnName: columnName,
            offset: offset,
            field: field,
            schemaType: schemaType,
            target: target,
            core: core
        )
    }
}
