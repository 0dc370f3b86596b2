import Foundation
import RQLCore
import RQLStorage

// Adding, creating and deleting objects. Each must run inside a write transaction (the program
// stops outside one, as in Realm Swift); a broken constraint is recorded, later writes of the
// transaction are skipped, and the commit throws the error and rolls everything back.

extension Realm {
    /// Adds an unmanaged object, and every unmanaged object it links to, to the realm; the
    /// object itself becomes managed. Adding an object of this realm does nothing.
    ///
    /// ```swift
    /// let person = Person(value: ["id": 1, "name": "Ann"])
    /// person.dogs.append(Dog(value: ["name": "Rex"]))
    /// try realm.write { realm.add(person) }       // adds Ann and Rex
    /// person.dogs.first?.realm != nil             // true
    /// ```
    ///
    /// With `.modified` or `.all`, an object whose primary key exists updates that object
    /// instead (only the changed properties, or all of them) and becomes its accessor.
    public func add(_ object: Object, update: UpdatePolicy = .error) {
        guard let writer = writer(update) else { return }
        writer.add(object)
        writer.finish()
    }

    /// Adds every object of a sequence (see `add(_:update:)`). Runs of new objects of one
    /// class with plain properties are stored in one bulk insert.
    ///
    /// ```swift
    /// try realm.write { realm.add([Dog(value: ["name": "Rex"]), Dog(value: ["name": "Fido"])]) }
    /// ```
    public func add<S: Sequence>(_ objects: S, update: UpdatePolicy = .error) where S.Element: Object {
        guard let writer = writer(update) else { return }
        writer.add(objects)
        writer.finish()
    }

    /// Creates an object from `value`: a dictionary of property values by name, an array in
    /// property order, an object of the same shape, or what `JSONSerialization` decoded. Linked
    /// objects may be given the same way, nested. Returns the managed object.
    ///
    /// ```swift
    /// let pluto = realm.create(Dog.self, value: ["name": "Pluto", "age": 3])
    /// realm.create(Book.self, value: ["id": 1, "price": 9000.0], update: .modified)  // title unchanged
    /// ```
    ///
    /// With `.modified` or `.all` and a primary key that exists, only the properties `value`
    /// names are set on the existing object. A value that does not fit is recorded (the commit
    /// throws it) and an unmanaged object is returned.
    @discardableResult
    public func create<T: Object>(_ type: T.Type, value: Any = [String: Any](), update: UpdatePolicy = .error) -> T {
        let object = T()
        guard let writer = writer(update) else { return object }
        defer { writer.finish() }
        do {
            try object._rqlAssign(from: value)
        } catch {
            writer.fail(.invalidValue, "Invalid value for \(T.className()): \(error.message)")
            return object
        }
        let info = context.classInfo(for: T.self)
        if update != .error, let primaryKey = info.primaryKey, let pkOrdinal = info.propertyIndex(named: primaryKey) {
            let keyValue = writer.storedValue(of: object, ordinal: pkOrdinal, info: info)
            if let existing = writer.session.key(of: info.className, primaryKey: keyValue) {
                let link = ObjectLink(className: info.className, key: existing)
                for ordinal in Self.givenProperties(in: value, info: info) where ordinal != pkOrdinal {
                    let stored = writer.storedValue(of: object, ordinal: ordinal, info: info)
                    if update == .modified, writer.session.value(of: link, property: ordinal) == stored {
                        continue
                    }
                    writer.session.perform { (t) throws(WriteError) in
                        try t.set(info.properties[ordinal].name, of: link, to: stored)
                    }
                }
                return (context.object(for: link) as? T) ?? (context.object(for: link, declaredAs: T.self) as? T)
                    ?? object
            }
        }
        writer.add(object)
        return object
    }

