import RQLCore

/// What `realm.objects(_:)` can fetch: `Object` subclasses and class projections.
///
/// ```swift
/// let dogs = realm.objects(Dog.self)                 // Results<Dog>
/// let people = realm.objects(PersonProjection.self)  // Results<PersonProjection>
/// ```
public protocol RealmFetchable: RealmCollectionValue {
    /// The stored class whose objects the results select.
    static var _rqlObjectType: ObjectBase.Type { get }
    /// The element for a managed object of `_rqlObjectType`.
    static func _rqlMake(_ object: ObjectBase) -> Self
}

extension ObjectBase: RealmFetchable {
    public class var _rqlObjectType: ObjectBase.Type { self }

    public class func _rqlMake(_ object: ObjectBase) -> Self {
        // The object was made from this class's info, so it is an instance of `Self`.
        unsafeDowncast(object, to: self)
    }
}
