import RQLCore

/// What managed objects belong to: a realm (or a frozen view of one). It gives the version to
/// read, the write transaction to write through, and turns links into objects.
protocol ObjectContext: AnyObject {
    /// The store as this context sees it: its current version, or inside a write the
    /// transaction's uncommitted state.
    var reader: any ObjectReader { get }
    /// The open write transaction, if any.
    var transaction: (any StoreWriteTransaction)? { get }
    /// Whether the context is a frozen snapshot that never changes.
    var isFrozen: Bool { get }
    /// The discovered class for a class name of the schema.
    func classInfo(named className: String) -> ClassInfo?
    /// The stored link for `object`: its own if it is managed here, after adding it (and what it
    /// links to) if it is unmanaged; an error for an object of another realm.
    func link(for object: ObjectBase) throws(StoreWriteError) -> ObjectLink
}

/// A managed object's place: its context, its class and its row. Reads go to the context's
/// reader each time, so every accessor of one object sees every change.
final class ObjectAccessor {
    let context: ObjectContext
    let classInfo: ClassInfo
    let key: RowKey

    init(context: ObjectContext, classInfo: ClassInfo, key: RowKey) {
        self.context = context
        self.classInfo = classInfo
        self.key = key
    }

    var link: ObjectLink { ObjectLink(className: classInfo.className, key: key) }

    var isInvalidated: Bool { !context.reader.contains(link) }

    var isFrozen: Bool { context.isFrozen }

    func isSameObject(as other: ObjectAccessor) -> Bool {
        context === other.context && link == other.link
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(context))
        hasher.combine(link)
    }

    /// The stored value of property `ordinal`; reading a deleted object stops the program, as in
    /// Realm Swift ("Object has been deleted or invalidated").
    func storedValue(_ ordinal: Int) -> RQLCore.Value {
        guard let value = context.reader.value(of: link, property: ordinal) else {
            preconditionFailure(
                "Object has been deleted or invalidated: \(classInfo.className) \(key) no longer exists in its realm"
            )
        }
        return value
    }

    func value<Value: _Persistable>(_ ordinal: Int, of owner: ObjectBase, as type: Value.Type) -> Value {
        let stored = storedValue(ordinal)
        guard let value = Value._rqlRead(stored, owner: owner) else {
            preconditionFailure(
                "\(classInfo.className).\(classInfo.properties[ordinal].name) holds \(stored.kind), not \(Value.self)"
            )
        }
        return value
    }

    func setValue<Value: _Persistable>(_ value: Value, _ ordinal: Int, of owner: ObjectBase) {
        guard context.transaction != nil else {
            preconditionFailure(
                "Attempting to modify object outside of a write transaction - call beginWrite on a Realm instance first"
            )
        }
        // Writes arrive with the write transactions (phase B of the object model).
        preconditionFailure("writing managed objects is not available yet")
    }

    /// The object a link points at, as an instance of its class bound to this context.
    func object(for link: ObjectLink) -> ObjectBase? {
        guard let info = context.classInfo(named: link.className), context.reader.contains(link) else { return nil }
        return info.makeManaged(context: context, key: link.key)
    }
}

/// A read-only context over one store version: managed objects read straight from any
/// `StoreReader`. It is what a frozen realm is, and what tests use before write transactions.
final class SnapshotContext: ObjectContext {
    let reader: any ObjectReader
    private let classes: [String: ClassInfo]

    init(reader: any ObjectReader, classes: [ClassInfo]) {
        self.reader = reader
        self.classes = Dictionary(classes.map { ($0.className, $0) }, uniquingKeysWith: { first, _ in first })
    }

    var transaction: (any StoreWriteTransaction)? { nil }
    var isFrozen: Bool { true }

    func classInfo(named className: String) -> ClassInfo? { classes[className] }

    func link(for object: ObjectBase) throws(StoreWriteError) -> ObjectLink {
        guard let accessor = object._rqlAccessor, accessor.context === self else {
            throw StoreWriteError(message: "a frozen realm cannot add objects")
        }
        return accessor.link
    }

    /// Every object of `type`, bound to this context.
    func objects<T: ObjectBase>(_ type: T.Type) -> [T] {
        guard let info = classes[type.className()] else { return [] }
        return reader.keys(of: info.className).compactMap { info.makeManaged(context: self, key: $0) as? T }
    }
}
