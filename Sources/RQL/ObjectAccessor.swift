import RQLCore
import RQLStorage

/// A managed object's place: its realm context, its class and its row. Every read asks the
/// context for the version it reads now, so every accessor of one object sees every change;
/// the row's block and position are cached for that version, so a read is a load, not a search.
final class ObjectAccessor {
    let context: RealmContext
    let classInfo: ClassInfo
    let key: RowKey
    /// The class's index in the store's schema (classes are only ever added, so it stays valid).
    let classIndex: Int
    /// The version `row` was found in.
    private var cachedVersion: StoreVersion?
    /// The object's row in `cachedVersion`; nil when it does not exist there.
    private var row: BlockRow?
    /// Set when the transaction that created the object was rolled back: its key may be given
    /// to another object, so the accessor must never read it again.
    private(set) var isDetached = false
    /// The context's `epoch` when the object was read: after `invalidate()` it never reads again.
    let epoch: UInt32

    init(context: RealmContext, classInfo: ClassInfo, key: RowKey, classIndex: Int, epoch: UInt32? = nil) {
        self.context = context
        self.classInfo = classInfo
        self.key = key
        self.classIndex = classIndex
        self.epoch = epoch ?? context.epoch
    }

    /// An accessor whose row was just found in `version`.
    init(
        context: RealmContext,
        classInfo: ClassInfo,
        key: RowKey,
        classIndex: Int,
        version: StoreVersion,
        row: BlockRow?
    ) {
        self.context = context
        self.classInfo = classInfo
        self.key = key
        self.classIndex = classIndex
        epoch = context.epoch
        cachedVersion = version
        self.row = row
    }

    var link: ObjectLink { ObjectLink(className: classInfo.className, key: key) }

    var isFrozen: Bool { context.isFrozen }

    func detach() { isDetached = true }

    /// The object's row in the context's current version; nil when it no longer exists.
    @inline(__always)
    func currentRow() -> BlockRow? {
        let version = context.current
        if version === cachedVersion { return row }
        return relocate(in: version)
    }

    private func relocate(in version: StoreVersion) -> BlockRow? {
        cachedVersion = version
        row = isDetached || epoch != context.epoch ? nil : version.row(of: key, classIndex: classIndex)
        return row
    }

    /// Whether the object exists in the current version.
    private func locate() -> Bool { currentRow() != nil }

    var isInvalidated: Bool { !locate() }

    func isSameObject(as other: ObjectAccessor) -> Bool {
        context === other.context && key == other.key && classInfo.className == other.classInfo.className
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(context))
        hasher.combine(classInfo.className)
        hasher.combine(key)
    }

    /// The stored value of property `ordinal`; reading a deleted object stops the program, as in
    /// Realm Swift ("Object has been deleted or invalidated").
    @inline(__always)
    func storedValue(_ ordinal: Int) -> RQLCore.Value {
        guard let row = currentRow() else { invalidated() }
        if classInfo.isBacklink[ordinal] {
            // Linking objects are computed by the table from its backlink index.
            return context.current.value(of: link, property: ordinal) ?? .list([])
        }
        return row.value(ordinal)
    }

    /// Stored `int` property `ordinal`, read straight from its column (nil for null).
    @inline(__always)
    func storedInt(_ ordinal: Int) -> Int64? {
        guard let row = currentRow() else { invalidated() }
        return row.int(ordinal)
    }

    func invalidated() -> Never {
        realmStop(
            "Object has been deleted or invalidated: \(classInfo.className) \(key) no longer exists in its realm"
        )
    }

    func value<Value: _Persistable>(_ ordinal: Int, of owner: ObjectBase, as type: Value.Type) -> Value {
        let stored = storedValue(ordinal)
        guard let value = Value._rqlRead(stored, owner: owner) else {
            realmStop(
                "\(classInfo.className).\(classInfo.properties[ordinal].name) holds \(stored.kind), not \(Value.self)"
            )
        }
        return value
    }

    /// Writes property `ordinal` in the open write transaction (the program stops outside one,
    /// as in Realm Swift); a broken constraint is recorded for the commit to throw.
    func setValue<Value: _Persistable>(_ value: Value, _ ordinal: Int, of owner: ObjectBase) {
        guard let session = context.writableSession() else { return }
        let writer = _RQLWriter(context: context, session: session, update: .error)
        writer.set(value, ordinal: ordinal, of: self, owner: owner)
    }

    /// The object a link points at, as an instance of its class bound to this context.
    func object(for link: ObjectLink) -> ObjectBase? {
        context.object(for: link)
    }
}
