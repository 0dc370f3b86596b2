import Foundation
import RQLCore
import RQLStorage

/// What a `Realm` value and every managed object, collection and `Results` of it share: the
/// configuration, the store's coordinator, the version this realm reads, and its open write
/// transaction. One per thread and store (`Realm()` twice on a thread gives the same context),
/// plus one per frozen copy.
///
/// ```swift
/// let context = try RealmContext.open(Realm.Configuration(inMemoryIdentifier: "a"))
/// context.current.keys(of: "Dog")
/// ```
final class RealmContext {
    let configuration: Realm.Configuration
    let coordinator: RealmCoordinator
    /// A frozen context reads `version` forever and never writes.
    let isFrozen: Bool
    /// Where the context may be used (`RealmConfinement`); checked by every read and write.
    let confinement: RealmConfinement
    /// `confinement`'s thread, kept apart so that the check on every read is one comparison.
    private let ownerThread: pthread_t
    /// The committed version this context reads outside a write.
    private(set) var version: StoreVersion
    /// The open write transaction.
    private(set) var session: WriteSession?
    /// How many times `invalidate()` ran: objects read before the last one (an older epoch)
    /// are invalidated, as Realm Swift's are when their read transaction ends.
    private(set) var epoch: UInt32 = 0
    /// Classes this context resolved, by name (registered ones, plus those a write added).
    private var classes: [String: ClassInfo] = [:]
    /// The same by Swift class, so that adding an object does not spell its class name.
    private var classesByType: [ObjectIdentifier: ClassInfo] = [:]
    /// Each class's index in the store's schema (classes are only added, so indexes stay valid).
    private var classIndexes: [ObjectIdentifier: Int] = [:]
    /// Async writes waiting for the write lock or for their completion (`Realm+AsyncWrites.swift`).
    var asyncWrites: AsyncWrites?
    /// The thread table a live context is registered in.
    private var threadTable: ThreadContexts.Table?
    /// Whether the main thread's realm refreshes from the main queue when another realm
    /// commits (`Realm.autorefresh`).
    var autorefresh = true

    deinit {
        coordinator.openContexts.subtract(1, ordering: .relaxed)
        session?.rollback()
        threadTable?.remove(self, for: configuration.storeKey)
    }

    private init(
        configuration: Realm.Configuration,
        coordinator: RealmCoordinator,
        version: StoreVersion,
        confinement: RealmConfinement
    ) {
        self.configuration = configuration
        self.coordinator = coordinator
        self.version = version
        self.isFrozen = if case .anywhere = confinement { true } else { false }
        self.confinement = confinement
        self.ownerThread = confinement.ownerThread
        coordinator.openContexts.add(1, ordering: .relaxed)
    }

    /// Stops the program unless the caller may use this context: one comparison of thread
    /// identities on the thread that opened it.
    @inline(__always)
    func verifyThread() {
        if ownerThread == pthread_self() || isFrozen { return }
        verifyConfinement()
    }

    @inline(never)
    private func verifyConfinement() {
        confinement.verify()
    }

    // MARK: Opening

    /// The live context of `configuration` for this thread (or the given queue or actor): the
    /// existing one, or a new one after the store is opened and the configured classes are
    /// checked against it. Realms confined to an actor are not shared: each open makes one.
    static func open(
        _ configuration: Realm.Configuration,
        confinement: RealmConfinement = .currentThread
    ) throws(Realm.Error) -> RealmContext {
        let key = configuration.storeKey
        let table: ThreadContexts.Table? =
            switch confinement {
            case .thread: ThreadContexts.current
            case .main: ThreadContexts.main
            case .queue(_, let mark): mark.contexts
            case .actor(let reference): reference.contexts
            case .anywhere: nil
            }
        if let existing = table?.context(for: key) {
            guard existing.configuration == configuration else {
                throw Realm.Error(
                    .fail,
                    "Realm at \(key) already opened on this thread with a different configuration"
                )
            }
            return existing
        }
        let coordinator = try StoreRegistry.coordinator(for: configuration)
        coordinator.catchUp()
        // A realm of this thread over the same file through another path (a link) may be
        // writing: its lock cannot be waited for here.
        let insideWrite = table?.isWriting(coordinator, besides: nil) == true
        try SchemaMigration.prepare(configuration, coordinator: coordinator, insideWrite: insideWrite)
        let context = RealmContext(
            configuration: configuration,
            coordinator: coordinator,
            version: StoreVersion(coordinator.store.snapshot),
            confinement: confinement
        )
        table?.set(context, for: key)
        context.threadTable = table
        return context
    }

