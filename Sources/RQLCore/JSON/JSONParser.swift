/// The JSON parser (RFC 8259) behind `JSONValue.parse` and the dataset loader.
///
/// It reads bytes, from memory or a chunk at a time from a `ByteInput`, so the loader can walk a
/// 200 MB document member by member (`enterObject` / `nextMember`, `skipValue`) and build values
/// only where it needs them. What it refuses, with the line, column and byte offset: text that is
/// not UTF-8 (including UTF-16, recognised by its byte order mark or NUL bytes), a key repeated in
/// one object (with the path of the object), nesting deeper than `maximumDepth`.
package struct JSONParser {
    /// The bytes read and not yet discarded; `base` is the document offset of `buffer[0]`.
    var buffer: [UInt8]
    var index = 0
    var base = 0
    private let input: ByteInput?
    /// Refills keep every byte read, so positions stay valid and `seek` works on a stream too.
    private var keepsEverything = false
    /// Document offset of a token being scanned (a number), kept when the buffer is refilled.
    var mark: Int?
    private var depth = 0
    let maximumDepth = 512
    // Line bookkeeping for messages: newlines only occur in whitespace, so skipWhitespace keeps it.
    private var line = 1
    private var lineStart = 0
    /// Characters of the current line in bytes already discarded from `buffer`.
    private var discardedColumns = 0

    /// A parser over bytes already in memory.
    package init(bytes: [UInt8]) {
        buffer = bytes
        input = nil
    }

    /// A parser that reads `input` as it goes, 64 KB at a time.
    package init(input: ByteInput) {
        buffer = []
        self.input = input
    }

    /// A parser that reads `input` as it goes and keeps every byte (in one allocation when the
    /// input's size is known): a stream that is not JSON fails at its first wrong byte, and the
    /// document read can be walked again with `seek`, as in memory.
    package init(keepingEverything input: ByteInput) {
        buffer = []
        buffer.reserveCapacity((input.sizeHint ?? (1 << 16)) + 1)
        self.input = input
        keepsEverything = true
    }

    /// Where the parser is, to come back to with `seek` (in-memory parsers only).
    package struct Position {
        fileprivate var index: Int
        fileprivate var line: Int
        fileprivate var lineStart: Int
    }

    package var position: Position { Position(index: index, line: line, lineStart: lineStart) }

    package mutating func seek(to position: Position) {
        precondition(input == nil || keepsEverything, "only a parser that keeps what it read can seek")
        index = position.index
        line = position.line
        lineStart = position.lineStart
        discardedColumns = 0
    }

    // MARK: Bytes

    /// Makes `count` bytes from `index` available if the input has them; false at the end.
    @inline(__always)
    mutating func ensure(_ count: Int) -> Bool {
        if index + count <= buffer.count { return true }
        return refill(count)
    }

    private mutating func refill(_ count: Int) -> Bool {
        guard let input else { return false }
        // Discard what is consumed (keeping a marked token), then read at least 64 KB.
        let keep = keepsEverything ? 0 : min(index, mark.map { $0 - base } ?? index)
        if keep > 0 {
            if lineStart < base + keep {
                let from = max(lineStart - base, 0)
                discardedColumns += buffer[from..<keep].reduce(0) { $0 + ($1 & 0xC0 != 0x80 ? 1 : 0) }
            }
            buffer.removeFirst(keep)
            base += keep
            index -= keep
        }
        while index + count > buffer.count {
            // Keeping everything, stay inside the room reserved (a file's size) rather than
            // outgrow it at the end; reads stay 64 KB (an input's read may touch all it is offered).
            let room = buffer.capacity - buffer.count
            let chunk = keepsEverything && room >= count ? min(room, max(1 << 16, count)) : max(1 << 16, count)
            if input.read(appendingTo: &buffer, upTo: chunk) == 0 { return false }
        }
        return true
    }

    /// The byte at `index`, or nil at the end of the input.
    @inline(__always)
    mutating func peek() -> UInt8? {
        if index < buffer.count { return buffer[index] }
        return ensure(1) ? buffer[index] : nil
    }

    /// The JSON type of the next value from its first byte (for messages), or nil at the end.
    package mutating func nextTypeName() -> String? {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        case nil: return nil
        default: return "a number"
        }
    }

    func error(_ message: String) -> JSONSyntaxError {
        let lineOffset = max(lineStart - base, 0)
        var column = lineOffset <= index ? discardedColumns + 1 : 1
        if lineOffset <= index {
            for byte in buffer[lineOffset..<min(index, buffer.count)] where byte & 0xC0 != 0x80 { column += 1 }
        }
        return JSONSyntaxError(message: message, line: line, column: column, offset: base + index)
    }

    /// The error for an unexpected byte at `index`: bad UTF-8 is named as such.
    mutating func unexpected(_ expected: String) -> JSONSyntaxError {
        guard let byte = peek() else { return error("unexpected end of input, expected \(expected)") }
        if byte >= 0x80, utf8Length() == nil { return invalidUTF8() }
        if byte < 0x20 || byte == 0x7F { return error("unexpected control character, expected \(expected)") }
        var scalarEnd = index + 1
        if byte >= 0x80, let length = utf8Length() { scalarEnd = index + length }
        let found = TerminalText.escaped(String(decoding: buffer[index..<scalarEnd], as: UTF8.self))
        return error("unexpected character '\(found)', expected \(expected)")
    }

    func invalidUTF8() -> JSONSyntaxError {
        let hex = String(buffer[index], radix: 16, uppercase: true)
        return error("invalid UTF-8 byte 0x\(hex.count == 1 ? "0" + hex : hex); JSON text must be UTF-8")
    }

    /// The length of the well-formed UTF-8 sequence at `index`, or nil.
    mutating func utf8Length() -> Int? {
        _ = ensure(4)
        return buffer.withUnsafeBufferPointer { bytes in
            UTF8Validation.sequenceLength(in: UnsafeBufferPointer(rebasing: bytes[..<buffer.count]), at: index)
        }
    }

    // MARK: Documents

    /// Refuses UTF-16 and UTF-32 up front (their NUL bytes or byte order mark would otherwise
    /// be reported as a stray character) and skips a UTF-8 byte order mark.
    package mutating func checkEncoding() throws(JSONSyntaxError) {
        _ = ensure(4)
        let head = Array(buffer[index..<min(index + 4, buffer.count)])
        if head.starts(with: [0xEF, 0xBB, 0xBF]) {
            index += 3
            return
        }
        if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) {
            throw error("the text is UTF-16 (it starts with a byte order mark); JSON text must be UTF-8")
        }
        if head.count >= 2 && (head[0] == 0 || head[1] == 0) {
            throw error("the text has NUL bytes, as UTF-16 or UTF-32 text does; JSON text must be UTF-8")
        }
    }

    /// One whole document: a value and nothing after it but whitespace.
    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        try checkEncoding()
        let value = try parseValue()
        try finishDocument()
        return value
    }

    /// Checks that only whitespace follows the document's value.
    package mutating func finishDocument() throws(JSONSyntaxError) {
        skipWhitespace()
        guard peek() == nil else { throw unexpected("the end of the text after the JSON value") }
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while let byte = peek() {
            switch byte {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = base + index
                discardedColumns = 0
            default: return
            }
        }
    }

    // MARK: Values

    package mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "{"):
            var members: [JSONMember] = []
            var cursor = try enterObject()
            while let key = try nextMember(&cursor) {
                do {
                    members.append(JSONMember(key, try parseValue()))
                } catch {
                    throw error.inside(.key(key))
                }
            }
            return .object(members)
        case UInt8(ascii: "["):
            var elements: [JSONValue] = []
            var cursor = try enterArray()
            while try nextElement(&cursor) {
                do {
                    elements.append(try parseValue())
                } catch {
                    throw error.inside(.index(elements.count))
                }
            }
            return .array(elements)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseWord("true", .bool(true))
        case UInt8(ascii: "f"): return try parseWord("false", .bool(false))
        case UInt8(ascii: "n"): return try parseWord("null", .null)
        case UInt8(ascii: "-")?, (UInt8(ascii: "0")...UInt8(ascii: "9"))?: return .number(try parseNumber())
        default: throw unexpected("a value")
        }
    }

    /// Reads past one value, checking its syntax (and UTF-8) but building nothing.
    package mutating func skipValue() throws(JSONSyntaxError) {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "{"):
            var cursor = try enterObject(checkingKeys: false)
            while try nextMember(&cursor) != nil { try skipValue() }
        case UInt8(ascii: "["):
            var cursor = try enterArray()
            while try nextElement(&cursor) { try skipValue() }
        case UInt8(ascii: "\""):
            var unused: [UInt8] = []
            try scanString(into: &unused, building: false)
        case UInt8(ascii: "t"): _ = try parseWord("true", .null)
        case UInt8(ascii: "f"): _ = try parseWord("false", .null)
        case UInt8(ascii: "n"): _ = try parseWord("null", .null)
        case UInt8(ascii: "-")?, (UInt8(ascii: "0")...UInt8(ascii: "9"))?: try scanNumber()
        default: throw unexpected("a value")
        }
    }

    private mutating func parseWord(_ word: StaticString, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        let count = word.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        guard ensure(count), buffer[index..<index + count].elementsEqual(expected) else {
            throw error("invalid literal")
        }
        index += count
        return value
    }

    // MARK: Objects and arrays

    /// An object or array being read: whether the next item is the first, and (for objects) the
    /// keys seen, to refuse a repeated one.
    package struct Cursor {
        fileprivate var isFirst = true
        fileprivate var checksKeys: Bool
        fileprivate var keys: [String] = []
        fileprivate var keySet: Set<UTF8Key> = []
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= maximumDepth else { throw error("nesting deeper than \(maximumDepth) levels") }
    }

    /// Reads the `{` of an object; `nextMember` then reads its members one by one.
    package mutating func enterObject(checkingKeys: Bool = true) throws(JSONSyntaxError) -> Cursor {
        skipWhitespace()
        guard peek() == UInt8(ascii: "{") else { throw unexpected("an object") }
        try enter()
        index += 1
        return Cursor(checksKeys: checkingKeys)
    }

    /// Reads up to the next member's value and returns its key, or reads the closing `}` and
    /// returns nil. A key the object already has is an error.
    package mutating func nextMember(_ cursor: inout Cursor) throws(JSONSyntaxError) -> String? {
        skipWhitespace()
        if cursor.isFirst {
            cursor.isFirst = false
            if peek() == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return nil
            }
        } else {
            switch peek() {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return nil
            case nil: throw error("unexpected end of input in an object")
            default: throw unexpected("',' or '}'")
            }
        }
        guard peek() == UInt8(ascii: "\"") else { throw unexpected("a member name in double quotes") }
        let keyStart = position
        let key = try parseString()
        if cursor.checksKeys && isRepeated(key, in: &cursor) {
            let here = position
            let canSeek = input == nil || keepsEverything
            if canSeek { seek(to: keyStart) }
            var failure = error("duplicate key '\(TerminalText.escaped(key))'")
            failure.namesPath = true
            if canSeek { seek(to: here) }
            throw failure
        }
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw unexpected("':'") }
        index += 1
        return key
    }

    /// Whether `key` was seen before in this object; remembers it. Small objects compare a list,
    /// large ones hash, so a hostile object with a million keys costs no more than it must.
    private func isRepeated(_ key: String, in cursor: inout Cursor) -> Bool {
        if cursor.keySet.isEmpty {
            if cursor.keys.contains(where: { $0.utf8.elementsEqual(key.utf8) }) { return true }
            cursor.keys.append(key)
            if cursor.keys.count > 16 {
                cursor.keySet = Set(cursor.keys.map(UTF8Key.init))
                cursor.keys = []
            }
            return false
        }
        return !cursor.keySet.insert(UTF8Key(key)).inserted
    }

    /// Reads the `[` of an array; `nextElement` then steps through its elements.
    package mutating func enterArray() throws(JSONSyntaxError) -> Cursor {
        skipWhitespace()
        guard peek() == UInt8(ascii: "[") else { throw unexpected("an array") }
        try enter()
        index += 1
        return Cursor(checksKeys: false)
    }

    /// True when an element follows (the caller reads it), false after reading the closing `]`.
    package mutating func nextElement(_ cursor: inout Cursor) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        if cursor.isFirst {
            cursor.isFirst = false
            if peek() == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return false
            }
            return true
        }
        switch peek() {
        case UInt8(ascii: ","):
            index += 1
            return true
        case UInt8(ascii: "]"):
            index += 1
            depth -= 1
            return false
        case nil: throw error("unexpected end of input in an array")
        default: throw unexpected("',' or ']'")
        }
    }
}
