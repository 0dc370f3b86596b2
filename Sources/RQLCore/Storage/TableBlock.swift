/// One storage block of a table: a run of at most `TableBlock.capacity` consecutive rows, with
/// their row keys and a typed view of every column, each indexed `0 ..< count` from the
/// block's first row.
///
/// Executors that scan (the VM) iterate a table block by block, and a batch never crosses a
/// block, so every buffer a kernel reads is contiguous. Views are valid only inside the
/// `TableReader.withBlock` call that produced them.
///
/// ```swift
/// for b in 0..<table.blockCount {
///     table.withBlock(b) { block in
///         guard case .int(let ages) = block.columns[ageIndex] else { return }
///         for i in 0..<block.count where ages.values[i] > 2 { print(block.rowKeys[i]) }
///     }
/// }
/// ```
///
/// Collection columns keep their element columns whole: a block's `offsets` (count + 1 of them)
/// index into the element view directly. String and binary offsets likewise index `bytes`.
// Unchecked: its pointers view memory of a snapshot that nothing writes while a view of it
// exists, and the views are valid only inside the call that produced them.
public struct TableBlock: @unchecked Sendable {
    /// The most rows a block holds. A multiple of 64, so a null bitmap splits on word boundaries.
    public static let capacity = 4096

    /// The table positions of the block's rows: row `i` of the block is position `positions.lowerBound + i`.
    public let positions: Range<Int>
    /// The stable key of each row, ascending. A store may read them only when they are asked
    /// for (a store file checks and maps them on first use), so a reader that needs no keys (a
    /// count) never pays for them: read them once a block, not once a row.
    public var rowKeys: UnsafeBufferPointer<RowKey> { keys.rowKeys }
    /// Where `rowKeys` comes from.
    private let keys: any RowKeySource
    /// The first row key when the store knows, without reading `rowKeys`, that the keys are
    /// consecutive (row `i`'s key is this plus `i`); nil when only `rowKeys` tells. A reader
    /// that maps rows to keys uses it first: a store file checks and maps the keys on first use.
    ///
    /// ```swift
    /// let key = block.consecutiveKeysStart.map { $0 + Int64(row) } ?? block.rowKeys[row].rawValue
    /// ```
    public let consecutiveKeysStart: Int64?
    /// One view per property, numbered like `ObjectSchema.properties`. A block opened for some
    /// columns only (`TableReader.withBlock(_:columns:_:)`) ends after the last opened one, and
    /// holds `TableBlock.unopened` (no rows) at the others: read only the columns you asked for.
    public let columns: [ColumnView]

    /// What `columns` holds at a column that was not opened: a view of no rows.
    public static let unopened = ColumnView.mixed(
        FixedWidthColumnView(
            values: UnsafeBufferPointer(start: nil, count: 0),
            nulls: NullMask(words: UnsafeBufferPointer(start: nil, count: 0))
        )
    )

    public init(
        positions: Range<Int>,
        rowKeys: any RowKeySource,
        consecutiveKeysStart: Int64? = nil,
        columns: [ColumnView]
    ) {
        self.positions = positions
        keys = rowKeys
        self.consecutiveKeysStart = consecutiveKeysStart
        self.columns = columns
    }

    /// The number of rows in the block.
    public var count: Int { positions.count }
}

/// What hands a `TableBlock` its row keys when a reader asks for them: the store's block
/// itself, which may read them only then.
public protocol RowKeySource: AnyObject, Sendable {
    /// The block's row keys, ascending; valid as long as the block's views are.
    var rowKeys: UnsafeBufferPointer<RowKey> { get }
}

extension TableReader {
    /// The number of blocks a table of `rowCount` rows has when its blocks are filled to capacity
    /// (the in-memory column store's layout).
    public static func fullBlockCount(rowCount: Int) -> Int {
        (rowCount + TableBlock.capacity - 1) / TableBlock.capacity
    }
}

extension ColumnView {
    /// The view of rows `rows` of this whole-table view, re-indexed from 0: fixed-width values,
    /// link keys and offset arrays are sliced; bytes and element columns stay whole (offsets keep
    /// pointing into them). `rows.lowerBound` must be a multiple of 64 so that null bitmaps split
    /// on word boundaries.
    public func slice(_ rows: Range<Int>) -> ColumnView {
        switch self {
        case .bool(let view): .bool(view.slice(rows))
        case .int(let view): .int(view.slice(rows))
        case .float(let view): .float(view.slice(rows))
        case .double(let view): .double(view.slice(rows))
        case .decimal(let view): .decimal(view.slice(rows))
        case .date(let view): .date(view.slice(rows))
        case .objectId(let view): .objectId(view.slice(rows))
        case .uuid(let view): .uuid(view.slice(rows))
        case .string(let view): .string(view.slice(rows))
        case .data(let view): .data(view.slice(rows))
        case .mixed(let view): .mixed(view.slice(rows))
        case .link(let view):
            .link(LinkColumnView(targetClass: view.targetClass, keys: UnsafeBufferPointer(rebasing: view.keys[rows])))
        case .collection(let view):
            .collection(
                CollectionColumnView(
                    kind: view.kind,
                    offsets: UnsafeBufferPointer(rebasing: view.offsets[rows.lowerBound..<(rows.upperBound + 1)]),
                    elements: view.elements,
                    keys: view.keys
                )
            )
        }
    }
}

extension NullMask {
    /// The mask of rows `rows`, re-indexed from 0; `rows.lowerBound` is a multiple of 64.
    func slice(_ rows: Range<Int>) -> NullMask {
        guard hasNulls else { return self }
        let first = rows.lowerBound >> 6
        let last = Swift.min((rows.upperBound + 63) >> 6, words.count)
        return NullMask(words: UnsafeBufferPointer(rebasing: words[first..<Swift.max(first, last)]))
    }
}

extension FixedWidthColumnView {
    func slice(_ rows: Range<Int>) -> FixedWidthColumnView {
        FixedWidthColumnView(values: UnsafeBufferPointer(rebasing: values[rows]), nulls: nulls.slice(rows))
    }
}

extension BytesColumnView {
    func slice(_ rows: Range<Int>) -> BytesColumnView {
        BytesColumnView(
            offsets: UnsafeBufferPointer(rebasing: offsets[rows.lowerBound..<(rows.upperBound + 1)]),
            bytes: bytes,
            nulls: nulls.slice(rows)
        )
    }
}
