import RQLCore
import RQLStorage
import Synchronization

/// One consistent version of a realm's store as managed objects read it: a committed snapshot,
/// or a write transaction's uncommitted state. Immutable once made (every table is looked up
/// up front), so a frozen realm's objects may read it from any thread.
///
/// ```swift
/// let version = StoreVersion(store.snapshot)
/// let dogs = version.classIndex(named: "Dog")!
/// version.location(of: rex, inClass: dogs).map { version.value(at: $0, inClass: dogs, property: 1) }
/// ```
final class StoreVersion: @unchecked Sendable {
    // Unchecked: every field is set in `init` and never written again.
    let snapshot: BlockSnapshot
    private let tables: [BlockTable]
    /// Unique among every version made in the process, so that "is this still the version I
    /// read?" is an integer comparison (no reference to retain, no address to be reused).
    let serial: UInt64

    private static let counter = Atomic<UInt64>(0)

    init(_ snapshot: BlockSnapshot) {
        self.snapshot = snapshot
        tables = snapshot.schema.classes.indices.map { snapshot.table(at: $0) }
        serial = Self.counter.add(1, ordering: .relaxed).newValue
    }

    var schema: RQLCore.Schema { snapshot.schema }
    var version: UInt64 { snapshot.version }

    func classIndex(named className: String) -> Int? { snapshot.schema.classIndex(named: className) }

    /// The table of the class at `classIndex`; a class added after this version was made has none.
    @inline(__always)
    func table(_ classIndex: Int) -> BlockTable? {
        classIndex < tables.count ? tables[classIndex] : nil
    }

    /// The row of `key` in the class at `classIndex`, held directly.
    @inline(__always)
    func row(of key: RowKey, classIndex: Int) -> BlockRow? {
        classIndex < tables.count ? tables[classIndex].row(of: key) : nil
    }

    /// A cursor over the rows of the class at `classIndex`.
    func cursor(classIndex: Int) -> RowCursor? {
        classIndex < tables.count ? RowCursor(tables[classIndex]) : nil
    }

    func table(named className: String) -> BlockTable? {
        classIndex(named: className).flatMap(table)
    }

    // MARK: Objects by link (the general path)

    func contains(_ link: ObjectLink) -> Bool {
        table(named: link.className)?.location(of: link.key) != nil
    }

    /// Property `property` of the linked object, or nil when this version has no such object.
    func value(of link: ObjectLink, property: Int) -> RQLCore.Value? {
        guard let table = table(named: link.className), let location = table.location(of: link.key),
            property < table.objectSchema.properties.count
        else { return nil }
        return table.value(at: location, property: property)
    }

    /// The keys of every object of the class, in table order.
    func keys(of className: String) -> [RowKey] {
        table(named: className)?.allKeys ?? []
    }

    /// The object of the class whose primary key equals `key`.
    func key(of className: String, primaryKey key: RQLCore.Value) -> RowKey? {
        guard let table = table(named: className), let position = table.position(ofPrimaryKey: key) else { return nil }
        return table.rowKey(at: position)
    }

    /// The objects of `originClass` whose `originProperty` links to `link`, once per link.
    func backlinks(to link: ObjectLink, fromClass originClass: String, property originProperty: String) -> [RowKey] {
        guard let table = table(named: link.className), let position = table.position(of: link.key) else { return [] }
        return table.backlinks(at: position, fromClass: originClass, property: originProperty)
    }
}
