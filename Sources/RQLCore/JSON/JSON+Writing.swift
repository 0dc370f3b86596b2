extension JSONValue {
    /// The document as JSON text. With `pretty`, objects and arrays of containers are spread
    /// over indented lines; arrays of scalars stay on one line. Members keep their order.
    ///
    /// ```swift
    /// JSONValue.object([JSONMember("a", .array([.bool(true), .null]))]).serialized()  // {"a":[true,null]}
    /// ```
    public func serialized(pretty: Bool = false) -> String {
        serialized(pretty: pretty, indent: 0)
    }

    /// The document as JSON text for a place `indent` levels deep in a pretty-printed document
    /// (its first line is not indented; the lines after it are): how a long array is streamed
    /// one element at a time.
    public func serialized(pretty: Bool, indent: Int) -> String {
        var out = ""
        write(to: &out, layout: pretty ? .pretty : .compact, indent: indent)
        return out
    }

    /// The document on one line with a space after each `,` and `:`, as JSON lines that people
    /// read too are written (the benchmark reports).
    ///
    /// ```swift
    /// JSONValue.object([JSONMember("a", .array([.int(1), .double(2.5)]))]).spacedLine  // {"a": [1, 2.5]}
    /// ```
    public var spacedLine: String {
        var out = ""
        write(to: &out, layout: .spaced, indent: 0)
        return out
    }

    /// An integer as a JSON number.
    public static func int(_ value: some BinaryInteger) -> JSONValue {
        .number(JSONNumber(text: String(value)))
    }

    /// A double as a JSON number (its shortest text that reads back the same), or null for NaN
    /// and the infinities, which JSON has no number for.
    public static func double(_ value: Double) -> JSONValue {
        value.isFinite ? .number(JSONNumber(text: String(value))) : .null
    }

    private enum Layout {
        /// No space at all.
        case compact
        /// Containers of containers spread over indented lines.
        case pretty
        /// One line, a space after each separator.
        case spaced
    }

    private func write(to out: inout String, layout: Layout, indent: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n.text
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let elements):
            let spread = layout == .pretty && elements.contains { $0.isContainer }
            out += "["
            for (i, element) in elements.enumerated() {
                if i > 0 { out += layout == .compact || spread ? "," : ", " }
                if spread { out += "\n" + String(repeating: "  ", count: indent + 1) }
                element.write(to: &out, layout: layout, indent: indent + 1)
            }
            if spread { out += "\n" + String(repeating: "  ", count: indent) }
            out += "]"
        case .object(let members):
            if members.isEmpty {
                out += "{}"
                return
            }
            out += "{"
            for (i, member) in members.enumerated() {
                if i > 0 { out += layout == .spaced ? ", " : "," }
                if layout == .pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
                JSONValue.writeString(member.key, to: &out)
                out += layout == .compact ? ":" : ": "
                member.value.write(to: &out, layout: layout, indent: indent + 1)
            }
            if layout == .pretty { out += "\n" + String(repeating: "  ", count: indent) }
            out += "}"
        }
    }

    private var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
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
            // Controls are escaped, DEL and the C1 controls included, so no JSON this writes can
            // act on a terminal it is printed to.
            case let c where c.value < 0x20 || (0x7F...0x9F).contains(c.value):
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
