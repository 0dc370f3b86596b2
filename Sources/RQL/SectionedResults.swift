import Foundation

/// Results sorted and then grouped into sections by a key computed from each element, in the
/// order the keys first appear. Live like the results they come from; frozen ones never change.
///
/// ```swift
/// let byFirstLetter = realm.objects(Dog.self).sectioned(by: \.firstLetter, ascending: true)
/// byFirstLetter.allKeys          // ["F", "R", "S", "W"]
/// byFirstLetter[0].first?.name   // "Fido"
/// byFirstLetter[IndexPath(item: 0, section: 1)].name
/// ```
public struct SectionedResults<Key: _Persistable & Hashable, SectionElement: RealmCollectionValue> {
    let results: Results<SectionElement>
    let key: (SectionElement) -> Key
    private let cache = SectionCache<Key>()

    init(results: Results<SectionElement>, key: @escaping (SectionElement) -> Key) {
        self.results = results
        self.key = key
    }

    /// The sections of the results' current version: each key with its elements' positions.
    var sections: [(key: Key, positions: [Int])] {
        let version = results.context.current
        if cache.serial == version.serial { return cache.sections }
        var sections: [(key: Key, positions: [Int])] = []
        var indexByKey: [Key: Int] = [:]
        for (position, element) in results.enumerated() {
            let key = self.key(element)
            if let index = indexByKey[key] {
                sections[index].positions.append(position)
            } else {
                indexByKey[key] = sections.count
                sections.append((key, [position]))
            }
        }
        cache.serial = version.serial
        cache.sections = sections
        return sections
    }

    /// Every section's key, in section order.
    ///
    /// ```swift
    /// realm.objects(Dog.self).sectioned(by: \.firstLetter).allKeys  // ["F", "R", "S"]
    /// ```
    public var allKeys: [Key] { sections.map(\.key) }

    /// The element at `indexPath` (`section`, `item`).
    ///
    /// ```swift
    /// let dog = sections[IndexPath(item: 0, section: 1)]
    /// ```
    public subscript(_ indexPath: IndexPath) -> SectionElement {
        self[indexPath.section][indexPath.item]
    }

    /// The realm the results belong to.
    ///
    /// ```swift
    /// sections.realm?.isFrozen  // false
    /// ```
    public var realm: Realm? { results.realm }
    /// Whether the results can no longer be read.
    ///
    /// ```swift
    /// sections.isInvalidated  // false
    /// ```
    public var isInvalidated: Bool { results.isInvalidated }
    /// Whether the sections are a frozen snapshot.
    ///
    /// ```swift
    /// sections.freeze().isFrozen  // true
    /// ```
    public var isFrozen: Bool { results.isFrozen }

    /// A frozen snapshot of the sections.
    ///
    /// ```swift
    /// let snapshot = sections.freeze()
    /// ```
    public func freeze() -> SectionedResults {
        SectionedResults(results: results.freeze(), key: key)
    }

    /// The live sections of frozen ones.
    ///
    /// ```swift
    /// let live = snapshot.thaw()
    /// ```
    public func thaw() -> SectionedResults? {
        results.thaw().map { SectionedResults(results: $0, key: key) }
    }
}

extension SectionedResults: RandomAccessCollection {
    public typealias Element = ResultsSection<Key, SectionElement>

    public var startIndex: Int { 0 }
    public var endIndex: Int { sections.count }

    /// The section at `index`.
    ///
    /// ```swift
    /// sections[0].key  // "F"
    /// ```
    public subscript(_ index: Int) -> ResultsSection<Key, SectionElement> {
        let sections = self.sections
        realmPrecondition(index >= 0 && index < sections.count, "Section index \(index) is out of bounds")
        return ResultsSection(key: sections[index].key, results: results, positions: sections[index].positions)
    }
}

/// One section of `SectionedResults`: its key and its elements.
///
/// ```swift
/// for section in byFirstLetter {
///     print(section.key, section.map(\.name))
/// }
/// ```
public struct ResultsSection<Key: _Persistable & Hashable, T: RealmCollectionValue>: RandomAccessCollection,
    Identifiable
{
    /// The key every element of the section has.
    ///
    /// ```swift
    /// sections[0].key  // "F"
    /// ```
    public let key: Key
    let results: Results<T>
    let positions: [Int]

    /// The section's key.
    ///
    /// ```swift
    /// sections.map(\.id)  // the keys, for SwiftUI's ForEach
    /// ```
    public var id: Key { key }

    public var startIndex: Int { 0 }
    public var endIndex: Int { positions.count }

    /// The element at `index` of the section.
    ///
    /// ```swift
    /// sections[0][0].name  // "Fido"
    /// ```
    public subscript(_ index: Int) -> T {
        results[positions[index]]
    }
}

/// What one `SectionedResults` value (and its copies) computed, and for which version.
final class SectionCache<Key> {
    var serial: UInt64 = 0
    var sections: [(key: Key, positions: [Int])] = []
}

extension Results {
    /// The results sorted by `keyPath` and grouped by its value.
    ///
    /// ```swift
    /// realm.objects(Dog.self).sectioned(by: \.firstLetter, ascending: true)
    /// ```
    ///
    /// A computed key path (`firstLetter`) sorts by the persisted properties it reads (`name`).
    public func sectioned<Key: _Persistable & Hashable>(
        by keyPath: KeyPath<Element, Key>,
        ascending: Bool = true
    ) -> SectionedResults<Key, Element> where Element: ObjectBase {
        sectioned(by: keyPath, sortDescriptors: [SortDescriptor(keyPath: _name(for: keyPath), ascending: ascending)])
    }

    /// The results sorted by `sortDescriptors` and grouped by the value of `keyPath` (the
    /// first descriptor should sort by what the key path reads).
    ///
    /// ```swift
    /// dogs.sectioned(by: \.firstLetter, sortDescriptors: [SortDescriptor(keyPath: "name"), "age"])
    /// ```
    public func sectioned<Key: _Persistable & Hashable>(
        by keyPath: KeyPath<Element, Key>,
        sortDescriptors: [SortDescriptor]
    ) -> SectionedResults<Key, Element> where Element: ObjectBase {
        SectionedResults(results: sorted(by: sortDescriptors), key: { $0[keyPath: keyPath] })
    }

    /// The results sorted by `sortDescriptors` and grouped by the key `block` computes.
    ///
    /// ```swift
    /// results.sectioned(by: { String($0.name.first!) }, sortDescriptors: [SortDescriptor(keyPath: "name")])
    /// ```
    public func sectioned<Key: _Persistable & Hashable>(
        by block: @escaping (Element) -> Key,
        sortDescriptors: [SortDescriptor]
    ) -> SectionedResults<Key, Element> {
        SectionedResults(results: sorted(by: sortDescriptors), key: block)
    }
}

extension IndexPath {
    /// An index path to item `item` of section `section` (UIKit's spelling, which Linux's
    /// Foundation lacks).
    ///
    /// ```swift
    /// sectioned[IndexPath(item: 0, section: 1)]
    /// ```
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// The section of a two-element index path.
    ///
    /// ```swift
    /// IndexPath(item: 2, section: 1).section  // 1
    /// ```
    public var section: Int { self[0] }

    /// The item of a two-element index path.
    ///
    /// ```swift
    /// IndexPath(item: 2, section: 1).item  // 2
    /// ```
    public var item: Int { self[1] }
}
