import Foundation
import RQLCore
import RQLDSL

/// An ordered collection property (duplicates allowed) of values or objects. Unmanaged, a list
/// holds its elements itself; on a managed object it is a live view of the stored list.
///
/// ```swift
/// class Person: Object {
///     @Persisted var dogs: List<Dog>
///     @Persisted var nicknames: List<String>
/// }
/// let person = Person()
/// person.dogs.append(Dog(value: ["name": "Rex"]))
/// person.nicknames.append(objectsIn: ["Jo", "Jojo"])
/// person.nicknames.move(from: 1, to: 0)
/// ```
public final class List<Element: RealmCollectionValue> {
    var storage: any ListStorage<Element>
    /// On the key-path recording prototype, the element prototype that `projectTo` records through.
    var recordingElement: Element?

    /// An empty, unmanaged list.
    ///
    /// ```swift
    /// let names = List<String>()  // fill it, then set it on an object or add the object
    /// ```
    public init() {
        storage = UnmanagedListStorage()
    }

    init(storage: any ListStorage<Element>) {
        self.storage = storage
    }

    /// Whether the list belongs to an object that was deleted.
    ///
    /// ```swift
    /// try realm.write { realm.delete(ann) }
    /// ann.dogs.isInvalidated  // true
    /// ```
    public var isInvalidated: Bool { storage.owner?.accessor.isInvalidated ?? false }

    // MARK: Reading

    /// The number of elements (`person.dogs.count`).
    ///
    /// ```swift
    /// ann.dogs.count  // 2
    /// ```
    public var count: Int { storage.count }

    /// The position of the first element equal to `object`.
    ///
    /// ```swift
    /// ann.dogs.index(of: rex)  // 0
    /// ```
    public func index(of object: Element) -> Int? {
        (0..<count).first { storage.element(at: $0) == object }
    }

    // MARK: Mutation

    /// Appends an element (an unmanaged object appended to a managed list is added to the realm).
    ///
    /// ```swift
    /// try realm.write { ann.dogs.append(rex) }
    /// ```
    public func append(_ object: Element) {
        storage.append(object)
    }

    /// Appends every element of a sequence.
    ///
    /// ```swift
    /// try realm.write { ann.dogs.append(objectsIn: [rex, fido]) }
    /// ```
    public func append<S: Sequence>(objectsIn objects: S) where S.Element == Element {
        for object in objects { append(object) }
    }

    /// Inserts an element at `index` (`0...count`).
    ///
    /// ```swift
    /// try realm.write { ann.dogs.insert(spot, at: 0) }
    /// ```
    public func insert(_ object: Element, at index: Int) {
        realmPrecondition(
            index >= 0 && index <= count,
            "Index \(index) is out of bounds (must be within 0 and \(count))"
        )
        storage.insert(object, at: index)
    }

    /// Removes the element at `index` (a removed object is not deleted).
    ///
    /// ```swift
    /// try realm.write { ann.dogs.remove(at: 0) }  // the dog stays in the realm
    /// ```
    public func remove(at index: Int) {
        checkIndex(index)
        storage.remove(at: index)
    }

    /// Removes every element.
    ///
    /// ```swift
    /// try realm.write { ann.dogs.removeAll() }
    /// ```
    public func removeAll() {
        storage.removeAll()
    }

    /// Replaces the element at `index`.
    ///
    /// ```swift
    /// try realm.write { ann.dogs.replace(index: 0, object: spot) }
    /// ```
    public func replace(index: Int, object: Element) {
        checkIndex(index)
        storage.replace(at: index, with: object)
    }

    /// Moves the element at `from` to position `to`.
    ///
    /// ```swift
    /// try realm.write { ann.dogs.move(from: 0, to: 1) }
    /// ```
    public func move(from: Int, to: Int) {
        checkIndex(from)
        checkIndex(to)
        storage.move(from: from, to: to)
    }

