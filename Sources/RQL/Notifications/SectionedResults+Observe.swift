import Foundation
import RQLCore

/// What changed in observed `SectionedResults`: items by index path (deletions in the old
/// sections, insertions in the new ones, modifications in the old) and whole sections
/// (deleted: old indices; inserted: new indices). An item whose section changed is deleted
/// from its old section and inserted into its new one; the items of a deleted or inserted
/// section are not listed one by one.
///
/// ```swift
/// case .update(_, let deletions, let insertions, _, let sectionsToInsert, let sectionsToDelete):
///     tableView.performBatchUpdates { … }
/// ```
public enum SectionedResultsChange<Collection> {
    /// The sections as first computed.
    case initial(Collection)
    /// The sections now, with the items and sections that changed.
    case update(
        Collection,
        deletions: [IndexPath],
        insertions: [IndexPath],
        modifications: [IndexPath],
        sectionsToInsert: IndexSet,
        sectionsToDelete: IndexSet
    )
}

extension SectionedResults {
    /// Calls `block` with the sections (`.initial`), then after each commit that changes them
    /// with the items and sections that changed. Delivery, key paths and the token are as for
    /// `RealmCollection.observe(keyPaths:on:_:)`; the sections are computed again at each
    /// delivery (a pass over the results).
    ///
    /// ```swift
    /// let token = byFirstLetter.observe { change in
    ///     if case .update(let sections, _, let insertions, _, let newSections, _) = change {
    ///         print(sections.allKeys, insertions, newSections)
    ///     }
    /// }
    /// ```
    public func observe(
        keyPaths: [String]? = nil,
        on queue: DispatchQueue? = nil,
        _ block: @escaping (SectionedResultsChange<SectionedResults>) -> Void
    ) -> NotificationToken {
        let key = self.key
        let tracker = SectionTracker<Key>()
        return results.observe(keyPaths: keyPaths, on: queue) { change in
            switch change {
            case .initial(let results):
                let sections = SectionedResults(results: results, key: key)
                tracker.layout = SectionLayout(sections)
                block(.initial(sections))
            case .update(let results, _, _, let modifications):
                let sections = SectionedResults(results: results, key: key)
                let old = tracker.layout
                let new = SectionLayout(sections)
                tracker.layout = new
                block(old.changes(to: new, modifications: modifications, in: sections))
            case .error:
                break
            }
        }
    }
}

/// The sections of one delivery, for the next one to diff against.
final class SectionTracker<Key: Hashable> {
    var layout = SectionLayout<Key>()
}

/// Each result's key, section and place in it.
struct SectionLayout<Key: Hashable> {
    var keys: [RowKey] = []
    var section: [Int] = []
    var item: [Int] = []
    var sectionKeys: [Key] = []

    init() {}

    init<Element>(_ sectioned: SectionedResults<Key, Element>) {
        keys = sectioned.results.evaluate().keys
        section = Array(repeating: 0, count: keys.count)
        item = Array(repeating: 0, count: keys.count)
        for (index, entry) in sectioned.sections.enumerated() {
            sectionKeys.append(entry.key)
            for (offset, position) in entry.positions.enumerated() where position < keys.count {
                section[position] = index
                item[position] = offset
            }
        }
    }

    /// The change from this layout to `new`, with `modifications` (old flat indices).
    func changes<C>(to new: SectionLayout, modifications: [Int], in collection: C) -> SectionedResultsChange<C> {
        let newSections = Dictionary(new.sectionKeys.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let oldSections = Dictionary(sectionKeys.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let sectionsToDelete = IndexSet(sectionKeys.indices.filter { newSections[sectionKeys[$0]] == nil })
        let sectionsToInsert = IndexSet(new.sectionKeys.indices.filter { oldSections[new.sectionKeys[$0]] == nil })
        let diff = KeyDiff.ordered(old: keys, new: new.keys)
        var deleted = diff.deletions
        var inserted = diff.insertions
        var stayed: Set<Int> = []
        for pair in diff.kept {
            // An item that changed section moves: out of the old one, into the new one.
            if sectionKeys[section[pair.old]] != new.sectionKeys[new.section[pair.new]] {
                deleted.append(pair.old)
                inserted.append(pair.new)
            } else {
                stayed.insert(pair.old)
            }
        }
        let deletions = deleted.sorted().filter { !sectionsToDelete.contains(section[$0]) }
            .map { IndexPath(item: item[$0], section: section[$0]) }
        let insertions = inserted.sorted().filter { !sectionsToInsert.contains(new.section[$0]) }
            .map { IndexPath(item: new.item[$0], section: new.section[$0]) }
        let modified = modifications.filter { stayed.contains($0) }
            .map { IndexPath(item: item[$0], section: section[$0]) }
        return .update(
            collection,
            deletions: deletions.sorted(),
            insertions: insertions.sorted(),
            modifications: modified.sorted(),
            sectionsToInsert: sectionsToInsert,
            sectionsToDelete: sectionsToDelete
        )
    }
}
