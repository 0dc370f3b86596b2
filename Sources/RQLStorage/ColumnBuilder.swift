import Foundation
import RQLCore

/// Builds one property's `Column` a value at a time, straight into the column's typed arrays, so
/// a dataset is loaded without first holding every row as `Value`s (a `Value` takes 48 bytes; an
/// `int` cell 8). Values arrive already checked against the property's type by the loader.
///
///     let builder = ColumnBuilder(property)
///     builder.append(.int(3))
///     let column = builder.build()
final class ColumnBuilder {
    private let type: PropertyType
    private let collection: CollectionKind
    private let isOptional: Bool
    private var count = 0
    private var nullWords: [UInt64] = []
    private var bools: [Bool] = []
    private var ints: [Int64] = []
    private var floats: [Float] = []
    private var doubles: [Double] = []
    private var decimals: [Decimal128] = []
    private var dates: [Timestamp] = []
    private var objectIds: [ObjectId] = []
    private var uuids: [UUID] = []
    private var bytes = BytesColumn()
    private var mixed: [Value] = []
    private var links: [Int64] = []
    // Collections: row `i` owns elements `offsets[i] ..< offsets[i + 1]` (and map keys alike).
    private var offsets: [Int] = [0]
    private var elements: ColumnBuilder?
    private var mapKeys = BytesColumn()

    /// A builder for `property`'s column (a backlink property builds a list of links).
    convenience init(_ property: Property) {
        if case .linkingObjects(let originClass, _) = property.type {
            self.init(type: .object(originClass), collection: .list, optional: false)
        } else {
            self.init(type: property.type, collection: property.collection, optional: property.isOptional)
        }
    }

    init(type: PropertyType, collection: CollectionKind, optional: Bool) {
        self.type = type
        self.collection = collection
        self.isOptional = optional
        if collection != .single { elements = ColumnBuilder(type: type, collection: .single, optional: optional) }
    }

    /// The column for `values`, `values[i]` being row `i`. Sets are put in `ValueOrdering` order
    /// with duplicates removed.
    static func build(_ values: [Value], for property: Property) -> Column {
        let builder = ColumnBuilder(property)
        builder.reserve(values.count)
        for value in values { builder.append(value) }
        return builder.build()
    }

    func reserve(_ rows: Int) {
        switch collection {
        case .single:
            switch type {
            case .int: ints.reserveCapacity(rows)
            case .double: doubles.reserveCapacity(rows)
            case .string, .data: bytes.offsets.reserveCapacity(rows + 1)
            case .object, .linkingObjects: links.reserveCapacity(rows)
            default: break
            }
        case .list, .set, .map: offsets.reserveCapacity(rows + 1)
        }
    }

    /// Appends row `count`'s value: a `.list` or `.map` for a collection, a `.link` (or null) for
    /// a link, the typed value or null otherwise.
    func append(_ value: Value) {
        defer { count += 1 }
        if let elements {
            switch value {
            case .list(let items):
                for item in collection == .set ? Value.sortedUnique(items) : items { elements.append(item) }
            case .map(let map):
                for entry in map {
                    mapKeys.bytes.append(contentsOf: entry.key.utf8)
                    mapKeys.offsets.append(mapKeys.bytes.count)
                    elements.append(entry.value)
                }
            default: break
            }
            offsets.append(elements.count)
            return
        }
        if type == .mixed {
            mixed.append(value)
            return
        }
        if isOptional {
            if count & 63 == 0 { nullWords.append(0) }
            if value.isNull { nullWords[count >> 6] |= 1 << UInt64(count & 63) }
        }
        switch type {
        case .bool: bools.append(value.payload(false) { if case .bool(let v) = $0 { v } else { nil } })
        case .int: ints.append(value.payload(0) { if case .int(let v) = $0 { v } else { nil } })
        case .float: floats.append(value.payload(0) { if case .float(let v) = $0 { v } else { nil } })
        case .double: doubles.append(value.payload(0) { if case .double(let v) = $0 { v } else { nil } })
        case .decimal128: decimals.append(value.payload(.zero) { if case .decimal(let v) = $0 { v } else { nil } })
        case .date: dates.append(value.payload(.epoch) { if case .date(let v) = $0 { v } else { nil } })
        case .objectId: objectIds.append(value.payload(.zero) { if case .objectId(let v) = $0 { v } else { nil } })
        case .uuid: uuids.append(value.payload(ColumnBuilder.zeroUUID) { if case .uuid(let v) = $0 { v } else { nil } })
        case .string, .data:
            switch value {
            case .string(let s): bytes.bytes.append(contentsOf: s.utf8)
            case .data(let d): bytes.bytes.append(contentsOf: d)
            default: break
            }
            bytes.offsets.append(bytes.bytes.count)
        case .object, .linkingObjects:
            links.append(value.payload(-1) { if case .link(let l) = $0 { l.key.rawValue } else { nil } })
        case .mixed:
            break
        }
    }

    /// The finished column; the builder is spent.
    func build() -> Column {
        if let elements {
            return .collection(
                CollectionColumn(
                    kind: collection,
                    offsets: offsets,
                    elements: elements.build(),
                    keys: collection == .map ? mapKeys : nil
                )
            )
        }
        let nulls = isOptional ? nullWords : []
        switch type {
        case .bool: return .bool(FixedWidthColumn(values: bools, nullWords: nulls))
        case .int: return .int(FixedWidthColumn(values: ints, nullWords: nulls))
        case .float: return .float(FixedWidthColumn(values: floats, nullWords: nulls))
        case .double: return .double(FixedWidthColumn(values: doubles, nullWords: nulls))
        case .decimal128: return .decimal(FixedWidthColumn(values: decimals, nullWords: nulls))
        case .date: return .date(FixedWidthColumn(values: dates, nullWords: nulls))
        case .objectId: return .objectId(FixedWidthColumn(values: objectIds, nullWords: nulls))
        case .uuid: return .uuid(FixedWidthColumn(values: uuids, nullWords: nulls))
        case .string, .data:
            var column = bytes
            column.nullWords = nulls
            return type == .string ? .string(column) : .data(column)
        case .mixed: return .mixed(FixedWidthColumn(values: mixed, nullWords: ColumnBuilder.nullWords(mixed)))
        case .object(let target), .linkingObjects(let target, _): return .link(target: target, keys: links)
        }
    }

    private static let zeroUUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    static func nullWords(_ values: [Value]) -> [UInt64] {
        var words = [UInt64](repeating: 0, count: (values.count + 63) / 64)
        for (i, value) in values.enumerated() where value.isNull {
            words[i >> 6] |= 1 << UInt64(i & 63)
        }
        return words
    }
}

extension Value {
    /// The payload `extract` finds, or `fallback` (the stored filler under a null bit).
    @inline(__always)
    fileprivate func payload<T>(_ fallback: T, _ extract: (Value) -> T?) -> T { extract(self) ?? fallback }
}