    /// Swaps two elements.
    ///
    /// ```swift
    /// try realm.write { ann.dogs.swapAt(0, 1) }
    /// ```
    public func swapAt(_ index1: Int, _ index2: Int) {
        checkIndex(index1)
        checkIndex(index2)
        guard index1 != index2 else { return }
        let first = storage.element(at: index1)
        storage.replace(at: index1, with: storage.element(at: index2))
        storage.replace(at: index2, with: first)
    }

    /// Removes the first `number` elements.
    ///
    /// ```swift
    /// try realm.write { ann.dogs.removeFirst() }
    /// ```
    public func removeFirst(_ number: Int = 1) {
        realmPrecondition(number >= 0 && number <= count, "Cannot remove \(number) elements from a list of \(count)")
        for _ in 0..<number { storage.remove(at: 0) }
    }

    /// Removes the last `number` elements.
    ///
    /// ```swift
    /// try realm.write { ann.dogs.removeLast(2) }
    /// ```
    public func removeLast(_ number: Int = 1) {
        realmPrecondition(number >= 0 && number <= count, "Cannot remove \(number) elements from a list of \(count)")
        for _ in 0..<number { storage.remove(at: storage.count - 1) }
    }

    /// Inserts the elements of `newElements` at `i`.
    ///
    /// ```swift
    /// try realm.write { ann.dogs.insert(contentsOf: [rex, fido], at: 1) }
    /// ```
    public func insert<C: Collection>(contentsOf newElements: C, at i: Int) where C.Element == Element {
        realmPrecondition(i >= 0 && i <= count, "Index \(i) is out of bounds (must be within 0 and \(count))")
        for (offset, element) in newElements.enumerated() { storage.insert(element, at: i + offset) }
    }

    /// Removes the elements in `bounds`.
    ///
    /// ```swift
    /// try realm.write { ann.dogs.removeSubrange(1...2) }
    /// ```
    public func removeSubrange<R: RangeExpression>(_ bounds: R) where R.Bound == Int {
        let range = bounds.relative(to: 0..<count)
        realmPrecondition(range.lowerBound >= 0 && range.upperBound <= count, "Range \(range) is out of bounds")
        for _ in range { storage.remove(at: range.lowerBound) }
    }

    /// Removes the elements at the given positions.
    ///
    /// ```swift
    /// try realm.write { ann.dogs.remove(atOffsets: IndexSet([0, 2])) }
    /// ```
    public func remove(atOffsets offsets: IndexSet) {
        for index in offsets.reversed() { remove(at: index) }
    }

    /// Moves the elements at `offsets` to before `destination` (SwiftUI's `onMove`).
    ///
    /// ```swift
    /// try realm.write { ann.dogs.move(fromOffsets: IndexSet([0]), toOffset: 2) }
    /// ```
    public func move(fromOffsets offsets: IndexSet, toOffset destination: Int) {
        var elements = Array(self)
        let moving = offsets.map { elements[$0] }
        let before = offsets.filter { $0 < destination }.count
        for index in offsets.reversed() { elements.remove(at: index) }
        elements.insert(contentsOf: moving, at: destination - before)
        for (index, element) in elements.enumerated() where index < count {
            storage.replace(at: index, with: element)
        }
    }

    private func checkIndex(_ index: Int) {
        realmPrecondition(
            index >= 0 && index < count,
            "Index \(index) is out of bounds (must be within 0 and \(count - 1))"
        )
    }
}

extension List: RandomAccessCollection, MutableCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The element at `position`; setting replaces it.
    public subscript(position: Int) -> Element {
        get {
            checkBounds(position)
            return storage.element(at: position)
        }
        set {
            checkBounds(position)
            storage.replace(at: position, with: newValue)
        }
    }

    private func checkBounds(_ position: Int) {
        realmPrecondition(
            position >= 0 && position < count,
            "Index \(position) is out of bounds (must be within 0 and \(count - 1))"
        )
    }
}

extension List: RangeReplaceableCollection {
    /// Replaces the elements at `subrange` with `newElements` (inside a write for a managed list).
    ///
    /// ```swift
    /// try realm.write { person.dogs.replaceSubrange(0..<1, with: [spot, fido]) }
    /// ```
    public func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == Element {
        removeSubrange(subrange)
        insert(contentsOf: newElements, at: subrange.lowerBound)
    }
}

