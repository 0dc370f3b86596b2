import RQLCore

/// Splits a query's UTF-8 bytes into tokens, one at a time, following the lexical rules of
/// `Grammar/RQL.ebnf`: the longest match wins, and on equal length the rule written first.
///
/// The lexer only finds where tokens are; the parser decodes a literal's text when it builds the
/// node. It reads through an unsafe buffer that the caller keeps alive for the whole parse.
struct Lexer {
    let bytes: UnsafeBufferPointer<UInt8>
    let dialect: Dialect
    private(set) var position = 0

    // Line and column bookkeeping: the column of a byte is its offset from the line start minus
    // the UTF-8 continuation bytes before it on that line, counted lazily and only forward.
    private var line = 1
    private var lineStart = 0
    private var countedUpTo = 0
    private var continuationBytes = 0

    /// Whether the previous token can end an operand; in NSPredicate a sign after one is an operator.
    private var previousEndsOperand = false

    init(bytes: UnsafeBufferPointer<UInt8>, dialect: Dialect) {
        self.bytes = bytes
        self.dialect = dialect
    }

    /// Scans the next token, skipping whitespace. At the end of the input it keeps returning END.
    ///
    /// END = (* the end of the input *) ;
    mutating func next() throws(SyntaxError) -> Token {
        skipWhitespace()
        let token = try scanToken()
        switch token.kind {
        case .word:
            previousEndsOperand = token.keyword?.endsOperand ?? true
        case .escapedWord, .integer, .floatingPoint, .infinity, .nan, .string, .base64, .timestamp, .dateTime,
            .objectId, .uuid, .argument, .formatArgument, .keyPathArgument, .variable, .atWord, .rightParen,
            .rightBrace, .rightBracket:
            previousEndsOperand = true
        default:
            previousEndsOperand = false
        }
        return token
    }

    private mutating func scanToken() throws(SyntaxError) -> Token {
        let start = position
        let (startLine, startColumn) = lineAndColumn(of: start)
        guard start < bytes.count else {
            return Token(.end, span: SourceSpan(offset: start, length: 0, line: startLine, column: startColumn))
        }
        let scanned = try scanKind(from: start)
        let span = SourceSpan(offset: start, length: position - start, line: startLine, column: startColumn)
        return Token(scanned.kind, keyword: scanned.keyword, flag: scanned.flag, span: span)
    }

    /// Scans one token starting at `start` and leaves `position` after it.
    private mutating func scanKind(from start: Int) throws(SyntaxError) -> ScannedToken {
        let first = bytes[start]
        switch first {
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try scanNumberOrDate(from: start)
        case UInt8(ascii: "."):
            if isDigit(at: start + 1) { return try scanNumberOrDate(from: start) }
            return single(.dot)
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            if dialect == .rql || !previousEndsOperand, let signed = try scanSigned(from: start) { return signed }
            return single(first == UInt8(ascii: "+") ? .plus : .minus)
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return try scanString(from: start)
        case UInt8(ascii: "$"):
            return try scanDollar(from: start)
        case UInt8(ascii: "%") where dialect == .nsPredicate:
            return try scanPercent(from: start)
        case UInt8(ascii: "#") where dialect == .nsPredicate && isWordStart(at: start + 1):
            position = start + 1
            _ = try scanWordExtent()
            return ScannedToken(.escapedWord)
        case UInt8(ascii: "@"):
            return try scanAtWord(from: start)
        case UInt8(ascii: "["):
            return scanBracket(from: start)
        case UInt8(ascii: "("): return single(.leftParen)
        case UInt8(ascii: ")"): return single(.rightParen)
        case UInt8(ascii: "{"): return single(.leftBrace)
        case UInt8(ascii: "}"): return single(.rightBrace)
        case UInt8(ascii: "]"): return single(.rightBracket)
        case UInt8(ascii: ","): return single(.comma)
        case UInt8(ascii: "*"): return single(.star)
        case UInt8(ascii: "/"): return single(.slash)
        case UInt8(ascii: "="):
            switch byte(at: start + 1) {
            case UInt8(ascii: "="): return double(.equal)
            case UInt8(ascii: "<"): return double(.lessOrEqual)
            case UInt8(ascii: ">"): return double(.greaterOrEqual)
            default: return single(.equal)
            }
        case UInt8(ascii: "!"):
            return byte(at: start + 1) == UInt8(ascii: "=") ? double(.notEqual) : single(.bang)
        case UInt8(ascii: "<"):
            switch byte(at: start + 1) {
            case UInt8(ascii: "="): return double(.lessOrEqual)
            case UInt8(ascii: ">"): return double(.notEqual)
            default: return single(.less)
            }
        case UInt8(ascii: ">"):
            return byte(at: start + 1) == UInt8(ascii: "=") ? double(.greaterOrEqual) : single(.greater)
        case UInt8(ascii: "&"):
            if byte(at: start + 1) == UInt8(ascii: "&") { return double(.ampersands) }
            throw error(.invalidCharacter, "'&' is not an operator; write '&&' or AND", from: start, length: 1)
        case UInt8(ascii: "|"):
            if byte(at: start + 1) == UInt8(ascii: "|") { return double(.bars) }
            throw error(.invalidCharacter, "'|' is not an operator; write '||' or OR", from: start, length: 1)
        default:
            if isWordStart(at: start) { return try scanWord(from: start) }
            throw invalidCharacter(at: start)
        }
    }

