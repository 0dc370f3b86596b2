import Foundation
import RQLCore
import RQLStorage

// The dynamic API: the stored classes of a realm read and written by name, without their
// Swift declarations (a tool, a migration, a class the program no longer declares).

extension Realm {
    /// Every object of the stored class `className`, as live results of `DynamicObject`s. A
    /// class the realm does not store stops the program, as in Realm Swift.
    ///
    /// ```swift
    /// let old = realm.dynamicObjects("Dog").filter("age > %@", 10).sorted(byKeyPath: "name")
    /// old.first?["name"] as? String
    /// ```
    public func dynamicObjects(_ className: String) -> Results<DynamicObject> {
        let info = dynamicClassInfo(className)
        realmPrecondition(!info.isEmbedded, "Embedded objects (\(className)) cannot be queried on their own")
        return Results(context: context, source: .table(info), make: DynamicObject._rqlMake)
    }

    /// The object of stored class `className` whose primary key is `key`, or nil. The class
    /// must have a primary key and `key` must be of its type (the program stops otherwise).
    ///
    /// ```swift
    /// let ann = realm.dynamicObject(ofType: "Person", forPrimaryKey: 1)
    /// ```
    public func dynamicObject(ofType className: String, forPrimaryKey key: Any) -> DynamicObject? {
        let info = dynamicClassInfo(className)
        guard let primaryKey = info.primaryKey, let ordinal = info.propertyIndex(named: primaryKey) else {
            realmStop("'\(className)' does not have a primary key")
        }
        guard let stored = PrimaryKeyConversion.value(key, for: info.properties[ordinal]) else {
            realmStop(
                "Invalid value '\(key)' of type '\(type(of: key))' for '\(className).\(primaryKey)' primary key"
            )
        }
        guard let found = context.current.key(of: className, primaryKey: stored) else { return nil }
        return context.dynamicObject(for: ObjectLink(className: className, key: found))
    }

    /// Creates an object of stored class `className` from `value` (a dictionary by property
    /// name or an array in property order; links as objects, nil or nested values) inside a
    /// write transaction, and returns it. With `.modified` or `.all`, an object whose primary
    /// key exists is updated instead. A value that does not fit is recorded: the commit throws
    /// it and the returned object is invalid.
    ///
    /// ```swift
    /// try realm.write {
    ///     realm.dynamicCreate("Dog", value: ["name": "Rex", "age": 3, "favoriteToy": ["name": "ball"]])
    /// }
    /// ```
    @discardableResult
    public func dynamicCreate(
        _ className: String,
        value: Any = [String: Any](),
        update: UpdatePolicy = .error
    ) -> DynamicObject {
        let info = dynamicClassInfo(className)
        guard let session = context.writableSession() else { return DynamicObject() }
        let writer = _RQLWriter(context: context, session: session, update: update)
        defer { writer.finish() }
        guard let link = writer.dynamicInsert(info.className, value: value),
            let object = context.dynamicObject(for: link)
        else { return DynamicObject() }
        return object
    }

    /// The dynamic class info of stored class `className` in the current version; a class the
    /// realm does not store stops the program.
    func dynamicClassInfo(_ className: String) -> ClassInfo {
        guard !SchemaVersionRecord.isHidden(className), let stored = context.current.schema[className] else {
            realmStop("Object type '\(className)' is not managed by the Realm")
        }
        return ClassInfo.dynamic(stored)
    }
}
