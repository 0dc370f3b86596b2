/// What executors read from one class's table in a store snapshot.
///
/// Rows are scanned by *position* `0 ..< rowCount`; links and results name rows by their stable
/// `RowKey`. Columns are numbered like `objectSchema.properties`.
///
/// ```swift
/// let dogs = store.table(named: "Dog")!
/// let age = dogs.objectSchema.propertyIndex(named: "age")!
/// for row in 0..<dogs.rowCount where ValueComparison.evaluate(dogs.value(at: row, property: age), .greater, .int(2)) {
///     print(dogs.rowKey(at: row))
/// }
/// ```
public protocol TableReader: Sendable {
    /// The class this table stores.
    var objectSchema: ObjectSchema { get }
    /// The number of rows (objects).
    var rowCount: Int { get }
    /// The stable key of the row at `position`.
    func rowKey(at position: Int) -> RowKey
    /// The position of the row with `key`, or `nil` if there is none.
    func position(of key: RowKey) -> Int?
    /// Calls `body` with a typed view of column `property`; the view is valid only inside `body`.
    func withColumn<R>(_ property: Int, _ body: (ColumnView) throws -> R) rethrows -> R
    /// The number of storage blocks; positions run through them in order (see `TableBlock`).
    var blockCount: Int { get }
    /// Calls `body` with block `index` (`0 ..< blockCount`): its positions, row keys and a view
    /// of each column in `columns`; the views are valid only inside `body`. The VM scans through
    /// this, opening only the columns its program reads (`TableBlock.columns` says what an
    /// unopened column holds). `withBlock(_:_:)` opens every column.
    func withBlock<R>(_ index: Int, columns: ColumnSelection, _ body: (TableBlock) throws -> R) rethrows -> R
    /// One property of one row as a `Value`: the slow, simple accessor of the reference
    /// evaluator. Lists and sets read as `.list`, maps as `.map`, links (and embedded objects)
    /// as `.link` or `.null`, backlinks as a `.list` of `.link`s.
    func value(at position: Int, property: Int) -> Value
    /// The position of the object whose primary key equals `key` (numbers by value), or `nil`.
    func position(ofPrimaryKey key: Value) -> Int?
    /// The positions whose `property` equals `value`, ascending, when the property has a hash
    /// index (or is the primary key); `nil` when it has no index.
    func indexLookup(property: Int, equalTo value: Value) -> [Int]?
    /// The positions whose sorted-indexed `property` lies between `lower` and `upper` in
    /// `ValueOrdering` (`nil`: unbounded on that side; nulls and NaNs, which no ordered
    /// comparison matches, are never inside a range), in ascending position order; `nil` when
    /// the property has no sorted index. A store answers for every property whose
    /// `Property.hasSortedIndex` is true: planners choose range access paths from the schema.
    func indexRange(property: Int, lower: Value?, lowerInclusive: Bool, upper: Value?, upperInclusive: Bool) -> [Int]?
    /// The positions whose full-text-indexed `property` contains `token` (or, with `prefix`, a
    /// token starting with it), ascending; `nil` when the property has no full-text index.
    /// Tokens are lower-case alphanumeric words (see `FullTextTokenizer`).
    func fullTextLookup(property: Int, token: String, prefix: Bool) -> [Int]?
    /// The keys of the objects of `className` whose link property `property` points at the row at
    /// `position`, once per link (a list holding the object twice counts twice), in origin order.
    func backlinks(at position: Int, fromClass className: String, property: String) -> [RowKey]
    /// The number of links from every class and property to the row at `position` (`@links.@count`).
    func backlinkCount(at position: Int) -> Int
    /// Row, null and distinct counts and the value range of `property`, for the cost model.
    /// May scan the column; callers cache it per store version.
    func statistics(property: Int) -> ColumnStatistics
}

/// A consistent, read-only view of a whole store: the schema, one table per class, and a
/// version that changes on every commit (live `Results` re-run when it moves).
///
/// ```swift
/// let store = try DatasetLoader.load(json: text)
/// store.version                // 1
/// store.table(named: "Dog")?.rowCount
/// ```
public protocol StoreReader: Sendable {
    associatedtype Table: TableReader
    /// The schema every table follows.
    var schema: Schema { get }
    /// Increases with every commit; equal versions mean equal contents.
    var version: UInt64 { get }
    /// The table of the named class, or `nil` if the schema has no such class.
    func table(named className: String) -> Table?
    /// Damage met while reading (a store file's block that failed its checks and read as empty
    /// rows), or nil. Readers that can throw check it after reading; in-memory stores have none.
    var damage: (any Error)? { get }
}

extension StoreReader {
    /// In-memory stores are never damaged.
    public var damage: (any Error)? { nil }
}

extension TableReader {
    /// Calls `body` with block `index` and a view of every column (see
    /// `withBlock(_:columns:_:)`).
    public func withBlock<R>(_ index: Int, _ body: (TableBlock) throws -> R) rethrows -> R {
        try withBlock(index, columns: .all, body)
    }

    /// No sorted indexes: a store that keeps none inherits this.
    public func indexRange(
        property: Int,
        lower: Value?,
        lowerInclusive: Bool,
        upper: Value?,
        upperInclusive: Bool
    ) -> [Int]? { nil }
}

extension StoreReader {
    /// The object a link points at: its table and position, or `nil` for a dangling or null link.
    public func resolve(_ link: ObjectLink) -> (table: Table, position: Int)? {
        guard let table = table(named: link.className), let position = table.position(of: link.key) else { return nil }
        return (table, position)
    }
}
