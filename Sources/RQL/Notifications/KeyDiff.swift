import RQLCore
import RQLStorage

/// The indices that turn one sequence of row keys into another: deletions (old indices),
/// insertions (new indices), and the rows kept, as a `RealmCollectionChange` reports them.
/// Removing the deletions from the old keys and inserting the insertions gives the new keys.
///
/// ```swift
/// let diff = KeyDiff.ascending(old: [k1, k2, k4], new: [k1, k3, k4])
/// diff.deletions   // [1]
/// diff.insertions  // [1]
/// ```
///
/// Keys in ascending order (results ordered by key) are merge-walked. Any other order (sorted
/// results, lists) keeps the longest run of rows whose relative order did not change (a
/// longest increasing subsequence, O(n log n)); every other common row is reported as a
/// deletion plus an insertion, as Realm reports a move. Lists may hold a key twice: the k-th
/// occurrence in the old list pairs with the k-th in the new one.
struct KeyDiff: Equatable {
    /// Indices in the old keys, ascending.
    var deletions: [Int] = []
    /// Indices in the new keys, ascending.
    var insertions: [Int] = []
    /// Old index → new index of every row kept in place, in old order.
    var kept: [(old: Int, new: Int)] = []

    static func == (a: KeyDiff, b: KeyDiff) -> Bool {
        a.deletions == b.deletions && a.insertions == b.insertions
            && a.kept.map(\.old) == b.kept.map(\.old) && a.kept.map(\.new) == b.kept.map(\.new)
    }

    var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty }

    /// The diff of two ascending key sequences (no duplicates), by one merge walk.
    static func ascending(old: [RowKey], new: [RowKey]) -> KeyDiff {
        var diff = KeyDiff()
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if j == new.count || (i < old.count && old[i] < new[j]) {
                diff.deletions.append(i)
                i += 1
            } else if i == old.count || new[j] < old[i] {
                diff.insertions.append(j)
                j += 1
            } else {
                diff.kept.append((i, j))
                i += 1
                j += 1
            }
        }
        return diff
    }

    /// The diff of two sequences in any order, duplicates allowed.
    static func ordered(old: [RowKey], new: [RowKey]) -> KeyDiff {
        var diff = KeyDiff()
        // Rows in a common prefix and suffix stay where they are (appends, removals at the end).
        let (prefix, suffix) = commonEnds(old, new)
        for index in 0..<prefix { diff.kept.append((index, index)) }
        let oldMiddle = prefix..<(old.count - suffix)
        let newMiddle = prefix..<(new.count - suffix)

        let pairs = uniquePairs(old, oldMiddle, new, newMiddle) ?? occurrencePairs(old, oldMiddle, new, newMiddle)
        let stay = longestIncreasingRun(pairs.map(\.new))
        var isKept = [Bool](repeating: false, count: new.count)
        var oldKept = [Bool](repeating: false, count: old.count)
        for position in stay {
            let pair = pairs[position]
            diff.kept.append(pair)
            isKept[pair.new] = true
            oldKept[pair.old] = true
        }
        diff.deletions = oldMiddle.filter { !oldKept[$0] }
        diff.insertions = newMiddle.filter { !isKept[$0] }
        for offset in 0..<suffix {
            diff.kept.append((old.count - suffix + offset, new.count - suffix + offset))
        }
        return diff
    }

    /// The old rows whose key is in the new middle, with its index there, when no key is in the
    /// new middle twice (results); nil otherwise. An old key seen twice pairs twice with the
    /// same new index, and the increasing run keeps at most one of them.
    private static func uniquePairs(
        _ old: [RowKey],
        _ oldMiddle: Range<Int>,
        _ new: [RowKey],
        _ newMiddle: Range<Int>
    ) -> [(old: Int, new: Int)]? {
        var newIndex: [RowKey: Int] = [:]
        newIndex.reserveCapacity(newMiddle.count)
        for index in newMiddle where newIndex.updateValue(index, forKey: new[index]) != nil { return nil }
        var pairs: [(old: Int, new: Int)] = []
        pairs.reserveCapacity(Swift.min(oldMiddle.count, newMiddle.count))
        for index in oldMiddle {
            if let target = newIndex[old[index]] { pairs.append((index, target)) }
        }
        return pairs
    }

    /// The same for lists holding a key more than once: the k-th occurrence of a key in the
    /// old middle pairs with its k-th in the new one.
    private static func occurrencePairs(
        _ old: [RowKey],
        _ oldMiddle: Range<Int>,
        _ new: [RowKey],
        _ newMiddle: Range<Int>
    ) -> [(old: Int, new: Int)] {
        struct Occurrence: Hashable {
            let key: RowKey
            let ordinal: Int
        }
        var seen: [RowKey: Int] = [:]
        var newIndex: [Occurrence: Int] = [:]
        newIndex.reserveCapacity(newMiddle.count)
        for index in newMiddle {
            let ordinal = seen[new[index], default: 0]
            seen[new[index]] = ordinal + 1
            newIndex[Occurrence(key: new[index], ordinal: ordinal)] = index
        }
        seen.removeAll(keepingCapacity: true)
        var pairs: [(old: Int, new: Int)] = []
        for index in oldMiddle {
            let ordinal = seen[old[index], default: 0]
            seen[old[index]] = ordinal + 1
            if let target = newIndex[Occurrence(key: old[index], ordinal: ordinal)] {
                pairs.append((index, target))
            }
        }
        return pairs
    }

    /// The lengths of the longest common prefix of `old` and `new`, and of the longest common
    /// suffix of what remains.
    static func commonEnds<T: Equatable>(_ old: [T], _ new: [T]) -> (prefix: Int, suffix: Int) {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
            old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
        {
            suffix += 1
        }
        return (prefix, suffix)
    }

    /// The positions in `values` of one longest strictly increasing subsequence, ascending
    /// (patience sorting with back links: O(n log n)).
    static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        guard !values.isEmpty else { return [] }
        // tails[k]: position of the smallest tail of an increasing run of length k + 1.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var run: [Int] = []
        var position = tails[tails.count - 1]
        while position >= 0 {
            run.append(position)
            position = previous[position]
        }
        return run.reversed()
    }

    /// Applies the diff to `old` as a `UITableView` batch update would: deletions from the
    /// highest index down, then insertions from the lowest up, taking inserted rows from `new`.
    static func replay<T>(_ old: [T], deletions: [Int], insertions: [Int], new: [T]) -> [T] {
        var rows = old
        for index in deletions.reversed() { rows.remove(at: index) }
        for index in insertions { rows.insert(new[index], at: index) }
        return rows
    }
}
