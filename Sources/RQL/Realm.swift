import Foundation
import RQLCore
import RQLStorage

/// A realm: one store of objects, read at a consistent version and written in transactions.
///
/// ```swift
/// let realm = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "pets"))
/// try realm.write {
///     realm.add(Dog(value: ["name": "Rex", "age": 10]))
/// }
/// let puppies = realm.objects(Dog.self).where { $0.age < 2 }
/// ```
///
/// `Realm()` on one thread gives the same realm each time (its writes and reads agree); a
/// realm reads the newest version when it is opened, when it commits, and on `refresh()`.
public struct Realm {
    let context: RealmContext

    init(context: RealmContext) {
        self.context = context
    }

    /// The realm of `Realm.Configuration.defaultConfiguration`.
    ///
    /// ```swift
    /// let realm = try Realm()
    /// ```
    public init(queue: DispatchQueue? = nil) throws {
        try self.init(configuration: Configuration.defaultConfiguration, queue: queue)
    }

    /// The realm of `configuration`: its store is opened (created unless read-only) and the
    /// configured classes are checked against it. The realm belongs to the calling thread, or,
    /// given a serial `queue`, to the blocks that queue runs (on whichever thread): call it from
    /// the queue, which then gives the same realm each time. The main queue's realm is the main
    /// thread's (and the main actor's).
    ///
    /// ```swift
    /// let realm = try Realm(configuration: Realm.Configuration(objectTypes: [Dog.self, DogToy.self]))
    /// let queue = DispatchQueue(label: "dogs")
    /// queue.async {
    ///     let queued = try! Realm(configuration: configuration, queue: queue)
    ///     queue.async { print(queued.objects(Dog.self).count) }  // a later block, maybe another thread
    /// }
    /// ```
    public init(configuration: Configuration, queue: DispatchQueue? = nil) throws {
        guard let queue else {
            context = try RealmContext.open(configuration)
            return
        }
        // The main queue's blocks run on the main thread, whose realm it shares (realm-swift's too).
        if queue.isMainQueue {
            guard RealmConfinement.isOnMain else {
                throw Realm.Error(.fail, "Realm opened from incorrect dispatch queue.")
            }
            context = try RealmContext.open(configuration, confinement: .main)
            return
        }
        let mark = RealmQueueMark.mark(queue)
        guard mark.isCurrent else { throw Realm.Error(.fail, "Realm opened from incorrect dispatch queue.") }
        context = try RealmContext.open(configuration, confinement: .queue(queue, mark))
    }

    /// The realm stored in the file at `fileURL`, with the default configuration otherwise.
    ///
    /// ```swift
    /// let realm = try Realm(fileURL: URL(fileURLWithPath: "/tmp/pets.realm"))
    /// ```
    public init(fileURL: URL) throws {
        var configuration = Configuration.defaultConfiguration
        configuration.fileURL = fileURL
        try self.init(configuration: configuration)
    }

    /// The configuration the realm was opened with.
    ///
    /// ```swift
    /// realm.configuration.schemaVersion  // 0
    /// ```
    public var configuration: Configuration { context.configuration }

    /// The classes the realm holds.
    ///
    /// ```swift
    /// realm.schema["Dog"]?.properties.map(\.name)  // ["name", "age", "favoriteToy"]
    /// ```
    public var schema: Schema {
        let version = context.current
        return Schema(classes: version.schema.classes.compactMap { context.classInfo(named: $0.name) })
    }

    /// Whether the realm holds no objects.
    ///
    /// ```swift
    /// try realm.write { realm.deleteAll() }
    /// realm.isEmpty  // true
    /// ```
    public var isEmpty: Bool {
        let version = context.current
        return version.schema.classes.indices.allSatisfy { index in
            SchemaVersionRecord.isHidden(version.schema.classes[index].name)
                || (version.table(index)?.rowCount ?? 0) == 0
        }
    }

    // MARK: Reading

    /// Every object of `type`, as live results.
    ///
    /// ```swift
    /// let dogs = realm.objects(Dog.self)
    /// dogs.count
    /// ```
    public func objects<Element: RealmFetchable>(_ type: Element.Type) -> Results<Element> {
        let info = context.classInfo(for: Element._rqlObjectType)
        realmPrecondition(!info.isEmbedded, "Embedded objects (\(info.className)) cannot be queried on their own")
        return Results(context: context, source: .table(info), make: Element._rqlMake)
    }

