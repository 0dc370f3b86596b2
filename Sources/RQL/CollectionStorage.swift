import RQLCore
import RQLStorage

/// Where a `List`'s elements are: in the list while it is unmanaged, in the store once its
/// object is managed. `List` forwards every operation, so managed lists plug in without
/// changing it.
protocol ListStorage<Element>: AnyObject {
    associatedtype Element
    var count: Int { get }
    func element(at index: Int) -> Element
    func insert(_ element: Element, at index: Int)
    /// Adds `element` at the end (without reading the count first).
    func append(_ element: Element)
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
    func append(_ element: Element) { elements.append(element) }
    func replace(at index: Int, with element: Element) { elements[index] = element }
    func remove(at index: Int) { elements.remove(at: index) }
    func move(from source: Int, to destination: Int) { elements.insert(elements.remove(at: source), at: destination) }
    func removeAll() { elements.removeAll() }
    var owner: (accessor: ObjectAccessor, ordinal: Int)? { nil }
}

/// A managed object's collection property, read from its realm so that it is live. The stored
/// value (a `.list` for lists and sets, a `.map` for maps) is read once per version the realm
/// moves to and bridged to Swift one element at a time; mutations go through the realm's write
/// transaction.
final class ManagedCollectionStorage<Element: _Persistable> {
    /// The object the collection belongs to: weak, because the object caches the collection.
    weak var object: ObjectBase?
    let accessor: ObjectAccessor
    let ordinal: Int
    private var cachedVersion: StoreVersion?
    private var cached: RQLCore.Value = .null

    init(object: ObjectBase, accessor: ObjectAccessor, ordinal: Int) {
        self.object = object
        self.accessor = accessor
        self.ordinal = ordinal
        // A frozen collection may be read by several threads at once: its cache is filled now
        // and, its version never moving, never written again.
        if accessor.isFrozen { _ = storedValue }
    }

    var propertyName: String { accessor.classInfo.properties[ordinal].name }

    /// The stored collection in the realm's current version.
    var storedValue: RQLCore.Value {
        let version = accessor.context.current
        if version !== cachedVersion {
            cached = accessor.storedValue(ordinal)
            cachedVersion = version
        }
        return cached
    }

    /// The stored elements (for a map, its values in key order).
    var stored: [RQLCore.Value] {
        switch storedValue {
        case .list(let values): values
        case .map(let map): map.values
        default: []
        }
    }

    var storedKeys: [String] {
        if case .map(let map) = storedValue { return map.keys }
        return []
    }

    // Single reads go to the object's row in place: a loop that reads the count or one element
    // between writes must not decode the whole collection each time (each write is a new version).

    /// The number of elements (a map's entries).
    var count: Int {
        if accessor.classInfo.isBacklink[ordinal] { return stored.count }
        if let count = staging?.stagedElementCount(table: accessor.classIndex, key: objectKey, property: ordinal) {
            return count
        }
        guard let row = accessor.currentRow() else { accessor.invalidated() }
        return row.elementCount(ordinal)
    }

    /// Element `index` (a map's values in key order).
    func storedElement(at index: Int) -> RQLCore.Value {
        if accessor.classInfo.isBacklink[ordinal] { return stored[index] }
        guard let row = accessor.currentRow() else { accessor.invalidated() }
        return row.element(ordinal, at: index)
    }

    /// The value stored under map key `key`, or nil.
    func storedValue(forKey key: String) -> RQLCore.Value? {
        let table = accessor.classIndex
        if let value = staging?.stagedMapValue(forKey: key, table: table, key: objectKey, property: ordinal) {
            return value
        }
        guard let row = accessor.currentRow() else { accessor.invalidated() }
        return row.mapIndex(ordinal, of: key).map { row.element(ordinal, at: $0) }
    }

    /// Whether the stored set holds `value`, looked up in place among the row's elements (a set
    /// is stored ordered by `ValueOrdering`, without duplicates); nil when only the whole set
    /// answers (linking objects, or elements a write staged and has not merged).
    func storedSetContains(_ value: RQLCore.Value) -> Bool? {
        if accessor.classInfo.isBacklink[ordinal] { return nil }
        if staging?.stagedElementCount(table: accessor.classIndex, key: objectKey, property: ordinal) != nil {
            return nil
        }
        guard let row = accessor.currentRow() else { accessor.invalidated() }
        return row.setIndex(ordinal, of: value) != nil
    }

    /// Inside a write, its transaction, which answers reads of a collection whose new elements it
    /// stages without merging them (reading through the realm's current version would merge
    /// them first, and a fill that reads between inserts would merge after each one).
    private var staging: WriteTransaction? {
        let context = accessor.context
        context.verifyThread()
        guard let session = context.session, !accessor.isDetached else { return nil }
        return session.transaction
    }

    private var objectKey: Int64 { accessor.key.rawValue }

