import Foundation
import RQLCore
import RQLStorage
import Synchronization

/// Everything realms of one store share, process-wide: the store, the classes checked against
/// its schema, and the schema version. Every `Realm` of the same file (or in-memory
/// identifier), on any thread, goes through the same coordinator.
///
/// ```swift
/// let coordinator = try StoreRegistry.coordinator(for: Realm.Configuration(inMemoryIdentifier: "a"))
/// try coordinator.register([ClassInfo.info(for: Dog.self)], readOnly: false)
/// ```
final class RealmCoordinator: @unchecked Sendable {
    // Unchecked: `registered` is read and written only under `lock`; everything else is `let`.
    let key: StoreKey
    let store: BlockStore
    /// The store's observations (notifications).
    let notifiers: Notifiers
    private let lock = NSLock()
    /// How many contexts (realms and what they made) use the store now; `Realm.deleteFiles`
    /// refuses while any does.
    let openContexts = Atomic<Int>(0)
    /// Classes whose declared schema matches the store's, by class name.
    private var registered: [String: ClassInfo] = [:]

    init(key: StoreKey, store: BlockStore) {
        self.key = key
        self.store = store
        notifiers = Notifiers(store: store)
    }

    /// Reads the newest version another process committed to the store's file, if any. A file
    /// that cannot be read now keeps the version already read (the next write reports it).
    func catchUp() {
        _ = try? store.refresh()
    }

    /// Checks the configured schema version against the one the store records
    /// (`SchemaVersionRecord`, 0 when none): a lower one is an error, as in realm-core.
    func checkSchemaVersion(_ configured: UInt64) throws(Realm.Error) {
        let stored = SchemaVersionRecord.read(store.snapshot)
        guard configured >= stored else {
            throw Realm.Error(
                .schemaMismatch,
                "Provided schema version \(configured) is less than last set version \(stored) of \(key)."
            )
        }
    }

    /// Records a configured schema version higher than the stored one, once the declared
    /// classes matched the store (so that a refused open leaves the file as it was).
    func recordSchemaVersion(_ configured: UInt64, readOnly: Bool) throws(Realm.Error) {
        guard !readOnly, configured > SchemaVersionRecord.read(store.snapshot) else { return }
        try SchemaVersionRecord.raise(to: configured, in: store)
    }

    /// The registered class of this name.
    func registeredClass(named className: String) -> ClassInfo? {
        lock.withLock { registered[className] }
    }

    /// Every registered class, by name.
    var registeredClasses: [String: ClassInfo] {
        lock.withLock { registered }
    }

    /// Checks `classes` against the store's schema and adds the ones it lacks, in a write
    /// transaction of their own. The caller must not hold the store's write transaction (inside
    /// a write, `register(_:in:)` adds them to that transaction instead); `insideWrite` says
    /// another realm of the caller's thread holds it, and then a needed write is an error.
    func register(_ classes: [ClassInfo], readOnly: Bool, insideWrite: Bool = false) throws(Realm.Error) {
        // Locks are taken in one order, the store's write lock before this coordinator's (as
        // `register(_:in:)` inside a write does), so a thread in a write transaction and one
        // opening a realm cannot wait for each other.
        let missing = try withLock { () throws(Realm.Error) in try unregistered(classes, in: store.snapshot.schema) }
        guard !missing.isEmpty else { return }
        guard !readOnly else {
            throw Realm.Error(
                .schemaMismatch,
                "The read-only realm \(key) has no class "
                    + missing.map { "'\($0.className)'" }.joined(separator: ", ")
            )
        }
        if insideWrite {
            throw nestedWriteError("adding " + missing.map { "'\($0.className)'" }.joined(separator: ", "))
        }
        let transaction = store.beginWrite()
        let added: [ClassInfo]
        do {
            // Checked again: another thread may have added them meanwhile.
            added = try register(classes, in: transaction)
            let result = try transaction.commit()
            notifiers.committed(result.changes, at: StoreVersion(result.snapshot))
        } catch let error as Realm.Error {
            transaction.rollback()
            throw error
        } catch let error as WriteError {
            transaction.rollback()
            throw Realm.Error(error)
        } catch {
            transaction.rollback()
            throw Realm.Error(.fail, "\(error)")
        }
        confirm(added)
    }

    /// Why a write cannot begin: another realm of this thread over the same file (opened
    /// through another path) holds the store's write lock, and waiting would wait on itself.
    /// `purpose`: what needed the write, when it is not a write the caller began.
    func nestedWriteError(_ purpose: String? = nil) -> Realm.Error {
        Realm.Error(
            .invalidTransaction,
            "The Realm is already in a write transaction (opened through another path to \(key))"
                + (purpose.map { "; \($0) needs a write of its own" } ?? "")
        )
    }