    /// A context for a migration's block, on no thread's table: the old realm reading
    /// `version` forever (no `session`), or the new realm writing through the migration's
    /// `session` (which the migration commits or rolls back itself, after `endMigration()`).
    static func migrating(
        _ configuration: Realm.Configuration,
        coordinator: RealmCoordinator,
        version: StoreVersion,
        session: WriteSession?
    ) -> RealmContext {
        let context = RealmContext(
            configuration: configuration,
            coordinator: coordinator,
            version: version,
            // The old realm is frozen; the new one is the opening thread's while the block runs.
            confinement: session == nil ? .anywhere : .thread(pthread_self())
        )
        context.session = session
        return context
    }

    /// Lets go of the migration's transaction.
    func endMigration() { session = nil }

    /// A frozen copy reading this context's current version forever.
    func frozen() -> RealmContext {
        if isFrozen { return self }
        let context = RealmContext(
            configuration: configuration,
            coordinator: coordinator,
            version: current,
            confinement: .anywhere
        )
        // A frozen context may be read from several threads at once, so it never fills a cache
        // after this: it starts with this context's.
        context.classes = classes
        context.classesByType = classesByType
        context.classIndexes = classIndexes
        if configuration.maximumNumberOfActiveVersions != nil {
            ActiveVersions.pin(current, of: configuration.storeKey)
        }
        return context
    }

    /// A frozen copy reading `version` (a notification delivered at that version). It may be
    /// made on another thread than this context's, so it copies nothing this context mutates.
    func frozen(at version: StoreVersion) -> RealmContext {
        RealmContext(configuration: configuration, coordinator: coordinator, version: version, confinement: .anywhere)
    }

    // MARK: Reading

    /// The version reads see now: the write transaction's state inside a write, else `version`.
    var current: StoreVersion {
        verifyThread()
        if let session { return session.current }
        return version
    }

    /// `current.serial`, without handing out the version.
    @inline(__always)
    var currentSerial: UInt64 {
        verifyThread()
        if let session { return session.current.serial }
        return version.serial
    }

    /// Moves to the newest committed version. Returns whether it changed.
    @discardableResult
    func refresh() -> Bool {
        verifyThread()
        guard !isFrozen, session == nil else { return false }
        coordinator.catchUp()
        let newest = coordinator.store.snapshot
        guard newest.version != version.version else {
            // A rolled-back write moves the version without delivering: deliver now.
            coordinator.notifiers.deliver(to: self)
            return false
        }
        version = StoreVersion(newest)
        coordinator.notifiers.deliver(to: self)
        return true
    }

    /// Ends what this realm reads, as Realm Swift's `invalidate()` does: an open write is
    /// cancelled, every object (and its collections) read so far is invalidated, and the next
    /// read starts from the newest version.
    func invalidate() {
        guard !isFrozen else { return }
        if session != nil { cancelWrite() }
        epoch &+= 1
        coordinator.catchUp()
        version = StoreVersion(coordinator.store.snapshot)
    }

    // MARK: Classes

    /// The class named `className` in this realm's schema.
    func classInfo(named className: String) -> ClassInfo? {
        verifyThread()
        if let info = classes[className] { return info }
        if let info = coordinator.registeredClass(named: className) {
            if !isFrozen { classes[className] = info }
            return info
        }
        return session?.addedClasses.first { $0.className == className }
    }

    /// The class of `type`, adding it (and every class it links to) to the store first when
    /// the configuration lets the schema grow; a class outside an explicit `objectTypes`, or
    /// one the schema cannot take, stops with the reason (the program's mistake, not its input).
    func classInfo(for type: ObjectBase.Type) -> ClassInfo {
        do {
            return try checkedClassInfo(for: type)
        } catch {
            realmStop(error.description)
        }
    }

