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
        var out: [UInt8] = []
        write(to: &out, pretty: pretty, indent: indent)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the document's text as `serialized(pretty:indent:)` gives it, as UTF-8.
    package func write(to out: inout [UInt8], pretty: Bool, indent: Int) {
        write(to: &out, layout: pretty ? .pretty : .compact, indent: indent)
    }

    /// The document on one line with a space after each `,` and `:`, as JSON lines that people
    /// read too are written (the benchmark reports).
    ///
    /// ```swift
    /// JSONValue.object([JSONMember("a", .array([.int(1), .double(2.5)]))]).spacedLine  // {"a": [1, 2.5]}
    /// ```
    public var spacedLine: String {
        var out: [UInt8] = []
        write(to: &out, layout: .spaced, indent: 0)
        return String(decoding: out, as: UTF8.self)
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

    private func write(to out: inout [UInt8], layout: Layout, indent: Int) {
        switch self {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .number(let n): out += n.text.utf8
        case .string(let s): JSONValue.appendString(s, to: &out)
        case .array(let elements):
            let spread = layout == .pretty && elements.contains { $0.isContainer }
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out += (layout == .compact || spread ? "," : ", ").utf8 }
                if spread { JSONValue.newline(indent + 1, to: &out) }
                element.write(to: &out, layout: layout, indent: indent + 1)
            }
            if spread { JSONValue.newline(indent, to: &out) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty {
                out += "{}".utf8
                return
            }
            out.append(UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                if i > 0 { out += (layout == .spaced ? ", " : ",").utf8 }
                if layout == .pretty { JSONValue.newline(indent + 1, to: &out) }
                JSONValue.appendString(member.key, to: &out)
                out += (layout == .compact ? ":" : ": ").utf8
                member.value.write(to: &out, layout: layout, indent: indent + 1)
            }
            if layout == .pretty { JSONValue.newline(indent, to: &out) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }

    private static func newline(_ indent: Int, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\n"))
        for _ in 0..<indent { out += "  ".utf8 }
    }

    private static func appendString(_ s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { appendString(utf8: $0, to: &out) }
    }

    /// `text` (valid UTF-8) as a JSON string: quotes, backslashes and every control character
    /// escaped, runs of other bytes copied as they are. Controls are escaped, DEL and the C1
    /// controls (C2 80 – C2 9F) included, so no JSON written here can act on a terminal it is
    /// printed to. What every JSON writer of the package escapes with.
    package static func appendString(utf8 text: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var run = 0
        var index = 0
        while index < text.count {
            let byte = text[index]
            let escape: StaticString?
            var width = 1
            switch byte {
            case UInt8(ascii: "\""): escape = "\\\""
            case UInt8(ascii: "\\"): escape = "\\\\"
            case UInt8(ascii: "\n"): escape = "\\n"
            case UInt8(ascii: "\r"): escape = "\\r"
            case UInt8(ascii: "\t"): escape = "\\t"
            case 0..<0x20, 0x7F: escape = ""
            case 0xC2 where index + 1 < text.count && (0x80...0x9F).contains(text[index + 1]):
                escape = ""
                width = 2
            default: escape = nil
            }
            guard let escape else {
                index += 1
                continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: text[run..<index]))
            if escape.utf8CodeUnitCount > 0 {
                out.append(contentsOf: UnsafeBufferPointer(start: escape.utf8Start, count: escape.utf8CodeUnitCount))
            } else {
                // U+0000–U+001F, U+007F and U+0080–U+009F as \u00hh.
                let scalar = width == 2 ? text[index + 1] : byte
                out += "\\u00".utf8
                out.append(hexDigit(scalar >> 4))
                out.append(hexDigit(scalar & 15))
            }
            index += width
            run = index
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: text[run..<text.count]))
        out.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