    private func withLock<T>(_ body: () throws(Realm.Error) -> T) throws(Realm.Error) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Adds the classes the open `transaction` lacks to it. They are registered once it commits
    /// (`confirm`); a rollback forgets them.
    func register(_ classes: [ClassInfo], in transaction: WriteTransaction) throws(Realm.Error) -> [ClassInfo] {
        lock.lock()
        defer { lock.unlock() }
        let missing = try unregistered(classes, in: transaction.schema)
        guard !missing.isEmpty else { return [] }
        do {
            try transaction.addClasses(missing.map(\.objectSchema))
        } catch {
            throw Realm.Error(error)
        }
        return missing
    }

    /// The info of `type` as `schema` stores its class, for a declaration other than the
    /// registered one of the same class name; an error when they differ beyond property order.
    func matched(_ type: ObjectBase.Type, in schema: RQLCore.Schema) throws(Realm.Error) -> ClassInfo {
        let declared: ClassInfo
        do {
            declared = try ClassInfo.info(for: type)
        } catch {
            throw Realm.Error(.invalidSchema, error.description)
        }
        guard let stored = schema[declared.className] else { return declared }
        guard let matched = declared.matching(stored) else {
            throw Realm.Error(
                .schemaMismatch,
                MigrationCheck.message(stored: stored, declared: declared.objectSchema, key: key)
            )
        }
        return matched
    }

    /// Forgets every registered class, after a migration changed the stored classes.
    func forgetRegistrations() {
        lock.withLock { registered = [:] }
    }

    /// Registers classes added by a committed transaction.
    func confirm(_ classes: [ClassInfo]) {
        lock.withLock {
            for info in classes { registered[info.className] = info }
        }
    }

    /// The classes of `classes` the schema lacks; those it has must match it up to the order of
    /// their properties (registered in the store's order).
    private func unregistered(_ classes: [ClassInfo], in schema: RQLCore.Schema) throws(Realm.Error) -> [ClassInfo] {
        var missing: [ClassInfo] = []
        for info in classes where registered[info.className]?.type != info.type {
            if let stored = schema[info.className] {
                guard let matched = info.matching(stored) else {
                    throw Realm.Error(
                        .schemaMismatch,
                        MigrationCheck.message(stored: stored, declared: info.objectSchema, key: key)
                    )
                }
                if registered[info.className] == nil { registered[info.className] = matched }
            } else if !missing.contains(where: { $0.className == info.className }) {
                missing.append(info)
            }
        }
        return missing
    }
}

/// The process-wide table of coordinators, and the one place a store is opened.
enum StoreRegistry {
    private final class Weak {
        weak var coordinator: RealmCoordinator?
        init(_ coordinator: RealmCoordinator) { self.coordinator = coordinator }
    }

    private static let lock = NSLock()
    /// In-memory realms live while a realm holds their coordinator.
    nonisolated(unsafe) private static var memory: [String: Weak] = [:]
    /// File-backed realms' coordinators live for the process, as their stores do. They are kept
    /// by file identity, not path: realms of one file opened through two paths (a symbolic link)
    /// share one store, so one write lock, and a nested write is an error rather than a wait on
    /// itself.
    nonisolated(unsafe) private static var files: [FileIdentity: RealmCoordinator] = [:]

    /// The coordinator of the store `configuration` names, opening the store if needed.
    static func coordinator(for configuration: Realm.Configuration) throws(Realm.Error) -> RealmCoordinator {
        try configuration.validate()
        lock.lock()
        defer { lock.unlock() }
        do {
            let key = configuration.storeKey
            switch key {
            case .memory(let identifier):
                if let existing = memory[identifier]?.coordinator { return existing }
                let coordinator = RealmCoordinator(key: key, store: BlockStore(schema: Self.emptySchema))
                memory[identifier] = Weak(coordinator)
                return coordinator
            case .file(let path):
                if let identity = FileIdentity(path: path), let existing = files[identity] { return existing }
                if FileIdentity(path: path).flatMap({ stores[$0] }) == nil {
                    try LaunchCompaction.compactIfAsked(path: path, configuration)
                }
                let store = try openStore(
                    atPath: path,
                    readOnly: configuration.readOnly,
                    seed: configuration.seedFilePath
                )
                guard let identity = store.fileIdentity else {
                    throw Realm.Error(.fileAccess, "Unable to open a realm at path '\(path)': the file is gone")
                }
                if let existing = files[identity] { return existing }
                let coordinator = RealmCoordinator(key: key, store: store)
                files[identity] = coordinator
                return coordinator
            }
        }
    }

    /// Makes `store` the in-memory realm `identifier` (which must not be open): a realm over a
    /// store built elsewhere (a dataset, a bulk import). Tests and tools use it.
    static func adopt(_ store: BlockStore, inMemoryIdentifier identifier: String) -> RealmCoordinator {
        lock.lock()
        defer { lock.unlock() }
        let coordinator = RealmCoordinator(key: .memory(identifier), store: store)
        memory[identifier] = Weak(coordinator)
        return coordinator
    }

    // MARK: Files

