import RQLCore

/// One row's list, set or map read in place: its element count, one element, one map key, and
/// where a set element or a map key is or would go. Writes inside a transaction use only these,
/// so that an append or an insert costs the elements it touches, not a decoding of the whole
/// collection into `Value`s (which made a loop of appends quadratic).
extension CollectionSegment {
    func count(ofRow row: Int) -> Int { offset(row + 1) - offset(row) }

    func element(ofRow row: Int, at index: Int) -> Value { elements.value(at: offset(row) + index) }

    func key(ofRow row: Int, at index: Int) -> String { keys?.string(at: offset(row) + index) ?? "" }

    /// Where `value` is or would go among the row's elements, in `ValueOrdering` (a set's order).
    func position(ofElement value: Value, inRow row: Int) -> (index: Int, found: Bool) {
        let base = offset(row)
        var low = 0
        var high = count(ofRow: row)
        while low < high {
            let mid = (low + high) / 2
            let order = ValueOrdering.compare(elements.value(at: base + mid), value)
            if order == 0 { return (mid, true) }
            if order < 0 { low = mid + 1 } else { high = mid }
        }
        return (low, false)
    }

    /// Where `key` is or would go among the row's map keys, in UTF-8 byte order, comparing the
    /// stored bytes without making strings.
    func position(ofKey key: String, inRow row: Int) -> (index: Int, found: Bool) {
        guard let keys else { return (0, false) }
        let base = offset(row)
        var low = 0
        var high = count(ofRow: row)
        var key = key
        return key.withUTF8 { wanted in
            while low < high {
                let mid = (low + high) / 2
                let stored = keys.raw(base + mid)
                let order = compareBytes(
                    UnsafeBufferPointer(
                        start: stored.baseAddress?.assumingMemoryBound(to: UInt8.self),
                        count: stored.count
                    ),
                    wanted
                )
                if order == 0 { return (mid, true) }
                if order < 0 { low = mid + 1 } else { high = mid }
            }
            return (low, false)
        }
    }
}

extension Block {
    /// The collection segment of `column`, or nil for a column that holds no collections.
    func collectionSegment(_ column: Int) -> CollectionSegment? {
        if case .collection(let segment) = self.column(column) { return segment }
        return nil
    }

    func elementCount(row: Int, column: Int) -> Int {
        collectionSegment(column)?.count(ofRow: row) ?? 0
    }

    func element(row: Int, column: Int, at index: Int) -> Value {
        collectionSegment(column)?.element(ofRow: row, at: index) ?? .null
    }

    /// Elements `range` of the row's collection (map values, in key order).
    func elements(row: Int, column: Int, range: Range<Int>) -> [Value] {
        guard let segment = collectionSegment(column) else { return [] }
        return range.map { segment.element(ofRow: row, at: $0) }
    }

    func mapKey(row: Int, column: Int, at index: Int) -> String {
        collectionSegment(column)?.key(ofRow: row, at: index) ?? ""
    }

    func position(ofElement value: Value, row: Int, column: Int) -> (index: Int, found: Bool) {
        collectionSegment(column)?.position(ofElement: value, inRow: row) ?? (0, false)
    }

    func position(ofKey key: String, row: Int, column: Int) -> (index: Int, found: Bool) {
        collectionSegment(column)?.position(ofKey: key, inRow: row) ?? (0, false)
    }
}

/// The same reads on a managed object's row, for the object model's live collections.
extension BlockRow {
    /// The number of elements of collection property `property` (0 for any other property).
    public func elementCount(_ property: Int) -> Int {
        block.elementCount(row: row, column: property)
    }

    /// Element `index` of collection property `property` (a map's values in key order).
    public func element(_ property: Int, at index: Int) -> Value {
        block.element(row: row, column: property, at: index)
    }

    /// Key `index` of map property `property`, in key order.
    public func mapKey(_ property: Int, at index: Int) -> String {
        block.mapKey(row: row, column: property, at: index)
    }

    /// The position of `key` in map property `property`, or nil when it is not there.
    public func mapIndex(_ property: Int, of key: String) -> Int? {
        let (index, found) = block.position(ofKey: key, row: row, column: property)
        return found ? index : nil
    }

    /// The position of `value` in set property `property`, or nil when it is not there.
    public func setIndex(_ property: Int, of value: Value) -> Int? {
        let (index, found) = block.position(ofElement: value, row: row, column: property)
        return found ? index : nil
    }
}
