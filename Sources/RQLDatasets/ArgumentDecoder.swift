import RQLCore
import RQLStorage

/// Why a query argument given as JSON (`rqlc run --arg JSON`) cannot be read.
///
///     do { _ = try ArgumentDecoder.decode(#"{"$oid": "xyz"}"#, store: store) }
///     catch { print(error) }  // invalid ObjectId 'xyz': expected 24 hexadecimal digits
public enum ArgumentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is not JSON (or not UTF-8); the payload has the position.
    case syntax(JSONSyntaxError)
    /// The JSON is well-formed but not a valid argument; `path` is where inside the argument the
    /// problem is (`[2]`, `$geoBox`), empty for the argument as a whole.
    case invalid(path: String, reason: String)

    public var description: String {
        switch self {
        case .syntax(let error): error.description
        case .invalid(let path, let reason): path.isEmpty ? reason : "at \(path): \(reason)"
        }
    }
}

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
    public static func decode(_ text: String, store: some StoreReader) throws(ArgumentError) -> Value {
        try decode(json: parse(Array(text.utf8)), store: store)
    }

    /// Parses an argument's bytes, which must be UTF-8 (a byte that is not is an error with
    /// its offset, never replaced).
    public static func parse(_ bytes: [UInt8]) throws(ArgumentError) -> JSONValue {
        do {
            return try JSONValue.parse(utf8: bytes)
        } catch {
            throw .syntax(error)
        }
    }

    public static func decode(_ json: JSONValue, store: some StoreReader) throws(ArgumentError) -> Value {
        try decode(json: json, store: store)
    }

    static func decode(
        json: JSONValue,
        store: some StoreReader,
        path: [JSONPathComponent] = []
    ) throws(ArgumentError) -> Value {
        func invalid(_ reason: String) -> ArgumentError {
            .invalid(path: JSONPathComponent.text(path), reason: reason)
        }
        switch json {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .string(let s): return .string(s)
        case .number(let n):
            if n.isInteger {
                guard let i = n.int64Value else { throw invalid("integer \(n.text) does not fit in 64 bits") }
                return .int(i)
            }
            guard let d = n.finiteDoubleValue else { throw invalid("\(n.text) is out of range for a double") }
            return .double(d)
        case .array(let elements):
            var values: [Value] = []
            for (index, element) in elements.enumerated() {
                values.append(try decode(json: element, store: store, path: path + [.index(index)]))
            }
            return .list(values)
        case .object(let members):
            guard let (tag, payload) = DatasetValueDecoder.tagged(json) else {
                var pairs: [(String, Value)] = []
                for member in members {
                    pairs.append(
                        (member.key, try decode(json: member.value, store: store, path: path + [.key(member.key)]))
                    )
                }
                return .map(MixedMap(pairs))
            }
            do {
                if let value = try DatasetValueDecoder.taggedScalar(tag, json) { return value }
            } catch {
                switch error {
                case .wrongType(let expected, let found): throw invalid("\(tag): expected \(expected), found \(found)")
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
