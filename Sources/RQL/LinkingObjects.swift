import Foundation
import RQLCore
import RQLDSL

/// What `@Persisted(originProperty:)` needs from its property type (`LinkingObjects`).
///
/// ```swift
/// LinkingObjects<DogClub>(propertyName: "members").propertyName  // "members"
/// ```
public protocol LinkingObjectsProtocol {
    init(propertyName: String)
    /// The name of the link property on the origin class.
    var propertyName: String { get }
}

/// The objects of `Element` whose `propertyName` (a to-one link or a list of links) points at
/// the object this property belongs to: the inverse of a relationship, computed, read-only.
///
/// ```swift
/// class Person: Object {
///     @Persisted(originProperty: "members") var clubs: LinkingObjects<DogClub>
/// }
/// person.clubs.count   // the clubs whose `members` list holds the person
/// ```
///
/// An unmanaged object's linking objects are always empty.
public struct LinkingObjects<Element: ObjectBase & RealmCollectionValue>: LinkingObjectsProtocol {
    /// The name of the link property on `Element` that points here.
    ///
    /// ```swift
    /// dog.owners.propertyName  // "dogs"
    /// ```
    public let propertyName: String
    private let owner: ObjectAccessor?
    /// The linking objects at the version they were last read at.
    let state = LinkingObjectsState<Element>()

    /// The objects of `Element` whose `propertyName` links here (what `@Persisted(originProperty:)`
    /// declares).
    ///
    /// ```swift
    /// @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
    /// ```
    public init(propertyName: String) {
        self.propertyName = propertyName
        self.owner = nil
    }

    /// The legacy declaration form: `LinkingObjects(fromType: Person.self, property: "dogs")`.
    ///
    /// ```swift
    /// let owners = LinkingObjects(fromType: Person.self, property: "dogs")
    /// ```
    public init(fromType _: Element.Type, property propertyName: String) {
        self.init(propertyName: propertyName)
    }

    init(propertyName: String, owner: ObjectAccessor) {
        self.propertyName = propertyName
        self.owner = owner
        // Frozen linking objects may be read by several threads at once: as frozen `Results`,
        // they read now, and their version never moving, their state is never written again.
        if owner.isFrozen { _ = current }
    }

    /// The linking objects in the realm's current version, read again only when it moved (a
    /// write, a refresh): `count` and the subscript share one read, so iterating by index is
    /// linear.
    private var current: [Element] {
        guard let owner, let originInfo = try? ClassInfo.info(for: Element.self) else { return [] }
        let version = owner.context.current
        if state.version === version { return state.elements }
        state.elements = version.backlinks(to: owner.link, fromClass: originInfo.className, property: propertyName)
            .compactMap { key in
                let link = ObjectLink(className: originInfo.className, key: key)
                return owner.object(for: link) as? Element
                    ?? owner.context.object(for: link, declaredAs: Element.self) as? Element
            }
        state.version = version
        state.reads += 1
        return state.elements
    }

    /// The object whose backlinks these are; nil while unmanaged.
    var managedOwner: ObjectAccessor? { owner }

    /// The linking objects as a frozen copy of the realm sees them (never changes).
    ///
    /// ```swift
    /// let owners = rex.owners.freeze()
    /// ```
    public func freeze() -> LinkingObjects<Element> {
        guard let owner else { realmStop("Unmanaged linking objects cannot be frozen") }
        if owner.isFrozen { return self }
        guard let frozen = CollectionOwner.frozen(owner)._rqlAccessor else { return self }
        return LinkingObjects(propertyName: propertyName, owner: frozen)
    }

    /// The live linking objects of frozen ones, or nil when their object was deleted since.
    ///
    /// ```swift
    /// let live = rex.owners.freeze().thaw()
    /// ```
    public func thaw() -> LinkingObjects<Element>? {
        guard let owner else { realmStop("Unmanaged linking objects cannot be thawed") }
        guard owner.isFrozen else { return self }
        return CollectionOwner.live(owner)?._rqlAccessor.map { LinkingObjects(propertyName: propertyName, owner: $0) }
    }

    /// Whether the object whose backlinks these are was deleted.
    ///
    /// ```swift
    /// try realm.write { realm.delete(rex) }
    /// rex.owners.isInvalidated  // true
    /// ```
    public var isInvalidated: Bool { owner?.isInvalidated ?? false }
}

extension LinkingObjects: RandomAccessCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { current.count }

    public subscript(position: Int) -> Element {
        let elements = current
        realmPrecondition(position >= 0 && position < elements.count, "Index \(position) is out of bounds")
        return elements[position]
    }
}

extension LinkingObjects: CustomStringConvertible, DescribedCollection {
    /// The linking objects' descriptions, bounded as `Object.description` is (nesting depth,
    /// and the first 100 objects).
    public var description: String { describe(depth: ObjectDescription.maximumDepth) }

    func describe(depth: Int) -> String { describeElements("LinkingObjects<\(Element.className())>", depth: depth) }
}

extension LinkingObjects: _QueryCollection {}

extension LinkingObjects: _Persistable {
    public typealias PersistedType = LinkingObjects<Element>

    public static var _rqlSchemaType: _RQLSchemaType {
        _RQLSchemaType(.object(Element.self), isBacklink: true, swiftName: "LinkingObjects<\(Element.className())>")
    }

    /// Never used: the declaration gives the origin property (`@Persisted(originProperty:)`).
    public static func _rlmDefaultValue() -> LinkingObjects<Element> { LinkingObjects(propertyName: "") }

    public static func _rqlConvert(_ value: Any) -> LinkingObjects<Element>? { value as? LinkingObjects<Element> }

    public static func _rqlRead(_ stored: RQLCore.Value, owner: ObjectBase) -> LinkingObjects<Element>? { nil }

    /// Never stored: linking objects are computed.
    public func _rqlStore(_ writer: _RQLWriter) -> RQLCore.Value { .null }

    public static var _rqlIsLiveCollection: Bool { true }

    public static func _rqlLiveCollection(owner: ObjectBase, ordinal: Int) -> LinkingObjects<Element>? {
        guard let accessor = owner._rqlAccessor,
            case .linkingObjects(_, let property) = accessor.classInfo.properties[ordinal].core.type
        else { return nil }
        return LinkingObjects(propertyName: property, owner: accessor)
    }
}

/// What a `LinkingObjects` read last (a class, so that copies of the value share it).
final class LinkingObjectsState<Element> {
    /// The version `elements` were read at (held, so it cannot be another version at the same
    /// address).
    var version: StoreVersion?
    var elements: [Element] = []
    /// How many times the backlinks were read.
    var reads = 0
}
