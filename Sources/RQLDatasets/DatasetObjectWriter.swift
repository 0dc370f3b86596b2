import RQLCore
import RQLStorage

/// Writes one table's objects in the dataset format straight to bytes, from the column views of
/// the blocks that hold them: the text `DatasetExporter.object(at:in:store:).serialized()` gives,
/// without a `JSONValue`, a `String` or a position look-up per value. What `rqlc run`, `rqlc
/// shell` and `rqlc export` print goes through it.
///
/// Rows are walked block by block (`write(keys:…)`, `write(positions:…)`): each block is opened
/// once for the columns printed, and each row is read from its views. Numbers, booleans, strings,
/// links to objects with a primary key and compact lists of those are written from the views;
/// the rarer forms (dates, decimals, ids, binary data, mixed values, maps, embedded objects, and
/// collections in the pretty layout) are the exporter's own `JSONValue`s serialized, so each
/// form is decided in one place. An embedded object deeper than a store holds them (a damaged
/// store) is not written: `failure` says which, to be checked with the store's damage.
///
/// ```swift
/// var writer = DatasetObjectWriter(table: people, store: snapshot)
/// _ = writer.write(keys: keys, from: 0, columns: writer.storedColumns, limit: .max) { writer, block, row in
///     writer.writeObject(block, row)
///     writer.bytes.append(UInt8(ascii: "\n"))
/// }
/// writer.bytes   // one JSON object a line, as `rqlc run` prints them
/// ```
public struct DatasetObjectWriter<Store: StoreReader> {
    /// The text written so far; the caller takes it out and empties it.
    public var bytes: [UInt8] = []
    /// The first object that could not be written (`DatasetError.embeddedTooDeep`), if any: the
    /// text written since is not the store's, and the caller reports this instead.
    ///
    /// ```swift
    /// if let failure = writer.failure { throw failure }   // before writing out `bytes`
    /// ```
    public private(set) var failure: DatasetError?
    let store: Store
    let table: Store.Table
    /// The class of the objects written.
    public let objectSchema: ObjectSchema
    /// The stored properties in schema order (backlinks are computed, never written).
    public let storedProperties: [Int]
    /// Each stored property's name as a JSON string, as `stored` lists them.
    let names: [[UInt8]]
    /// The primary key's property index.
    let keyIndex: Int?
    /// What the writer asks of each property, by property index, read once.
    private let forms: [PropertyForm]
    /// The table each link property points at, by property index (nil for others).
    let targets: [LinkTarget?]
    /// The columns `writeObject` reads: every stored property.
    public let storedColumns: ColumnSelection
    /// The columns `writeKey` reads: the primary key, or none.
    public let keyColumns: ColumnSelection
    /// The first position of each block (empty until `block(of:)` has searched a few times).
    private var blockStarts: [Int] = []
    /// How many times `block(of:)` has searched.
    private var searches = 0
    /// The keys (by index) whose positions `stretchPositions` holds: a stretch of a result out
    /// of table order.
    private var sortedStretch = 0..<0
    private var stretchPositions: [Int] = []
    /// Room for a block's rows, which `write(runsOf:…)` fills for each stretch.
    private var runRows: [Int32] = []

    @_specialize(exported:true,where Store == BlockSnapshot)
    public init(table: Store.Table, store: Store) {
        self.store = store
        self.table = table
        objectSchema = table.objectSchema
        let properties = objectSchema.properties
        storedProperties = properties.indices.filter { !properties[$0].isBacklink }
        names = storedProperties.map { index in
            var name: [UInt8] = []
            Self.appendString(Array(properties[index].name.utf8), raw: false, to: &name)
            return name
        }
        keyIndex = objectSchema.primaryKeyIndex
        forms = properties.map(PropertyForm.init)
        targets = properties.map { property in
            guard !property.isBacklink, let name = property.type.targetClassName,
                let target = store.table(named: name)
            else { return nil }
            return LinkTarget(table: target)
        }
        storedColumns = ColumnSelection(storedProperties)
        keyColumns = keyIndex.map { ColumnSelection([$0]) } ?? .none
    }