    // MARK: - Whitespace, positions and errors

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                position += 1
            case UInt8(ascii: "\n"):
                position += 1
                startLine(at: position)
            default:
                return
            }
        }
    }

    /// Records that a new line starts at `offset` (called after each newline, in whitespace or strings).
    mutating func startLine(at offset: Int) {
        line += 1
        lineStart = offset
        countedUpTo = offset
        continuationBytes = 0
    }

    /// The line and column of `offset`, which is never before the last offset asked about.
    mutating func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        if offset < countedUpTo {
            // Only errors look back (into a string that spans lines); counting afresh is fine there.
            var line = 1
            var lineStart = 0
            var continuationBytes = 0
            for index in 0..<offset {
                if bytes[index] == UInt8(ascii: "\n") {
                    line += 1
                    lineStart = index + 1
                    continuationBytes = 0
                } else if bytes[index] & 0xC0 == 0x80 {
                    continuationBytes += 1
                }
            }
            return (line, offset - lineStart - continuationBytes + 1)
        }
        while countedUpTo < offset {
            if bytes[countedUpTo] & 0xC0 == 0x80 { continuationBytes += 1 }
            countedUpTo += 1
        }
        return (line, offset - lineStart - continuationBytes + 1)
    }

    /// An error whose span runs from `start` for `length` bytes (clamped to the input).
    mutating func error(_ kind: SyntaxError.Kind, _ message: String, from start: Int, length: Int) -> SyntaxError {
        let (line, column) = lineAndColumn(of: start)
        let length = max(0, min(length, bytes.count - start))
        return SyntaxError(kind, message, at: SourceSpan(offset: start, length: length, line: line, column: column))
    }

    private mutating func invalidCharacter(at start: Int) -> SyntaxError {
        let length = utf8SequenceLength(at: start)
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<start + length]), as: UTF8.self)
        let shown =
            text.unicodeScalars.allSatisfy { $0.properties.isWhitespace || $0.value < 0x20 }
            ? "U+" + String(text.unicodeScalars.first?.value ?? 0, radix: 16, uppercase: true)
            : "'\(text)'"
        return error(.invalidCharacter, "invalid character \(shown)", from: start, length: length)
    }

    // MARK: - Small helpers

    func byte(at offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    func isDigit(at offset: Int) -> Bool {
        guard let byte = byte(at: offset) else { return false }
        return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    func isHexDigit(at offset: Int) -> Bool {
        byte(at: offset).flatMap(hexDigitValue) != nil
    }

    /// Whether the bytes at `offset` spell `text` exactly, compared without regard to ASCII case
    /// when `ignoringCase` is set.
    func matches(_ text: StaticString, at offset: Int, ignoringCase: Bool = false) -> Bool {
        let count = text.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        let expected = text.utf8Start
        for index in 0..<count {
            var actual = bytes[offset + index]
            var wanted = expected[index]
            if ignoringCase {
                actual = asciiLowercased(actual)
                wanted = asciiLowercased(wanted)
            }
            if actual != wanted { return false }
        }
        return true
    }

    func asciiLowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// The length of the UTF-8 sequence starting at `offset` (1 for ASCII or a stray byte).
    func utf8SequenceLength(at offset: Int) -> Int {
        let lead = bytes[offset]
        let length = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        return min(length, bytes.count - offset)
    }

    private mutating func single(_ kind: TokenKind) -> ScannedToken {
        position += 1
        return ScannedToken(kind)
    }

    private mutating func double(_ kind: TokenKind) -> ScannedToken {
        position += 2
        return ScannedToken(kind)
    }

    mutating func advance(to offset: Int) { position = offset }
}

/// What a scanning function found, before the span is attached.
struct ScannedToken {
    var kind: TokenKind
    var keyword: Keyword?
    var flag: Bool

    init(_ kind: TokenKind, keyword: Keyword? = nil, flag: Bool = false) {
        self.kind = kind
        self.keyword = keyword
        self.flag = flag
    }
}
