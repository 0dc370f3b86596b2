import Foundation
import RQLCore
import RQLStorage
import Synchronization

/// Where an observation's block runs.
enum Delivery {
    /// On the observing realm's thread, synchronously, when that realm commits a write or
    /// refreshes (and from the main queue when the realm is the main thread's and
    /// autorefreshes). The block gets the live collection or object.
    case thread(RealmContext, isMain: Bool)
    /// On the serial queue, as soon as a commit is published. The block gets a frozen
    /// collection or object at the delivered version, which any thread may read.
    case queue(DispatchQueue)
}

/// One observation: it remembers the version it last delivered, and when the realm moves on
/// it computes what changed since (subclasses: a collection, an object, a realm) and calls
/// its block. Commits that happen before the next delivery are delivered together.
///
/// Scheduling state (whether a delivery is queued, the versions to skip for
/// `write(withoutNotifying:)`) is under `lock`; the delivery state (`delivered` and what the
/// subclass keeps) is touched only where deliveries run: the realm's thread, or the queue.
// Unchecked: the scheduling state is under `lock` or atomic; the delivery state is confined to
// where deliveries run (above), which `Delivery` serializes.
class Notifier: @unchecked Sendable {
    let hub: Notifiers
    let delivery: Delivery
    private let lock = NSLock()
    private var isScheduled = false
    private var silentVersions: Set<UInt64> = []
    private var endings: [() -> Void] = []
    private let invalidated = Atomic<Bool>(false)
    /// `delivered.version`, readable from any thread (the hub trims its log by it).
    private let deliveredNumber: Atomic<UInt64>
    /// The version of the last delivery (or of the initial state).
    private(set) var delivered: StoreVersion

    init(hub: Notifiers, delivery: Delivery, at version: StoreVersion) {
        self.hub = hub
        self.delivery = delivery
        delivered = version
        deliveredNumber = Atomic(version.version)
    }

    var isInvalidated: Bool { invalidated.load(ordering: .acquiring) }

    var deliveredVersion: UInt64 { deliveredNumber.load(ordering: .acquiring) }

    /// Whether this observation is delivered on `context`'s thread.
    func isDelivered(on context: RealmContext) -> Bool {
        if case .thread(let own, _) = delivery { return own === context }
        return false
    }

    /// Stops the observation: it leaves the hub, and no later delivery calls the block.
    func invalidate() {
        guard !invalidated.exchange(true, ordering: .acquiringAndReleasing) else { return }
        hub.remove(self)
        let endings = lock.withLock {
            defer { self.endings = [] }
            return self.endings
        }
        for ending in endings { ending() }
    }

    /// Runs `ending` when the observation stops (it ends an actor's delivery task), or now if
    /// it has stopped.
    func onEnd(_ ending: @escaping () -> Void) {
        let now = lock.withLock {
            if isInvalidated { return true }
            endings.append(ending)
            return false
        }
        if now { ending() }
    }

    /// Registers the observation and makes its first delivery (`.initial` for collections).
    func start() {
        hub.add(self)
        switch delivery {
        case .thread:
            begin()
        case .queue(let queue):
            queue.async { if !self.isInvalidated { self.begin() } }
        }
    }

    /// The commit of `version` will not be delivered: its changes are taken in silently
    /// (`write(withoutNotifying:)`).
    func silence(_ version: UInt64) {
        lock.withLock { _ = silentVersions.insert(version) }
    }

    /// A newer version exists. A queued observation schedules one delivery (commits until it
    /// runs join it); a thread's observation waits for its realm to commit or refresh, or
    /// refreshes its main-thread realm from the main queue.
    func versionAvailable() {
        switch delivery {
        case .queue(let queue):
            guard claimSchedule() else { return }
            queue.async {
                self.lock.withLock { self.isScheduled = false }
                guard !self.isInvalidated else { return }
                self.advance(to: self.hub.newest)
            }
        case .thread(let context, let isMain):
            guard isMain, context.autorefresh else { return }
            guard claimSchedule() else { return }
            let box = UncheckedSendable(context)
            DispatchQueue.main.async {
                self.lock.withLock { self.isScheduled = false }
                guard !self.isInvalidated, box.value.autorefresh, !box.value.isInWriteTransaction else { return }
                box.value.refresh()
            }
        }
    }

    /// Marks a delivery as scheduled; false when one already is (it will see this version).
    private func claimSchedule() -> Bool {
        lock.withLock {
            if isScheduled { return false }
            isScheduled = true
            return true
        }
    }

    /// Brings the observation to `target`, delivering what changed (commits to skip are taken
    /// in on their own, so that the changes around them are still delivered).
    final func advance(to target: StoreVersion) {
        guard !isInvalidated, target.version > delivered.version else { return }
        let skipped: [UInt64] = lock.withLock {
            let due = silentVersions.filter { $0 <= target.version }
            silentVersions.subtract(due)
            return due.filter { $0 > delivered.version }.sorted()
        }
        for version in skipped {
            if version - 1 > delivered.version, let before = hub.version(at: version - 1) {
                step(to: before, notify: true)
            }
            guard !isInvalidated else { return }
            let after = version == target.version ? target : (hub.version(at: version) ?? target)
            if after.version > delivered.version { step(to: after, notify: false) }
        }
        if !isInvalidated, target.version > delivered.version { step(to: target, notify: true) }
    }

    /// The changes from the delivered version to `version`: the commits' own change sets
    /// merged (another process's as the store read them from the commit log), or, when one
    /// is not known, a comparison of the tables of `classes`.
    final func changes(to version: StoreVersion, classes: Set<String>) -> ChangeSet {
        hub.changes(after: delivered.version, through: version.version)
            ?? hub.store.refreshedChanges(after: delivered.version, through: version.version).flatMap {
                $0.dropFirst().reduce($0.first ?? ChangeSet(version: version.version)) { $0.merged(with: $1) }
            }
            ?? ChangeSet.between(delivered.snapshot, version.snapshot, classes: classes)
    }

    /// Records `version` as delivered (before the block runs: a block that writes causes a
    /// nested delivery, which must start from here).
    final func moved(to version: StoreVersion) {
        delivered = version
        deliveredNumber.store(version.version, ordering: .releasing)
    }

    // MARK: Subclasses

    /// The first delivery, at `delivered`.
    func begin() {}

    /// Moves from `delivered` to `version`, calling the block with what changed when `notify`
    /// is set and something the observation watches changed; must call `moved(to:)`.
    func step(to version: StoreVersion, notify: Bool) {
        moved(to: version)
    }
}