    /// The class of `type`, or the reason it cannot be used in this realm.
    func checkedClassInfo(for type: ObjectBase.Type) throws(Realm.Error) -> ClassInfo {
        verifyThread()
        if let info = classesByType[ObjectIdentifier(type)] { return info }
        let info: ClassInfo
        if let known = classInfo(named: type.className()) {
            // Another declaration of the same stored class (a later version of the program's
            // model, say) gets its own info, matched against the stored class.
            info = known.type == type ? known : try coordinator.matched(type, in: current.schema)
        } else {
            info = try register(type)
        }
        if info.type == type && !isFrozen { classesByType[ObjectIdentifier(type)] = info }
        return info
    }

    /// The index of `info`'s class in the store's schema.
    func classIndex(of info: ClassInfo) -> Int {
        verifyThread()
        if let index = classIndexes[ObjectIdentifier(info)] { return index }
        guard let index = current.classIndex(named: info.className) else { return 0 }
        if !isFrozen { classIndexes[ObjectIdentifier(info)] = index }
        return index
    }

    private func register(_ type: ObjectBase.Type) throws(Realm.Error) -> ClassInfo {
        let className = type.className()
        guard configuration.objectTypes == nil else {
            throw Realm.Error(
                .invalidSchema,
                "Object type '\(className)' is not managed by the Realm: it is not in the configuration's objectTypes"
            )
        }
        let discovered: DiscoveredSchema
        do {
            discovered = try DiscoveredSchema(types: [type], closingOverLinks: true)
        } catch {
            throw Realm.Error(.invalidSchema, error.description)
        }
        if let session {
            let added = try coordinator.register(discovered.classes, in: session.transaction)
            session.addedClasses.append(contentsOf: added)
        } else {
            guard !isFrozen else {
                throw Realm.Error(.readOnly, "A frozen realm has no class '\(className)'")
            }
            try coordinator.register(
                discovered.classes,
                readOnly: configuration.readOnly,
                insideWrite: threadTable?.isWriting(coordinator, besides: self) == true
            )
            refresh()
        }
        for info in discovered.classes { classes[info.className] = classInfo(named: info.className) ?? info }
        guard let info = classInfo(named: className) else {
            throw Realm.Error(.invalidSchema, "Object type '\(className)' could not be added to the realm")
        }
        return info
    }

    // MARK: Objects

    /// The object a link points at, as an instance of its class bound to this context; nil when
    /// it does not exist in the current version.
    func object(for link: ObjectLink) -> ObjectBase? {
        let version = current
        guard let info = classInfo(named: link.className), let classIndex = version.classIndex(named: link.className),
            let row = version.row(of: link.key, classIndex: classIndex)
        else { return nil }
        return info.makeManaged(context: self, key: link.key, classIndex: classIndex, version: version, row: row)
    }

    /// The same, as an instance of `type` (a declaration of the link's class other than the
    /// registered one); nil when `type` does not declare that class or does not match it.
    func object(for link: ObjectLink, declaredAs type: ObjectBase.Type) -> ObjectBase? {
        guard type.className() == link.className, let info = try? checkedClassInfo(for: type) else { return nil }
        let version = current
        guard let classIndex = version.classIndex(named: link.className),
            let row = version.row(of: link.key, classIndex: classIndex)
        else { return nil }
        return info.makeManaged(context: self, key: link.key, classIndex: classIndex, version: version, row: row)
    }

    // MARK: Writing

    var isInWriteTransaction: Bool {
        verifyThread()
        return session != nil
    }

    /// Starts the write transaction: waits for another thread's to finish, then reads the newest
    /// version.
    func beginWrite() throws(Realm.Error) {
        verifyThread()
        guard !isFrozen else { throw Realm.Error(.readOnly, "Can't perform transactions on a frozen Realm") }
        guard !configuration.readOnly else {
            throw Realm.Error(.readOnly, "Can't perform transactions on read-only Realms (\(coordinator.key)).")
        }
        guard session == nil else {
            throw Realm.Error(
                .invalidTransaction,
                "The Realm is already in a write transaction"
            )
        }
        // Another realm of this thread on the same file (through another path) holds the write:
        // waiting for it would wait forever.
        guard threadTable?.isWriting(coordinator, besides: self) != true else {
            throw coordinator.nestedWriteError()
        }
        let transaction = coordinator.store.beginWrite()
        if let limit = configuration.maximumNumberOfActiveVersions {
            do {
                try ActiveVersions.check(
                    newest: coordinator.store.snapshot.version,
                    limit: limit,
                    of: configuration.storeKey
                )
            } catch {
                transaction.rollback()
                throw error
            }
        }
        session = WriteSession(transaction)
    }

