import Foundation
import RQLCore

/// Turns one property's values (one `Value` per row, already checked against the property's
/// type by the loader) into a `Column`.
enum ColumnBuilder {
    /// The column for `property`; `values[i]` is row `i`. Backlink properties arrive as `.list`s of
    /// `.link`s. Sets are put in `ValueOrdering` order with duplicates removed.
    static func build(_ values: [Value], for property: Property) -> Column {
        if case .linkingObjects(let originClass, _) = property.type {
            return collection(values, kind: .list, elementType: .object(originClass), optional: false)
        }
        switch property.collection {
        case .single: return single(values, type: property.type, optional: property.isOptional)
        case .list, .set, .map:
            return collection(
                values,
                kind: property.collection,
                elementType: property.type,
                optional: property.isOptional
            )
        }
    }

    static func collection(_ values: [Value], kind: CollectionKind, elementType: PropertyType, optional: Bool) -> Column
    {
        var offsets = [0]
        offsets.reserveCapacity(values.count + 1)
        var elements: [Value] = []
        var keys = BytesColumn()
        for value in values {
            switch value {
            case .list(var items):
                if kind == .set { items = sortedUnique(items) }
                elements.append(contentsOf: items)
            case .map(let map):
                for entry in map {
                    keys.bytes.append(contentsOf: entry.key.utf8)
                    keys.offsets.append(keys.bytes.count)
                    elements.append(entry.value)
                }
            default:
                break
            }
            offsets.append(elements.count)
        }
        let elementColumn = single(elements, type: elementType, optional: optional)
        return .collection(
            CollectionColumn(kind: kind, offsets: offsets, elements: elementColumn, keys: kind == .map ? keys : nil)
        )
    }

    /// Set order: ascending by `ValueOrdering`, one element per equal group.
    static func sortedUnique(_ items: [Value]) -> [Value] {
        let sorted = items.enumerated().sorted { a, b in
            let order = ValueOrdering.compare(a.element, b.element)
            return order != 0 ? order < 0 : a.offset < b.offset
        }
        var result: [Value] = []
        for (_, item) in sorted where result.last.map({ ValueOrdering.compare($0, item) != 0 }) ?? true {
            result.append(item)
        }
        return result
    }

    static func single(_ values: [Value], type: PropertyType, optional: Bool) -> Column {
        let nulls = optional ? nullWords(values) : []
        switch type {
        case .bool:
            return .bool(
                FixedWidthColumn(
                    values: values.map { if case .bool(let v) = $0 { v } else { false } },
                    nullWords: nulls
                )
            )
        case .int:
            return .int(
                FixedWidthColumn(values: values.map { if case .int(let v) = $0 { v } else { 0 } }, nullWords: nulls)
            )
        case .float:
            return .float(
                FixedWidthColumn(values: values.map { if case .float(let v) = $0 { v } else { 0 } }, nullWords: nulls)
            )
        case .double:
            return .double(
                FixedWidthColumn(values: values.map { if case .double(let v) = $0 { v } else { 0 } }, nullWords: nulls)
            )
        case .decimal128:
            return .decimal(
                FixedWidthColumn(
                    values: values.map { if case .decimal(let v) = $0 { v } else { .zero } },
                    nullWords: nulls
                )
            )
        case .date:
            return .date(
                FixedWidthColumn(
                    values: values.map { if case .date(let v) = $0 { v } else { .epoch } },
                    nullWords: nulls
                )
            )
        case .objectId:
            return .objectId(
                FixedWidthColumn(
                    values: values.map { if case .objectId(let v) = $0 { v } else { .zero } },
                    nullWords: nulls
                )
            )
        case .uuid:
            let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
            return .uuid(
                FixedWidthColumn(values: values.map { if case .uuid(let v) = $0 { v } else { zero } }, nullWords: nulls)
            )
        case .string, .data:
            var column = BytesColumn()
            column.nullWords = nulls
            for value in values {
                switch value {
                case .string(let s): column.bytes.append(contentsOf: s.utf8)
                case .data(let d): column.bytes.append(contentsOf: d)
                default: break
                }
                column.offsets.append(column.bytes.count)
            }
            return type == .string ? .string(column) : .data(column)
        case .mixed:
            return .mixed(FixedWidthColumn(values: values, nullWords: nullWords(values)))
        case .object(let target), .linkingObjects(let target, _):
            return .link(target: target, keys: values.map { if case .link(let l) = $0 { l.key.rawValue } else { -1 } })
        }
    }

    static func nullWords(_ values: [Value]) -> [UInt64] {
        var words = [UInt64](repeating: 0, count: (values.count + 63) / 64)
        for (i, value) in values.enumerated() where value.isNull {
            words[i >> 6] |= 1 << UInt64(i & 63)
        }
        return words
    }
}
