import RQLCore
import Synchronization

/// Column statistics per table version: computed on first use from a sample of the column, then
/// kept for every later query against the same version. A commit changes the store's version,
/// so the next query samples afresh.
///
/// Entries are keyed by store version, class name, row count and column. Two different stores
/// at one version could share an entry, which at worst makes a plan slower: statistics never
/// decide what a plan selects.
///
/// ```swift
/// let cache = StatisticsCache(capacity: 64)
/// cache.statistics(of: table, className: "Person", version: store.version, property: 1)?.distinctCount
/// cache.samplingCount   // 1; asking again does not sample again
/// ```
public final class StatisticsCache: Sendable {
    /// The cache the optimizer uses unless told otherwise.
    public static let shared = StatisticsCache()

    /// The most columns kept; the oldest entries go first.
    public let capacity: Int

    struct Key: Hashable {
        var version: UInt64
        var className: String
        var rowCount: Int
        var property: Int
    }

    struct State {
        /// `nil` values record columns that have no statistics (links, collections).
        var entries: [Key: PropertyStatistics?] = [:]
        var insertionOrder: [Key] = []
        var samplings = 0
    }

    private let state = Mutex(State())

    public init(capacity: Int = 512) {
        self.capacity = Swift.max(1, capacity)
    }

    /// The statistics of `property` in `table` (the table of `className` at store `version`),
    /// sampling the column the first time; `nil` for columns without statistics: links,
    /// collections, backlinks.
    public func statistics<Table: TableReader>(
        of table: Table,
        className: String,
        version: UInt64,
        property: Int
    ) -> PropertyStatistics? {
        let key = Key(version: version, className: className, rowCount: table.rowCount, property: property)
        if let cached = state.withLock({ $0.entries[key] }) { return cached }
        // Sample outside the lock: another thread may sample the same column meanwhile, and the
        // later result simply replaces the earlier, equal one.
        let computed = StatisticsSampler.statistics(of: table, property: property)
        state.withLock { state in
            if state.entries.updateValue(computed, forKey: key) == nil {
                state.insertionOrder.append(key)
            }
            state.samplings += 1
            if state.insertionOrder.count > capacity {
                let evicted = state.insertionOrder.count - capacity
                for old in state.insertionOrder.prefix(evicted) { state.entries[old] = nil }
                state.insertionOrder.removeFirst(evicted)
            }
        }
        return computed
    }

    /// How many times a column has been sampled (a cache miss), for tests and benchmarks.
    public var samplingCount: Int { state.withLock { $0.samplings } }

    /// The number of columns cached.
    public var count: Int { state.withLock { $0.entries.count } }

    /// Forgets every entry.
    public func removeAll() {
        state.withLock { state in
            state.entries.removeAll()
            state.insertionOrder.removeAll()
        }
    }
}

/// Reads the sample a column's statistics come from.
enum StatisticsSampler {
    /// Statistics of one single-valued, non-link column: its values at up to
    /// `PropertyStatistics.sampleLimit` evenly spaced positions.
    static func statistics<Table: TableReader>(of table: Table, property: Int) -> PropertyStatistics? {
        let properties = table.objectSchema.properties
        guard property >= 0, property < properties.count else { return nil }
        let described = properties[property]
        guard !described.isToMany, !described.isBacklink, !described.isLink else { return nil }
        let rows = table.rowCount
        let size = Swift.min(rows, PropertyStatistics.sampleLimit)
        var sample: [Value] = []
        sample.reserveCapacity(size)
        for i in 0..<size {
            // Evenly spaced, the first row included; every row when the table is small.
            sample.append(table.value(at: i * rows / size, property: property))
        }
        return PropertyStatistics(rowCount: rows, sample: sample)
    }
}