    /// Commits the write transaction, or rolls it back and throws the first error it recorded;
    /// then delivers this realm's notifications (the observations of `silencing` skip it).
    func commitWrite(silencing: [NotificationToken] = []) throws(Realm.Error) {
        verifyThread()
        guard let session else {
            throw Realm.Error(.invalidTransaction, "Can't commit a non-existing write transaction")
        }
        self.session = nil
        if let error = session.error {
            rollBack(session)
            throw error
        }
        let result: CommitResult
        do {
            result = try session.commit()
        } catch {
            rollBack(session)
            throw error
        }
        coordinator.confirm(session.addedClasses)
        version = StoreVersion(result.snapshot)
        coordinator.notifiers.committed(result.changes, at: version, silencing: silencing.compactMap(\.observation))
        coordinator.notifiers.deliver(to: self)
    }

    /// Discards the write transaction.
    func cancelWrite() {
        verifyThread()
        guard let session else { return }
        self.session = nil
        rollBack(session)
    }

    private func rollBack(_ session: WriteSession) {
        session.rollback()
        for info in session.addedClasses where coordinator.registeredClass(named: info.className) == nil {
            classes[info.className] = nil
            classesByType[ObjectIdentifier(info.type)] = nil
            classIndexes[ObjectIdentifier(info)] = nil
        }
        version = StoreVersion(coordinator.store.snapshot)
    }

    /// The session to write through: inside a write, the open one (nil once it failed, so
    /// the caller skips the write); outside, the program stops as Realm Swift does.
    func writableSession() -> WriteSession? {
        verifyThread()
        guard let session else {
            realmStop(
                "Attempting to modify object outside of a write transaction - call beginWrite on a Realm instance first"
            )
        }
        return session.hasFailed ? nil : session
    }
}

/// Each thread's live contexts, by store: `Realm()` twice on one thread gives the same context,
/// so its writes and its reads agree. A context lives while a realm, object or collection of it
/// does, and takes itself out of its thread's table when it goes. (Not a weak reference: a
/// weakly referenced object pays for every retain and release, and accessors retain their
/// context once per object.)
enum ThreadContexts {
    final class Table: @unchecked Sendable {
        // Unchecked: `contexts` is read and written only under `lock`; the contexts themselves
        // are only handed out, never used, by the table.
        private let lock = NSLock()
        private var contexts: [StoreKey: Unmanaged<RealmContext>] = [:]

        func context(for key: StoreKey) -> RealmContext? {
            lock.withLock { contexts[key]?.takeUnretainedValue() }
        }

        func set(_ context: RealmContext, for key: StoreKey) {
            lock.withLock { contexts[key] = Unmanaged.passUnretained(context) }
        }

        /// Whether another context of this thread over `coordinator`'s store is in a write.
        func isWriting(_ coordinator: RealmCoordinator, besides context: RealmContext?) -> Bool {
            lock.withLock {
                contexts.values.contains { entry in
                    // Not retained: a context released on another thread may be going away.
                    entry._withUnsafeGuaranteedRef {
                        $0 !== context && $0.coordinator === coordinator && $0.isInWriteTransaction
                    }
                }
            }
        }

        /// Called by a context's deinit (on whatever thread releases it last).
        func remove(_ context: RealmContext, for key: StoreKey) {
            lock.withLock {
                if contexts[key]?.toOpaque() == Unmanaged.passUnretained(context).toOpaque() { contexts[key] = nil }
            }
        }
    }

    private static let threadKey = "RQL.ThreadContexts"

    /// The main confinement's table: the main thread's and the main queue's, whichever thread
    /// runs the main queue.
    static let main = Table()

    /// The current thread's table.
    static var current: Table {
        let dictionary = Thread.current.threadDictionary
        if let table = dictionary[threadKey] as? Table { return table }
        let table = Table()
        dictionary[threadKey] = table
        return table
    }
}
