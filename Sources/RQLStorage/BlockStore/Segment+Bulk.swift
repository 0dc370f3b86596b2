import Foundation
import RQLCore

/// Typed bulk appends: rows copied from another store's column view with `memcpy`-sized
/// steps instead of one `Value` at a time.
extension Segment {
    /// Appends rows `rows` of `view` after the segment's `count` items; `mapLink` turns a source
    /// row key of a class into this store's key. Returns false (and appends nothing) when the
    /// shapes have no typed copy (mixed, collections); the caller then appends `Value`s.
    mutating func appendRows(
        from view: ColumnView,
        rows: Range<Int>,
        count: Int,
        mapLink: (String, Int64) -> Int64
    ) -> Bool {
        switch self {
        case .fixed(var s):
            guard let part = view.fixedPart(rows, mapLink: mapLink), part.type == s.type else { return false }
            self = .backlinks
            s.append(raw: part.bytes, nulls: part.nulls, count: count)
            self = .fixed(s)
            return true
        case .bytes(var s):
            let bytesView: BytesColumnView
            switch view {
            case .string(let v) where s.isString: bytesView = v
            case .data(let v) where !s.isString: bytesView = v
            default: return false
            }
            self = .backlinks
            let start = bytesView.offsets[rows.lowerBound]
            let payload = Array(bytesView.bytes[start..<bytesView.offsets[rows.upperBound]])
            let lengths = rows.map { bytesView.offsets[$0 + 1] - bytesView.offsets[$0] }
            s.append(payload: payload, lengths: lengths, rows: rows, count: count) { bytesView.nulls.isNull($0) }
            self = .bytes(s)
            return true
        case .mixed, .collection, .backlinks:
            return false
        }
    }
}

extension Segment {
    /// Appends rows `rows` of typed column values after the segment's `count` items. Returns
    /// false (and appends nothing) for `.values` and for a column of another type; the caller
    /// then appends `Value`s. The values were checked against the property.
    mutating func appendRows(from values: ColumnValues, rows: Range<Int>, count: Int) -> Bool {
        func part<T>(_ v: [T], _ nulls: [Bool]?) -> (bytes: [UInt8], nulls: [Bool]?) {
            (v[rows].withUnsafeBytes { Array($0) }, nulls.map { Array($0[rows]) })
        }
        switch self {
        case .fixed(var s):
            let typed: (bytes: [UInt8], nulls: [Bool]?)
            switch values {
            case .bool(let v, let nulls) where s.type == .bool: typed = part(v, nulls)
            case .int(let v, let nulls) where s.type == .int: typed = part(v, nulls)
            case .float(let v, let nulls) where s.type == .float: typed = part(v, nulls)
            case .double(let v, let nulls) where s.type == .double: typed = part(v, nulls)
            default: return false
            }
            self = .backlinks
            s.append(raw: typed.bytes, nulls: typed.nulls, count: count)
            self = .fixed(s)
            return true
        case .bytes(var s):
            guard s.isString, case .string(let v) = values else { return false }
            var payload: [UInt8] = []
            var lengths: [Int] = []
            lengths.reserveCapacity(rows.count)
            for row in rows {
                let before = payload.count
                if let string = v[row] { payload.append(contentsOf: string.utf8) }
                lengths.append(payload.count - before)
            }
            self = .backlinks
            s.append(payload: payload, lengths: lengths, rows: rows, count: count) { v[$0] == nil }
            self = .bytes(s)
            return true
        case .mixed, .collection, .backlinks:
            return false
        }
    }
}

extension FixedSegment {
    /// Appends items given as raw bytes in this type's layout, with their null flags (`nil`: none null).
    mutating func append(raw: [UInt8], nulls newNulls: [Bool]?, count: Int) {
        let added = raw.count / type.stride
        let p = values.splice(
            count * type.stride..<count * type.stride,
            insertCount: raw.count,
            used: count * type.stride,
            limit: byteLimit(TableBlock.capacity, type.stride)
        )
        if !raw.isEmpty { raw.withUnsafeBytes { p.copyMemory(from: $0.baseAddress!, byteCount: raw.count) } }
        if nulls != nil {
            NullBits.splice(
                &nulls!,
                count: count,
                range: count..<count,
                newNulls: newNulls ?? Array(repeating: false, count: added)
            )
        }
    }
}

extension ColumnView {
    /// Rows `rows` of a fixed-width or link view as bytes in the block layout, with null flags.
    fileprivate func fixedPart(
        _ rows: Range<Int>,
        mapLink: (String, Int64) -> Int64
    ) -> (type: FixedType, bytes: [UInt8], nulls: [Bool]?)? {
        func copy<T>(
            _ view: FixedWidthColumnView<T>,
            _ type: FixedType
        ) -> (type: FixedType, bytes: [UInt8], nulls: [Bool]?) {
            let bytes = Array(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: view.values[rows])))
            return (type, bytes, view.nulls.hasNulls ? rows.map { view.nulls.isNull($0) } : nil)
        }
        switch self {
        case .bool(let v): return copy(v, .bool)
        case .int(let v): return copy(v, .int)
        case .float(let v): return copy(v, .float)
        case .double(let v): return copy(v, .double)
        case .decimal(let v): return copy(v, .decimal)
        case .date(let v): return copy(v, .date)
        case .objectId(let v): return copy(v, .objectId)
        case .uuid(let v): return copy(v, .uuid)
        case .link(let v):
            let keys = rows.map { v.keys[$0] < 0 ? -1 : mapLink(v.targetClass, v.keys[$0]) }
            return (.link(v.targetClass), keys.withUnsafeBytes { Array($0) }, nil)
        case .string, .data, .mixed, .collection:
            return nil
        }
    }
}

extension BytesSegment {
    /// Appends the items of source rows `rows` after the `count` items, given as their bytes back
    /// to back and their lengths; `isNull` says which source rows are null and is asked only when
    /// the segment keeps nulls.
    mutating func append(
        payload: [UInt8],
        lengths: [Int],
        rows: Range<Int>,
        count: Int,
        isNull: (Int) -> Bool
    ) {
        let nulls = self.nulls == nil ? [] : rows.map(isNull)
        replace(
            count..<count,
            payload: payload,
            lengths: lengths,
            nulls: nulls,
            count: count,
            limit: TableBlock.capacity
        )
    }
}
