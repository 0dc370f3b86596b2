import RQLStorage
import Synchronization

/// The versions of each store that frozen realms, objects and collections still read, for
/// `Realm.Configuration.maximumNumberOfActiveVersions`. Only realms configured with a limit
/// record their frozen versions, so the others pay nothing.
///
/// The count a write checks is realm-core's: from the oldest version still read to the one the
/// write will commit. Live realms read the newest version at each write and refresh, so the
/// oldest pinned version is a frozen one (or the newest, when nothing is frozen).
///
/// ```swift
/// ActiveVersions.pin(frozenVersion, of: .memory("a"))
/// try ActiveVersions.check(newest: 7, limit: 4, of: .memory("a"))  // throws if 7 + 1 - oldest + 1 > 4
/// ```
enum ActiveVersions {
    private final class WeakVersion {
        weak var version: StoreVersion?
        init(_ version: StoreVersion) { self.version = version }
    }

    private struct Pins {
        var versions: [WeakVersion] = []
        /// How many entries were alive at the last sweep: the next sweep waits until the list has
        /// doubled, so recording n frozen versions costs O(n) overall.
        var aliveAtSweep = 0

        mutating func sweep() {
            versions.removeAll { $0.version == nil }
            aliveAtSweep = versions.count
        }
    }

    private static let table = Mutex<[StoreKey: Pins]>([:])

    /// Records that a frozen realm reads `version` of the store `key`.
    static func pin(_ version: StoreVersion, of key: StoreKey) {
        table.withLock { table in
            var pins = table[key] ?? Pins()
            pins.versions.append(WeakVersion(version))
            if pins.versions.count > 2 * max(pins.aliveAtSweep, 8) { pins.sweep() }
            table[key] = pins
        }
    }

    /// Throws when committing one more version after `newest` would leave more than `limit`
    /// versions active.
    static func check(newest: UInt64, limit: UInt, of key: StoreKey) throws(Realm.Error) {
        let oldest = table.withLock { table -> UInt64 in
            table[key]?.sweep()
            return table[key]?.versions.compactMap { $0.version?.version }.min() ?? newest
        }
        let active = newest + 1 - Swift.min(oldest, newest) + 1
        guard active <= UInt64(limit) else {
            throw Realm.Error(
                .tooManyActiveVersions,
                "Number of active versions (\(active)) in the Realm exceeded the limit of \(limit)"
            )
        }
    }
}
