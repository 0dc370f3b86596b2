import RQLCore

/// Constants: converting the text of literal tokens into `Literal` values.
extension QueryParser {
    /// literal = NUMBER | STRING | TRUE | FALSE | NULL
    ///         | INFINITY (* RQL *) | NAN (* RQL *) | BASE64 (* RQL *) | TIMESTAMP (* RQL *) | OBJECT_ID (* RQL *)
    ///         | UUID (* RQL *) | binary_literal (* RQL *) | object_literal (* RQL *) ;
    mutating func parseLiteral() throws(SyntaxError) -> Expression {
        let token = current
        let literal: Literal
        switch token.kind {
        case .integer: literal = try decodeIntegerLiteral(token)
        case .floatingPoint: literal = try decodeFloatingPoint(token)
        case .infinity: literal = .double(text(of: token).hasPrefix("-") ? -.infinity : .infinity)
        case .nan: literal = .double(.nan)
        case .string: literal = .string(try decodeString(token))
        case .base64: literal = .base64(try decodeBase64(token, trimming: 4, 1))
        case .timestamp: literal = try decodeTimestamp(token)
        case .dateTime: literal = try decodeDateTime(token)
        case .objectId: literal = .objectId(text(of: token).dropFirst(4).dropLast().lowercased())
        case .uuid: literal = .uuid(text(of: token).dropFirst(5).dropLast().lowercased())
        case .word:
            switch token.keyword {
            case .true, .yes: literal = .bool(true)
            case .false, .no: literal = .bool(false)
            case .null, .nilLiteral: literal = .null
            case .bin, .binary: return try parseBinaryLiteral()
            case .obj: return try parseObjectLiteral()
            default: throw unexpected(expected: "a constant")
            }
        default:
            throw unexpected(expected: "a constant")
        }
        try advance()
        return Expression(.literal(literal), span: token.span)
    }

    /// binary_literal = BIN '(' ( STRING | BASE64 ) ')' ;
    mutating func parseBinaryLiteral() throws(SyntaxError) -> Expression {
        let keyword = try advance()
        try expect(.leftParen, "'('")
        let bytes: [UInt8]
        switch current.kind {
        case .string: bytes = Array(try decodeString(current).utf8)
        case .base64: bytes = try decodeBase64(current, trimming: 4, 1)
        default: throw unexpected(expected: "a string or a B64\"…\" literal")
        }
        try advance()
        let close = try expect(.rightParen, "')'")
        return Expression(.literal(.binary(bytes)), span: keyword.span.through(close.span))
    }

    /// object_literal = OBJ '(' STRING ',' ( NUMBER | STRING | OBJECT_ID | UUID | argument ) ')' ;
    mutating func parseObjectLiteral() throws(SyntaxError) -> Expression {
        let keyword = try advance()
        try expect(.leftParen, "'('")
        guard current.kind == .string else { throw unexpected(expected: "the class name in quotes") }
        let className = try decodeString(try advance())
        try expect(.comma, "',' and the primary key")
        let primaryKey: Expression
        switch current.kind {
        case .integer:
            // A primary key is an `Int64`: a longer literal is an error here, not the double it
            // is elsewhere (its printed form would not parse back as a key).
            let token = current
            primaryKey = Expression(.literal(.integer(try decodeInteger(token))), span: token.span)
            try advance()
        case .string, .objectId, .uuid: primaryKey = try parseLiteral()
        case .argument, .formatArgument, .variable: primaryKey = try parseArgumentExpression()
        default: throw unexpected(expected: "a primary key: a number, a string, an oid(…), a uuid(…) or an argument")
        }
        let close = try expect(.rightParen, "')'")
        return Expression(
            .literal(.object(className: className, primaryKey: primaryKey)),
            span: keyword.span.through(close.span)
        )
    }

    /// A list position or a LIMIT: a plain run of digits.
    ///
    /// NATURAL = digit+ ;
    mutating func parseNatural(what: String) throws(SyntaxError) -> Int {
        let token = current
        guard token.kind == .integer,
            lexer.bytes[token.span.offset..<token.span.end].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else {
            throw unexpected(expected: "\(what) (a whole number of digits)")
        }
        let value = try decodeInteger(token)
        try advance()
        return Int(value)
    }

    // MARK: - Decoding

