import Foundation
import RQLCore

extension Segment {
    /// The `ColumnView` of the segment's first `count` items, pointing straight into its arrays.
    /// Valid while the segment's storages live (the caller holds the block). Backlink segments
    /// have no view of their own (`BlockTable` builds one from the backlink index).
    func view(count: Int) -> ColumnView {
        switch self {
        case .fixed(let s):
            return s.view(count: count)
        case .bytes(let s):
            return s.isString ? .string(s.view(count: count)) : .data(s.view(count: count))
        case .mixed(let s):
            let decoded = s.cache.values(of: s.encoded, count: count)
            return .mixed(
                FixedWidthColumnView(
                    values: UnsafeBufferPointer(decoded.values),
                    nulls: NullMask(words: UnsafeBufferPointer(decoded.nullWords))
                )
            )
        case .collection(let s):
            let elementCount = s.offset(count)
            return .collection(
                CollectionColumnView(
                    kind: s.kind,
                    offsets: s.offsets.buffer(count: count + 1, as: Int.self),
                    elements: s.elements.view(count: elementCount),
                    keys: s.keys?.view(count: elementCount)
                )
            )
        case .backlinks:
            return .collection(
                CollectionColumnView(
                    kind: .list,
                    offsets: UnsafeBufferPointer(start: nil, count: 0),
                    elements: .link(LinkColumnView(targetClass: "", keys: UnsafeBufferPointer(start: nil, count: 0))),
                    keys: nil
                )
            )
        }
    }
}

extension FixedSegment {
    func view(count: Int) -> ColumnView {
        let mask = NullMask(
            words: nulls?.buffer(count: NullBits.wordCount(count), as: UInt64.self) ?? .init(start: nil, count: 0)
        )
        switch type {
        case .bool: return .bool(FixedWidthColumnView(values: values.buffer(count: count, as: Bool.self), nulls: mask))
        case .int: return .int(FixedWidthColumnView(values: values.buffer(count: count, as: Int64.self), nulls: mask))
        case .float:
            return .float(FixedWidthColumnView(values: values.buffer(count: count, as: Float.self), nulls: mask))
        case .double:
            return .double(FixedWidthColumnView(values: values.buffer(count: count, as: Double.self), nulls: mask))
        case .decimal:
            return .decimal(FixedWidthColumnView(values: values.buffer(count: count, as: Decimal128.self), nulls: mask))
        case .date:
            return .date(FixedWidthColumnView(values: values.buffer(count: count, as: Timestamp.self), nulls: mask))
        case .objectId:
            return .objectId(FixedWidthColumnView(values: values.buffer(count: count, as: ObjectId.self), nulls: mask))
        case .uuid: return .uuid(FixedWidthColumnView(values: values.buffer(count: count, as: UUID.self), nulls: mask))
        case .link(let target):
            return .link(LinkColumnView(targetClass: target, keys: values.buffer(count: count, as: Int64.self)))
        }
    }
}

extension BytesSegment {
    func view(count: Int) -> BytesColumnView {
        BytesColumnView(
            offsets: offsets.buffer(count: count + 1, as: Int.self),
            bytes: bytes.buffer(count: offset(count), as: UInt8.self),
            nulls: NullMask(
                words: nulls?.buffer(count: NullBits.wordCount(count), as: UInt64.self) ?? .init(start: nil, count: 0)
            )
        )
    }
}
