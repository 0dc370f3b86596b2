import Foundation
import RQLStorage

/// How every collection's `observe`, `changesets` and actor `observe` register: one path, so
/// `Results`, `List`, `MutableSet`, `LinkingObjects`, sectioned results (and a type-erased
/// wrapper forwarding to its base) behave the same.
///
/// ```swift
/// CollectionObservation.observe(dogs, keyPaths: nil, queue: nil, make: { $0 }) { change in … }
/// ```
enum CollectionObservation {
    /// Registers an observation of `results` (a collection's elements) delivering `make(…)`
    /// of them. Observing an unmanaged or frozen collection, or inside a write transaction,
    /// stops the program with Realm's message; so does a key path naming no property.
    static func observe<Element: RealmCollectionValue, C>(
        _ results: Results<Element>?,
        keyPaths: [String]?,
        queue: DispatchQueue?,
        make: @escaping (Results<Element>) -> C,
        block: @escaping (RealmCollectionChange<C>) -> Void
    ) -> NotificationToken {
        guard let results else {
            realmStop("Only managed collections can be observed: this one belongs to no realm")
        }
        let delivery = Self.delivery(for: results.context, queue: queue)
        return start {
            try CollectionNotifier(results: results, keyPaths: keyPaths, delivery: delivery, make: make, block: block)
        }
    }

    /// Makes a notifier and starts it; an error making it (a key path naming no property)
    /// stops the program with its message, as Realm Swift does.
    static func start(_ make: () throws -> Notifier) -> NotificationToken {
        let notifier: Notifier
        do {
            notifier = try make()
        } catch let error as Realm.Error {
            realmStop(error.description)
        } catch {
            realmStop("\(error)")
        }
        let token = NotificationToken(notifier)
        notifier.start()
        return token
    }

    /// Where an observation registered on `context` runs, after Realm's checks.
    static func delivery(for context: RealmContext, queue: DispatchQueue?) -> Delivery {
        realmPrecondition(!context.isFrozen, "Frozen Realms do not change and do not have change notifications.")
        realmPrecondition(
            !context.isInWriteTransaction,
            "Cannot register notification blocks from within write transactions."
        )
        if let queue { return .queue(queue) }
        return .thread(context, isMain: context.confinement.isMain)
    }

    /// The changes as an async sequence: an observation on a private queue yields each one
    /// (frozen collections, safe on any thread); the observation ends when the stream does
    /// (its consumer stops iterating, or it is dropped).
    static func stream<Change>(
        _ register: (DispatchQueue, @escaping (Change) -> Void) -> NotificationToken
    ) -> AsyncStream<Change> {
        let (stream, continuation) = AsyncStream<Change>.makeStream(bufferingPolicy: .unbounded)
        let queue = DispatchQueue(label: "RQL.changesets")
        let sink = UncheckedSendable(continuation)
        let token = register(queue) { change in
            // Frozen collections: the consumer may read them on any thread.
            nonisolated(unsafe) let frozen = change
            sink.value.yield(frozen)
        }
        continuation.onTermination = { _ in token.invalidate() }
        return stream
    }

    /// Delivers the changes on `actor`, in order: an observation on a private queue feeds a
    /// task that calls `block` isolated to the actor. Invalidating the token ends the task.
    static func onActor<A: Actor, Change>(
        _ actor: A,
        _ register: (DispatchQueue, @escaping (Change) -> Void) -> NotificationToken,
        _ block: @escaping @Sendable (isolated A, Change) -> Void
    ) -> NotificationToken {
        let (stream, continuation) = AsyncStream<UncheckedSendable<Change>>.makeStream(bufferingPolicy: .unbounded)
        let queue = DispatchQueue(label: "RQL.actor-delivery")
        let token = register(queue) { continuation.yield(UncheckedSendable($0)) }
        token.observation?.onEnd { continuation.finish() }
        Task {
            for await change in stream {
                await deliver(change, on: actor, block)
            }
        }
        return token
    }

    private static func deliver<A: Actor, Change>(
        _ change: UncheckedSendable<Change>,
        on actor: isolated A,
        _ block: (isolated A, Change) -> Void
    ) {
        block(actor, change.value)
    }
}

/// A change handed from the delivery queue to the consumer of a stream or an actor: a frozen
/// collection or object, which any thread may read.
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

extension RealmCollectionChange {
    /// The same change with the collection transformed (a type-erased wrapper forwarding to
    /// its base).
    func map<T>(_ transform: (CollectionType) -> T) -> RealmCollectionChange<T> {
        switch self {
        case .initial(let collection): .initial(transform(collection))
        case .update(let collection, let deletions, let insertions, let modifications):
            .update(transform(collection), deletions: deletions, insertions: insertions, modifications: modifications)
        case .error(let error): .error(error)
        }
    }
}
