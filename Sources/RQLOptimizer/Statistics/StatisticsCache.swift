import RQLCore
import Synchronization

/// Column statistics per table version: computed on first use from a sample of the column, then
/// kept for every later query against the same version. A commit changes the store's version,
/// so the next query samples afresh.
///
/// Entries are per table, keyed by store version, class name and row count, and hold the
/// statistics of each column sampled so far. Two different stores at one version could share an
/// entry, which at worst makes a plan slower: statistics never decide what a plan selects.
///
/// ```swift
/// let cache = StatisticsCache(capacity: 64)
/// cache.statistics(of: table, className: "Person", version: store.version, property: 1)?.distinctCount
/// cache.samplingCount   // 1; asking again does not sample again
/// ```
public final class StatisticsCache: Sendable {
    /// The cache the optimizer uses unless told otherwise.
    public static let shared = StatisticsCache()

    /// The most tables kept; the oldest entries go first. A look-up of another table than the
    /// last searches them in turn: a few tens are meant.
    public let capacity: Int

    struct Key: Hashable {
        var version: UInt64
        var className: String
        var rowCount: Int
    }

    struct State {
        /// The entries, oldest first. A list searched from the newest, not a dictionary: it holds
        /// at most `capacity` entries, and the first dictionary of a key type costs a process a
        /// search of the runtime's conformance records, more than a one-query process's lookups.
        var tables: [(key: Key, entry: TableStatistics)] = []
        /// The entry found last: queries come in runs against one table version.
        var last: (key: Key, entry: TableStatistics)?
    }

    private let state = Mutex(State())
    private let samplings = SamplingCounter()

    public init(capacity: Int = 32) {
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
        entry(className: className, version: version, rowCount: table.rowCount).statistics(
            of: table,
            property: property
        )
    }

    /// The entry of one table version, created empty the first time.
    func entry(className: String, version: UInt64, rowCount: Int) -> TableStatistics {
        let key = Key(version: version, className: className, rowCount: rowCount)
        return state.withLock { state in
            if let last = state.last, last.key == key { return last.entry }
            if let found = state.tables.last(where: { $0.key == key }) {
                state.last = found
                return found.entry
            }
            let entry = TableStatistics(counter: samplings)
            state.tables.append((key, entry))
            state.last = (key, entry)
            if state.tables.count > capacity { state.tables.removeFirst(state.tables.count - capacity) }
            return entry
        }
    }

    /// How many times a column has been sampled (a cache miss), for tests and benchmarks.
    public var samplingCount: Int { samplings.count.load(ordering: .relaxed) }

    /// The number of columns cached.
    public var count: Int {
        let tables = state.withLock { $0.tables.map(\.entry) }
        return tables.reduce(0) { $0 + $1.count }
    }

    /// Forgets every entry.
    public func removeAll() {
        state.withLock { state in
            state.tables.removeAll()
            state.last = nil
        }
    }
}

/// The statistics of one table version, column by column as they are first needed. The
/// optimizer finds the entry once per query, then each column with a lock and an array index
/// (no hashing: a dictionary look-up here cost more than the rest of estimating a comparison).
final class TableStatistics: Sendable {
    /// One column: not sampled yet, or sampled (statistics, or nil for a column without any).
    enum Slot: Sendable {
        case unsampled
        case sampled(PropertyStatistics?)
    }

    /// `columns[p]` for column `p`; columns past the end are unsampled.
    private let columns = Mutex<[Slot]>([])
    private let counter: SamplingCounter

    init(counter: SamplingCounter) {
        self.counter = counter
    }

    func statistics<Table: TableReader>(of table: Table, property: Int) -> PropertyStatistics? {
        let slot = columns.withLock { columns in
            property >= 0 && property < columns.count ? columns[property] : .unsampled
        }
        if case .sampled(let known) = slot { return known }
        // Sample outside the lock: another thread may sample the same column meanwhile, and the
        // later result simply replaces the earlier, equal one.
        let computed = StatisticsSampler.statistics(of: table, property: property)
        counter.count.add(1, ordering: .relaxed)
        guard property >= 0 else { return computed }  // no such column: nil, not worth a slot
        columns.withLock { columns in
            if columns.count <= property { columns += repeatElement(.unsampled, count: property + 1 - columns.count) }
            columns[property] = .sampled(computed)
        }
        return computed
    }

    var count: Int {
        columns.withLock { columns in
            columns.reduce(0) { total, slot in
                if case .sampled = slot { total + 1 } else { total }
            }
        }
    }
}

/// The number of columns a cache has sampled, shared by its table entries.
final class SamplingCounter: Sendable {
    let count = Atomic<Int>(0)
}

/// Reads the sample a column's statistics come from.
enum StatisticsSampler {
    /// The most blocks a sample is read from: a store file pages in and checks each block's
    /// column on first read, so a sample spread over every block would read the whole column.
    static let blockLimit = 8

    /// Statistics of one single-valued, non-link column: its values at up to
    /// `PropertyStatistics.sampleLimit(for:)` positions, evenly spaced within up to `blockLimit`
    /// evenly spaced blocks (every row when the table is small).
    static func statistics<Table: TableReader>(of table: Table, property: Int) -> PropertyStatistics? {
        let properties = table.objectSchema.properties
        guard property >= 0, property < properties.count else { return nil }
        let described = properties[property]
        guard !described.isToMany, !described.isBacklink, !described.isLink else { return nil }
        let rows = table.rowCount
        let size = Swift.min(rows, PropertyStatistics.sampleLimit(for: described.type))
        var sample: [Value] = []
        sample.reserveCapacity(size)
        for position in positions(in: table, size: size) {
            sample.append(table.value(at: position, property: property))
        }
        return PropertyStatistics(rowCount: rows, sample: sample)
    }

    /// `size` positions of `table`, ascending: spread evenly over the rows of up to `blockLimit`
    /// blocks spread evenly over the table, the first row included.
    static func positions<Table: TableReader>(in table: Table, size: Int) -> [Int] {
        let rows = table.rowCount
        let blocks = table.blockCount
        guard size < rows, blocks > blockLimit else {
            return (0..<size).map { $0 * rows / Swift.max(size, 1) }
        }
        var ranges: [Range<Int>] = []
        for j in 0..<blockLimit {
            ranges.append(table.withBlock(j * blocks / blockLimit, columns: .none) { $0.positions })
        }
        let sampled = ranges.reduce(0) { $0 + $1.count }
        guard size < sampled else { return ranges.flatMap { $0 } }
        // The i-th of `size` evenly spaced offsets into the sampled rows, block by block.
        var positions: [Int] = []
        positions.reserveCapacity(size)
        var offset = 0
        var range = 0
        for i in 0..<size {
            var target = i * sampled / size - offset
            while target >= ranges[range].count {
                target -= ranges[range].count
                offset += ranges[range].count
                range += 1
            }
            positions.append(ranges[range].lowerBound + target)
        }
        return positions
    }
}
