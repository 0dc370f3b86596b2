import RQLCore

/// Reads a query argument given as JSON (`rqlc run --arg JSON`) into a `Value`, with the
/// dataset format's rules for mixed values: JSON null, booleans, strings, integers (`int`) and
/// numbers with a fraction or exponent (`double`) as themselves, tagged objects (`{"$oid": …}`,
/// `{"$date": …}`, `{"$link": {"class": "Dog", "key": …}}`, …) as their type, arrays as lists.
/// Any other object, such as the geospatial `{"$geoBox": …}`, is returned as a `.map` for the
/// binder to interpret.
///
/// ```swift
/// try ArgumentDecoder.decode(#"{"$oid": "11223344556677889900aabb"}"#, store: store)  // .objectId(…)
/// try ArgumentDecoder.decode("[1, 2.5]", store: store)  // .list([.int(1), .double(2.5)])
/// ```
public enum ArgumentDecoder {
    public static func decode(_ text: String, store: ColumnStore) throws(DatasetError) -> Value {
        let json: JSONValue
        do {
            json = try JSONValue.parse(text)
        } catch {
            throw .syntax(error)
        }
        return try decode(json, store: store)
    }

    public static func decode(_ json: JSONValue, store: ColumnStore) throws(DatasetError) -> Value {
        func invalid(_ reason: String) -> DatasetError { .invalidDocument(path: "argument", reason: reason) }
        switch json {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .string(let s): return .string(s)
        case .number(let n):
            if n.isInteger {
                guard let i = n.int64Value else { throw invalid("integer \(n.text) does not fit in 64 bits") }
                return .int(i)
            }
            return .double(n.doubleValue)
        case .array(let elements):
            var values: [Value] = []
            for element in elements { values.append(try decode(element, store: store)) }
            return .list(values)
        case .object(let members):
            guard let (tag, payload) = DatasetValueDecoder.tagged(json) else {
                var map = MixedMap()
                for member in members { map[member.key] = try decode(member.value, store: store) }
                return .map(map)
            }
            do {
                if let value = try DatasetValueDecoder.taggedScalar(tag, json) { return value }
            } catch {
                switch error {
                case .wrongType(let expected, let found): throw invalid("expected \(expected), found \(found)")
                case .invalid(let reason): throw invalid(reason)
                }
            }
            guard case .string(let className) = payload["class"] ?? .null, let key = payload["key"] else {
                throw invalid("$link must be {\"class\": NAME, \"key\": KEY}")
            }
            guard let table = store.table(named: className), !table.objectSchema.isEmbedded else {
                throw invalid("$link to unknown or embedded class '\(className)'")
            }
            // A primary key that matches nothing is a null link, as `obj('Class', pk)` is in a query.
            if let keyIndex = table.objectSchema.primaryKeyIndex {
                let keyType = table.objectSchema.properties[keyIndex].type
                let keyValue: Value
                if case .null = key {
                    keyValue = .null
                } else {
                    do {
                        keyValue = try DatasetValueDecoder.scalar(key, type: keyType)
                    } catch {
                        throw invalid("$link key for '\(className)' must be its \(keyType.keyword) primary key")
                    }
                }
                guard let position = table.position(ofPrimaryKey: keyValue) else { return .null }
                return .link(ObjectLink(className: className, key: table.rowKey(at: position)))
            }
            guard case .number(let n) = key, let position = n.int64Value, position >= 0,
                position < Int64(table.rowCount)
            else { return .null }
            return .link(ObjectLink(className: className, key: table.rowKey(at: Int(position))))
        }
    }
}
