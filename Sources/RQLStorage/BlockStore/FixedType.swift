import Foundation
import RQLCore

/// The fixed-width types a block stores as plain arrays, in the Swift memory layout that
/// `FixedWidthColumnView` exposes (so a view is the stored bytes, with no decoding), and links,
/// stored as the target's row key with -1 for none.
///
/// A null item holds the type's zero bytes (-1 for a link); the null bitmap says it is null.
enum FixedType: Hashable, Sendable {
    /// `Bool`, one byte, 0 or 1.
    case bool
    /// `Int64`.
    case int
    /// `Float`.
    case float
    /// `Double`.
    case double
    /// `Decimal128`.
    case decimal
    /// `Timestamp`.
    case date
    /// `ObjectId`.
    case objectId
    /// `UUID`.
    case uuid
    /// A link to the named class: the target's row key as `Int64`, -1 for none.
    case link(String)

    var stride: Int {
        switch self {
        case .bool: MemoryLayout<Bool>.stride
        case .int, .link: MemoryLayout<Int64>.stride
        case .float: MemoryLayout<Float>.stride
        case .double: MemoryLayout<Double>.stride
        case .decimal: MemoryLayout<Decimal128>.stride
        case .date: MemoryLayout<Timestamp>.stride
        case .objectId: MemoryLayout<ObjectId>.stride
        case .uuid: MemoryLayout<UUID>.stride
        }
    }

    /// Writes `value` (zero, or -1 for a link, when it is null or of another kind).
    @inline(__always)
    func store(_ value: Value, at p: UnsafeMutableRawPointer) {
        switch (self, value) {
        case (.bool, .bool(let v)): p.storeBytes(of: v, as: Bool.self)
        case (.int, .int(let v)): p.storeBytes(of: v, as: Int64.self)
        case (.float, .float(let v)): p.storeBytes(of: v, as: Float.self)
        case (.double, .double(let v)): p.storeBytes(of: v, as: Double.self)
        case (.decimal, .decimal(let v)): p.initializeMemory(as: Decimal128.self, repeating: v, count: 1)
        case (.date, .date(let v)): p.initializeMemory(as: Timestamp.self, repeating: v, count: 1)
        case (.objectId, .objectId(let v)): p.initializeMemory(as: ObjectId.self, repeating: v, count: 1)
        case (.uuid, .uuid(let v)): p.initializeMemory(as: UUID.self, repeating: v, count: 1)
        case (.link, .link(let link)): p.storeBytes(of: link.key.rawValue, as: Int64.self)
        case (.link, _): p.storeBytes(of: -1, as: Int64.self)
        default: p.initializeMemory(as: UInt8.self, repeating: 0, count: stride)
        }
    }

    /// The value at `p` (never null: the caller checks the bitmap; a -1 link is null).
    @inline(__always)
    func load(at p: UnsafeRawPointer) -> Value {
        switch self {
        case .bool: .bool(p.load(as: Bool.self))
        case .int: .int(p.load(as: Int64.self))
        case .float: .float(p.load(as: Float.self))
        case .double: .double(p.load(as: Double.self))
        case .decimal: .decimal(p.load(as: Decimal128.self))
        case .date: .date(p.load(as: Timestamp.self))
        case .objectId: .objectId(p.load(as: ObjectId.self))
        case .uuid: .uuid(p.load(as: UUID.self))
        case .link(let target):
            p.load(as: Int64.self) < 0
                ? .null : .link(ObjectLink(className: target, key: RowKey(p.load(as: Int64.self))))
        }
    }

    /// The fixed type of a property's values (or elements), or `nil` for strings, data and mixed.
    init?(_ type: PropertyType) {
        switch type {
        case .bool: self = .bool
        case .int: self = .int
        case .float: self = .float
        case .double: self = .double
        case .decimal128: self = .decimal
        case .date: self = .date
        case .objectId: self = .objectId
        case .uuid: self = .uuid
        case .object(let target): self = .link(target)
        case .string, .data, .mixed, .linkingObjects: return nil
        }
    }
}

/// How a property is laid out in a block: which arrays its segment has.
indirect enum SegmentShape: Hashable, Sendable {
    /// A fixed-width array, with a null bitmap when `optional`.
    case fixed(FixedType, optional: Bool)
    /// Offsets and bytes (UTF-8 for strings), with a null bitmap when `optional`.
    case bytes(isString: Bool, optional: Bool)
    /// Encoded `mixed` values (`MixedCoding`), decoded lazily for views.
    case mixed
    /// Per row an offset range into an element segment of shape `element`; maps also keep keys.
    case collection(CollectionKind, element: SegmentShape)
    /// Computed backlinks (`linkingObjects`): nothing stored in the block.
    case backlinks

    init(_ property: Property) {
        if property.isBacklink {
            self = .backlinks
            return
        }
        let element: SegmentShape
        if let fixed = FixedType(property.type) {
            // Links carry their own null (-1); no bitmap.
            element = .fixed(fixed, optional: property.isOptional && !property.isLink)
        } else if property.type == .mixed {
            element = .mixed
        } else {
            element = .bytes(isString: property.type == .string, optional: property.isOptional)
        }
        self = property.collection == .single ? element : .collection(property.collection, element: element)
    }
}