    // MARK: Walking rows

    /// Calls `row` for each row of `keys[start...]` in order, with the block that holds it
    /// (opened for `columns`) and its row in the block, until `bytes` holds `limit` bytes or
    /// more; returns the index of the first key not written. A key of no row is skipped.
    @_specialize(exported:true,where Store == BlockSnapshot)
    public mutating func write(
        keys: [RowKey],
        from start: Int,
        columns: ColumnSelection,
        limit: Int,
        _ row: (inout Self, TableBlock, Int) -> Void
    ) -> Int {
        write(runsOf: keys, from: start, columns: columns, limit: limit) { writer, block, rows in
            var written = 0
            for r in rows {
                if written > 0 && writer.bytes.count >= limit { break }
                row(&writer, block, Int(r))
                written += 1
            }
            return written
        }
    }

    /// Calls `run` with each stretch of `keys[start...]` that one block holds (opened for
    /// `columns`), as the stretch's rows in that block, until `bytes` holds `limit` bytes or
    /// more; `run` writes the first rows of its stretch (at least one) and returns how many.
    /// Returns the index of the first key not written. A key of no row is skipped.
    ///
    /// Ascending keys in one block (a result in table order) share one opening of it and are
    /// found among the block's row keys; a key elsewhere is looked up in the table, or, once the
    /// keys descend (a sorted result), found with the keys near it in one pass over the blocks.
    @_specialize(exported:true,where Store == BlockSnapshot)
    public mutating func write(
        runsOf keys: [RowKey],
        from start: Int,
        columns: ColumnSelection,
        limit: Int,
        _ run: (inout Self, TableBlock, UnsafeBufferPointer<Int32>) -> Int
    ) -> Int {
        let table = self.table
        var next = start
        // The stretch's rows, taken out of `self` while `run` has it.
        var rows = runRows
        runRows = []
        if rows.count < TableBlock.capacity { rows = Array(repeating: 0, count: TableBlock.capacity) }
        defer { runRows = rows }
        while next < keys.count && bytes.count < limit {
            guard let position = position(ofKeyAt: next, in: keys) else {
                next += 1
                continue
            }
            next = table.withBlock(block(of: position), columns: columns) { block in
                let found = rows.withUnsafeMutableBufferPointer { rows in
                    keys.withUnsafeBufferPointer { keys in
                        Self.rows(of: keys, from: next, first: position - block.positions.lowerBound, block, into: rows)
                    }
                }
                return next
                    + rows.withUnsafeBufferPointer { run(&self, block, UnsafeBufferPointer(rebasing: $0[..<found])) }
            }
        }
        return next
    }

    /// Fills `rows` with the rows of `block` that hold `keys[start...]`, `keys[start]` being at
    /// `first`, while the keys ascend within the block (and `rows` has room); returns how many.
    private static func rows(
        of keys: UnsafeBufferPointer<RowKey>,
        from start: Int,
        first: Int,
        _ block: TableBlock,
        into rows: UnsafeMutableBufferPointer<Int32>
    ) -> Int {
        // Keys ascend in a block; when they are consecutive (no row was deleted), a key's row
        // is its distance from the first, and the block's keys need not be read.
        let known = block.consecutiveKeysStart
        let rowKeys = known == nil ? block.rowKeys : UnsafeBufferPointer(start: nil, count: 0)
        let span = rowKeys.count - 1
        let firstKey =
            known ?? (rowKeys[span].rawValue - rowKeys[0].rawValue == Int64(span) ? rowKeys[0].rawValue : nil)
        let last = firstKey.map { $0 + Int64(block.count - 1) } ?? 0
        var current = first
        var found = 0
        var index = start
        while true {
            rows[found] = Int32(truncatingIfNeeded: current)
            found += 1
            index += 1
            guard index < keys.count, found < rows.count else { return found }
            let key = keys[index].rawValue
            if let firstKey {
                guard key > firstKey + Int64(current), key <= last else { return found }
                current = Int(key - firstKey)
            } else {
                guard key > rowKeys[current].rawValue, let row = row(of: key, in: rowKeys, after: current) else {
                    return found
                }
                current = row
            }
        }
    }

