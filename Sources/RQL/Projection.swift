import Foundation
import RQLCore
@_spi(Reflection) import Swift

/// A read (and, through writable key paths, write) view of an object that exposes some of its
/// properties, possibly renamed, reached through links, or mapped over a collection.
///
/// ```swift
/// class PersonProjection: Projection<Person> {
///     @Projected(\Person.firstName) var firstName
///     @Projected(\Person.address?.city) var homeCity
///     @Projected(\Person.friends.projectTo.firstName) var friendsFirstNames: ProjectedCollection<String>
/// }
/// let projection = PersonProjection(projecting: person)
/// projection.homeCity   // person.address?.city
/// ```
open class Projection<Root: ObjectBase>: Hashable, CustomStringConvertible {
    /// The object projected.
    ///
    /// ```swift
    /// PersonProjection(projecting: person).rootObject === person  // true
    /// ```
    public let rootObject: Root

    /// A projection of `object` (managed or not).
    ///
    /// ```swift
    /// let projection = PersonProjection(projecting: person)
    /// ```
    public required init(projecting object: Root) {
        rootObject = object
    }

    /// Whether the root object was deleted from its realm.
    ///
    /// ```swift
    /// try realm.write { realm.delete(person) }
    /// projection.isInvalidated  // true
    /// ```
    public var isInvalidated: Bool { rootObject.isInvalidated }
    /// Whether the root object is a frozen snapshot.
    ///
    /// ```swift
    /// projection.freeze().isFrozen  // true
    /// ```
    public var isFrozen: Bool { rootObject.isFrozen }

    /// Projections are equal when they project the same object.
    public static func == (lhs: Projection, rhs: Projection) -> Bool { lhs.rootObject == rhs.rootObject }
    public func hash(into hasher: inout Hasher) { hasher.combine(rootObject) }

    open var description: String {
        let name = String(describing: type(of: self))
        guard let info = try? ProjectionInfo.info(for: type(of: self)) else { return "\(name) {}" }
        let lines = info.properties.map { property in
            "\t\(property.name) = \(ObjectDescription.describe(value: property.read(self), depth: ObjectDescription.maximumDepth - 1));"
        }
        return "\(name) <\(rootObject)> {\n" + lines.joined(separator: "\n") + "\n}"
    }
}

/// Declares a property of a `Projection` as a key path from the root object; the property's
/// type is the key path's value type.
///
/// ```swift
/// @Projected(\Person.address?.city) var homeCity   // String?
/// ```
@propertyWrapper
public struct Projected<T: ObjectBase, Value> {
    /// The key path from the root object.
    ///
    /// ```swift
    /// _projectedHomeCity.projectedKeyPath == \Person.address?.city  // true
    /// ```
    public let projectedKeyPath: KeyPath<T, Value>

    /// The property projects `projectedKeyPath` of the root object.
    ///
    /// ```swift
    /// @Projected(\Person.friends.projectTo.firstName) var friendsFirstNames: ProjectedCollection<String>
    /// ```
    public init(_ projectedKeyPath: KeyPath<T, Value>) {
        self.projectedKeyPath = projectedKeyPath
    }

    /// Not available: access goes through the enclosing projection.
    @available(*, unavailable, message: "@Projected can only be used as a property on a Projection")
    public var wrappedValue: Value {
        get { fatalError("@Projected is accessed through its enclosing projection") }
        // swift-format-ignore
        set { fatalError("@Projected is accessed through its enclosing projection") }
    }

    /// Reads the key path from the root object; writes it when the key path is writable.
    public static subscript<EnclosingSelf: Projection<T>>(
        _enclosingInstance observed: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Projected>
    ) -> Value {
        get {
            observed.rootObject[keyPath: observed[keyPath: storageKeyPath].projectedKeyPath]
        }
        set {
            guard
                let writable = observed[keyPath: storageKeyPath].projectedKeyPath as? ReferenceWritableKeyPath<T, Value>
            else {
                realmStop(
                    "the projected key path \(observed[keyPath: storageKeyPath].projectedKeyPath) is read-only"
                )
            }
            observed.rootObject[keyPath: writable] = newValue
        }
    }
}

/// What projection discovery needs from a `Projected` field without its generic types.
protocol ProjectedField {
    static func keyPath(at field: UnsafeRawPointer) -> AnyKeyPath
    static var rootType: ObjectBase.Type { get }
}

extension Projected: ProjectedField {
    static func keyPath(at field: UnsafeRawPointer) -> AnyKeyPath {
        field.assumingMemoryBound(to: Projected.self).pointee.projectedKeyPath
    }
    static var rootType: ObjectBase.Type { T.self }
}

/// The properties of a projection class: each name with the root key path it projects, so that
/// queries and sorts on projections can be written in the root class's terms.
struct ProjectionInfo {
    struct Property {
        let name: String
        /// The root object's persisted property names along the key path.
        let rootPath: [String]
        let keyPath: AnyKeyPath

