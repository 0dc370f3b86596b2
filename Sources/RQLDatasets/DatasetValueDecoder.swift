import Foundation
import RQLCore
import RQLStorage

/// Why one JSON value could not be read as a property value; the loader adds the class,
/// position and property.
enum ValueDecodeFailure: Error {
    /// The JSON type is wrong: what was expected, and what was found.
    case wrongType(expected: String, found: String)
    /// The JSON type is right but the content is not valid.
    case invalid(String)
}

/// Reads the dataset format's scalar values (everything but links, embedded objects and
/// collections, which need the object graph) and its tagged forms `{"$date": …}` etc.
enum DatasetValueDecoder {
    /// The tag and payload of a tagged value (`{"$oid": "…"}`), if `json` is one.
    static func tagged(_ json: JSONValue) -> (tag: String, payload: JSONValue)? {
        guard case .object(let members) = json, members.count == 1, knownTags.contains(members[0].key) else {
            return nil
        }
        return (members[0].key, members[0].value)
    }

    static let knownTags: Set<String> = ["$date", "$oid", "$uuid", "$binary", "$decimal", "$double", "$float", "$link"]

    /// The value of a tagged form other than `$link` (`$date`, `$oid`, `$uuid`, `$binary`,
    /// `$decimal`, `$double`, `$float`), or nil for another tag; one switch for data and arguments.
    static func taggedScalar(_ tag: String, _ json: JSONValue) throws(ValueDecodeFailure) -> Value? {
        switch tag {
        case "$date": return .date(try date(json))
        case "$oid": return try scalar(json, type: .objectId)
        case "$uuid": return try scalar(json, type: .uuid)
        case "$binary": return .data(try binary(json))
        case "$decimal": return .decimal(try decimal(json))
        case "$double": return .double(try binaryFloat(json, tags: ["$double"], expected: "a double"))
        case "$float": return .float(Float(try binaryFloat(json, tags: ["$float"], expected: "a float", isFloat: true)))
        default: return nil
        }
    }

    /// A scalar of `type` (not `.object`, `.linkingObjects` or `.mixed`); `.null` is the caller's.
    static func scalar(_ json: JSONValue, type: PropertyType) throws(ValueDecodeFailure) -> Value {
        switch type {
        case .bool:
            guard case .bool(let b) = json else { throw .wrongType(expected: "a boolean", found: json.typeName) }
            return .bool(b)
        case .int:
            guard case .number(let n) = json, n.isInteger else {
                throw .wrongType(expected: "an integer", found: json.typeName)
            }
            guard let i = n.int64Value else { throw .invalid("integer \(n.text) does not fit in 64 bits") }
            return .int(i)
        case .float:
            return .float(
                Float(try binaryFloat(json, tags: ["$float", "$double"], expected: "a float", isFloat: true))
            )
        case .double:
            return .double(try binaryFloat(json, tags: ["$double", "$float"], expected: "a double"))
        case .string:
            guard case .string(let s) = json else { throw .wrongType(expected: "a string", found: json.typeName) }
            return .string(s)
        case .data:
            return .data(try binary(json))
        case .date:
            return .date(try date(json))
        case .decimal128:
            return .decimal(try decimal(json))
        case .objectId:
            var payload = json
            if let (tag, inner) = tagged(json), tag == "$oid" { payload = inner }
            guard case .string(let s) = payload else {
                throw .wrongType(expected: "an ObjectId string", found: json.typeName)
            }
            do { return .objectId(try ObjectId(hex: s)) } catch { throw .invalid(error.description) }
        case .uuid:
            var payload = json
            if let (tag, inner) = tagged(json), tag == "$uuid" { payload = inner }
            guard case .string(let s) = payload else {
                throw .wrongType(expected: "a UUID string", found: json.typeName)
            }
            do { return .uuid(try Value.parseUUID(s)) } catch { throw .invalid(error.description) }
        case .mixed, .object, .linkingObjects:
            throw .invalid("internal: not a scalar type")
        }
    }

    /// A number, `"NaN"`, `"Infinity"`, `"-Infinity"`, or one of `tags` wrapping either. A
    /// number beyond the type's range (`1e39` for a float, `1e400` for a double) is an error, not
    /// an infinity: infinities are written as such.
    static func binaryFloat(
        _ json: JSONValue,
        tags: Set<String>,
        expected: String,
        isFloat: Bool = false
    ) throws(ValueDecodeFailure) -> Double {
        var payload = json
        var floatRange = isFloat
        if let (tag, inner) = tagged(json), tags.contains(tag) {
            payload = inner
            floatRange = isFloat || tag == "$float"
        }
        switch payload {
        case .number(let n): return try finite(n, float: floatRange)
        case .string("NaN"): return .nan
        case .string("Infinity"): return .infinity
        case .string("-Infinity"): return -.infinity
        case .string(let s):
            throw .invalid("'\(s)' is not a number (use a number, \"NaN\", \"Infinity\" or \"-Infinity\")")
        default: throw .wrongType(expected: expected, found: json.typeName)
        }
    }