extension List: CustomStringConvertible, DescribedCollection {
    /// The elements' descriptions, bounded as `Object.description` is (nesting depth, and the
    /// first 100 elements).
    public var description: String { describe(depth: ObjectDescription.maximumDepth) }

    func describe(depth: Int) -> String { describeElements("List<\(Element.self)>", depth: depth) }
}

extension List: _QueryCollection {}

extension List: _Persistable {
    public typealias PersistedType = List<Element>

    public static var _rqlSchemaType: _RQLSchemaType {
        Element._rqlSchemaType.collected(.list, swiftName: "List<\(Element._rqlSchemaType.swiftName)>")
    }

    public static func _rlmDefaultValue() -> List<Element> { List() }

    /// A new unmanaged list from a list or an array of convertible elements.
    public static func _rqlConvert(_ value: Any) -> List<Element>? {
        guard let elements = CollectionConversion.elements(of: value, as: Element.self) else { return nil }
        let list = List()
        list.append(objectsIn: elements)
        return list
    }

    /// An unmanaged copy of stored elements.
    public static func _rqlRead(_ stored: RQLCore.Value, owner: ObjectBase) -> List<Element>? {
        guard case .list(let values) = stored else { return nil }
        var elements: [Element] = []
        for value in values {
            guard let element = Element._rqlRead(value, owner: owner) else { return nil }
            elements.append(element)
        }
        return List(storage: UnmanagedListStorage(elements))
    }

    /// While recording a key path, an empty list whose `projectTo` records through an element
    /// prototype.
    public static func _rqlRecordingValue(_ names: AnyObject) -> List<Element> {
        let list = List()
        if Element.self is ObjectBase.Type { list.recordingElement = Element._rqlRecordingValue(names) }
        return list
    }

    public static var _rqlIsLiveCollection: Bool { true }

    public static func _rqlLiveCollection(owner: ObjectBase, ordinal: Int) -> List<Element>? {
        guard let accessor = owner._rqlAccessor else { return nil }
        return List(
            storage: ManagedListStorage(ManagedCollectionStorage(object: owner, accessor: accessor, ordinal: ordinal))
        )
    }

    /// The stored list: each element's stored value.
    public func _rqlStore(_ writer: _RQLWriter) -> RQLCore.Value {
        .list(map { $0._rqlStore(writer) })
    }

    /// The list becomes the live view of `owner`'s stored list.
    public func _rqlPromote(owner: ObjectBase, ordinal: Int) -> Bool {
        guard let accessor = owner._rqlAccessor else { return false }
        storage = ManagedListStorage(ManagedCollectionStorage(object: owner, accessor: accessor, ordinal: ordinal))
        return true
    }

    public func _rqlUnmanagedCopy() -> List<Element> {
        List(storage: UnmanagedListStorage(Array(self)))
    }
}

extension List: _RQLEmbeddedElements {
    var _rqlElements: [Any] { map { $0 } }
    var _rqlKeyedElements: [(String, Any)] { [] }
}

extension List: Encodable where Element: Encodable {
    public func encode(to encoder: Encoder) throws {
        try encodeElements(to: encoder)
    }
}

extension List: Decodable where Element: Decodable {
    public convenience init(from decoder: Decoder) throws {
        self.init()
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd { append(try container.decode(Element.self)) }
    }
}

/// Reading collection contents out of `Any` for `Object(value:)`.
enum CollectionConversion {
    /// The elements of an array, a `List`, a `MutableSet` or any sequence, each converted.
    static func elements<Element: _Persistable>(of value: Any, as type: Element.Type) -> [Element]? {
        let items: [Any]
        switch value {
        case is String, is [String: Any]: return nil
        case let array as [Any]: items = array
        case let sequence as any Sequence: items = sequence.map { $0 as Any }
        default: return nil
        }
        var elements: [Element] = []
        for item in items {
            guard let element = Element._rqlConvert(item) else { return nil }
            elements.append(element)
        }
        return elements
    }
}
