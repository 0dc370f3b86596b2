import Foundation

// Sorting, deduplicating and sectioning collections of plain values (`List<Int>`,
// `MutableSet<String>`, `Results<Date>`) by the values themselves, as Realm Swift does: each is
// the key path `self` on the collection's results, so it runs on the engine with the order and
// equality objects' properties have, stays live, and chains with `filter` and `where`.

extension RealmCollection where Element.PersistedType: SortableType {
    /// The elements sorted by their values (nulls first ascending, as realm-core orders them).
    /// The program stops for an unmanaged collection, as in Realm Swift.
    ///
    /// ```swift
    /// dog.scores.sorted()                            // List<Int>: Results<Int>, lowest first
    /// dog.scores.filter("self > 2").sorted(ascending: false)
    /// ```
    public func sorted(ascending: Bool = true) -> Results<Element> {
        sorted(by: [SortDescriptor(keyPath: PlainValueTable.propertyName, ascending: ascending)])
    }

    /// The distinct values, each at the position of its first occurrence.
    ///
    /// ```swift
    /// dog.scores.distinct()                          // [3, 7, 3] → [3, 7]
    /// dog.scores.distinct().sorted(ascending: false)
    /// ```
    public func distinct() -> Results<Element> {
        distinct(by: [PlainValueTable.propertyName])
    }
}

extension RealmCollection {
    /// The elements sorted by `sortDescriptors` and grouped by the key `keyBlock` computes
    /// (the first descriptor should sort by what the key depends on). For plain values, sort by
    /// `"self"`.
    ///
    /// ```swift
    /// let byInitial = dog.nicknames.sectioned(sortDescriptors: [SortDescriptor(keyPath: "self")]) {
    ///     String($0.prefix(1))
    /// }
    /// byInitial.allKeys  // ["B", "R"]
    /// ```
    public func sectioned<Key: _Persistable & Hashable>(
        sortDescriptors: [SortDescriptor],
        _ keyBlock: @escaping (Element) -> Key
    ) -> SectionedResults<Key, Element> {
        SectionedResults(results: _rqlQueryable.sorted(by: sortDescriptors), key: keyBlock)
    }

    /// The plain values sorted by themselves and grouped by the key `block` computes.
    ///
    /// ```swift
    /// let byTens = dog.scores.sectioned(by: { $0 / 10 }, ascending: true)
    /// byTens.allKeys     // [0, 1, 4]
    /// byTens[1].first    // the lowest score in the teens
    /// ```
    public func sectioned<Key: _Persistable & Hashable>(
        by block: @escaping (Element) -> Key,
        ascending: Bool = true
    ) -> SectionedResults<Key, Element> {
        sectioned(sortDescriptors: [SortDescriptor(keyPath: PlainValueTable.propertyName, ascending: ascending)], block)
    }
}