    /// The value of a number literal as a double (or float) that is finite, or the error.
    static func finite(_ n: JSONNumber, float: Bool) throws(ValueDecodeFailure) -> Double {
        guard let value = n.finiteDoubleValue, !float || Float(value).isFinite else {
            throw .invalid("\(quoted(n.text)) is out of range for a \(float ? "float" : "double")")
        }
        return value
    }

    /// Canonical base64 only (RFC 4648 §3.5): padded to a multiple of four, unused bits zero, so
    /// that each value has one spelling and exports as it was written.
    static func binary(_ json: JSONValue) throws(ValueDecodeFailure) -> [UInt8] {
        var payload = json
        if let (tag, inner) = tagged(json), tag == "$binary" { payload = inner }
        guard case .string(let s) = payload else { throw .wrongType(expected: "a base64 string", found: json.typeName) }
        guard let bytes = Base64.decode(s.utf8) else { throw .invalid("\(quoted(s)) is not valid base64") }
        let canonical = Base64.encode(bytes)
        guard canonical == s else {
            throw .invalid(
                "\(quoted(s)) is not canonical base64 (padded, unused bits zero): write \(quoted(canonical))"
            )
        }
        return bytes
    }

    /// `text` in single quotes for a message, cut in the middle past 60 characters.
    static func quoted(_ text: String) -> String {
        guard text.count > 60 else { return "'\(text)'" }
        return "'\(text.prefix(40))…\(text.suffix(15))'"
    }

    static func decimal(_ json: JSONValue) throws(ValueDecodeFailure) -> Decimal128 {
        var payload = json
        if let (tag, inner) = tagged(json), tag == "$decimal" { payload = inner }
        let text: String
        switch payload {
        case .string(let s): text = s
        case .number(let n): text = n.text
        default: throw .wrongType(expected: "a decimal string", found: json.typeName)
        }
        do { return try Decimal128(text) } catch { throw .invalid(error.description) }
    }

    /// An ISO-8601 string, a number of seconds, `[seconds, nanoseconds]` inside `$date`, or
    /// `{"$date": …}` around any of these.
    static func date(_ json: JSONValue) throws(ValueDecodeFailure) -> Timestamp {
        var payload = json
        var isTagged = false
        if let (tag, inner) = tagged(json), tag == "$date" {
            payload = inner
            isTagged = true
        }
        switch payload {
        case .string(let s):
            do { return try Timestamp(iso8601: s) } catch { throw .invalid(error.description) }
        case .number(let n):
            return try seconds(n)
        case .array(let parts) where isTagged:
            guard parts.count == 2, case .number(let s) = parts[0], case .number(let ns) = parts[1],
                let seconds = s.int64Value, let nanos = ns.int64Value
            else { throw .invalid("$date array must be [seconds, nanoseconds] integers") }
            // Each refusal says which rule the pair breaks.
            guard let nanos32 = Int32(exactly: nanos), abs(Int(nanos32)) < 1_000_000_000 else {
                throw .invalid("$date [\(seconds), \(nanos)]: nanoseconds must be between -999999999 and 999999999")
            }
            guard !(seconds > 0 && nanos < 0), !(seconds < 0 && nanos > 0) else {
                throw .invalid("$date [\(seconds), \(nanos)]: both parts must be ≤ 0 or both ≥ 0")
            }
            guard let t = Timestamp(seconds: seconds, nanoseconds: nanos32) else {
                throw .invalid(
                    "$date [\(seconds), \(nanos)]: before the earliest date there is, [\(Int64.min), 0]"
                )
            }
            return t
        default:
            throw .wrongType(expected: "a date (ISO-8601 string, seconds, or {\"$date\": …})", found: json.typeName)
        }
    }

    /// Seconds since 1970 as a JSON number, read exactly when written in plain decimal.
    private static func seconds(_ n: JSONNumber) throws(ValueDecodeFailure) -> Timestamp {
        if let whole = n.int64Value { return Timestamp(flooredSeconds: whole, nonNegativeNanoseconds: 0) }
        let text = n.text
        if !text.contains("e") && !text.contains("E"), let dot = text.firstIndex(of: ".") {
            let negative = text.hasPrefix("-")
            let intPart = text[..<dot].drop { $0 == "-" }
            var fraction = String(text[text.index(after: dot)...].prefix(9))
            while fraction.count < 9 { fraction += "0" }
            if let whole = Int64(intPart), let nanos = Int32(fraction) {
                let t =
                    negative
                    ? Timestamp(seconds: -whole, nanoseconds: -nanos)
                    : Timestamp(seconds: whole, nanoseconds: nanos)
                if let t { return t }
            }
        }
        guard let t = Timestamp(timeIntervalSince1970: n.doubleValue) else {
            throw .invalid("\(n.text) seconds is out of range for a date")
        }
        return t
    }
}
