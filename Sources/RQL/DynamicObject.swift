import Foundation
import RQLCore
import RQLStorage

/// An object of a stored class read without its Swift declaration: every property is reached by
/// name, as `realm.dynamicObjects(_:)`, `dynamicCreate` and migrations give them.
///
/// ```swift
/// let dog = realm.dynamicObjects("Dog").filter("age > 2").first!
/// dog["name"] as? String          // "Rex"
/// dog.age as? Int                 // 10 (dynamic member lookup)
/// try realm.write { dog["age"] = 11 }
/// let toys = dog.dynamicList("toys")   // List<DynamicObject>
/// ```
///
/// Reading a property gives its Swift value (`Int`, `String?`, `List<String>`, a `DynamicObject`
/// for a link, `List<DynamicObject>` for a list of links); setting one takes the values
/// `Object(value:)` accepts, and for a link an object of the realm (dynamic or declared), nil,
/// or a dictionary of the linked object's values (a new object, or the embedded object's values).
/// Reading or setting a name the class does not have stops the program, as in Realm Swift.
@dynamicMemberLookup
public final class DynamicObject: Object {
    public required init() {
        super.init()
    }

    /// The property named `member` (the same as `self[member]`); a name the class lacks
    /// stops the program.
    public subscript(dynamicMember member: String) -> Any? {
        get {
            let info = _rqlClassInfo
            guard info.propertyIndex(named: member) != nil else {
                realmStop("Invalid property name '\(member)' for class '\(info.className)'")
            }
            return self[member]
        }
        set { self[member] = newValue }
    }

    /// Sets the property named `key` (inside a write transaction): see the type's documentation
    /// for the values it takes. `ObjectBase.setValue(_:forKey:)` and `self[key] = value` come here.
    func _rqlSetDynamic(_ value: Any?, forKey key: String) {
        guard let accessor = _rqlAccessor else { realmStop("An unmanaged DynamicObject has no properties") }
        let info = accessor.classInfo
        guard let ordinal = info.propertyIndex(named: key), !info.isBacklink[ordinal] else {
            realmStop("Invalid property name '\(key)' for class '\(info.className)'")
        }
        guard let session = accessor.context.writableSession() else { return }
        // Checked on the transaction itself, not through a version it would keep: a write
        // after that would copy the object's block.
        guard session.contains(accessor.link) else {
            session.fail(Realm.Error(.invalidObject, "Object has been deleted or invalidated: \(accessor.link)"))
            return
        }
        let writer = _RQLWriter(context: accessor.context, session: session, update: .error)
        defer { writer.finish() }
        let property = info.properties[ordinal]
        guard let stored = writer.dynamicValue(value ?? NSNull(), for: property.core) else {
            realmStop(
                "Invalid value '\(value.map { "\($0)" } ?? "nil")' of type '\(value.map { "\(type(of: $0))" } ?? "nil")' "
                    + "for '\(info.className).\(key)' of type '\(property.core.typeSyntax)'"
            )
        }
        session.perform { (t) throws(WriteError) in try t.set(key, of: accessor.link, to: stored) }
    }
}

extension ObjectBase {
    /// The list property `propertyName` with its objects as `DynamicObject`s.
    ///
    /// ```swift
    /// let toys = person.dynamicList("toys")
    /// ```
    public func dynamicList(_ propertyName: String) -> List<DynamicObject> {
        let (owner, ordinal) = _rqlDynamicCollection(propertyName, .list)
        guard let list = List<DynamicObject>._rqlLiveCollection(owner: owner, ordinal: ordinal) else {
            realmStop("'\(propertyName)' is not a managed list")
        }
        return list
    }

    /// The set property `propertyName` with its objects as `DynamicObject`s.
    ///
    /// ```swift
    /// let friends = person.dynamicMutableSet("friends")
    /// ```
    public func dynamicMutableSet(_ propertyName: String) -> MutableSet<DynamicObject> {
        let (owner, ordinal) = _rqlDynamicCollection(propertyName, .set)
        guard let set = MutableSet<DynamicObject>._rqlLiveCollection(owner: owner, ordinal: ordinal) else {
            realmStop("'\(propertyName)' is not a managed set")
        }
        return set
    }

    /// The map property `propertyName` with its objects as `DynamicObject`s.
    ///
    /// ```swift
    /// let pets = person.dynamicMap("pets") as Map<String, DynamicObject?>
    /// ```
    public func dynamicMap<Key: _MapKey>(_ propertyName: String) -> Map<Key, DynamicObject?> {
        let (owner, ordinal) = _rqlDynamicCollection(propertyName, .map)
        guard let map = Map<Key, DynamicObject?>._rqlLiveCollection(owner: owner, ordinal: ordinal) else {
            realmStop("'\(propertyName)' is not a managed map")
        }
        return map
    }

    /// The owner and ordinal of a managed collection-of-objects property.
    private func _rqlDynamicCollection(_ propertyName: String, _ kind: CollectionKind) -> (ObjectBase, Int) {
        guard let accessor = _rqlAccessor else {
            realmStop("Dynamic collections are available on managed objects only")
        }
        let info = accessor.classInfo
        guard let ordinal = info.propertyIndex(named: propertyName) else {
            realmStop("Invalid property name '\(propertyName)' for class '\(info.className)'")
        }
        let core = info.properties[ordinal].core
        guard core.collection == kind, core.type.targetClassName != nil, !core.isBacklink else {
            realmStop(
                "Property '\(info.className).\(propertyName)' is not a \(kind) of objects ('\(core.typeSyntax)')"
            )
        }
        return (self, ordinal)
    }
}

extension RealmContext {
    /// The object a link points at as a `DynamicObject`; nil when it does not exist.
    func dynamicObject(for link: ObjectLink) -> DynamicObject? {
        let version = current
        guard let classIndex = version.classIndex(named: link.className),
            let row = version.row(of: link.key, classIndex: classIndex)
        else { return nil }
        let info = ClassInfo.dynamic(version.schema.classes[classIndex])
        return info.makeManaged(context: self, key: link.key, classIndex: classIndex, version: version, row: row)
            as? DynamicObject
    }
}