    /// The object of `type` whose primary key is `key`, or nil. The class must have a primary
    /// key, and `key` must be of its type (the program stops otherwise, as in Realm Swift).
    ///
    /// ```swift
    /// let person = realm.object(ofType: Person.self, forPrimaryKey: 12345)
    /// ```
    public func object<Element: Object, KeyType>(ofType type: Element.Type, forPrimaryKey key: KeyType) -> Element? {
        let info = context.classInfo(for: type)
        guard let primaryKey = info.primaryKey, let ordinal = info.propertyIndex(named: primaryKey) else {
            realmStop("'\(info.className)' does not have a primary key")
        }
        let stored = PrimaryKeyConversion.value(key, for: info.properties[ordinal])
        guard let stored else {
            realmStop(
                "Invalid value '\(key)' of type '\(KeyType.self)' for '\(info.className).\(primaryKey)' primary key"
            )
        }
        guard let found = context.current.key(of: info.className, primaryKey: stored) else { return nil }
        let link = ObjectLink(className: info.className, key: found)
        return context.object(for: link) as? Element ?? context.object(for: link, declaredAs: type) as? Element
    }

    // MARK: Transactions

    /// Whether a write transaction is open.
    ///
    /// ```swift
    /// try realm.write { realm.isInWriteTransaction }  // true
    /// ```
    public var isInWriteTransaction: Bool { context.isInWriteTransaction }

    /// Runs `block` in a write transaction and commits it, returning what `block` returns. If
    /// `block` throws, the transaction is rolled back and the error rethrown; if anything in
    /// it broke a constraint, the transaction is rolled back and that error thrown.
    ///
    /// ```swift
    /// let rex = try realm.write { realm.create(Dog.self, value: ["name": "Rex"]) }
    /// ```
    @discardableResult
    public func write<Result>(
        withoutNotifying tokens: [NotificationToken] = [],
        _ block: () throws -> Result
    ) throws -> Result {
        try checkedBeginWrite()
        let result: Result
        do {
            result = try block()
        } catch {
            if isInWriteTransaction { cancelWrite() }
            throw error
        }
        if isInWriteTransaction { try commitWrite(withoutNotifying: tokens) }
        return result
    }

    /// Starts a write transaction (waiting while another thread writes) and moves the realm to
    /// the newest version. Writing inside a write is an error: the program stops, as in Realm Swift.
    ///
    /// ```swift
    /// realm.beginWrite()
    /// realm.add(Dog(value: ["name": "Rex"]))
    /// try realm.commitWrite()
    /// ```
    public func beginWrite() {
        do {
            try context.beginWrite()
        } catch {
            realmStop(error.description)
        }
    }

    /// Beginning a write, as a thrown error rather than a stop (a read-only realm, a nested write).
    func checkedBeginWrite() throws {
        try context.beginWrite()
    }

    /// Commits the write transaction. If anything in it broke a constraint (a duplicate primary
    /// key, a deleted object, a value of the wrong type), nothing is committed: the transaction
    /// is rolled back and the first such error thrown.
    ///
    /// ```swift
    /// realm.beginWrite()
    /// realm.add(Person(value: ["id": 1]))
    /// realm.add(Person(value: ["id": 1]))  // recorded, not thrown here
    /// try realm.commitWrite()  // throws Realm.Error (.primaryKeyExists); nothing was written
    /// ```
    public func commitWrite(withoutNotifying tokens: [NotificationToken] = []) throws {
        try context.commitWrite(silencing: tokens)
    }

    /// Discards the write transaction: objects it changed read their previous values again and
    /// objects it created are invalidated.
    ///
    /// ```swift
    /// realm.beginWrite()
    /// realm.delete(rex)
    /// realm.cancelWrite()  // rex is back
    /// ```
    public func cancelWrite() {
        context.cancelWrite()
    }

    /// Moves the realm to the newest version written by any realm of the same store (another
    /// process's too), and delivers the notifications of this realm's thread. Returns whether
    /// there was a newer version.
    ///
    /// ```swift
    /// // another thread's realm of the same store commits a write, then:
    /// realm.refresh()  // true: reads what the other thread wrote
    /// ```
    @discardableResult
    public func refresh() -> Bool {
        context.refresh()
    }