    /// The position of `keys[index]`: looked up alone while the keys ascend; in a stretch
    /// where they do not, from `sortedPositions`.
    private mutating func position(ofKeyAt index: Int, in keys: [RowKey]) -> Int? {
        if !sortedStretch.contains(index) {
            guard index > 0, keys[index].rawValue <= keys[index - 1].rawValue else {
                return table.position(of: keys[index])
            }
            sortedStretch = index..<Swift.min(keys.count, index + Self.stretch)
            stretchPositions = sortedPositions(of: keys[sortedStretch])
        }
        let position = stretchPositions[index - sortedStretch.lowerBound]
        return position < 0 ? nil : position
    }

    /// How many keys of a result out of table order are found together.
    static var stretch: Int { 4096 }

    /// The positions of `keys` (-1 for a key of no row), found in key order: one table look-up
    /// for each block they fall in, then a walk over the block's row keys.
    private mutating func sortedPositions(of keys: ArraySlice<RowKey>) -> [Int] {
        let order = keys.indices.sorted { keys[$0].rawValue < keys[$1].rawValue }
        var positions = [Int](repeating: -1, count: keys.count)
        let table = self.table
        var next = 0
        while next < order.count {
            guard let position = table.position(of: keys[order[next]]) else {
                next += 1
                continue
            }
            next = table.withBlock(block(of: position), columns: .none) { block in
                let rowKeys = block.rowKeys
                var current = position - block.positions.lowerBound
                var index = next
                while true {
                    positions[order[index] - keys.startIndex] = block.positions.lowerBound + current
                    index += 1
                    guard index < order.count else { return index }
                    let key = keys[order[index]].rawValue
                    if key == rowKeys[current].rawValue { continue }
                    guard key > rowKeys[current].rawValue, let found = Self.row(of: key, in: rowKeys, after: current)
                    else { return index }
                    current = found
                }
            }
        }
        return positions
    }

    /// The row of `key` among `rowKeys` (ascending) after `row`, by binary search.
    private static func row(of key: Int64, in rowKeys: UnsafeBufferPointer<RowKey>, after row: Int) -> Int? {
        var low = row + 1
        var high = rowKeys.count
        while low < high {
            let middle = (low + high) >> 1
            if rowKeys[middle].rawValue < key { low = middle + 1 } else { high = middle }
        }
        return low < rowKeys.count && rowKeys[low].rawValue == key ? low : nil
    }

    /// Calls `row` for each position of `positions` in order, as `write(keys:…)` does; returns
    /// the first position not written.
    @_specialize(exported:true,where Store == BlockSnapshot)
    public mutating func write(
        positions: Range<Int>,
        columns: ColumnSelection,
        limit: Int,
        _ row: (inout Self, TableBlock, Int) -> Void
    ) -> Int {
        let table = self.table
        var next = positions.lowerBound
        while next < positions.upperBound && bytes.count < limit {
            next = table.withBlock(block(of: next), columns: columns) { block in
                let first = block.positions.lowerBound
                let end = Swift.min(block.positions.upperBound, positions.upperBound)
                var position = next
                while position < end && bytes.count < limit {
                    row(&self, block, position - first)
                    position += 1
                }
                return position
            }
        }
        return next
    }