        func read(_ projection: AnyObject) -> Any {
            guard let projection = projection as? any ProjectionRootAccess else { return () }
            return projection.rootAny[keyPath: keyPath] as Any
        }
    }

    let properties: [Property]

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [ObjectIdentifier: ProjectionInfo] = [:]

    /// Discovers a projection class: its `@Projected` fields and where each one leads.
    static func info<P: AnyObject>(for type: P.Type) throws(SchemaDiscoveryError) -> ProjectionInfo {
        let id = ObjectIdentifier(type)
        if let cached = lock.withLock({ cache[id] }) { return cached }
        var fields: [(name: String, offset: Int, field: any ProjectedField.Type)] = []
        let listed = _forEachField(of: type, options: _EachFieldOptions(rawValue: 1 << 0)) {
            label,
            offset,
            fieldType,
            _ in
            if let field = fieldType as? any ProjectedField.Type {
                var name = String(cString: label)
                if name.hasPrefix("_") { name.removeFirst() }
                fields.append((name, offset, field))
            }
            return true
        }
        let className = String(describing: type)
        guard listed, let first = fields.first else { throw .noProperties(className: className) }
        guard let makeProjection = type as? any ProjectionPrototype.Type else {
            throw .unreflectable(className: className)
        }
        let prototype = makeProjection.prototype(root: first.field.rootType.init())
        let base = UnsafeRawPointer(Unmanaged.passUnretained(prototype).toOpaque())
        var properties: [Property] = []
        for (name, offset, field) in fields {
            let keyPath = withExtendedLifetime(prototype) { field.keyPath(at: base + offset) }
            guard let rootPath = KeyPathRecording.names(of: keyPath, on: field.rootType) else {
                throw .unsupportedType(
                    className: className,
                    property: name,
                    reason: "its key path does not read a persisted property of \(field.rootType.className())"
                )
            }
            properties.append(Property(name: name, rootPath: rootPath, keyPath: keyPath))
        }
        let info = ProjectionInfo(properties: properties)
        lock.withLock { cache[id] = info }
        return info
    }
}

/// Builds a projection of a root object without knowing the root type statically.
protocol ProjectionPrototype: AnyObject {
    static func prototype(root: ObjectBase) -> AnyObject
}

/// The root object of a projection, typed away.
protocol ProjectionRootAccess {
    var rootAny: ObjectBase { get }
}

extension Projection: ProjectionPrototype, ProjectionRootAccess {
    static func prototype(root: ObjectBase) -> AnyObject {
        // `root` is made from `Root` by discovery, so the cast holds.
        self.init(projecting: root as! Root)
    }

    var rootAny: ObjectBase { rootObject }
}

// A projection is what `realm.objects(PersonProjection.self)` returns elements of: the results
// select the root class's objects and wrap each one.
extension Projection: RealmFetchable {
    public typealias PersistedType = Root

    public static var _rqlObjectType: ObjectBase.Type { Root.self }

    public static func _rqlMake(_ object: ObjectBase) -> Self {
        // Results of a projection select objects of `Root`.
        self.init(projecting: object as! Root)
    }

    public static var _rqlSchemaType: _RQLSchemaType {
        _RQLSchemaType(.unsupported("a projection cannot be stored"), swiftName: "\(Self.self)")
    }

    public static func _rlmDefaultValue() -> Self {
        realmStop("a projection has no default value: it projects an object")
    }

    public static func _rqlConvert(_ value: Any) -> Self? { value as? Self }

    public static func _rqlRead(_ stored: RQLCore.Value, owner: ObjectBase) -> Self? {
        guard case .link(let link) = stored, let root = owner._rqlAccessor?.object(for: link) as? Root else {
            return nil
        }
        return self.init(projecting: root)
    }

    public static func _rqlRecordingValue(_ names: AnyObject) -> Self {
        realmStop("a projection cannot be read while recording a key path")
    }

    /// The root object's link.
    public func _rqlStore(_ writer: _RQLWriter) -> RQLCore.Value { rootObject._rqlStore(writer) }
}

extension Projection {
    /// The realm of the root object.
    ///
    /// ```swift
    /// projection.realm?.configuration.inMemoryIdentifier
    /// ```
    public var realm: Realm? { rootObject.realm }

    /// A projection of a frozen copy of the root object.
    ///
    /// ```swift
    /// let snapshot = projection.freeze()
    /// ```
    public func freeze() -> Self { Self(projecting: rootObject.freeze()) }

    /// A projection of the live root object of a frozen one, or nil if it was deleted.
    ///
    /// ```swift
    /// let live = projection.freeze().thaw()
    /// ```
    public func thaw() -> Self? { rootObject.thaw().map { Self(projecting: $0) } }
}
