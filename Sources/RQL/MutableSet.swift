import Foundation
import RQLCore
import RQLDSL
import RQLStorage

/// An unordered collection property of distinct values or objects.
///
/// ```swift
/// class Dog: Object { @Persisted var citiesVisited: MutableSet<String> }
/// let dog = Dog()
/// dog.citiesVisited.insert(objectsIn: ["New York", "Toronto", "New York"])
/// dog.citiesVisited.count                       // 2
/// dog.citiesVisited.isSubset(of: other.citiesVisited)
/// ```
public final class MutableSet<Element: RealmCollectionValue> {
    /// Unmanaged elements in insertion order (the order Realm Swift shows an unmanaged set in);
    /// a managed set reads its realm instead.
    private var elements: [Element] = []
    /// The unmanaged elements again, so that `insert` and `contains` find one in O(1).
    private var members: Set<Element> = []
    /// Members that were unmanaged objects when `members` hashed them. An object hashes by its
    /// identity until it is added to a realm, then by the stored object, so a managed object
    /// that `members` misses is compared with these one by one.
    private var unmanagedObjects: [ObjectBase] = []
    private var managed: ManagedCollectionStorage<Element>?

    /// An empty, unmanaged set.
    ///
    /// ```swift
    /// let tags = MutableSet<String>()
    /// ```
    public init() {}

    init(managed: ManagedCollectionStorage<Element>) {
        self.managed = managed
    }

    /// The managed object and property the set belongs to; nil while unmanaged.
    var managedOwner: (accessor: ObjectAccessor, ordinal: Int)? { managed.map { ($0.accessor, $0.ordinal) } }

    /// Whether the set belongs to an object that was deleted.
    ///
    /// ```swift
    /// try realm.write { realm.delete(rex) }
    /// rex.tags.isInvalidated  // true
    /// ```
    public var isInvalidated: Bool { managed?.accessor.isInvalidated ?? false }

    private var current: [Element] {
        guard let managed else { return elements }
        return managed.stored.map(managed.bridge)
    }

    /// The number of elements (`dog.citiesVisited.count`).
    ///
    /// ```swift
    /// rex.tags.count  // 2
    /// ```
    public var count: Int { managed?.count ?? elements.count }

    /// Whether the set holds `object`.
    ///
    /// ```swift
    /// rex.tags.contains("old")  // true
    /// ```
    public func contains(_ object: Element) -> Bool {
        guard let managed else { return holds(object) }
        // A stored set is ordered and free of duplicates: the element is looked up in place.
        if case .constant(let value)? = (object as? any _QueryValue)?._rqlQueryConstant,
            let found = managed.storedSetContains(value)
        {
            return found
        }
        return current.contains(object)
    }

    /// Whether every element is also in `possibleSuperset`.
    ///
    /// ```swift
    /// rex.tags.isSubset(of: fido.tags)
    /// ```
    public func isSubset(of possibleSuperset: MutableSet<Element>) -> Bool {
        current.allSatisfy { possibleSuperset.contains($0) }
    }

    /// Whether the sets share an element.
    ///
    /// ```swift
    /// rex.tags.intersects(fido.tags)
    /// ```
    public func intersects(_ otherSet: MutableSet<Element>) -> Bool {
        current.contains { otherSet.contains($0) }
    }

    /// Adds `object` unless it is already there.
    ///
    /// ```swift
    /// try realm.write { rex.tags.insert("loud") }
    /// ```
    public func insert(_ object: Element) {
        if let managed {
            managed.write(object) { (t, value, name, link) throws(WriteError) in
                try t.insert(value, intoSet: name, of: link)
            }
            return
        }
        guard !holds(object) else { return }
        elements.append(object)
        members.insert(object)
        if let added = Self.object(in: object), added._rqlAccessor == nil { unmanagedObjects.append(added) }
    }

    /// Adds every element of a sequence that is not already there.
    ///
    /// ```swift
    /// try realm.write { rex.tags.insert(objectsIn: ["loud", "old"]) }
    /// ```
    public func insert<S: Sequence>(objectsIn objects: S) where S.Element == Element {
        for object in objects { insert(object) }
    }

    /// Removes `object` if it is there (a removed object is not deleted).
    ///
    /// ```swift
    /// try realm.write { rex.tags.remove("old") }
    /// ```
    public func remove(_ object: Element) {
        if let managed {
            managed.write(object) { (t, value, name, link) throws(WriteError) in
                try t.remove(value, fromSet: name, of: link)
            }
            return
        }
        guard holds(object) else { return }
        elements.removeAll { $0 == object }
        if unmanagedObjects.isEmpty {
            members.remove(object)
        } else {
            // `members` may hold the object under the hash it had while unmanaged.
            adopt(elements)
        }
    }

    /// Removes every element.
    ///
    /// ```swift
    /// try realm.write { rex.tags.removeAll() }
    /// ```
    public func removeAll() {
        if let managed {
            managed.write(nil) { (t, _, name, link) throws(WriteError) in try t.removeAll(from: name, of: link) }
            return
        }
        adopt([])
    }

    /// Keeps only the elements also in `other`.
    ///
    /// ```swift
    /// try realm.write { rex.tags.formIntersection(fido.tags) }  // only the tags both have
    /// ```
    public func formIntersection(_ other: MutableSet<Element>) {
        for element in current where !other.contains(element) { remove(element) }
    }