    /// An integer constant: an `Int64`, or, written in decimal digits beyond the `Int64` range,
    /// the nearest double with the exact decimal kept (`dec > 99999999999999999999` compares
    /// exactly, as realm-core reads the text as a Decimal128 against a decimal128 property).
    private func decodeIntegerLiteral(_ token: Token) throws(SyntaxError) -> Literal {
        do {
            return .integer(try decodeInteger(token))
        } catch {
            let text = text(of: token)
            let digits = text.drop { $0 == "-" || $0 == "+" }
            guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }), let value = Double(text),
                let exact = try? Decimal128(text)
            else { throw error }
            return preciseIfNeeded(value, exact: exact)
        }
    }

    func decodeInteger(_ token: Token) throws(SyntaxError) -> Int64 {
        var digits = lexer.bytes[token.span.offset..<token.span.end]
        let isNegative = digits.first == UInt8(ascii: "-")
        if isNegative || digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        var radix: UInt64 = 10
        if digits.count > 2, digits.first == UInt8(ascii: "0") {
            switch digits[digits.startIndex + 1] | 0x20 {
            case UInt8(ascii: "x"): radix = 16
            case UInt8(ascii: "o"): radix = 8
            case UInt8(ascii: "b"): radix = 2
            default: break
            }
            if radix != 10 { digits = digits.dropFirst(2) }
        }
        var magnitude: UInt64 = 0
        for byte in digits {
            // The lexer admitted only digits of this radix.
            let digit = UInt64(hexDigitValue(byte) ?? 0)
            let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, carry) = shifted.addingReportingOverflow(digit)
            guard !overflow, !carry else { throw tooLarge(token) }
            magnitude = sum
        }
        if isNegative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw tooLarge(token) }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw tooLarge(token) }
        return Int64(magnitude)
    }

    private func tooLarge(_ token: Token) -> SyntaxError {
        SyntaxError(.invalidNumber, "the integer \(describe(token)) does not fit in 64 bits", at: token.span)
    }

    /// `value`, keeping the exact decimal when the double loses some of what was written. One rule
    /// for integer and floating-point spellings, so that a number reads back as the same literal
    /// whichever way the printer writes it.
    private func preciseIfNeeded(_ value: Double, exact: Decimal128) -> Literal {
        exact.compare(to: Decimal128(value)) != 0 ? .preciseDouble(value, decimal: exact) : .double(value)
    }

    private func decodeFloatingPoint(_ token: Token) throws(SyntaxError) -> Literal {
        let text = text(of: token)
        if token.flag, let value = Float(String(text.dropLast())) { return .float(value) }
        if !token.flag, let value = Double(text) {
            if Self.isShortDecimal(text) { return .double(value) }
            guard let exact = try? Decimal128(text) else { return .double(value) }
            return preciseIfNeeded(value, exact: exact)
        }
        throw SyntaxError(.invalidNumber, "\(describe(token)) is not a valid number", at: token.span)
    }

    /// Whether `text` is digits with at most one point, no exponent, at most 20 characters and
    /// at most 15 significant digits (`0.5`, `-1234.25`). Such a literal is a normal double whose
    /// shortest representation is the literal's own value (any decimal of 15 digits survives the
    /// round trip), so `preciseIfNeeded` would keep the double: parsing it again as a decimal,
    /// which costs more than the rest of parsing a comparison, is skipped.
    static func isShortDecimal(_ text: some StringProtocol) -> Bool {
        guard text.utf8.count <= 20 else { return false }
        var significant = 0
        var points = 0
        for (position, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "-"), UInt8(ascii: "+"): if position > 0 { return false }
            case UInt8(ascii: "."): points += 1
            case UInt8(ascii: "0") where significant == 0: continue  // a leading zero
            case UInt8(ascii: "0")...UInt8(ascii: "9"): significant += 1
            default: return false
            }
        }
        return points <= 1 && significant <= 15
    }

    /// The text between the quotes, with escapes decoded.
    func decodeString(_ token: Token) throws(SyntaxError) -> String {
        let body = UnsafeBufferPointer(rebasing: lexer.bytes[token.span.offset + 1..<token.span.end - 1])
        guard token.flag else { return String(decoding: body, as: UTF8.self) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(body.count)
        var index = 0
        while index < body.count {
            let byte = body[index]
            guard byte == UInt8(ascii: "\\") else {
                decoded.append(byte)
                index += 1
                continue
            }
            let escaped = body[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "0"): decoded.append(0x00)
            case UInt8(ascii: "u"):
                var value = hexValue(body, from: index)
                index += 4
                if (0xD800..<0xDC00).contains(value), index + 6 <= body.count, body[index] == UInt8(ascii: "\\"),
                    body[index + 1] == UInt8(ascii: "u")
                {
                    let low = hexValue(body, from: index + 2)
                    if (0xDC00..<0xE000).contains(low) {
                        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                        index += 6
                    }
                }
                guard let scalar = Unicode.Scalar(value) else {
                    throw SyntaxError(
                        .invalidEscape,
                        "\\u escape of a lone surrogate; write the pair as two \\u escapes",
                        at: span(in: token, offset: token.span.offset + 1 + index - 6, length: 6)
                    )
                }
                decoded.append(contentsOf: String(scalar).utf8)
            default: decoded.append(escaped)  // \" \' \\ \/
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// The span of `length` bytes at `offset` inside `token`, with its own line and column.
    private func span(in token: Token, offset: Int, length: Int) -> SourceSpan {
        var line = token.span.line
        var column = token.span.column
        for byte in lexer.bytes[token.span.offset..<offset] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SourceSpan(offset: offset, length: length, line: line, column: column)
    }

    private func hexValue(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> UInt32 {
        var value: UInt32 = 0
        for byte in bytes[start..<start + 4] {
            // The lexer admitted only hex digits here.
            value = value << 4 | UInt32(hexDigitValue(byte) ?? 0)
        }
        return value
    }

    /// Decodes standard base64 (padding optional) between `prefix` and `suffix` bytes of the token.
    func decodeBase64(_ token: Token, trimming prefix: Int, _ suffix: Int) throws(SyntaxError) -> [UInt8] {
        let text = lexer.bytes[token.span.offset + prefix..<token.span.end - suffix]
        guard let bytes = Base64.decode(text) else {
            throw SyntaxError(.invalidLiteral, "\(describe(token)) is not valid base64", at: token.span)
        }
        return bytes
    }

    /// `T<seconds>:<nanoseconds>`.
    private func decodeTimestamp(_ token: Token) throws(SyntaxError) -> Literal {
        let parts = text(of: token).dropFirst().split(separator: ":")
        guard parts.count == 2, let seconds = Int64(parts[0]), let nanoseconds = Int32(parts[1]),
            abs(Int64(nanoseconds)) < 1_000_000_000
        else {
            throw SyntaxError(.invalidLiteral, "\(describe(token)) is out of range", at: token.span)
        }
        guard (seconds <= 0 && nanoseconds <= 0) || (seconds >= 0 && nanoseconds >= 0) else {
            throw SyntaxError(
                .invalidLiteral,
                "a timestamp's seconds and nanoseconds must have the same sign",
                at: token.span
            )
        }
        return .timestamp(seconds: seconds, nanoseconds: nanoseconds)
    }

    /// `YYYY-MM-DD@HH:MM:SS[:nanoseconds]` (or `T` for `@`), in UTC, any year from 0 on.
    ///
    /// As realm-core, the seconds decide the sign of the nanoseconds: before 1970 both parts are
    /// negative, so `1969-12-31@23:59:59:1` is `T-1:-1`, one nanosecond *before* 23:59:59.
    private func decodeDateTime(_ token: Token) throws(SyntaxError) -> Literal {
        let fields = text(of: token).split(whereSeparator: { "-@T:".contains($0) }).map { Int64($0) }
        let invalid = SyntaxError(.invalidLiteral, "\(describe(token)) is not a valid date and time", at: token.span)
        guard fields.count >= 6, fields.allSatisfy({ $0 != nil }) else { throw invalid }
        let values = fields.map { $0 ?? 0 }
        let (year, month, day, hour, minute, second) = (
            values[0], values[1], values[2], values[3], values[4], values[5]
        )
        let nanoseconds = values.count > 6 ? values[6] : 0
        // A trillion years keeps the calendar arithmetic in range; the seconds may still overflow.
        guard year <= 1_000_000_000_000, (1...12).contains(month), day >= 1,
            day <= CivilCalendar.daysInMonth(year: year, month: month), hour < 24, minute < 60, second < 60,
            nanoseconds < 1_000_000_000
        else { throw invalid }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        let (daySeconds, overflow) = days.multipliedReportingOverflow(by: 86_400)
        guard !overflow, daySeconds > Int64.min + 86_400 else {
            throw SyntaxError(.invalidLiteral, "\(describe(token)) is out of range", at: token.span)
        }
        let seconds = daySeconds + hour * 3_600 + minute * 60 + second
        return .timestamp(seconds: seconds, nanoseconds: Int32(seconds < 0 ? -nanoseconds : nanoseconds))
    }
}