    /// The block holding `position`: a binary search over where each block starts. The first
    /// few searches open the blocks they probe; after them, the starts are read once for the
    /// table (a result of a few keys does not read them all).
    private mutating func block(of position: Int) -> Int {
        let table = self.table
        if blockStarts.isEmpty && searches >= 16 {
            blockStarts = (0..<table.blockCount).map { table.withBlock($0, columns: .none) { $0.positions.lowerBound } }
        }
        searches += 1
        let starts = blockStarts
        func start(_ index: Int) -> Int {
            starts.isEmpty ? table.withBlock(index, columns: .none) { $0.positions.lowerBound } : starts[index]
        }
        var low = 0
        var high = table.blockCount - 1
        while low < high {
            let middle = (low + high + 1) >> 1
            if start(middle) <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }

    // MARK: Objects, keys and values

    /// The object at `row` of `block` as `DatasetExporter.object` builds it, serialized compact
    /// or, with `pretty`, for a place `indent` levels deep (`JSONValue.serialized(pretty:indent:)`).
    @_specialize(exported:true,where Store == BlockSnapshot)
    public mutating func writeObject(_ block: TableBlock, _ row: Int, pretty: Bool = false, indent: Int = 0) {
        guard !storedProperties.isEmpty else {
            bytes.append(contentsOf: "{}".utf8)
            return
        }
        bytes.append(UInt8(ascii: "{"))
        for (n, property) in storedProperties.enumerated() {
            if n > 0 { bytes.append(UInt8(ascii: ",")) }
            if pretty { newline(indent + 1) }
            bytes.append(contentsOf: names[n])
            bytes.append(UInt8(ascii: ":"))
            if pretty { bytes.append(UInt8(ascii: " ")) }
            writeValue(block, row, property: property, pretty: pretty, indent: indent + 1)
        }
        if pretty { newline(indent) }
        bytes.append(UInt8(ascii: "}"))
    }

    /// The key `rqlc run --format keys` prints for the object at `row` of `block`, as
    /// `DatasetExporter.key` gives it: the primary key, or the position. `block` needs
    /// `keyColumns` open.
    @_specialize(exported:true,where Store == BlockSnapshot)
    public mutating func writeKey(_ block: TableBlock, _ row: Int) {
        guard let keyIndex else {
            appendInt(Int64(block.positions.lowerBound + row))
            return
        }
        let view = block.columns[keyIndex]
        if isNull(view, row) {
            bytes.append(contentsOf: "null".utf8)
        } else if !writeScalar(view, row, raw: false) {
            let value = table.value(at: block.positions.lowerBound + row, property: keyIndex)
            appendJSON(DatasetExporter.scalar(value), pretty: false, indent: 0)
        }
    }

    /// `writeKey` and a newline for each row of `rows` of `block` (`rqlc run --format keys`);
    /// returns `rows.count`. An int primary key or a position is written digit by digit into
    /// room made once for the rows: a key costs tens of instructions, not a call per byte.
    /// `block` needs `keyColumns` open.
    ///
    /// ```swift
    /// _ = writer.writeKeyLines(block, rows)   // "4\n17\n" for the rows whose keys are 4 and 17
    /// ```
    @_specialize(exported:true,where Store == BlockSnapshot)
    public mutating func writeKeyLines(_ block: TableBlock, _ rows: UnsafeBufferPointer<Int32>) -> Int {
        if let keyIndex {
            guard case .int(let keys) = block.columns[keyIndex] else {
                for row in rows {
                    writeKey(block, Int(row))
                    bytes.append(UInt8(ascii: "\n"))
                }
                return rows.count
            }
            appendLines(rows, keys: keys.values, nulls: keys.nulls, base: 0)
        } else {
            appendLines(
                rows,
                keys: nil,
                nulls: NullMask(words: UnsafeBufferPointer(start: nil, count: 0)),
                base: Int64(block.positions.lowerBound)
            )
        }
        return rows.count
    }

    /// A line for each row of `rows`: `keys[row]` (`null` where `nulls` says so), or without
    /// `keys` the row's position, `base + row`.
    private mutating func appendLines(
        _ rows: UnsafeBufferPointer<Int32>,
        keys: UnsafeBufferPointer<Int64>?,
        nulls: NullMask,
        base: Int64
    ) {
        // The longest line is Int64.min's 20 characters and a newline.
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: rows.count &* 21))
        var end = start
        bytes.withUnsafeMutableBufferPointer { out in
            guard let text = out.baseAddress else { return }
            let powers = powersOfTen
            decimalDigitPairs.withUnsafeBufferPointer { pairs in
                for row in rows {
                    let r = Int(row)
                    if nulls.isNull(r) {
                        for byte in "null\n".utf8 {
                            text[end] = byte
                            end &+= 1
                        }
                        continue
                    }
                    let value = keys.map { $0[r] } ?? base &+ Int64(r)
                    end = Self.writeDecimal(value, to: text, at: end, pairs: pairs, powers: powers)
                    text[end] = UInt8(ascii: "\n")
                    end &+= 1
                }
            }
        }
        bytes.removeLast(bytes.count - end)
    }

    /// Writes `value` in decimal at `text + at`; returns where it ends. Two digits a division,
    /// from `pairs` ("00" … "99"); `powers` is `powersOfTen`.
    @inline(__always)
    private static func writeDecimal(
        _ value: Int64,
        to text: UnsafeMutablePointer<UInt8>,
        at: Int,
        pairs: UnsafeBufferPointer<UInt8>,
        powers: [UInt64]
    ) -> Int {
        var start = at
        if value < 0 {
            text[start] = UInt8(ascii: "-")
            start &+= 1
        }
        var magnitude = value.magnitude
        // The digits from the bit length: 1233 / 4096 is just above log10(2), so `guess` is the
        // count or one more, and one comparison with a power of ten tells.
        let guess = ((64 &- magnitude.leadingZeroBitCount) &* 1233) &>> 12
        let digits = Swift.max(1, guess &+ (magnitude >= powers[guess] ? 1 : 0))
        let end = start &+ digits
        var next = end
        while magnitude >= 10 {
            let pair = Int(magnitude % 100) &* 2
            magnitude /= 100
            next &-= 2
            text[next] = pairs[pair]
            text[next &+ 1] = pairs[pair &+ 1]
        }
        if next > start { text[start] = UInt8(ascii: "0") &+ UInt8(magnitude) }
        return end
    }

    /// Property `property` of the object at `row` of `block` as the object's member value.
    @_specialize(exported:true,where Store == BlockSnapshot)
    public mutating func writeValue(
        _ block: TableBlock,
        _ row: Int,
        property: Int,
        pretty: Bool = false,
        indent: Int = 0
    ) {
        _ = writeValue(block, row, property: property, text: false, raw: false, pretty: pretty, indent: indent)
    }

    /// Property `property` of the object at `row` of `block` as a cell's text: its compact JSON,
    /// except that a value whose JSON is a string is written as its characters when
    /// `rawStrings`. Returns false, having written nothing, for null.
    @_specialize(exported:true,where Store == BlockSnapshot)
    public mutating func writeText(_ block: TableBlock, _ row: Int, property: Int, rawStrings: Bool) -> Bool {
        writeValue(block, row, property: property, text: true, raw: rawStrings, pretty: false, indent: 0)
    }

    /// Writes the value as JSON or, with `text`, as `writeText` does (`raw`: strings as their
    /// characters); returns false when it wrote nothing (null, as text).
    private mutating func writeValue(
        _ block: TableBlock,
        _ row: Int,
        property: Int,
        text: Bool,
        raw: Bool,
        pretty: Bool,
        indent: Int
    ) -> Bool {
        let form = forms[property]
        let view = block.columns[property]
        if !form.isMixed {
            switch (form.collection, view) {
            case (.single, .link(let links)):
                // An embedded object is written by the exporter, like the rarer forms.
                if targets[property]?.isEmbedded ?? false { break }
                return writeLink(links.keys[row], to: targets[property], text: text, raw: raw)
            case (.single, _):
                if isNull(view, row) { return writeNull(text) }
                if writeScalar(view, row, raw: raw) { return true }
            case (.list, .collection(let list)) where !pretty, (.set, .collection(let list)) where !pretty:
                if writeElements(list, row, target: targets[property]) { return true }
            default:
                break
            }
        }
        let value: Value
        if case .mixed(let values) = view, form.collection == .single {
            value = values.values[row]
        } else {
            value = table.value(at: block.positions.lowerBound + row, property: property)
        }
        let json: JSONValue
        do {
            let name = objectSchema.properties[property].name
            let position = block.positions.lowerBound + row
            json = try DatasetExporter.json(
                value,
                property: objectSchema.properties[property],
                store: store,
                nesting: .init(className: objectSchema.name, position: position, property: name)
            )
        } catch {
            if failure == nil { failure = error }
            return writeNull(text)
        }
        return writeJSON(json, text: text, raw: raw, pretty: pretty, indent: indent)
    }

    /// `json` serialized, or as `writeText` writes it.
    private mutating func writeJSON(_ json: JSONValue, text: Bool, raw: Bool, pretty: Bool, indent: Int) -> Bool {
        switch json {
        case .null: return writeNull(text)
        case .string(let string) where raw: bytes.append(contentsOf: string.utf8)
        default: appendJSON(json, pretty: pretty, indent: indent)
        }
        return true
    }

    private mutating func writeNull(_ text: Bool) -> Bool {
        if text { return false }
        bytes.append(contentsOf: "null".utf8)
        return true
    }

    /// A list's or set's elements, compact, when each is one this writer reads from the
    /// views; false, having written nothing, otherwise.
    private mutating func writeElements(
        _ list: CollectionColumnView,
        _ row: Int,
        target: LinkTarget?
    ) -> Bool {
        let range = list.range(of: row)
        switch list.elements {
        case .bool, .int, .float, .double, .string: break
        case .link where !(target?.isEmbedded ?? false): break
        default: return false
        }
        bytes.append(UInt8(ascii: "["))
        for element in range {
            if element > range.lowerBound { bytes.append(UInt8(ascii: ",")) }
            if case .link(let links) = list.elements {
                _ = writeLink(links.keys[element], to: target, text: false, raw: false)
            } else if isNull(list.elements, element) {
                bytes.append(contentsOf: "null".utf8)
            } else {
                _ = writeScalar(list.elements, element, raw: false)
            }
        }
        bytes.append(UInt8(ascii: "]"))
        return true
    }

    /// A link to a top-level object as `DatasetExporter` writes it: null when it points nowhere,
    /// otherwise the target's key.
    private mutating func writeLink(_ key: Int64, to target: LinkTarget?, text: Bool, raw: Bool) -> Bool {
        guard key >= 0, let target, let position = target.table.position(of: RowKey(key)) else {
            return writeNull(text)
        }
        guard let keyIndex = target.keyIndex else {
            appendInt(Int64(position))
            return true
        }
        switch target.table.value(at: position, property: keyIndex) {
        case .int(let int): appendInt(int)
        case .string(let string): Self.appendString(string.utf8, raw: raw, to: &bytes)
        case let value:
            return writeJSON(DatasetExporter.scalar(value), text: text, raw: raw, pretty: false, indent: 0)
        }
        return true
    }

    /// A non-null value of a typed scalar view in its plain form; false, having written
    /// nothing, for a view this writer leaves to the exporter.
    private mutating func writeScalar(_ view: ColumnView, _ row: Int, raw: Bool) -> Bool {
        switch view {
        case .bool(let values): bytes.append(contentsOf: values.values[row] ? "true".utf8 : "false".utf8)
        case .int(let values): appendInt(values.values[row])
        case .double(let values):
            appendFloatingPoint(values.values[row], text: values.values[row].description, raw: raw)
        case .float(let values):
            let float = values.values[row]
            appendFloatingPoint(Double(float), text: float.description, raw: raw)
        case .string(let values): Self.appendString(values.bytes(at: row), raw: raw, to: &bytes)
        default: return false
        }
        return true
    }

    private func isNull(_ view: ColumnView, _ row: Int) -> Bool {
        switch view {
        case .bool(let v): v.nulls.isNull(row)
        case .int(let v): v.nulls.isNull(row)
        case .float(let v): v.nulls.isNull(row)
        case .double(let v): v.nulls.isNull(row)
        case .decimal(let v): v.nulls.isNull(row)
        case .date(let v): v.nulls.isNull(row)
        case .objectId(let v): v.nulls.isNull(row)
        case .uuid(let v): v.nulls.isNull(row)
        case .string(let v): v.nulls.isNull(row)
        case .data(let v): v.nulls.isNull(row)
        case .mixed(let v): v.values[row].isNull
        case .link(let v): v.keys[row] < 0
        case .collection: false
        }
    }

    // MARK: Text

    /// A finite number as `text` (its description), NaN and the infinities as the strings the
    /// dataset format reads back.
    private mutating func appendFloatingPoint(_ value: Double, text: String, raw: Bool) {
        if let name = DatasetExporter.nonFiniteName(value) {
            name.withUTF8Buffer { Self.appendValidString($0, raw: raw, to: &bytes) }
        } else {
            bytes.append(contentsOf: text.utf8)
        }
    }

    private mutating func appendInt(_ value: Int64) {
        // Two digits at a time from a table of "00" … "99", into the end of a 24-byte buffer.
        var magnitude = value.magnitude
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { digits in
            let pairs = decimalDigitPairs
            var start = digits.count
            while magnitude >= 10 {
                let pair = Int(magnitude % 100) &* 2
                magnitude /= 100
                start -= 2
                digits[start] = pairs[pair]
                digits[start + 1] = pairs[pair + 1]
            }
            if magnitude > 0 || start == digits.count {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude)
            }
            if value < 0 {
                start -= 1
                digits[start] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: digits[start...]))
        }
    }

    private mutating func appendJSON(_ json: JSONValue, pretty: Bool, indent: Int) {
        json.write(to: &bytes, pretty: pretty, indent: indent)
    }

    private mutating func newline(_ indent: Int) {
        bytes.append(UInt8(ascii: "\n"))
        for _ in 0..<indent { bytes.append(contentsOf: "  ".utf8) }
    }

    /// `text` (UTF-8, repaired as `String(decoding:as:)` does) as a JSON string escaped as
    /// `JSONValue.serialized` escapes it, or with `raw` as it is.
    static func appendString<Bytes: Collection<UInt8>>(_ text: Bytes, raw: Bool, to bytes: inout [UInt8]) {
        if text.contains(where: { $0 >= 0x80 }) {
            // Not ASCII: write the text as a String reads it, so invalid UTF-8 is repaired the same way.
            var string = String(decoding: text, as: UTF8.self)
            string.withUTF8 { appendValidString($0, raw: raw, to: &bytes) }
        } else if text.withContiguousStorageIfAvailable({ appendValidString($0, raw: raw, to: &bytes) }) == nil {
            Array(text).withUnsafeBufferPointer { appendValidString($0, raw: raw, to: &bytes) }
        }
    }

    /// `appendString` of valid UTF-8: escaped as every JSON string of the package is, or with
    /// `raw` as it is.
    private static func appendValidString(_ text: UnsafeBufferPointer<UInt8>, raw: Bool, to bytes: inout [UInt8]) {
        if raw {
            bytes.append(contentsOf: text)
        } else {
            JSONValue.appendString(utf8: text, to: &bytes)
        }
    }

    /// The class a link property points at, and how a link to it is written.
    struct LinkTarget {
        let table: Store.Table
        /// Embedded objects are written inline.
        let isEmbedded: Bool
        /// Otherwise the primary key, or the position when there is none.
        let keyIndex: Int?

        init(table: Store.Table) {
            self.table = table
            let objectSchema = table.objectSchema
            isEmbedded = objectSchema.isEmbedded
            keyIndex = objectSchema.primaryKeyIndex
        }
    }
}

/// 10^0 … 10^19: `writeDecimal` counts digits with them.
private let powersOfTen: [UInt64] = (0..<20).map { (0..<$0).reduce(1) { power, _ in power * 10 } }

/// "00", "01", … "99": `appendInt` writes two digits a division.
private let decimalDigitPairs: [UInt8] = (0..<100).flatMap {
    [UInt8(ascii: "0") + UInt8($0 / 10), UInt8(ascii: "0") + UInt8($0 % 10)]
}

/// What `DatasetObjectWriter` asks of a property for each value (outside the generic writer: a
/// type nested in it has its metadata made at run time).
private struct PropertyForm {
    let collection: CollectionKind
    let isMixed: Bool

    init(_ property: Property) {
        collection = property.collection
        isMixed = property.type == .mixed
    }
}
