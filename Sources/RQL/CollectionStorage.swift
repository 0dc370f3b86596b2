import RQLCore

/// Where a `List`'s elements are: in the list while it is unmanaged, in the store once its
/// object is managed. `List` forwards every operation, so managed lists plug in without
/// changing it.
protocol ListStorage<Element>: AnyObject {
    associatedtype Element
    var count: Int { get }
    func element(at index: Int) -> Element
    func insert(_ element: Element, at index: Int)
    func replace(at index: Int, with element: Element)
    func remove(at index: Int)
    func move(from source: Int, to destination: Int)
    func removeAll()
    /// The managed object and property the elements belong to; nil while unmanaged.
    var owner: (accessor: ObjectAccessor, ordinal: Int)? { get }
}

/// An unmanaged list's own elements.
final class UnmanagedListStorage<Element>: ListStorage {
    var elements: [Element]

    init(_ elements: [Element] = []) {
        self.elements = elements
    }

    var count: Int { elements.count }
    func element(at index: Int) -> Element { elements[index] }
    func insert(_ element: Element, at index: Int) { elements.insert(element, at: index) }
    func replace(at index: Int, with element: Element) { elements[index] = element }
    func remove(at index: Int) { elements.remove(at: index) }
    func move(from source: Int, to destination: Int) { elements.insert(elements.remove(at: source), at: destination) }
    func removeAll() { elements.removeAll() }
    var owner: (accessor: ObjectAccessor, ordinal: Int)? { nil }
}

/// A managed object's collection property, read from its realm each time so that it is live.
/// Elements are the stored values of the property (a `.list` for lists and sets, a `.map` for
/// maps) bridged to Swift one at a time; mutations go through the realm's write transaction.
final class ManagedCollectionStorage<Element: _Persistable> {
    /// The object the collection belongs to: weak, because the object caches the collection.
    weak var object: ObjectBase?
    let accessor: ObjectAccessor
    let ordinal: Int

    init(object: ObjectBase, accessor: ObjectAccessor, ordinal: Int) {
        self.object = object
        self.accessor = accessor
        self.ordinal = ordinal
    }

    /// The stored elements (for a map, its values in key order).
    var stored: [RQLCore.Value] {
        switch accessor.storedValue(ordinal) {
        case .list(let values): values
        case .map(let map): map.values
        default: []
        }
    }

    var storedKeys: [String] {
        if case .map(let map) = accessor.storedValue(ordinal) { return map.keys }
        return []
    }

    func bridge(_ value: RQLCore.Value) -> Element {
        guard let owner = object ?? accessor.object(for: accessor.link),
            let element = Element._rqlRead(value, owner: owner)
        else {
            preconditionFailure(
                "\(accessor.classInfo.className).\(accessor.classInfo.properties[ordinal].name) holds \(value.kind), not \(Element.self)"
            )
        }
        return element
    }

    /// Writes arrive with write transactions (phase B of the object model).
    func mutate() -> Never {
        guard accessor.context.transaction != nil else {
            preconditionFailure(
                "Attempting to modify a collection outside of a write transaction - call beginWrite on a Realm instance first"
            )
        }
        preconditionFailure("writing managed collections is not available yet")
    }
}

final class ManagedListStorage<Element: _Persistable>: ListStorage {
    let managed: ManagedCollectionStorage<Element>

    init(_ managed: ManagedCollectionStorage<Element>) {
        self.managed = managed
    }

    var count: Int { managed.stored.count }
    func element(at index: Int) -> Element { managed.bridge(managed.stored[index]) }
    func insert(_ element: Element, at index: Int) { managed.mutate() }
    func replace(at index: Int, with element: Element) { managed.mutate() }
    func remove(at index: Int) { managed.mutate() }
    func move(from source: Int, to destination: Int) { managed.mutate() }
    func removeAll() { managed.mutate() }
    var owner: (accessor: ObjectAccessor, ordinal: Int)? { (managed.accessor, managed.ordinal) }
}
