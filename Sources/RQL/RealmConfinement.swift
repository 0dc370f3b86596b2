import Dispatch
import Foundation
import Synchronization

/// Where a live realm, and every object, collection and `Results` read from it, may be used:
/// the thread that opened it, a serial queue, or an actor. A live context's version, write
/// transaction and caches are plain fields, so using them from anywhere else would be a data
/// race; instead the program stops with realm-swift's message. A frozen realm reads one
/// immutable version and may be used anywhere.
///
/// ```swift
/// let realm = try Realm()  // confined to this thread
/// Thread { _ = realm.objects(Dog.self).count }.start()  // stops: "Realm accessed from incorrect thread."
/// ```
enum RealmConfinement: Sendable {
    /// The thread that opened the realm.
    case thread(pthread_t)
    /// The main thread and the main queue, as one (realm-swift's main run loop): code on the
    /// main thread, or in a block the main queue runs, which includes code isolated to the
    /// main actor. Not a thread: once the main thread calls `dispatchMain()` (as an async `main`
    /// does on Linux) it exits, and worker threads take turns running the main queue.
    case main
    /// Blocks running on this serial queue (which carries the mark), on whichever thread runs them.
    case queue(DispatchQueue, RealmQueueMark)
    /// Code isolated to this actor (held weakly: an actor commonly keeps its realm, and the
    /// realm must not keep the actor, or neither would ever go).
    case actor(ActorReference)
    /// Anywhere: a frozen realm.
    case anywhere

    /// The confinement of the calling code: the main one on the main thread or the main queue,
    /// else the calling thread's.
    static var currentThread: RealmConfinement { isOnMain ? .main : .thread(pthread_self()) }

    /// Whether the calling code runs on the main thread or in a block of the main queue.
    static var isOnMain: Bool { Thread.isMainThread || DispatchQueue.isRunningMainQueue }

    /// Whether this is the main confinement.
    var isMain: Bool {
        if case .main = self { return true }
        return false
    }

    /// The owning thread, or 0 when the confinement is not to one thread (no thread has
    /// identity 0, so the fast comparison fails and `verify()` decides). The main confinement
    /// owns the main thread when it is opened there: that thread is never anything but main.
    var ownerThread: pthread_t {
        switch self {
        case .thread(let thread): return thread
        case .main: return Thread.isMainThread ? pthread_self() : 0
        case .queue, .actor, .anywhere: return 0
        }
    }

    /// Stops the program unless the calling code may use a realm confined here.
    func verify() {
        switch self {
        case .thread(let thread):
            if pthread_equal(thread, pthread_self()) == 0 { Self.incorrectThread() }
        case .main:
            if !Self.isOnMain { Self.incorrectThread() }
        case .queue(_, let mark):
            if !mark.isCurrent { Self.incorrectThread() }
        case .actor(let reference):
            // An actor that is gone runs no code, so nothing can be isolated to it.
            guard let actor = reference.actor, Self.isIsolated(to: actor) else { Self.incorrectThread() }
        case .anywhere:
            break
        }
    }

    /// Runs `work` later where a realm confined here may be used: on the queue, on the actor, or
    /// for the main confinement on the main queue (which runs when the program runs its main
    /// loop). Another thread has no loop RQL could run it on, so scheduling there stops the
    /// program, as realm-core's does for a thread without a run loop.
    func schedule(_ work: @escaping () -> Void) {
        let handoff = Handoff(work)
        switch self {
        case .queue(let queue, _):
            queue.async { handoff.value() }
        case .actor(let reference):
            // Work for an actor that is gone has nowhere to run, and nobody to run it for.
            guard let actor = reference.actor else { return }
            Task { await Self.run(handoff, on: actor) }
        case .main:
            DispatchQueue.main.async { handoff.value() }
        case .thread:
            realmStop("Cannot schedule async transaction. Make sure you are running from inside a run loop.")
        case .anywhere:
            realmStop("Can't perform transactions on a frozen Realm")
        }
    }

    private static func run(_ handoff: Handoff<() -> Void>, on actor: isolated any Actor) {
        handoff.value()
    }

    /// realm-swift's stop for a realm, object or collection used outside its confinement. Every
    /// confinement stop goes through here, so its message prints in full in release builds too.
    static func incorrectThread() -> Never {
        realmStop(incorrectThreadMessage)
    }

    static let incorrectThreadMessage = "Realm accessed from incorrect thread."

    /// Whether the calling code runs on `actor`'s executor. Asked of the concurrency runtime
    /// directly: the public checks (`preconditionIsolated`, `assumeIsolated`) stop with the
    /// runtime's own message instead of answering, and the runtime's entry point cannot be
    /// declared with `@_silgen_name` in a module that sees the standard library's declaration
    /// of it. Without the entry point, the public check stops instead (with its message).
    static func isIsolated(to actor: any Actor) -> Bool {
        guard let isCurrentExecutor = RuntimeExecutorCheck.isCurrentExecutor else {
            actor.preconditionIsolated(incorrectThreadMessage)
            return true
        }
        let executor = unsafeBitCast(actor.unownedExecutor, to: (UInt, UInt).self)
        return isCurrentExecutor(executor.0, executor.1, RuntimeExecutorCheck.answerWithoutStopping)
    }
}

