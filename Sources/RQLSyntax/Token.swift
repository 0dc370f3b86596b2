import RQLCore

/// What kind of token the lexer found. Literal tokens keep only their span; the parser decodes
/// their text when it builds a node, so the lexer never allocates.
enum TokenKind: UInt8, Sendable {
    /// The end of the input; its span is empty.
    case end
    /// A name or a keyword spelled as one; `Token.keyword` says which keyword, if any.
    case word
    /// A name that contains an escape (`float\ fees`); never a keyword.
    case escapedWord
    /// A decimal or hex integer, possibly signed.
    case integer
    /// A number with a fraction or an exponent; `Token.isFloat` marks a trailing `f`.
    case floatingPoint
    /// `inf`, `-infinity`, … in any case.
    case infinity
    /// `nan` in any case.
    case nan
    /// A quoted string; `Token.hasEscapes` tells the parser whether it must decode.
    case string
    /// `B64"…"`.
    case base64
    /// `T12:34`.
    case timestamp
    /// `2020-01-02@03:04:05:6`.
    case dateTime
    /// `oid(…)`.
    case objectId
    /// `uuid(…)`.
    case uuid
    /// `$0`.
    case argument
    /// `%@`, `%d`, ….
    case formatArgument
    /// `$K0` or `%K`.
    case keyPathArgument
    /// `$name` (NSPredicate).
    case variable
    /// `[c]`, `[d]`, `[cd]`.
    case modifier
    /// An `@` word; `Token.keyword` says which.
    case atWord
    case leftParen, rightParen, leftBrace, rightBrace, leftBracket, rightBracket, comma, dot
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
    case plus, minus, star, slash
    /// `&&`.
    case ampersands
    /// `||`.
    case bars
    /// `!`.
    case bang
}

/// One token: its kind, the keyword it spells (if any) and where it is.
struct Token: Sendable {
    var kind: TokenKind
    /// The keyword a `.word` or `.atWord` spells, respecting the dialect's case rules.
    var keyword: Keyword?
    /// For `.string`: whether the text holds a backslash escape. For `.floatingPoint`: a trailing `f`.
    var flag: Bool
    var span: SourceSpan

    init(_ kind: TokenKind, keyword: Keyword? = nil, flag: Bool = false, span: SourceSpan) {
        self.kind = kind
        self.keyword = keyword
        self.flag = flag
        self.span = span
    }
}
