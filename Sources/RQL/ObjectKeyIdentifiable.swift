/// An object whose `id` is stable for as long as the object exists, as Realm Swift's
/// `ObjectKeyIdentifiable`: every instance of one managed object has the same `id`, so lists of
/// objects can be diffed by identity (SwiftUI's `ForEach`, or any `Identifiable` consumer).
///
/// ```swift
/// final class Dog: Object, ObjectKeyIdentifiable {
///     @Persisted var name = ""
/// }
/// let a = realm.objects(Dog.self)[0], b = realm.objects(Dog.self)[0]
/// a.id == b.id  // true: the same stored object
/// ```
public protocol ObjectKeyIdentifiable: Identifiable {
    /// The stable identity of the object.
    var id: UInt64 { get }
}

extension ObjectKeyIdentifiable where Self: ObjectBase {
    /// For a managed object, an identity made of its class and its key in the realm, the same
    /// for every instance of it (and never reused, as keys are not). For an unmanaged object,
    /// the identity of the instance.
    ///
    /// ```swift
    /// let ids = realm.objects(Dog.self).map(\.id)
    /// ```
    public var id: UInt64 {
        guard _rqlContext != nil else {
            return UInt64(UInt(bitPattern: ObjectIdentifier(self)))
        }
        // The class index in the high 16 bits, the key below: distinct for distinct objects of
        // a realm while keys stay under 2^48.
        return UInt64(truncatingIfNeeded: _rqlClassIndex) << 48 ^ UInt64(bitPattern: _rqlKey.rawValue)
    }
}
