import Foundation
import RQLCore
import RQLStorage

/// Writes a store back in the JSON dataset format, so that loading the output gives the same
/// schema and data (backlinks are recomputed, never written).
///
/// Typed properties use the plain forms (numbers, ISO-8601 dates, hex ObjectIds, base64 data,
/// decimal strings; `"NaN"`/`"Infinity"` for non-finite floats); mixed values use the tagged
/// forms for every type JSON cannot tell apart. Links are written as the target's primary key,
/// or its position when the class has none; embedded objects inline, at most
/// `WriteTransaction.maximumEmbeddedDepth` levels deep (what a store holds): a deeper one, which
/// only a damaged store has, is `DatasetError.embeddedTooDeep`.
///
/// Known limit: a nested mixed map whose only key is a tag such as `"$oid"` is read back as the
/// tagged value, not as a map.
///
/// ```swift
/// let text = try DatasetExporter.export(store)
/// let again = try DatasetLoader.load(json: text)   // same contents
/// ```
public enum DatasetExporter {
    /// The whole store (schema and objects) as JSON text.
    public static func export<Store: StoreReader>(_ store: Store, pretty: Bool = true) throws(DatasetError) -> String {
        try document(store).serialized(pretty: pretty)
    }

    /// The whole store as a JSON document.
    public static func document<Store: StoreReader>(_ store: Store) throws(DatasetError) -> JSONValue {
        var objects: [JSONMember] = []
        for objectSchema in store.schema.classes where !objectSchema.isEmbedded {
            guard let table = store.table(named: objectSchema.name), table.rowCount > 0 else { continue }
            var rows: [JSONValue] = []
            rows.reserveCapacity(table.rowCount)
            for position in 0..<table.rowCount { rows.append(try object(at: position, in: table, store: store)) }
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
    public static func object<Store: StoreReader>(
        at position: Int,
        in table: Store.Table,
        store: Store
    ) throws(DatasetError) -> JSONValue {
        try object(at: position, in: table, store: store, nesting: nil)
    }

    /// Where an embedded object being written sits, to name it in an error: the object written
    /// first (its class, position and the property the embedded objects are in) and how many
    /// levels below it.
    struct Nesting {
        let className: String
        let position: Int
        let property: String
        var depth = 0

        /// One level deeper, or the error when that is deeper than a store holds.
        func deeper() throws(DatasetError) -> Nesting {
            let limit = WriteTransaction.maximumEmbeddedDepth
            guard depth < limit else {
                throw .embeddedTooDeep(className: className, position: position, property: property, limit: limit)
            }
            var next = self
            next.depth += 1
            return next
        }
    }

    /// `object(at:in:store:)` of an object `nesting` levels below the one written first (nil:
    /// this is the one).
    private static func object<Store: StoreReader>(
        at position: Int,
        in table: Store.Table,
        store: Store,
        nesting: Nesting?
    ) throws(DatasetError) -> JSONValue {
        let objectSchema = table.objectSchema
        var members: [JSONMember] = []
        for (index, property) in objectSchema.properties.enumerated() where !property.isBacklink {
            let value = table.value(at: position, property: index)
            let nesting = nesting ?? Nesting(className: objectSchema.name, position: position, property: property.name)
            members.append(
                JSONMember(property.name, try json(value, property: property, store: store, nesting: nesting))
            )
        }
        return .object(members)
    }

    /// A property's value as the object's member (`object(at:in:store:)`), `nesting` levels
    /// below the object written first.
    static func json<Store: StoreReader>(
        _ value: Value,
        property: Property,
        store: Store,
        nesting: Nesting
    ) throws(DatasetError) -> JSONValue {
        switch (property.collection, value) {
        case (.list, .list(let items)), (.set, .list(let items)):
            var elements: [JSONValue] = []
            elements.reserveCapacity(items.count)
            for item in items {
                elements.append(try element(item, type: property.type, store: store, nesting: nesting))
            }
            return .array(elements)
        case (.map, .map(let map)):
            var members: [JSONMember] = []
            members.reserveCapacity(map.count)
            for entry in map {
                members.append(
                    JSONMember(entry.key, try element(entry.value, type: property.type, store: store, nesting: nesting))
                )
            }
            return .object(members)
        default:
            return try element(value, type: property.type, store: store, nesting: nesting)
        }
    }

    private static func element<Store: StoreReader>(
        _ value: Value,
        type: PropertyType,
        store: Store,
        nesting: Nesting
    ) throws(DatasetError) -> JSONValue {
        if type == .mixed { return mixed(value, store: store) }
        if case .link(let link) = value {
            guard let (table, position) = store.resolve(link) else { return .null }
            if table.objectSchema.isEmbedded {
                return try object(at: position, in: table, store: store, nesting: try nesting.deeper())
            }
            return key(at: position, in: table)
        }
        return scalar(value)
    }

    /// A typed property's value that is neither a link nor a collection, in its plain form: what
    /// `DatasetObjectWriter` writes for a value it reads from a column view, too.
    static func scalar(_ value: Value) -> JSONValue {
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
            return .object([JSONMember("$date", dateParts(t))])
        case .decimal(let d): return .string(d.description)
        case .objectId(let o): return .string(o.hexString)
        case .uuid(let u): return .string(u.canonicalString)
        case .link, .list, .map: return .null
        }
    }

    /// The name the dataset format gives a non-finite number (`"NaN"`, `"Infinity"`,
    /// `"-Infinity"`, written as a string); nil for a finite one, written as its text.
    static func nonFiniteName(_ d: Double) -> StaticString? {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        return nil
    }

    private static func floatingPoint(_ d: Double, text: String) -> JSONValue {
        if let name = nonFiniteName(d) { return .string("\(name)") }
        return .number(JSONNumber(text: text))
    }

    private static func dateParts(_ t: Timestamp) -> JSONValue {
        .array([.number(JSONNumber(text: String(t.seconds))), .number(JSONNumber(text: String(t.nanoseconds)))])
    }

    /// A mixed value in its tagged form. Its nesting is bounded by the store
    /// (`MixedCoding.maximumDepth`: a write refuses deeper, a file read reads deeper as damage),
    /// and so is this walk.
    private static func mixed<Store: StoreReader>(_ value: Value, store: Store) -> JSONValue {
        func tag(_ name: String, _ payload: JSONValue) -> JSONValue { .object([JSONMember(name, payload)]) }
        switch value {
        case .null, .bool, .int, .string: return scalar(value)
        case .double(let d):
            // A finite double's description always has a '.' or an exponent, so it reads back as a double.
            return d.isFinite ? scalar(value) : tag("$double", floatingPoint(d, text: ""))
        case .float(let f): return tag("$float", floatingPoint(Double(f), text: "\(f)"))
        case .decimal(let d): return tag("$decimal", .string(d.description))
        case .date(let t): return tag("$date", dateParts(t))
        case .objectId(let o): return tag("$oid", .string(o.hexString))
        case .uuid(let u): return tag("$uuid", .string(u.canonicalString))
        case .data(let d): return tag("$binary", .string(Base64.encode(d)))
        case .link(let link):
            let target: JSONValue = store.resolve(link).map { key(at: $0.position, in: $0.table) } ?? .null
            return tag("$link", .object([JSONMember("class", .string(link.className)), JSONMember("key", target)]))
        case .list(let items): return .array(items.map { mixed($0, store: store) })
        case .map(let map): return .object(map.map { JSONMember($0.key, mixed($0.value, store: store)) })
        }
    }

    /// How a link to the object at `position` is written: its primary key, or its position in
    /// the class's array when the class has none (`rqlc run --format keys`).
    public static func key<Table: TableReader>(at position: Int, in table: Table) -> JSONValue {
        if let keyIndex = table.objectSchema.primaryKeyIndex {
            return key(
                table.value(at: position, property: keyIndex),
                type: table.objectSchema.properties[keyIndex].type
            )
        }
        return .number(JSONNumber(text: String(position)))
    }

    /// A primary key `value` of `type` as `key(at:in:)` writes it.
    static func key(_ value: Value, type: PropertyType) -> JSONValue {
        scalar(value)
    }
}