    func bridge(_ value: RQLCore.Value) -> Element {
        guard let owner = object ?? accessor.object(for: accessor.link),
            let element = Element._rqlRead(value, owner: owner)
        else {
            realmStop(
                "\(accessor.classInfo.className).\(propertyName) holds \(value.kind), not \(Element.self)"
            )
        }
        return element
    }

    /// Where a written element ends up in the stored collection.
    enum Placement {
        /// Nowhere to look (a removal, or a set).
        case none
        /// At this position of a list.
        case listIndex(Int)
        /// At the end of a list.
        case lastListElement
        /// Under this key of a map.
        case mapKey(String)

        /// The element at this place of the collection now (read in place, not decoded whole).
        func element(of storage: ManagedCollectionStorage) -> RQLCore.Value? {
            switch self {
            case .none: return nil
            case .listIndex(let index): return index < storage.count ? storage.storedElement(at: index) : nil
            case .lastListElement:
                let count = storage.count
                return count > 0 ? storage.storedElement(at: count - 1) : nil
            case .mapKey(let key): return storage.storedValue(forKey: key)
            }
        }
    }

    /// Stores `element` and runs `body` with the stored value in the realm's write transaction
    /// (the program stops outside one, as in Realm Swift; a broken constraint is recorded).
    /// Embedded objects in `element` are bound to the rows created for them, found at `placement`.
    func write(
        _ element: Element?,
        at placement: Placement = .none,
        _ body: (WriteTransaction, RQLCore.Value, String, ObjectLink) throws(WriteError) -> Void
    ) {
        guard let session = accessor.context.writableSession() else { return }
        let writer = _RQLWriter(context: accessor.context, session: session, update: .error)
        // Asked of the transaction, not of a version: a version made between two writes shares
        // the transaction's blocks, so that the next write would have to copy what it changes.
        // Elements that are no objects add nothing to the realm: the operation itself finds the
        // object's row, and fails with the same error code when it is gone.
        guard !accessor.isDetached, !mayHoldObjects || session.contains(accessor.link) else {
            writer.fail(.invalidObject, "Object has been deleted or invalidated: \(accessor.link)")
            return
        }
        let value = element.map { $0._rqlStore(writer) } ?? .null
        guard !session.hasFailed else { return }
        let name = propertyName
        let link = accessor.link
        session.perform { (transaction) throws(WriteError) in try body(transaction, value, name, link) }
        if let element, mayHoldObjects, Self.isEmbeddedObject(element), let child = placement.element(of: self) {
            writer.bindEmbedded(element, to: child)
        }
        writer.finish()
    }

    /// Whether the property's elements can be objects (links or mixed values). Asked before
    /// `isEmbeddedObject`, whose dynamic cast of a scalar element (an `Int` bridged through
    /// `NSNumber`) cost a list of numbers more than the write itself.
    private var mayHoldObjects: Bool {
        let property = accessor.classInfo.properties[ordinal]
        return property.target != nil || property.core.type == .mixed
    }

    /// Whether `element` is an embedded object, which the write gave a row to bind it to.
    private static func isEmbeddedObject(_ element: Element) -> Bool {
        guard let object = ObjectBase.unwrapped(element) as? ObjectBase else { return false }
        return type(of: object)._rqlIsEmbedded
    }
}

final class ManagedListStorage<Element: _Persistable>: ListStorage {
    let managed: ManagedCollectionStorage<Element>

    init(_ managed: ManagedCollectionStorage<Element>) {
        self.managed = managed
    }

    var count: Int { managed.count }
    func element(at index: Int) -> Element { managed.bridge(managed.storedElement(at: index)) }

    func append(_ element: Element) {
        managed.write(element, at: .lastListElement) { (t, value, name, link) throws(WriteError) in
            try t.append(value, to: name, of: link)
        }
    }

    func insert(_ element: Element, at index: Int) {
        managed.write(element, at: .listIndex(index)) { (t, value, name, link) throws(WriteError) in
            try t.insert(value, at: index, into: name, of: link)
        }
    }

    func replace(at index: Int, with element: Element) {
        managed.write(element, at: .listIndex(index)) { (t, value, name, link) throws(WriteError) in
            try t.replace(at: index, with: value, in: name, of: link)
        }
    }

    func remove(at index: Int) {
        managed.write(nil) { (t, _, name, link) throws(WriteError) in try t.remove(at: index, from: name, of: link) }
    }

    func move(from source: Int, to destination: Int) {
        managed.write(nil) { (t, _, name, link) throws(WriteError) in
            try t.move(from: source, to: destination, in: name, of: link)
        }
    }

    func removeAll() {
        managed.write(nil) { (t, _, name, link) throws(WriteError) in try t.removeAll(from: name, of: link) }
    }

    var owner: (accessor: ObjectAccessor, ordinal: Int)? { (managed.accessor, managed.ordinal) }
}