    /// Whether the main thread's realm moves to newer versions by itself: when another thread
    /// or process commits, it refreshes from the main queue (when the program runs it:
    /// `dispatchMain()`, `RunLoop.main.run()`), delivering its notifications. Other threads'
    /// realms move when they write or call `refresh()`; there is no run loop to do it for them.
    ///
    /// ```swift
    /// realm.autorefresh = false  // the main thread's realm moves only on write or refresh()
    /// ```
    public var autorefresh: Bool {
        get { context.autorefresh }
        nonmutating set { context.autorefresh = newValue }
    }

    // MARK: Freezing

    /// Whether the realm is a frozen snapshot.
    ///
    /// ```swift
    /// realm.freeze().isFrozen  // true
    /// ```
    public var isFrozen: Bool { context.isFrozen }

    /// A frozen snapshot of the realm's current version: it, its objects and results never change.
    ///
    /// ```swift
    /// let snapshot = realm.freeze()
    /// snapshot.objects(Dog.self).count  // never changes
    /// ```
    public func freeze() -> Realm {
        Realm(context: context.frozen())
    }

    /// The live realm of a frozen one.
    ///
    /// ```swift
    /// let live = snapshot.thaw()
    /// ```
    public func thaw() -> Realm {
        guard context.isFrozen else { return self }
        do {
            return Realm(context: try RealmContext.open(context.configuration))
        } catch {
            realmStop(error.description)
        }
    }

    /// A frozen copy of a managed object of this realm.
    ///
    /// ```swift
    /// let frozenRex = realm.freeze(rex)
    /// ```
    public func freeze<T: ObjectBase>(_ object: T) -> T {
        object.freeze()
    }

    /// The live object of a frozen one, or nil if it was deleted since.
    ///
    /// ```swift
    /// let liveRex = realm.thaw(frozenRex)
    /// ```
    public func thaw<T: ObjectBase>(_ object: T) -> T? {
        object.thaw()
    }

    /// A frozen copy of a managed collection of this realm (results, a list, a set, linking
    /// objects).
    ///
    /// ```swift
    /// let frozenDogs = realm.freeze(person.dogs)
    /// ```
    public func freeze<Collection: RealmCollection>(_ collection: Collection) -> Collection {
        collection.freeze()
    }

    /// The live collection of a frozen one, or nil when its object was deleted since.
    ///
    /// ```swift
    /// let liveDogs = realm.thaw(frozenDogs)
    /// ```
    public func thaw<Collection: RealmCollection>(_ collection: Collection) -> Collection? {
        collection.thaw()
    }

    /// Stops reading the realm's current version: every object and list read from this realm
    /// on this thread is invalidated (`isInvalidated` is true; reading one stops the program),
    /// an open write transaction is cancelled, and the next read starts from the newest
    /// version. The realm itself stays usable; results re-run on their next read.
    ///
    /// ```swift
    /// let rex = realm.objects(Dog.self).first!
    /// realm.invalidate()
    /// rex.isInvalidated                 // true
    /// realm.objects(Dog.self).count     // reads the newest version
    /// ```
    public func invalidate() {
        context.invalidate()
    }
}

extension Realm {
    /// The store version the realm reads now, for benchmarks and tests that compare the object
    /// model with the engine under it.
    @_spi(Testing) public var _snapshot: BlockSnapshot { context.current.snapshot }
}

extension Realm: Equatable {
    /// Realms are equal when they are the same realm on the same thread (or the same frozen copy).
    public static func == (lhs: Realm, rhs: Realm) -> Bool { lhs.context === rhs.context }
}

/// Converting a primary key given as a Swift value to the stored value of its property.
enum PrimaryKeyConversion {
    static func value(_ key: Any, for property: PersistedProperty) -> RQLCore.Value? {
        let unwrapped = ObjectBase.unwrapped(key)
        guard let unwrapped else { return property.core.isOptional ? .null : nil }
        switch property.core.type {
        case .int: return NumberConversion.integer(unwrapped).map { .int($0) }
        case .string: return (unwrapped as? String).map { .string($0) }
        case .objectId: return (unwrapped as? ObjectId).map { .objectId($0.core) }
        case .uuid: return (unwrapped as? UUID).map { .uuid($0) }
        default: return nil
        }
    }
}
