import RQLCore

/// Numbers, strings, dates and the fixed-shape literals. The lexer checks their shape; the
/// parser converts their text (`Parser+Literals.swift`).
extension Lexer {
    /// A number starting with a digit or a '.', or in RQL a date and time.
    ///
    /// NUMBER = sign? ( digit+ | '0' ( 'x' | 'X' ) hex+ | digit+ ( exponent 'f'? | 'f' ) | ( digit+ '.' digit* | '.' digit+ ) exponent? 'f'? ) ;
    mutating func scanNumberOrDate(from start: Int, signed: Bool = false) throws(SyntaxError) -> ScannedToken {
        var offset = signed ? start + 1 : start
        if !signed && dialect == .rql, let end = dateTimeEnd(from: start) {
            advance(to: end)
            return ScannedToken(.dateTime)
        }
        if bytes[offset] == UInt8(ascii: "0"), let radixLetter = byte(at: offset + 1) {
            let radix: (name: String, isDigit: (Int) -> Bool)? =
                switch asciiLowercased(radixLetter) {
                case UInt8(ascii: "x"): ("hex", isHexDigit(at:))
                case UInt8(ascii: "o") where dialect == .nsPredicate: ("octal", isOctalDigit(at:))
                case UInt8(ascii: "b") where dialect == .nsPredicate: ("binary", isBinaryDigit(at:))
                default: nil
                }
            if let radix {
                offset += 2
                guard radix.isDigit(offset) else {
                    throw error(
                        .invalidNumber,
                        "expected \(radix.name) digits after '0\(Character(Unicode.Scalar(radixLetter)))'",
                        from: start,
                        length: offset - start
                    )
                }
                while radix.isDigit(offset) { offset += 1 }
                advance(to: offset)
                return ScannedToken(.integer)
            }
        }
        var isFloatingPoint = false
        while isDigit(at: offset) { offset += 1 }
        if byte(at: offset) == UInt8(ascii: ".") {
            isFloatingPoint = true
            offset += 1
            while isDigit(at: offset) { offset += 1 }
        }
        if let byte = byte(at: offset), byte | 0x20 == UInt8(ascii: "e") {
            var exponentDigits = offset + 1
            if let sign = self.byte(at: exponentDigits), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                exponentDigits += 1
            }
            if isDigit(at: exponentDigits) {
                isFloatingPoint = true
                offset = exponentDigits
                while isDigit(at: offset) { offset += 1 }
            }
        }
        var isFloat = false
        if dialect == .rql && byte(at: offset) == UInt8(ascii: "f") {
            isFloatingPoint = true
            isFloat = true
            offset += 1
        }
        advance(to: offset)
        return ScannedToken(isFloatingPoint ? .floatingPoint : .integer, flag: isFloat)
    }

    private func isOctalDigit(at offset: Int) -> Bool {
        guard let byte = byte(at: offset) else { return false }
        return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "7")
    }

    private func isBinaryDigit(at offset: Int) -> Bool {
        byte(at: offset) == UInt8(ascii: "0") || byte(at: offset) == UInt8(ascii: "1")
    }

    /// A '+' or '-' that is part of a number, `inf` or `nan` (nil when it is an operator).
    mutating func scanSigned(from start: Int) throws(SyntaxError) -> ScannedToken? {
        if isDigit(at: start + 1) || (byte(at: start + 1) == UInt8(ascii: ".") && isDigit(at: start + 2)) {
            return try scanNumberOrDate(from: start, signed: true)
        }
        guard dialect == .rql, isWordStart(at: start + 1) else { return nil }
        var end = start + 1
        while let byte = byte(at: end), byte | 0x20 >= UInt8(ascii: "a"), byte | 0x20 <= UInt8(ascii: "z") { end += 1 }
        let followedByName = byte(at: end).map { isWordStart(at: end) || isDigit(at: end) || $0 == UInt8(ascii: "-") }
        guard followedByName != true, let kind = infinityOrNaN(from: start, to: end) else { return nil }
        advance(to: end)
        return ScannedToken(kind)
    }

    /// A quoted string. Escapes are checked here and decoded by the parser.
    ///
    /// STRING = '"' ( any_but_quote_or_backslash | escape )* '"' | "'" ( any_but_quote_or_backslash | escape )* "'" ;
    mutating func scanString(from start: Int) throws(SyntaxError) -> ScannedToken {
        let quote = bytes[start]
        var offset = start + 1
        var hasEscapes = false
        while true {
            guard offset < bytes.count else {
                throw error(
                    .unterminatedString,
                    "unterminated string; it needs a closing \(Character(Unicode.Scalar(quote)))",
                    from: start,
                    length: offset - start
                )
            }
            switch bytes[offset] {
            case quote:
                advance(to: offset + 1)
                return ScannedToken(.string, flag: hasEscapes)
            case UInt8(ascii: "\\"):
                hasEscapes = true
                guard let escaped = byte(at: offset + 1) else {
                    offset += 1
                    continue
                }
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                    UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"), UInt8(ascii: "0"):
                    offset += 2
                case UInt8(ascii: "u") where (offset + 2..<offset + 6).allSatisfy(isHexDigit(at:)):
                    offset += 6
                default:
                    let length = escaped == UInt8(ascii: "u") ? 2 : 1 + utf8SequenceLength(at: offset + 1)
                    throw error(
                        .invalidEscape,
                        "invalid escape in a string; strings take \\\" \\' \\\\ \\/ \\b \\f \\n \\r \\t \\0 and \\uXXXX",
                        from: offset,
                        length: length
                    )
                }
            case UInt8(ascii: "\n"):
                offset += 1
                startLine(at: offset)
            default:
                offset += 1
            }
        }
    }

    /// TIMESTAMP = 'T' sign? digit+ ':' sign? digit+ | digit+ '-' digit+ '-' digit+ ( '@' | 'T' ) digit+ ':' digit+ ':' digit+ ( ':' digit+ )? ;
    ///
    /// This function matches the first form; `dateTimeEnd(from:)` the second.
    func timestampEnd(from start: Int) -> Int? {
        var offset = start + 1
        for part in 0..<2 {
            if let sign = byte(at: offset), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { offset += 1 }
            guard isDigit(at: offset) else { return nil }
            while isDigit(at: offset) { offset += 1 }
            if part == 0 {
                guard byte(at: offset) == UInt8(ascii: ":") else { return nil }
                offset += 1
            }
        }
        return offset
    }

    /// The end of a `2020-01-02@03:04:05[:nanoseconds]` date and time starting at `start`, if one does.
    func dateTimeEnd(from start: Int) -> Int? {
        var offset = start
        for (separator, alternative) in Self.dateTimeSeparators {
            guard isDigit(at: offset) else { return nil }
            while isDigit(at: offset) { offset += 1 }
            guard let byte = byte(at: offset), byte == separator || byte == alternative else { return nil }
            offset += 1
        }
        guard isDigit(at: offset) else { return nil }
        while isDigit(at: offset) { offset += 1 }
        if byte(at: offset) == UInt8(ascii: ":") && isDigit(at: offset + 1) {
            offset += 1
            while isDigit(at: offset) { offset += 1 }
        }
        return offset
    }

    /// The separators after the year, month, day, hour and minute; the date and time are joined by '@' or 'T'.
    private static let dateTimeSeparators: [(UInt8, UInt8?)] = [
        (UInt8(ascii: "-"), nil), (UInt8(ascii: "-"), nil), (UInt8(ascii: "@"), UInt8(ascii: "T")),
        (UInt8(ascii: ":"), nil), (UInt8(ascii: ":"), nil),
    ]

    /// BASE64 = 'B64"' ( letter | digit | '+' | '/' | '=' )* '"' ;
    mutating func scanBase64(from start: Int) throws(SyntaxError) -> ScannedToken {
        var offset = start + 4
        while let byte = byte(at: offset), byte != UInt8(ascii: "\"") {
            let isBase64 =
                (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || isDigit(at: offset)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
            guard isBase64 else {
                throw error(
                    .invalidLiteral,
                    "invalid character in a B64\"…\" literal",
                    from: offset,
                    length: utf8SequenceLength(at: offset)
                )
            }
            offset += 1
        }
        guard offset < bytes.count else {
            throw error(
                .unterminatedString,
                "unterminated B64\"…\" literal; it needs a closing \"",
                from: start,
                length: offset - start
            )
        }
        advance(to: offset + 1)
        return ScannedToken(.base64)
    }

    /// OBJECT_ID = 'oid(' hex{24} ')' ;
    mutating func scanObjectId(from start: Int) throws(SyntaxError) -> ScannedToken {
        let digits = start + 4
        guard (digits..<digits + 24).allSatisfy(isHexDigit(at:)), byte(at: digits + 24) == UInt8(ascii: ")") else {
            throw error(
                .invalidLiteral,
                "an ObjectId is written oid(…) with exactly 24 hex digits",
                from: start,
                length: literalExtent(from: start)
            )
        }
        advance(to: digits + 25)
        return ScannedToken(.objectId)
    }

    /// UUID = 'uuid(' hex{8} '-' hex{4} '-' hex{4} '-' hex{4} '-' hex{12} ')' ;
    mutating func scanUUID(from start: Int) throws(SyntaxError) -> ScannedToken {
        var offset = start + 5
        for (index, groupLength) in [8, 4, 4, 4, 12].enumerated() {
            let group = offset..<offset + groupLength
            let separator = index < 4 ? UInt8(ascii: "-") : UInt8(ascii: ")")
            guard group.allSatisfy(isHexDigit(at:)), byte(at: group.upperBound) == separator else {
                throw error(
                    .invalidLiteral,
                    "a UUID is written uuid(xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx) in hex digits",
                    from: start,
                    length: literalExtent(from: start)
                )
            }
            offset = group.upperBound + 1
        }
        advance(to: offset)
        return ScannedToken(.uuid)
    }

    /// How far a malformed `name(…)` literal reaches, for the error's span: through the closing
    /// parenthesis, or to the end of the line.
    private func literalExtent(from start: Int) -> Int {
        var offset = start
        while let byte = byte(at: offset), byte != UInt8(ascii: "\n") {
            offset += 1
            if byte == UInt8(ascii: ")") { break }
        }
        return offset - start
    }
}
