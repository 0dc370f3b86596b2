import RQLCore

/// The hash sets of the `IN` lists a run meets (`FilterValueIn`), each built the first time it
/// is needed. A list is known by its storage: a program's constants do not change while it runs,
/// so one list has one buffer for every batch, and the set built from it stays right for the
/// whole run (a new run builds its own).
final class MembershipSets {
    private var sets: [ListIdentity: Set<EqualityKey>] = [:]

    private struct ListIdentity: Hashable {
        let address: UnsafeRawPointer?
        let count: Int
    }

    /// The set of `values`.
    func set(of values: [Value]) -> Set<EqualityKey> {
        let identity = values.withUnsafeBufferPointer {
            ListIdentity(address: $0.baseAddress.map(UnsafeRawPointer.init), count: $0.count)
        }
        if let set = sets[identity] { return set }
        let set = Set(values.map(EqualityKey.init))
        sets[identity] = set
        return set
    }
}