    /// Adds the elements of `other`.
    ///
    /// ```swift
    /// try realm.write { rex.tags.formUnion(fido.tags) }  // every tag of either
    /// ```
    public func formUnion(_ other: MutableSet<Element>) {
        insert(objectsIn: other.current)
    }

    /// Whether the unmanaged set holds `element`.
    private func holds(_ element: Element) -> Bool {
        if members.contains(element) { return true }
        guard !unmanagedObjects.isEmpty, let object = Self.object(in: element), object._rqlAccessor != nil else {
            return false
        }
        return unmanagedObjects.contains { $0 == object }
    }

    /// The unmanaged set's elements become `distinct` (elements no two of which are equal).
    private func adopt(_ distinct: [Element]) {
        elements = distinct
        members = Set(distinct)
        unmanagedObjects = distinct.compactMap { Self.object(in: $0).flatMap { $0._rqlAccessor == nil ? $0 : nil } }
    }

    /// The object `element` is or holds, if any (asked only of element types that can hold one).
    private static func object(in element: Element) -> ObjectBase? {
        guard mayHoldObjects else { return nil }
        switch element {
        case let object as ObjectBase: return object
        case let mixed as AnyRealmValue:
            if case .object(let object) = mixed { return object }
            return nil
        default: return nil
        }
    }

    /// Whether the element type is an object type or a mixed value (a type check, cheaper than
    /// casting each scalar element).
    private static var mayHoldObjects: Bool { Element.self is ObjectBase.Type || Element.self == AnyRealmValue.self }

    /// Removes the elements that are in `other`.
    ///
    /// ```swift
    /// try realm.write { rex.tags.subtract(fido.tags) }  // Rex's tags Fido lacks
    /// ```
    public func subtract(_ other: MutableSet<Element>) {
        for element in other.current { remove(element) }
    }
}

extension MutableSet: RandomAccessCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The element at `position`; the order of a set's elements is not meaningful.
    public subscript(position: Int) -> Element {
        realmPrecondition(position >= 0 && position < count, "Index \(position) is out of bounds")
        // One element read in place: bridging the whole set for each made iterating it quadratic.
        guard let managed else { return elements[position] }
        return managed.bridge(managed.storedElement(at: position))
    }
}

extension MutableSet: CustomStringConvertible, DescribedCollection {
    /// The elements' descriptions, bounded as `Object.description` is (nesting depth, and the
    /// first 100 elements).
    public var description: String { describe(depth: ObjectDescription.maximumDepth) }

    func describe(depth: Int) -> String { describeElements("MutableSet<\(Element.self)>", depth: depth) }
}

extension MutableSet: _QueryCollection {}

extension MutableSet: _Persistable {
    public typealias PersistedType = MutableSet<Element>

    public static var _rqlSchemaType: _RQLSchemaType {
        var type = Element._rqlSchemaType.collected(.set, swiftName: "MutableSet<\(Element._rqlSchemaType.swiftName)>")
        if case .object(let objectType) = type.element, objectType._rqlIsEmbedded {
            type.element = .unsupported("a set cannot hold embedded objects ('\(type.swiftName)')")
        }
        return type
    }

    public static func _rlmDefaultValue() -> MutableSet<Element> { MutableSet() }

    public static func _rqlConvert(_ value: Any) -> MutableSet<Element>? {
        guard let elements = CollectionConversion.elements(of: value, as: Element.self) else { return nil }
        let set = MutableSet()
        set.insert(objectsIn: elements)
        return set
    }

    public static func _rqlRead(_ stored: RQLCore.Value, owner: ObjectBase) -> MutableSet<Element>? {
        guard let list = List<Element>._rqlRead(stored, owner: owner) else { return nil }
        let set = MutableSet()
        set.insert(objectsIn: list)
        return set
    }

    public static var _rqlIsLiveCollection: Bool { true }

    public static func _rqlLiveCollection(owner: ObjectBase, ordinal: Int) -> MutableSet<Element>? {
        guard let accessor = owner._rqlAccessor else { return nil }
        return MutableSet(managed: ManagedCollectionStorage(object: owner, accessor: accessor, ordinal: ordinal))
    }

    /// The stored set: each element's stored value (the store orders and deduplicates them).
    public func _rqlStore(_ writer: _RQLWriter) -> RQLCore.Value {
        .list(current.map { $0._rqlStore(writer) })
    }

    /// The set becomes the live view of `owner`'s stored set.
    public func _rqlPromote(owner: ObjectBase, ordinal: Int) -> Bool {
        guard let accessor = owner._rqlAccessor else { return false }
        managed = ManagedCollectionStorage(object: owner, accessor: accessor, ordinal: ordinal)
        adopt([])
        return true
    }

    public func _rqlUnmanagedCopy() -> MutableSet<Element> {
        let copy = MutableSet()
        copy.adopt(current)
        return copy
    }
}

extension MutableSet: Encodable where Element: Encodable {
    public func encode(to encoder: Encoder) throws {
        try encodeElements(to: encoder)
    }
}

extension MutableSet: Decodable where Element: Decodable {
    public convenience init(from decoder: Decoder) throws {
        self.init()
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd { insert(try container.decode(Element.self)) }
    }
}
