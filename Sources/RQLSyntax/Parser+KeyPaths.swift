import RQLCore

/// Key paths: names, backlinks, subscripts, and the size, type and aggregate postfixes.
extension QueryParser {
    /// key_path_expression = key_path ( '.' COUNT | '[' SIZE ']' | '.' TYPE | '.' AGGREGATE ( '.' name )? )? ;
    mutating func parseKeyPathExpression() throws(SyntaxError) -> Expression {
        var (path, span) = try parseKeyPath()
        if current.kind == .dot, try isPostfixWord(peek()) {
            try advance()
            let word = try advance()
            span = span.through(word.span)
            switch word.keyword {
            case .atCount, .atSize:
                path.postfix = .count
            case .atType:
                path.postfix = .type
            default:
                var property: String?
                if current.kind == .dot, try isName(peek()) {
                    try advance()
                    let (name, nameSpan) = try parseName()
                    property = name
                    span = span.through(nameSpan)
                }
                path.postfix = .aggregate(aggregateFunction(word.keyword), property: property)
            }
        } else if current.kind == .leftBracket, try peek().keyword == .size {
            try advance()
            try advance()
            span = span.through(try expect(.rightBracket, "']'").span)
            path.postfix = .count
        }
        return Expression(.keyPath(path), span: span)
    }

    private func isPostfixWord(_ token: Token) -> Bool {
        guard token.kind == .atWord else { return false }
        switch token.keyword {
        case .atCount, .atSize, .atType, .atMin, .atMax, .atSum, .atAvg: return true
        default: return false
        }
    }

    private func aggregateFunction(_ keyword: Keyword?) -> AggregateFunction {
        switch keyword {
        case .atMin: .min
        case .atMax: .max
        case .atSum: .sum
        default: .avg
        }
    }

    /// key_path = path_root path_element* ;
    ///
    /// Stops before a postfix (`.@count`, `[SIZE]`), which `parseKeyPathExpression` reads.
    mutating func parseKeyPath() throws(SyntaxError) -> (path: KeyPath, span: SourceSpan) {
        let root = try parsePathRoot()
        var elements = [root]
        var span = root.span
        while true {
            if current.kind == .dot {
                if try isPostfixWord(peek()) { break }
            } else if current.kind == .leftBracket {
                if try peek().keyword == .size { break }
            } else {
                break
            }
            let element = try parsePathElement()
            elements.append(element)
            span = span.through(element.span)
        }
        return (KeyPath(elements), span)
    }

    /// path_root = name | backlinks | KEY_PATH_ARGUMENT | VARIABLE (* NSPredicate *) | SELF (* NSPredicate *) ;
    mutating func parsePathRoot() throws(SyntaxError) -> PathElement {
        let token = current
        switch token.kind {
        case .atWord where token.keyword == .atLinks:
            return try parseBacklinks()
        case .keyPathArgument:
            try advance()
            if dialect == .rql {
                return PathElement(.keyPathArgument(try decodeArgumentIndex(token, digitsFrom: 2)), span: token.span)
            }
            placeholderCount += 1
            return PathElement(.keyPathArgument(placeholderCount - 1), span: token.span)
        case .variable:
            try advance()
            return PathElement(.variable(String(text(of: token).dropFirst())), span: token.span)
        case .word where token.keyword == .selfKeyword:
            try advance()
            return PathElement(.self, span: token.span)
        default:
            let (name, span) = try parseName()
            return PathElement(.property(name), span: span)
        }
    }

    /// path_element = '.' name | '.' backlinks | '.' KEYS | '.' VALUES | subscript ;
    ///
    /// The span of an element after a '.' is the element alone, so that a diagnostic about a
    /// name underlines the name; a subscript's span includes its brackets.
    mutating func parsePathElement() throws(SyntaxError) -> PathElement {
        if current.kind == .leftBracket { return try parseSubscript() }
        try expect(.dot, "'.'")
        if current.kind == .atWord {
            switch current.keyword {
            case .atLinks:
                return try parseBacklinks()
            case .atKeys, .atAllKeys:
                return PathElement(.keys, span: try advance().span)
            case .atValues, .atAllValues:
                return PathElement(.values, span: try advance().span)
            default:
                throw unexpected(expected: "a property name")
            }
        }
        let (name, span) = try parseName()
        return PathElement(.property(name), span: span)
    }

