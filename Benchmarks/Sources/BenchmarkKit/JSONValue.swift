/// The few JSON values a report line holds, written without Foundation so the output's key
/// order is the order the fields were given in.
///
///     JSONValue.object([("query", .string("Q1")), ("median_ns", .int(812))]).serialized
///     // {"query": "Q1", "median_ns": 812}
public enum JSONValue: Sendable {
    /// A string, escaped on output.
    case string(String)
    /// An integer.
    case int(Int)
    /// A finite double (non-finite ones print as `null`).
    case double(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`: a measurement that does not exist (no baseline for Q6).
    case null
    /// An array, in order.
    case array([JSONValue])
    /// An object whose keys keep the given order.
    case object([(key: String, value: JSONValue)])

    /// One line of JSON, with `", "` and `": "` separators as in the benchmark contract.
    public var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .int(let i): out += String(i)
        case .double(let d): out += d.isFinite ? String(d) : "null"
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        case .array(let elements):
            out += "["
            for (i, element) in elements.enumerated() {
                if i > 0 { out += ", " }
                element.write(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (i, field) in fields.enumerated() {
                if i > 0 { out += ", " }
                JSONValue.writeString(field.key, to: &out)
                out += ": "
                field.value.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
