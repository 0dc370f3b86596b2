/// The hash sets of the `IN` lists one run of a query meets, each built the first time it is
/// needed: the reference evaluator's and the VM's (`FilterValueIn`). A list is known by its
/// storage: a query does not change while it runs, so one list has one buffer for every object,
/// and the set built from it stays right for the whole run (a new run builds its own).
///
///     let sets = MembershipSets()
///     sets.set(of: list).contains(EqualityKey(.int(2)))   // the set is built once per run
public final class MembershipSets {
    private var sets: [ListIdentity: Set<EqualityKey>] = [:]

    private struct ListIdentity: Hashable {
        let address: UnsafeRawPointer?
        let count: Int
    }

    public init() {}

    /// The set of `values`.
    public func set(of values: [Value]) -> Set<EqualityKey> {
        set(of: values) { values }
    }

    /// The set of the values of `list` (a list literal of constants and `obj(…)` look-ups),
    /// computed by `values` the first time.
    public func set<Element>(of list: [Element], values: () -> [Value]) -> Set<EqualityKey> {
        let identity = list.withUnsafeBufferPointer {
            ListIdentity(address: $0.baseAddress.map(UnsafeRawPointer.init), count: $0.count)
        }
        if let set = sets[identity] { return set }
        let set = Set(values().map(EqualityKey.init))
        sets[identity] = set
        return set
    }
}
