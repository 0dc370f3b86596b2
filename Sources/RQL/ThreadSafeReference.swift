import Foundation

/// Values that belong to one realm and so to its thread, queue or actor: objects, results,
/// lists, sets, maps, linking objects, projections. A frozen one may be used anywhere; a live
/// one crosses to another thread through a `ThreadSafeReference` (or `@ThreadSafe`).
///
/// ```swift
/// func snapshot<T: ThreadConfined>(_ value: T) -> T { value.isFrozen ? value : value.freeze() }
/// ```
public protocol ThreadConfined {
    /// The realm the value belongs to; nil while unmanaged.
    var realm: Realm? { get }
    /// Whether the value can no longer be read (its object was deleted).
    var isInvalidated: Bool { get }
    /// Whether the value is a frozen snapshot, usable from any thread.
    var isFrozen: Bool { get }
    /// A frozen snapshot of the value.
    func freeze() -> Self
    /// The live value of a frozen one; nil when its object was deleted since.
    func thaw() -> Self?
}

extension ObjectBase: ThreadConfined {}
extension Results: ThreadConfined {}
extension List: ThreadConfined {}
extension MutableSet: ThreadConfined {}
extension Map: ThreadConfined {}
extension LinkingObjects: ThreadConfined {}
extension Projection: ThreadConfined {}
extension SectionedResults: ThreadConfined {}

/// A way to hand a live object or collection to another thread, queue or actor: make the
/// reference where the value lives, send it, and `resolve` it once in a realm of the same store
/// there. The version the value was read at stays readable until then; the realm it resolves
/// in moves to at least that version, and gives nil when the object was deleted since.
///
/// ```swift
/// let rex = realm.objects(Dog.self).first!
/// let reference = ThreadSafeReference(to: rex)
/// DispatchQueue.global().async {
///     let realm = try! Realm(configuration: configuration)
///     guard let rex = realm.resolve(reference) else { return }  // deleted meanwhile
///     try! realm.write { rex.age += 1 }
/// }
/// ```
public struct ThreadSafeReference<Confined: ThreadConfined>: Sendable {
    /// The frozen copy, taken by the one `resolve`. Unchecked: a frozen value reads an
    /// immutable version and may be used from any thread, and `lock` guards `frozen`.
    private final class Handover: @unchecked Sendable {
        private let lock = NSLock()
        private var frozen: Confined?

        init(_ frozen: Confined) { self.frozen = frozen }

        var isTaken: Bool { lock.withLock { frozen == nil } }

        func take() -> Confined? {
            lock.withLock {
                defer { frozen = nil }
                return frozen
            }
        }
    }

    private let handover: Handover
    /// The store the value belongs to.
    let storeKey: StoreKey

    /// A reference to a managed object or collection, made on its realm's thread. Unmanaged
    /// values need none (pass them directly), and a write transaction's uncommitted state cannot
    /// be handed over: both stop the program, as in Realm Swift.
    ///
    /// ```swift
    /// let reference = ThreadSafeReference(to: person.dogs)
    /// ```
    public init(to threadConfined: Confined) {
        guard let realm = threadConfined.realm else {
            realmStop(
                "Cannot construct reference to unmanaged object, which can be passed across threads directly"
            )
        }
        if realm.isInWriteTransaction {
            realmStop("Cannot obtain thread safe reference during a write transaction.")
        }
        handover = Handover(threadConfined.freeze())
        storeKey = realm.configuration.storeKey
    }

    /// Whether the reference was resolved already (it resolves once).
    ///
    /// ```swift
    /// _ = realm.resolve(reference)
    /// reference.isInvalidated  // true
    /// ```
    public var isInvalidated: Bool { handover.isTaken }

    /// The frozen copy, once; nil after the first call.
    func take() -> Confined? { handover.take() }
}

extension Realm {
    /// The value a `ThreadSafeReference` refers to, in this realm; nil when its object was
    /// deleted since the reference was made. The realm first moves to the reference's version
    /// if it is older. A reference resolves once; resolving it again, or in a realm of another
    /// store, stops the program, as in Realm Swift.
    ///
    /// ```swift
    /// if let rex = realm.resolve(reference) { print(rex.name) }
    /// ```
    public func resolve<Confined>(_ reference: ThreadSafeReference<Confined>) -> Confined? {
        context.verifyThread()
        guard let frozen = reference.take() else {
            realmStop("Can only resolve a thread safe reference once.")
        }
        guard reference.storeKey == context.configuration.storeKey else {
            realmStop(
                "Cannot resolve thread safe reference in Realm with different configuration than the source Realm."
            )
        }
        return resolving(frozen)
    }

    /// `frozen` thawed into this realm, after moving it to `frozen`'s version if it is older.
    func resolving<Confined: ThreadConfined>(_ frozen: Confined) -> Confined? {
        if let source = frozen.realm?.context.version.version, source > context.current.version {
            context.refresh()
        }
        return ThreadContexts.thawing(into: context) { frozen.thaw() }
    }
}

/// A property that holds a managed object or collection across threads: each read gives the
/// value in the reading thread's realm (nil when its object was deleted), each write keeps a
/// new reference. The wrapper itself is `Sendable`.
///
/// ```swift
/// final class Walker {
///     @ThreadSafe var dog: Dog?
///     init(dog: Dog) { self.dog = dog }
/// }
/// // on any thread:
/// walker.dog?.name
/// ```
@propertyWrapper
public final class ThreadSafe<T: ThreadConfined>: @unchecked Sendable {
    // Unchecked: the only state is a frozen copy (readable from any thread) and its
    // configuration, both guarded by `lock`.
    private struct State {
        var frozen: T?
        var configuration: Realm.Configuration?
    }

    private let lock = NSLock()
    private var state: State

    /// Holds `wrappedValue` (nil, or a managed object or collection).
    ///
    /// ```swift
    /// @ThreadSafe var dogs: Results<Dog>? = realm.objects(Dog.self)
    /// ```
    public init(wrappedValue: T?) {
        state = Self.state(for: wrappedValue)
    }

    /// The value in the calling thread's realm of its store; nil when it was set to nil or its
    /// object was deleted.
    public var wrappedValue: T? {
        get {
            let held = lock.withLock { state }
            guard let frozen = held.frozen, let configuration = held.configuration,
                let realm = try? Realm(configuration: configuration)
            else { return nil }
            let value = realm.resolving(frozen)
            // Keep the newer version, so that the older one can be released.
            let next = Self.state(for: value)
            lock.withLock { state = next }
            return value
        }
        set {
            let next = Self.state(for: newValue)
            lock.withLock { state = next }
        }
    }

    private static func state(for value: T?) -> State {
        guard let value else { return State(frozen: nil, configuration: nil) }
        guard let realm = value.realm else {
            realmStop(
                "Cannot construct reference to unmanaged object, which can be passed across threads directly"
            )
        }
        return State(frozen: value.freeze(), configuration: realm.configuration)
    }
}
