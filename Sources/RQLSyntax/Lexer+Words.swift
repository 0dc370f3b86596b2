import RQLCore

/// Names, keywords and the other tokens that start with a letter or a sigil.
extension Lexer {
    /// Whether a name can start at `offset`: a letter, `_`, a non-ASCII character, and in RQL `$`.
    func isWordStart(at offset: Int) -> Bool {
        guard let byte = byte(at: offset) else { return false }
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"), 0x80...:
            return true
        case UInt8(ascii: "$"):
            return dialect == .rql
        default:
            return false
        }
    }

    private func isWordContinuation(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), 0x80...:
            return true
        case UInt8(ascii: "$"), UInt8(ascii: "-"):
            return dialect == .rql
        default:
            return false
        }
    }

    /// Scans a name or keyword; in RQL also the literals that begin like a name (`T1:2`, `B64"…"`,
    /// `oid(…)`, `uuid(…)`, `inf`, `nan`), which are longer than the name they start with.
    ///
    /// WORD = ( letter | '_' | '$' | non_ascii ) ( letter | digit | '_' | '$' | '-' | non_ascii | '\' ( ' ' | 't' | 'n' | 'r' ) )*
    ///      | '#' ( letter | '_' | non_ascii ) ( letter | digit | '_' | non_ascii )* (* NSPredicate *) ;
    mutating func scanWord(from start: Int) throws(SyntaxError) -> ScannedToken {
        if dialect == .rql {
            switch bytes[start] {
            case UInt8(ascii: "T"):
                if let end = timestampEnd(from: start) {
                    advance(to: end)
                    return ScannedToken(.timestamp)
                }
            case UInt8(ascii: "B") where matches("B64\"", at: start):
                return try scanBase64(from: start)
            case UInt8(ascii: "o") where matches("oid(", at: start):
                return try scanObjectId(from: start)
            case UInt8(ascii: "u") where matches("uuid(", at: start):
                return try scanUUID(from: start)
            default:
                break
            }
        }
        advance(to: start)
        if try scanWordExtent() { return ScannedToken(.escapedWord) }
        if dialect == .rql, let special = infinityOrNaN(from: start, to: position) { return ScannedToken(special) }
        let word = UnsafeBufferPointer(rebasing: bytes[start..<position])
        return ScannedToken(.word, keyword: Keyword.lookUp(word, dialect: dialect))
    }

    /// Moves past the rest of a name whose first character is at `position`; returns whether it
    /// holds an escape.
    mutating func scanWordExtent() throws(SyntaxError) -> Bool {
        var offset = position + 1
        var hasEscapes = false
        while offset < bytes.count {
            let byte = bytes[offset]
            if isWordContinuation(byte) {
                offset += 1
            } else if byte == UInt8(ascii: "\\") && dialect == .rql {
                switch self.byte(at: offset + 1) {
                case UInt8(ascii: " "), UInt8(ascii: "t"), UInt8(ascii: "n"), UInt8(ascii: "r"):
                    offset += 2
                    hasEscapes = true
                default:
                    throw error(
                        .invalidEscape,
                        "invalid escape in a name; names take '\\ ', '\\t', '\\n' and '\\r'",
                        from: offset,
                        length: 1 + (offset + 1 < bytes.count ? utf8SequenceLength(at: offset + 1) : 0)
                    )
                }
            } else {
                break
            }
        }
        advance(to: offset)
        return hasEscapes
    }

    /// INFINITY = sign? ( 'inf' | 'infinity' ) ;
    /// NAN = sign? 'nan' ;
    func infinityOrNaN(from start: Int, to end: Int) -> TokenKind? {
        var offset = start
        if bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        switch end - offset {
        case 3 where matches("inf", at: offset, ignoringCase: true): return .infinity
        case 8 where matches("infinity", at: offset, ignoringCase: true): return .infinity
        case 3 where matches("nan", at: offset, ignoringCase: true): return .nan
        default: return nil
        }
    }

    /// `$0`, `$K0` and `$name` in RQL; variables in NSPredicate.
    ///
    /// ARGUMENT = '$' digit+ ;
    /// KEY_PATH_ARGUMENT = '$K' digit+ | '%K' ;
    /// VARIABLE = '$' ( letter | '_' ) ( letter | digit | '_' )* ;
    mutating func scanDollar(from start: Int) throws(SyntaxError) -> ScannedToken {
        if dialect == .nsPredicate {
            guard let next = byte(at: start + 1),
                next == UInt8(ascii: "_") || (next | 0x20 >= 0x61 && next | 0x20 <= 0x7A)
            else {
                throw error(.invalidCharacter, "'$' must start a variable name such as $x", from: start, length: 1)
            }
            var offset = start + 2
            while let byte = byte(at: offset),
                byte == UInt8(ascii: "_") || isDigit(at: offset) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
            {
                offset += 1
            }
            advance(to: offset)
            return ScannedToken(.variable)
        }
        advance(to: start)
        if try scanWordExtent() { return ScannedToken(.escapedWord) }
        // The longest match decides: `$0` is an argument, `$0a` a name.
        let digitsStart = byte(at: start + 1) == UInt8(ascii: "K") ? start + 2 : start + 1
        if position > digitsStart && (digitsStart..<position).allSatisfy({ isDigit(at: $0) }) {
            return ScannedToken(digitsStart == start + 1 ? .argument : .keyPathArgument)
        }
        return ScannedToken(.word)
    }

    /// NSPredicate's format placeholders.
    ///
    /// FORMAT_ARGUMENT = '%' ( '@' | 'd' | 'i' | 'ld' | 'lld' | 'u' | 'lu' | 'f' | 'lf' | 's' | 'c' | 'hd' | 'hi' ) ;
    mutating func scanPercent(from start: Int) throws(SyntaxError) -> ScannedToken {
        for specifier in Self.formatSpecifiers where matches(specifier, at: start + 1) {
            advance(to: start + 1 + specifier.utf8CodeUnitCount)
            return ScannedToken(specifier.utf8Start.pointee == UInt8(ascii: "K") ? .keyPathArgument : .formatArgument)
        }
        throw error(
            .invalidCharacter,
            "unknown format specifier; use %@ for a value or %K for a key path",
            from: start,
            length: 1 + (start + 1 < bytes.count ? utf8SequenceLength(at: start + 1) : 0)
        )
    }

    /// COUNT = '@count' | '@size' ;
    /// TYPE = '@type' ;
    /// AGGREGATE = '@min' | '@max' | '@sum' | '@avg' ;
    /// KEYS = '@keys' | '@allKeys' ;
    /// VALUES = '@values' | '@allValues' ;
    /// LINKS = '@links' ;
    mutating func scanAtWord(from start: Int) throws(SyntaxError) -> ScannedToken {
        var offset = start + 1
        while let byte = byte(at: offset), byte | 0x20 >= UInt8(ascii: "a"), byte | 0x20 <= UInt8(ascii: "z") {
            offset += 1
        }
        guard offset > start + 1 else {
            throw error(.invalidCharacter, "invalid character '@'", from: start, length: 1)
        }
        let word = UnsafeBufferPointer(rebasing: bytes[start..<offset])
        guard let keyword = Keyword.lookUp(word, dialect: dialect) else {
            let text = String(decoding: word, as: UTF8.self)
            throw error(
                .unknownAtWord,
                "unknown '\(text)'; expected @count, @size, @min, @max, @sum, @avg, @type, @keys, @values or @links",
                from: start,
                length: offset - start
            )
        }
        advance(to: offset)
        return ScannedToken(.atWord, keyword: keyword)
    }

    /// A `[` that opens a subscript, or one of the comparison modifiers.
    ///
    /// MODIFIER = '[c]' | '[d]' | '[cd]' | '[dc]' ;
    mutating func scanBracket(from start: Int) -> ScannedToken {
        let ignoringCase = dialect == .nsPredicate
        for modifier in Self.modifiers where matches(modifier, at: start, ignoringCase: ignoringCase) {
            advance(to: start + modifier.utf8CodeUnitCount)
            return ScannedToken(.modifier)
        }
        advance(to: start + 1)
        return ScannedToken(.leftBracket)
    }

    /// Longest first, so `%ld` is not read as `%l` followed by `d`.
    private static let formatSpecifiers: [StaticString] = [
        "lld", "ld", "lu", "lf", "hd", "hi", "@", "d", "i", "u", "f", "s", "c", "K",
    ]
    private static let modifiers: [StaticString] = ["[c]", "[d]", "[cd]", "[dc]"]
}
