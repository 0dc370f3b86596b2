import Foundation
import RQLCore
import RQLStorage

/// The observations of one store, and what they need to compute changes: the change sets of
/// the commits made in this process (kept only while some observation has not delivered
/// them yet), and a watcher for commits made by other processes (running only while there
/// are observations of a file-backed store).
///
/// With no observation, a commit costs one lock and an emptiness check; an observation
/// whose classes a commit did not touch costs a dictionary lookup per class it watches.
///
/// ```swift
/// coordinator.notifiers.committed(result.changes, at: version, silencing: [])
/// coordinator.notifiers.deliver(to: context)   // the context's own observations, now
/// ```
// Unchecked: `store` is a `let`; everything else is read and written only under `lock`.
final class Notifiers: @unchecked Sendable {
    /// One commit of this process.
    private struct Entry {
        let changes: ChangeSet
        let version: StoreVersion
    }

    let store: BlockStore
    private let lock = NSLock()
    private var registered: [ObjectIdentifier: Notifier] = [:]
    /// Commits not yet delivered to every observation, ascending by version.
    private var log: [Entry] = []
    private var newestVersion: StoreVersion?
    private var watcher: StoreWatcher?

    /// Beyond this many commits an observation that lags (a blocked queue) falls back to
    /// comparing tables, so that memory stays bounded.
    static let logLimit = 4096

    init(store: BlockStore) {
        self.store = store
    }

    var isEmpty: Bool { lock.withLock { registered.isEmpty } }

    var count: Int { lock.withLock { registered.count } }

    func add(_ notifier: Notifier) {
        lock.withLock {
            registered[ObjectIdentifier(notifier)] = notifier
            if watcher == nil, store.path != nil {
                watcher = StoreWatcher(store: store) { [weak self] in self?.storeMoved() }
            }
        }
    }

    func remove(_ notifier: Notifier) {
        let stopped: StoreWatcher? = lock.withLock {
            registered[ObjectIdentifier(notifier)] = nil
            guard registered.isEmpty else { return nil }
            log = []
            defer { watcher = nil }
            return watcher
        }
        stopped?.stop()
    }

    // MARK: Commits

    /// A commit of this process was published as `version`. The observations of `silencing`
    /// take its changes in without a delivery.
    func committed(_ changes: ChangeSet, at version: StoreVersion, silencing: [Notifier] = []) {
        let targets: [Notifier] = lock.withLock {
            guard !registered.isEmpty else { return [] }
            let entry = Entry(changes: changes, version: version)
            if let last = log.last, last.version.version > version.version {
                // Two writers' calls may arrive out of order.
                let index = log.firstIndex { $0.version.version > version.version } ?? log.count
                log.insert(entry, at: index)
            } else {
                log.append(entry)
            }
            trim()
            return Array(registered.values)
        }
        for notifier in silencing { notifier.silence(version.version) }
        for notifier in targets { notifier.versionAvailable() }
    }

    /// The store moved to a version whose change set is not known (another process's commit).
    func storeMoved() {
        let targets = lock.withLock { Array(registered.values) }
        for notifier in targets { notifier.versionAvailable() }
    }

    /// Delivers, on the calling thread, everything `context`'s own observations have not
    /// delivered yet, up to the version it reads now.
    func deliver(to context: RealmContext) {
        let targets = lock.withLock { registered.values.filter { $0.isDelivered(on: context) } }
        guard !targets.isEmpty else { return }
        let version = context.current
        for notifier in targets { notifier.advance(to: version) }
    }

    // MARK: What observations read

    /// The newest version: the newest commit this process logged, or the store's newest
    /// snapshot when that is newer (another process's commit).
    var newest: StoreVersion {
        let snapshot = store.snapshot
        return lock.withLock {
            if let last = log.last, last.version.version >= snapshot.version { return last.version }
            if let cached = newestVersion, cached.version == snapshot.version { return cached }
            let version = StoreVersion(snapshot)
            newestVersion = version
            return version
        }
    }

    /// The logged version `number`, if it is still in the log.
    func version(at number: UInt64) -> StoreVersion? {
        lock.withLock { entry(number)?.version }
    }

    /// The changes of the commits after version `from` up to `to`, merged; nil when one of
    /// them is not in the log.
    func changes(after from: UInt64, through to: UInt64) -> ChangeSet? {
        guard to > from else { return ChangeSet(version: to) }
        return lock.withLock {
            guard let first = log.firstIndex(where: { $0.version.version == from + 1 }),
                first + Int(to - from) <= log.count,
                log[first + Int(to - from) - 1].version.version == to
            else { return nil }
            var merged = log[first].changes
            for entry in log[(first + 1)..<(first + Int(to - from))] {
                merged = merged.merged(with: entry.changes)
            }
            return merged
        }
    }

    private func entry(_ number: UInt64) -> Entry? {
        var low = 0
        var high = log.count
        while low < high {
            let middle = (low + high) / 2
            if log[middle].version.version < number { low = middle + 1 } else { high = middle }
        }
        return low < log.count && log[low].version.version == number ? log[low] : nil
    }

    /// Drops the commits every observation has delivered (lock held).
    private func trim() {
        guard let oldest = registered.values.lazy.map(\.deliveredVersion).min() else {
            log = []
            return
        }
        // Keep one entry at or below `oldest`: a skipped commit's predecessor may be asked for.
        let drop = log.firstIndex { $0.version.version >= oldest } ?? log.count
        if drop > 0 { log.removeFirst(drop) }
        if log.count > Self.logLimit { log.removeFirst(log.count - Self.logLimit) }
    }
}