    /// backlinks = LINKS ( '.' name '.' name )? ;
    mutating func parseBacklinks() throws(SyntaxError) -> PathElement {
        let links = try advance()
        guard current.kind == .dot, try isName(peek()) else { return PathElement(.allBacklinks, span: links.span) }
        try advance()
        let (className, _) = try parseName()
        try expect(.dot, "'.' and the linking property")
        let (property, end) = try parseName()
        return PathElement(.backlinks(className: className, property: property), span: links.span.through(end))
    }

    /// subscript = '[' ( NATURAL | FIRST | LAST | '*' | STRING | argument | KEY_PATH_ARGUMENT (* NSPredicate *)
    ///     | '#any' (* NSPredicate *) ) ']' ;
    mutating func parseSubscript() throws(SyntaxError) -> PathElement {
        let open = try advance()
        let kind: PathElementKind
        switch current.kind {
        case .integer:
            kind = .index(try parseNatural(what: "a list position"))
        case .star:
            try advance()
            kind = .all
        case .string:
            kind = .key(try decodeString(advance()))
        case .argument, .formatArgument, .variable:
            kind = .subscriptArgument(try parseArgument().argument)
        case .keyPathArgument where dialect == .nsPredicate:
            try advance()
            kind = .subscriptArgument(.placeholder(placeholderCount, specifier: "K"))
            placeholderCount += 1
        case .word where current.keyword == .first:
            try advance()
            kind = .first
        case .word where current.keyword == .last:
            try advance()
            kind = .last
        case .escapedWord where dialect == .nsPredicate && text(of: current) == "#any":
            // Realm Swift's wildcard key path: `[*]`, printed back as `[*]`.
            try advance()
            kind = .all
        default:
            throw unexpected(
                expected: "a position, FIRST, LAST, '*', a key in quotes or an argument"
                    + (dialect == .nsPredicate ? " (or #any, the same as '*')" : "")
            )
        }
        let close = try expect(.rightBracket, "']'")
        return PathElement(kind, span: open.span.through(close.span))
    }

    /// name = WORD ;
    ///
    /// A keyword is a name where the grammar wants one, unless it is reserved (see `Keyword.isContextual`).
    mutating func parseName() throws(SyntaxError) -> (String, SourceSpan) {
        guard isName(current) else {
            if current.kind == .word, current.keyword != nil {
                throw SyntaxError(
                    .unexpectedToken,
                    "expected a property name but found the keyword \(describe(current))"
                        + (dialect == .nsPredicate ? "; write #\(text(of: current)) to use it as a name" : ""),
                    at: current.span
                )
            }
            throw unexpected(expected: "a property name")
        }
        let token = try advance()
        guard token.kind == .escapedWord else { return (text(of: token), token.span) }
        return (decodeEscapedName(text(of: token)), token.span)
    }

    func isName(_ token: Token) -> Bool {
        switch token.kind {
        case .escapedWord: return true
        case .word:
            guard let keyword = token.keyword else { return true }
            // NSPredicate reserves its keywords; `#keyword` is the name.
            return dialect == .rql && keyword.isContextual
        default: return false
        }
    }

    /// `float\ fees` → `float fees` (RQL); `#size` → `size` (NSPredicate).
    private func decodeEscapedName(_ text: String) -> String {
        if text.hasPrefix("#") { return String(text.dropFirst()) }
        var name = ""
        var iterator = text.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "\\", let escaped = iterator.next() else {
                name.unicodeScalars.append(scalar)
                continue
            }
            switch escaped {
            case "t": name.append("\t")
            case "n": name.append("\n")
            case "r": name.append("\r")
            default: name.unicodeScalars.append(escaped)
            }
        }
        return name
    }
}
