import Foundation
import RQLCore

/// A class whose store keeps its properties in another order than the program declares them.
/// realm-core matches properties by name, so reordering declarations needs no migration; here a
/// property's ordinal is its column, so such a store gets a copy of the class's info with the
/// properties in the store's order (and `declaredOrder` keeping the declaration's).
///
/// ```swift
/// // The store has Item(name, price); the program now declares price before name.
/// let info = try ClassInfo.info(for: Item.self)
/// let stored = info.matching(storedItemSchema)  // properties [name, price], declaredOrder [1, 0]
/// ```
extension ClassInfo {
    /// This class as `stored` keeps it: itself when they agree, a copy in the stored order when
    /// they differ only in the order of properties, nil when they differ otherwise.
    func matching(_ stored: RQLCore.ObjectSchema) -> ClassInfo? {
        if stored == objectSchema { return self }
        guard MigrationCheck.differsOnlyInOrder(stored: stored, declared: objectSchema) else { return nil }
        let order = stored.properties.map(\.name)
        let key = StoredOrderKey(type: ObjectIdentifier(type), order: order)
        return Self.storedOrderLock.withLock {
            if let existing = Self.storedOrders[key] { return existing }
            let copy = reordered(as: order)
            Self.storedOrders[key] = copy
            return copy
        }
    }

    private func reordered(as order: [String]) -> ClassInfo {
        // Both lists hold the same names (checked by the caller).
        let columns = order.map { propertyIndex(named: $0) ?? 0 }
        var columnOf = [Int](repeating: 0, count: columns.count)
        for (column, ordinal) in columns.enumerated() { columnOf[ordinal] = column }
        return ClassInfo(
            type: type,
            className: className,
            properties: columns.map { properties[$0] },
            primaryKey: primaryKey,
            // Key paths are recorded on the declared info's prototype and named by it, so the
            // copy shares it.
            prototype: prototype,
            declaredOrder: declaredOrder.map { columnOf[$0] }
        )
    }

    private struct StoredOrderKey: Hashable {
        let type: ObjectIdentifier
        let order: [String]
    }

    private static let storedOrderLock = NSLock()
    /// Copies live for the process, as declared infos do (objects hold them unretained).
    nonisolated(unsafe) private static var storedOrders: [StoredOrderKey: ClassInfo] = [:]
}
