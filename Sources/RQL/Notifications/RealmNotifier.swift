import Foundation
import Synchronization

/// The observation of a realm: `.didChange` each time the realm moves to a newer version
/// (its own commit, or a refresh), on the realm's thread; and, while the realm's `autorefresh`
/// is off, `.refreshRequired` when another realm of the store committed and this one has not
/// moved to that version yet.
///
/// `.refreshRequired` runs where the realm may be used, as realm-core's scheduler runs it: on
/// its queue, on its actor, or for the main thread's realm on the main queue (which runs when
/// the program runs its main loop). A realm confined to any other thread is not told: that
/// thread has no loop RQL could run the block on, and it sees newer versions by `refresh()`.
/// Commits until the block runs join one notification; none is sent when the realm has
/// refreshed (or written) to the newest version by then.
///
/// ```swift
/// realm.autorefresh = false
/// let token = realm.observe { notification, realm in
///     if notification == .refreshRequired { realm.refresh() }   // then `.didChange`
/// }
/// ```
// Unchecked: as `Notifier`; the fields it adds are `let`s, and `refreshPending` is atomic.
final class RealmNotifier: Notifier, @unchecked Sendable {
    private let context: RealmContext
    private let block: Realm.NotificationBlock
    /// Whether a `.refreshRequired` is scheduled and has not run yet.
    private let refreshPending = Atomic<Bool>(false)

    init(context: RealmContext, block: @escaping Realm.NotificationBlock) {
        self.context = context
        self.block = block
        super.init(
            hub: context.coordinator.notifiers,
            delivery: .thread(context, isMain: context.confinement.isMain),
            at: context.current
        )
    }

    override func step(to version: StoreVersion, notify: Bool) {
        moved(to: version)
        guard notify, !isInvalidated else { return }
        block(.didChange, Realm(context: context))
    }

    override func versionAvailable() {
        super.versionAvailable()
        guard !isInvalidated, !refreshPending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        switch context.confinement {
        case .queue(let queue, _):
            queue.async { self.refreshRequired() }
        case .actor(let reference):
            guard let actor = reference.actor else {
                refreshPending.store(false, ordering: .releasing)
                return
            }
            Task { await Self.refreshRequired(self, on: actor) }
        case .main:
            DispatchQueue.main.async { self.refreshRequired() }
        case .thread:
            refreshPending.store(false, ordering: .releasing)
        case .anywhere:
            refreshPending.store(false, ordering: .releasing)
        }
    }

    private static func refreshRequired(_ notifier: RealmNotifier, on actor: isolated any Actor) {
        notifier.refreshRequired()
    }

    /// On the realm's confinement: tells the block, unless the realm autorefreshes or already
    /// reads the newest version.
    private func refreshRequired() {
        refreshPending.store(false, ordering: .releasing)
        guard !isInvalidated, !context.autorefresh, !context.isInWriteTransaction,
            context.current.version < hub.newest.version
        else { return }
        block(.refreshRequired, Realm(context: context))
    }
}