extension ThreadContexts {
    private static let targetKey = "RQL.ThawTarget"

    /// Runs `body` with `context` as the realm that thawing a frozen value of its store gives
    /// (`resolve` thaws into its realm, which may be confined to a queue or an actor rather
    /// than to this thread).
    static func thawing<T>(into context: RealmContext, _ body: () -> T) -> T {
        let dictionary = Thread.current.threadDictionary
        let previous = dictionary[targetKey]
        dictionary[targetKey] = context
        defer { dictionary[targetKey] = previous }
        return body()
    }

    /// The context `thawing(into:_:)` set on this thread for the store `key`, if any.
    static func thawTarget(for key: StoreKey) -> RealmContext? {
        guard let target = Thread.current.threadDictionary[targetKey] as? RealmContext,
            target.configuration.storeKey == key
        else { return nil }
        return target
    }
}

extension RealmContext {
    /// The live context a frozen value of `configuration`'s store thaws into: the realm being
    /// resolved into, else this thread's.
    static func thawTarget(_ configuration: Realm.Configuration) throws(Realm.Error) -> RealmContext {
        if let target = ThreadContexts.thawTarget(for: configuration.storeKey) { return target }
        return try open(configuration)
    }
}

/// A value sent to another thread only to be used on its realm's confinement (a closure that
/// `schedule` runs there, a context a waiting thread hands back): never touched in between, so
/// no two threads use it at once.
struct Handoff<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// `swift_task_isCurrentExecutorWithFlags(SerialExecutorRef, flags) -> bool`, looked up once.
/// Its two-word executor and 64-bit flags travel in the same registers under the C and Swift
/// calling conventions on the platforms RQL runs on.
private enum RuntimeExecutorCheck {
    typealias Function = @convention(c) (UInt, UInt, UInt64) -> Bool

    /// No flag: answer false rather than stop when the executor is not the current one.
    static let answerWithoutStopping: UInt64 = 0

    static let isCurrentExecutor: Function? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "swift_task_isCurrentExecutorWithFlags") else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }()
}

extension DispatchQueue {
    /// Whether this is the main queue, whose realm is the main thread's. Asked of a mark the
    /// main queue carries: on Linux `DispatchQueue.main` is a new object on each use, so `===`
    /// cannot tell, and a queue's own specific values are not its targets' (a queue that
    /// targets the main queue is another queue).
    var isMainQueue: Bool { getSpecific(key: MainQueueMark.key) == true }

    /// Whether the calling code runs in a block of the main queue, on whichever thread.
    static var isRunningMainQueue: Bool { getSpecific(key: MainQueueMark.key) == true }
}

private enum MainQueueMark {
    static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()
}

/// The mark a queue-confined realm leaves on its serial queue (a dispatch queue-specific value):
/// code runs on the queue exactly when the current queue, or a queue it targets, carries the
/// mark. It also holds the queue's realms, one per store, as a thread's table does.
final class RealmQueueMark: Sendable {
    /// The queue's contexts, by store.
    let contexts = ThreadContexts.Table()

    private static let key = DispatchSpecificKey<RealmQueueMark>()
    /// Serializes marking: two threads confining realms to one queue must agree on its mark.
    private static let marking = Mutex(())

    private init() {}

    /// The mark of `queue`, made and set on first use.
    static func mark(_ queue: DispatchQueue) -> RealmQueueMark {
        marking.withLock { _ in
            if let existing = queue.getSpecific(key: key) { return existing }
            let mark = RealmQueueMark()
            queue.setSpecific(key: key, value: mark)
            return mark
        }
    }

    /// Whether the calling code runs on the marked queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) === self }
}

/// The actor a realm is confined to, held weakly, with the actor's table of live contexts:
/// `Realm(configuration:actor:)` twice on one actor gives the same realm, as `Realm()` twice on
/// one thread does. There is one reference per live actor (`of(_:)`), and it leaves the
/// registry once its actor is gone; the contexts in its table go with the last realm, object
/// or collection of each.
final class ActorReference: Sendable {
    weak let actor: (any Actor)?
    /// The actor's contexts, by store.
    let contexts = ThreadContexts.Table()

    private init(_ actor: any Actor) { self.actor = actor }

    private struct Registry {
        var references: [ObjectIdentifier: ActorReference] = [:]
        /// Gone actors are swept when the registry has doubled since the last sweep, so that
        /// registering n actors costs O(n) in all.
        var sweepAt = 64
    }

    private static let registry = Mutex(Registry())

    /// The reference of `actor`, made on first use.
    static func of(_ actor: any Actor) -> ActorReference {
        registry.withLock { registry in
            let id = ObjectIdentifier(actor)
            // A gone actor's address may be reused by a new one: its reference reads nil.
            if let existing = registry.references[id], existing.actor === actor { return existing }
            if registry.references.count >= registry.sweepAt {
                registry.references = registry.references.filter { $0.value.actor != nil }
                registry.sweepAt = Swift.max(64, registry.references.count * 2)
            }
            let reference = ActorReference(actor)
            registry.references[id] = reference
            return reference
        }
    }

    /// How many registered references have a live actor (tests check that gone actors are let go).
    static var liveCount: Int {
        registry.withLock { registry in registry.references.values.count { $0.actor != nil } }
    }
}
