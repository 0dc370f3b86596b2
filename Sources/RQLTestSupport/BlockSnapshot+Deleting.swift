import RQLCore
import RQLStorage

extension BlockSnapshot {
    /// A copy of this snapshot (in a new in-memory store) with the objects `keys` of a top-level
    /// class deleted as a write transaction deletes them (owned embedded objects with them, links
    /// to them cleared); the other objects keep their keys, so keys and positions differ after.
    ///
    /// ```swift
    /// let fewer = try store.deleting([RowKey(1)], from: "Dog")
    /// fewer.table(named: "Dog")?.position(of: RowKey(1))  // nil
    /// ```
    public func deleting(_ keys: [RowKey], from className: String) throws -> BlockSnapshot {
        let store = try BlockStore(importing: self)
        _ = try store.write { transaction in
            for key in keys { try transaction.delete(ObjectLink(className: className, key: key)) }
        }
        return store.snapshot
    }
}