    /// The properties `value` gives: a dictionary's keys, an array's first elements, every
    /// property of an object.
    private static func givenProperties(in value: Any, info: ClassInfo) -> [Int] {
        let settable = info.declaredOrder.filter { !info.properties[$0].schemaType.isBacklink }
        switch value {
        case let dictionary as [String: Any]:
            return settable.filter { dictionary[info.properties[$0].name] != nil }
        case let array as [Any]:
            return Array(settable.prefix(array.count))
        default:
            return settable
        }
    }

    /// Deletes an object: it becomes invalidated, its embedded objects are deleted with it, and
    /// links to it become nil (and leave lists).
    ///
    /// ```swift
    /// try realm.write { realm.delete(cheeseBook) }
    /// cheeseBook.isInvalidated   // true
    /// ```
    public func delete(_ object: ObjectBase) {
        guard let writer = writer(.error) else { return }
        delete(object, writer: writer)
    }

    private func delete(_ object: ObjectBase, writer: _RQLWriter) {
        guard let accessor = object._rqlAccessor else {
            writer.fail(.invalidObject, "Can only delete an object from the Realm it belongs to")
            return
        }
        guard accessor.context.coordinator === context.coordinator, !accessor.context.isFrozen else {
            writer.fail(.invalidObject, "Can only delete an object from the Realm it belongs to")
            return
        }
        guard !accessor.isInvalidated else {
            writer.fail(.invalidObject, "Object has been deleted or invalidated: \(accessor.link)")
            return
        }
        writer.session.perform { (t) throws(WriteError) in try t.delete(accessor.link) }
    }

    /// Deletes every object of a sequence (an array, a `List`, `Results`: the objects are
    /// collected first, so deleting does not disturb the iteration).
    ///
    /// ```swift
    /// try realm.write { realm.delete(realm.objects(Dog.self).filter("age > 10")) }
    /// ```
    public func delete<S: Sequence>(_ objects: S) where S.Element: ObjectBase {
        guard let writer = writer(.error) else { return }
        for object in Array(objects) {
            guard !writer.session.hasFailed else { return }
            // An object may appear twice (a list holding it twice): delete it once.
            if let accessor = object._rqlAccessor, accessor.isInvalidated, accessor.context === context { continue }
            delete(object, writer: writer)
        }
    }

    /// Deletes every object of the results.
    ///
    /// ```swift
    /// try realm.write { realm.delete(realm.objects(Dog.self).filter("age > 10")) }
    /// ```
    public func delete<Element: ObjectBase>(_ objects: Results<Element>) {
        delete(Array(objects))
    }

    /// Deletes every object of the list (the list of a managed object ends up empty).
    ///
    /// ```swift
    /// try realm.write { realm.delete(ann.dogs) }  // the dogs themselves, not only the links
    /// ```
    public func delete<Element: ObjectBase>(_ objects: List<Element>) {
        delete(Array(objects))
    }

    /// Deletes every object a map of objects holds (its keys stay, holding nil).
    ///
    /// ```swift
    /// try realm.write { realm.delete(box.toysByRoom) }
    /// box.toysByRoom["kitchen"]  // Optional(nil): the key is kept, its toy deleted
    /// ```
    public func delete<Key, Value: ObjectBase>(_ objects: Map<Key, Value?>) {
        delete(objects.values.compactMap { $0 })
    }

    /// Deletes every object of every class.
    ///
    /// ```swift
    /// try realm.write { realm.deleteAll() }
    /// ```
    public func deleteAll() {
        guard let writer = writer(.error) else { return }
        for objectSchema in writer.session.current.schema.classes
        where !objectSchema.isEmbedded && !SchemaVersionRecord.isHidden(objectSchema.name) {
            writer.session.perform { (t) throws(WriteError) in try t.deleteAll(objectSchema.name) }
        }
    }

    /// A writer for the open transaction; nil once it failed (the write is skipped). The
    /// program stops outside a write transaction, as in Realm Swift.
    private func writer(_ update: UpdatePolicy) -> _RQLWriter? {
        guard let session = context.writableSession() else { return nil }
        return _RQLWriter(context: context, session: session, update: update)
    }
}
