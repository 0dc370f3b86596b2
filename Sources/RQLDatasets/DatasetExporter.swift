import Foundation
import RQLCore
import RQLStorage

/// Writes a store back in the JSON dataset format, so that loading the output gives the same
/// schema and data (backlinks are recomputed, never written).
///
/// Typed properties use the plain forms (numbers, ISO-8601 dates, hex ObjectIds, base64 data,
/// decimal strings; `"NaN"`/`"Infinity"` for non-finite floats); mixed values use the tagged
/// forms for every type JSON cannot tell apart. Links are written as the target's primary key,
/// or its position when the class has none; embedded objects inline.
///
/// Known limit: a nested mixed map whose only key is a tag such as `"$oid"` is read back as the
/// tagged value, not as a map.
///
/// ```swift
/// let text = DatasetExporter.export(store)
/// let again = try DatasetLoader.load(json: text)   // same contents
/// ```
public enum DatasetExporter {
    /// The whole store (schema and objects) as JSON text.
    public static func export<Store: StoreReader>(_ store: Store, pretty: Bool = true) -> String {
        document(store).serialized(pretty: pretty)
    }

    /// The whole store as a JSON document.
    public static func document<Store: StoreReader>(_ store: Store) -> JSONValue {
        var objects: [JSONMember] = []
        for objectSchema in store.schema.classes where !objectSchema.isEmbedded {
            guard let table = store.table(named: objectSchema.name), table.rowCount > 0 else { continue }
            let rows = (0..<table.rowCount).map { object(at: $0, in: table, store: store) }
            objects.append(JSONMember(objectSchema.name, .array(rows)))
        }
        return .object([
            JSONMember("schema", DatasetSchemaReader.write(store.schema)),
            JSONMember("objects", .object(objects)),
        ])
    }

    /// The `schema` section of the dataset format for `schema`: what `document` starts with, for
    /// a writer that streams the objects after it (`rqlc export`).
    public static func schema(_ schema: Schema) -> JSONValue {
        DatasetSchemaReader.write(schema)
    }

    /// One object as the dataset format writes it (what `rqlc run` prints a line for): stored
    /// properties in schema order, links as primary keys or positions, embedded objects inline.
    public static func object<Store: StoreReader>(at position: Int, in table: Store.Table, store: Store) -> JSONValue {
        var members: [JSONMember] = []
        for (index, property) in table.objectSchema.properties.enumerated() where !property.isBacklink {
            let value = table.value(at: position, property: index)
            members.append(JSONMember(property.name, json(value, property: property, store: store)))
        }
        return .object(members)
    }

    /// A property's value as the object's member (`object(at:in:store:)`).
    static func json<Store: StoreReader>(_ value: Value, property: Property, store: Store) -> JSONValue {
        switch (property.collection, value) {
        case (.list, .list(let items)), (.set, .list(let items)):
            return .array(items.map { element($0, type: property.type, store: store) })
        case (.map, .map(let map)):
            return .object(map.map { JSONMember($0.key, element($0.value, type: property.type, store: store)) })
        default:
            return element(value, type: property.type, store: store)
        }
    }

    private static func element<Store: StoreReader>(_ value: Value, type: PropertyType, store: Store?) -> JSONValue {
        if type == .mixed { return mixed(value, store: store) }
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .number(JSONNumber(text: String(i)))
        case .float(let f): return floatingPoint(Double(f), text: "\(f)")
        case .double(let d): return floatingPoint(d, text: "\(d)")
        case .string(let s): return .string(s)
        case .data(let d): return .string(Base64.encode(d))
        case .date(let t):
            // ISO-8601 reads back only for years of up to nine digits; beyond, write the exact parts.
            let (year, _, _) = t.civilDate
            if year >= -999_999_999 && year <= 999_999_999 { return .string(t.iso8601) }
            return .object([
                JSONMember(
                    "$date",
                    .array([
                        .number(JSONNumber(text: String(t.seconds))), .number(JSONNumber(text: String(t.nanoseconds))),
                    ])
                )
            ])
        case .decimal(let d): return .string(d.description)
        case .objectId(let o): return .string(o.hexString)
        case .uuid(let u): return .string(u.canonicalString)
        case .link(let link): return linkJSON(link, store: store)
        case .list(let items): return .array(items.map { mixed($0, store: store) })
        case .map(let map): return .object(map.map { JSONMember($0.key, mixed($0.value, store: store)) })
        }
    }

    private static func floatingPoint(_ d: Double, text: String) -> JSONValue {
        if d.isNaN { return .string("NaN") }
        if d.isInfinite { return .string(d < 0 ? "-Infinity" : "Infinity") }
        return .number(JSONNumber(text: text))
    }

    private static func mixed<Store: StoreReader>(_ value: Value, store: Store?) -> JSONValue {
        func tag(_ name: String, _ payload: JSONValue) -> JSONValue { .object([JSONMember(name, payload)]) }
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .number(JSONNumber(text: String(i)))
        case .string(let s): return .string(s)
        case .double(let d):
            // A finite double's description always has a '.' or an exponent, so it reads back as a double.
            return d.isFinite ? .number(JSONNumber(text: "\(d)")) : tag("$double", floatingPoint(d, text: ""))
        case .float(let f): return tag("$float", floatingPoint(Double(f), text: "\(f)"))
        case .decimal(let d): return tag("$decimal", .string(d.description))
        case .date(let t):
            return tag(
                "$date",
                .array([.number(JSONNumber(text: String(t.seconds))), .number(JSONNumber(text: String(t.nanoseconds)))])
            )
        case .objectId(let o): return tag("$oid", .string(o.hexString))
        case .uuid(let u): return tag("$uuid", .string(u.canonicalString))
        case .data(let d): return tag("$binary", .string(Base64.encode(d)))
        case .link(let link):
            return tag(
                "$link",
                .object([JSONMember("class", .string(link.className)), JSONMember("key", linkJSON(link, store: store))])
            )
        case .list(let items): return .array(items.map { mixed($0, store: store) })
        case .map(let map): return .object(map.map { JSONMember($0.key, mixed($0.value, store: store)) })
        }
    }

    /// An embedded object inline; otherwise the target's primary key, or its position.
    /// How a link to the object at `position` is written: its primary key, or its position in
    /// the class's array when the class has none (`rqlc run --format keys`).
    public static func key<Table: TableReader>(at position: Int, in table: Table) -> JSONValue {
        if let keyIndex = table.objectSchema.primaryKeyIndex {
            let keyProperty = table.objectSchema.properties[keyIndex]
            return key(table.value(at: position, property: keyIndex), type: keyProperty.type)
        }
        return .number(JSONNumber(text: String(position)))
    }

    /// A primary key `value` of `type` as `key(at:in:)` writes it.
    static func key(_ value: Value, type: PropertyType) -> JSONValue {
        element(value, type: type, store: nil as BlockSnapshot?)
    }

    private static func linkJSON<Store: StoreReader>(_ link: ObjectLink, store: Store?) -> JSONValue {
        guard let store, let (table, position) = store.resolve(link) else { return .null }
        if table.objectSchema.isEmbedded { return object(at: position, in: table, store: store) }
        return key(at: position, in: table)
    }
}