    /// Stores opened in this process, by file identity.
    nonisolated(unsafe) private static var stores: [FileIdentity: BlockStore] = [:]

    /// THE function that opens the store of a file-backed realm: the store file at `path`,
    /// created empty (atomically: another process creating it at once opens what this one made)
    /// unless it exists or `readOnly` is set (a copy of `seed` first when given); an empty file
    /// opened read-write becomes an empty store, as in realm-core. One store per file per
    /// process, whatever path reaches it; other processes see its commits when they open it (or
    /// refresh).
    private static func openStore(atPath path: String, readOnly: Bool, seed: URL?) throws(Realm.Error) -> BlockStore {
        if let identity = FileIdentity(path: path), let store = stores[identity] { return store }
        if let seed, !FileManager.default.fileExists(atPath: path) { try copySeed(seed, to: path) }
        let store: BlockStore
        do {
            if readOnly {
                guard FileManager.default.fileExists(atPath: path) else {
                    throw Realm.Error(
                        .fileNotFound,
                        "Unable to open a realm at path '\(path)': No such file or directory"
                    )
                }
                store = try BlockStore.open(path: path, readOnly: true)
            } else {
                store = try BlockStore.open(path: path, creatingWith: emptySchema)
            }
            if let fallback = store.fallback { throw fallbackError(fallback, path: path) }
        } catch let error as StoreFileError {
            throw Realm.Error(error)
        } catch let error as Realm.Error {
            throw error
        } catch {
            throw Realm.Error(.fileAccess, "Unable to open a realm at path '\(path)': \(error)")
        }
        if let identity = store.fileIdentity {
            if let existing = stores[identity] { return existing }
            stores[identity] = store
        }
        return store
    }

    /// Copies the seed file to `path`, where no file exists yet.
    private static func copySeed(_ seed: URL, to path: String) throws(Realm.Error) {
        guard FileManager.default.fileExists(atPath: seed.path) else {
            throw Realm.Error(.fileNotFound, "Unable to copy the seed file '\(seed.path)': No such file or directory")
        }
        do {
            // The file a symbolic link names, not the link (a copy of it would open the seed), and
            // its commit log (the commits after its checkpoint, which names the log) first.
            let seedFile = FileSystem.resolved(seed.path)
            let (seedLog, log) = (StoreCompanion.log.path(forStore: seedFile), StoreCompanion.log.path(forStore: path))
            try? FileManager.default.removeItem(atPath: log)
            if FileManager.default.fileExists(atPath: seedLog) {
                try FileManager.default.copyItem(atPath: seedLog, toPath: log)
            }
            try FileManager.default.copyItem(atPath: seedFile, toPath: path)
        } catch {
            throw Realm.Error(
                .fileOperationFailed,
                "Unable to copy the seed file '\(seed.path)' to '\(path)': \(error.localizedDescription)"
            )
        }
    }

    /// Closes the store of the file at `path` in this process (before its files are deleted or
    /// its log replaced); an error naming `action` while a realm of it is open.
    static func close(path: String, toDo action: String = "delete the realm") throws(Realm.Error) {
        lock.lock()
        defer { lock.unlock() }
        guard let identity = FileIdentity(path: path) else { return }
        if let coordinator = files[identity], coordinator.openContexts.load(ordering: .relaxed) > 0 {
            throw Realm.Error(.fileAccess, "Cannot \(action) at '\(path)': it is open in this process")
        }
        files[identity] = nil
        stores[identity] = nil
    }

    /// The schema version recorded in the store file at `path`, read from the open store of
    /// this process if there is one, else from the file opened read-only for the call.
    static func schemaVersion(atPath path: String) throws(Realm.Error) -> UInt64 {
        let open: BlockStore? = lock.withLock { FileIdentity(path: path).flatMap { stores[$0] } }
        if let open { return SchemaVersionRecord.read(open.snapshot) }
        guard FileManager.default.fileExists(atPath: path) else {
            throw Realm.Error(.fileNotFound, "Unable to open a realm at path '\(path)': No such file or directory")
        }
        let store: BlockStore
        do {
            store = try BlockStore.open(path: path, readOnly: true)
        } catch {
            throw Realm.Error(error)
        }
        if let fallback = store.fallback { throw fallbackError(fallback, path: path) }
        return SchemaVersionRecord.read(store.snapshot)
    }

    /// A realm is never opened on an older version than its file's newest without a word: a
    /// write would replace the newest version for good.
    private static func fallbackError(_ fallback: StoreFileError, path: String) -> Realm.Error {
        Realm.Error(
            .fileAccess,
            "Unable to open a realm at path '\(path)': \(fallback.problem.description). Opening it would"
                + " lose that version for good; `rqlc export --accept-older-version` reads the intact one."
        )
    }

    private static let emptySchema: RQLCore.Schema = {
        do {
            return try RQLCore.Schema([])
        } catch {
            fatalError("an empty schema is valid: \(error)")
        }
    }()
}
