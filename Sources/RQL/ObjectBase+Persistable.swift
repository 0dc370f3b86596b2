import Foundation
import RQLCore
import RQLDSL

// An object type is a link type: `@Persisted var toy: DogToy?`, `List<DogToy>`, `Map<String, DogToy?>`.
extension ObjectBase: _PersistableInsideOptional, _RealmCollectionValueInsideOptional, _HasPersistedType {
    public typealias PersistedType = ObjectBase

    public class var _rqlSchemaType: _RQLSchemaType {
        _RQLSchemaType(.object(self), swiftName: className())
    }

    /// A new unmanaged object (what a non-optional link would start as; schema validation
    /// rejects those).
    public class func _rlmDefaultValue() -> Self { self.init() }

    /// The object itself, or a new unmanaged one from a dictionary or array of property values.
    public class func _rqlConvert(_ value: Any) -> Self? {
        if let object = value as? Self { return object }
        guard value is [String: Any] || value is [Any] else { return nil }
        let object = self.init()
        do {
            try object._rqlAssign(from: value)
        } catch {
            return nil
        }
        return object
    }

    /// The linked object, bound to the owner's realm (a `DynamicObject` when read as one).
    public class func _rqlRead(_ stored: RQLCore.Value, owner: ObjectBase) -> Self? {
        guard case .link(let link) = stored else { return nil }
        guard let context = owner._rqlAccessor?.context else { return nil }
        if self == DynamicObject.self { return context.dynamicObject(for: link) as? Self }
        if let object = context.object(for: link) as? Self { return object }
        return context.object(for: link, declaredAs: self) as? Self
    }

    /// A link to the object (added to the realm first when unmanaged), or an embedded object's
    /// values.
    public func _rqlStore(_ writer: _RQLWriter) -> RQLCore.Value { writer.store(self) }

    /// While recording a key path, a link leads to the target class's prototype.
    public class func _rqlRecordingValue(_ names: AnyObject) -> Self {
        KeyPathRecording.prototype(of: self, recordingInto: names) as? Self ?? self.init()
    }
}

extension _Persistable {
    /// While recording a key path, a plain value ends the path.
    public static func _rqlRecordingValue(_ names: AnyObject) -> Self { _rlmDefaultValue() }
}

extension Optional where Wrapped: _PersistableInsideOptional {
    /// An optional link records through to its target; any other optional ends the path.
    public static func _rqlRecordingValue(_ names: AnyObject) -> Wrapped? {
        Wrapped.self is ObjectBase.Type ? Wrapped._rqlRecordingValue(names) : nil
    }
}
