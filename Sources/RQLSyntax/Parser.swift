import RQLCore

/// Turns query strings into syntax trees, or into the first syntax error.
///
///     let query = try Parser.parse("age > 2 AND name BEGINSWITH[c] 'r' SORT(age DESC)")
///     let swift = try Parser.parse("name ==[cd] %@ AND ANY dogs.age > 3", dialect: .nsPredicate)
///
/// The parser is hand-written recursive descent with one function per rule of
/// `Grammar/RQL.ebnf`; each function's doc comment quotes its rule.
public enum Parser {
    /// How deeply parentheses, NOTs and subqueries may nest. Deeper input gets
    /// `SyntaxError.Kind.nestingTooDeep` instead of exhausting the stack.
    public static let maximumNestingDepth = 200

    /// Parses `source` in `dialect`.
    ///
    /// - Throws: `SyntaxError` for the first problem, with its span in `source`.
    public static func parse(_ source: String, dialect: Dialect = .rql) throws(SyntaxError) -> QuerySyntax {
        var source = source
        let result = source.withUTF8 { bytes in
            Result { () throws(SyntaxError) -> QuerySyntax in
                var parser = try QueryParser(bytes: bytes, dialect: dialect)
                return try parser.parseQuery()
            }
        }
        return try result.get()
    }
}

/// The state of one parse: the lexer, the current token and one token of lookahead.
struct QueryParser {
    var lexer: Lexer
    /// The token being looked at.
    private(set) var current: Token
    /// The token consumed last; error messages say what came after it.
    private(set) var previous: Token
    /// The token after `current`, once `peek()` has read it.
    private var lookahead: Token?
    private var depth = 0
    /// The number of NSPredicate placeholders (`%@`, `%K`, …) seen so far; each takes the next argument.
    var placeholderCount = 0

    var dialect: Dialect { lexer.dialect }

    init(bytes: UnsafeBufferPointer<UInt8>, dialect: Dialect) throws(SyntaxError) {
        lexer = Lexer(bytes: bytes, dialect: dialect)
        current = try lexer.next()
        previous = current
    }

    // MARK: - Tokens

    /// Consumes the current token and returns it.
    @discardableResult
    mutating func advance() throws(SyntaxError) -> Token {
        previous = current
        if let lookahead {
            current = lookahead
            self.lookahead = nil
        } else {
            current = try lexer.next()
        }
        return previous
    }

    /// The token after the current one, without consuming anything.
    mutating func peek() throws(SyntaxError) -> Token {
        if let lookahead { return lookahead }
        let token = try lexer.next()
        lookahead = token
        return token
    }

    /// Consumes a token of `kind`, or fails saying that `expectation` was expected.
    @discardableResult
    mutating func expect(_ kind: TokenKind, _ expectation: @autoclosure () -> String) throws(SyntaxError) -> Token {
        guard current.kind == kind else { throw unexpected(expected: expectation()) }
        return try advance()
    }

    /// The source text of `token`.
    func text(of token: Token) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: lexer.bytes[token.span.offset..<token.span.end]), as: UTF8.self)
    }

    /// How an error message names a token: `end of input`, or its text in quotes.
    func describe(_ token: Token) -> String {
        if token.kind == .end { return "end of input" }
        let text = text(of: token)
        return text.count > 32 ? "'\(text.prefix(31))…'" : "'\(text)'"
    }

    /// "expected X after 'Y' but found Z", pointing at the current token.
    func unexpected(expected expectation: String) -> SyntaxError {
        let after = previous.span == current.span ? "" : " after \(describe(previous))"
        return SyntaxError(
            .unexpectedToken,
            "expected \(expectation)\(after) but found \(describe(current))",
            at: current.span
        )
    }

    /// Counts one more level of nesting, opened by `opener`, failing past `Parser.maximumNestingDepth`.
    mutating func enterNesting(openedBy opener: Token) throws(SyntaxError) {
        depth += 1
        if depth > Parser.maximumNestingDepth {
            throw SyntaxError(
                .nestingTooDeep,
                "the query nests parentheses, NOTs and subqueries more than \(Parser.maximumNestingDepth) deep",
                at: opener.span
            )
        }
    }

    mutating func leaveNesting() { depth -= 1 }

    func isKeyword(_ keyword: Keyword) -> Bool { current.kind == .word && current.keyword == keyword }

    // MARK: - Predicates

    /// query = or_predicate post_query END ;
    mutating func parseQuery() throws(SyntaxError) -> QuerySyntax {
        if current.kind == .end {
            throw SyntaxError(
                .unexpectedToken,
                "expected a predicate but found an empty query; TRUEPREDICATE matches everything",
                at: current.span
            )
        }
        let predicate = try parseOrPredicate()
        let clauses = try parsePostQuery()
        if !clauses.isEmpty && (isAnd(current) || isOr(current)) {
            // `TRUEPREDICATE LIMIT(1) AND age > 2`: the user meant one predicate and put a clause
            // in the middle of it; "expected … but found 'AND'" would not tell them why.
            throw SyntaxError(
                .unexpectedToken,
                "SORT, DISTINCT and LIMIT must come last, after the whole predicate; move \(describe(current))"
                    + " and what follows it before them",
                at: current.span
            )
        }
        guard current.kind == .end else {
            throw unexpected(
                expected: dialect == .rql
                    ? "AND, OR, SORT, DISTINCT, LIMIT or the end of the query" : "AND, OR or the end of the query"
            )
        }
        return QuerySyntax(predicate: predicate, clauses: clauses, dialect: dialect)
    }

    /// or_predicate = and_predicate ( OR and_predicate )* ;
    ///
    /// `first`, when given, is an already parsed first operand of the innermost AND.
    mutating func parseOrPredicate(first: Predicate? = nil) throws(SyntaxError) -> Predicate {
        let head = try parseAndPredicate(first: first)
        guard isOr(current) else { return head }
        var operands = [head]
        operands.reserveCapacity(4)
        while isOr(current) {
            try advance()
            operands.append(try parseAndPredicate())
        }
        return Predicate(.or(operands), span: head.span.through(operands[operands.count - 1].span))
    }

    /// and_predicate = not_predicate ( AND not_predicate )* ;
    mutating func parseAndPredicate(first: Predicate? = nil) throws(SyntaxError) -> Predicate {
        let head: Predicate
        if let first { head = first } else { head = try parseNotPredicate() }
        guard isAnd(current) else { return head }
        var operands = [head]
        operands.reserveCapacity(4)
        while isAnd(current) {
            try advance()
            operands.append(try parseNotPredicate())
        }
        return Predicate(.and(operands), span: head.span.through(operands[operands.count - 1].span))
    }

    /// not_predicate = NOT not_predicate | atom_predicate ;
    mutating func parseNotPredicate() throws(SyntaxError) -> Predicate {
        guard current.kind == .bang || isKeyword(.not) else { return try parseAtomPredicate() }
        let not = try advance()
        try enterNesting(openedBy: not)
        defer { leaveNesting() }
        let operand = try parseNotPredicate()
        return Predicate(.not(operand), span: not.span.through(operand.span))
    }

    /// atom_predicate = TRUEPREDICATE | FALSEPREDICATE | '(' or_predicate ')' | comparison ;
    mutating func parseAtomPredicate() throws(SyntaxError) -> Predicate {
        if isKeyword(.truePredicate) || isKeyword(.falsePredicate) {
            let token = try advance()
            return Predicate(.constant(token.keyword == .truePredicate), span: token.span)
        }
        guard current.kind == .leftParen else { return try parseComparison() }
        switch try parseParenthesizedPredicateOrOperand() {
        case .predicate(let predicate):
            return predicate
        case .operand(let operand):
            return try parseComparisonRest(lhs: parseOperand(startingWith: operand))
        }
    }

    /// What a '(' in predicate position turned out to open.
    enum PredicateOrOperand {
        /// `(a == 1 OR b == 2)`.
        case predicate(Predicate)
        /// `(age + 1)`, which a comparison operator must follow.
        case operand(Expression)
    }

    /// Parses `'(' … ')'` where either a predicate or an operand may be inside, deciding by what
    /// follows the first operand: a comparison operator makes it a predicate, a ')' an operand.
    /// Nested parentheses are resolved the same way, innermost first, so nothing is read twice.
    private mutating func parseParenthesizedPredicateOrOperand() throws(SyntaxError) -> PredicateOrOperand {
        let open = try advance()
        try enterNesting(openedBy: open)
        defer { leaveNesting() }
        let head: PredicateOrOperand
        if current.kind == .bang || isKeyword(.not) || isKeyword(.truePredicate) || isKeyword(.falsePredicate) {
            head = .predicate(try parseNotPredicate())
        } else if current.kind == .leftParen {
            head = try parseParenthesizedPredicateOrOperand()
        } else {
            head = .operand(try parseOperand())
        }
        let first: Predicate
        switch head {
        case .predicate(let predicate):
            first = predicate
        case .operand(let operand):
            // Continues `(a + 1) * 2`; for an operand already complete this reads nothing.
            let lhs = try parseOperand(startingWith: operand)
            guard isComparisonStart(current) else {
                let close = try closeParenthesis(opened: open)
                return .operand(Expression(lhs.kind, span: open.span.through(close.span)))
            }
            first = try parseComparisonRest(lhs: lhs)
        }
        let predicate = try parseOrPredicate(first: first)
        return try .predicate(closeParenthesis(opened: open, around: predicate))
    }

    private mutating func closeParenthesis(opened open: Token) throws(SyntaxError) -> Token {
        try expect(.rightParen, "')' to close the '(' at column \(open.span.column)")
    }

    private mutating func closeParenthesis(
        opened open: Token,
        around predicate: Predicate
    ) throws(SyntaxError)
        -> Predicate
    {
        let close = try closeParenthesis(opened: open)
        return Predicate(predicate.kind, span: open.span.through(close.span))
    }

    /// comparison = operand ( comparison_operator MODIFIER? operand | BETWEEN between_bounds | GEOWITHIN geo_shape ) ;
    mutating func parseComparison() throws(SyntaxError) -> Predicate {
        try parseComparisonRest(lhs: parseOperand())
    }

    /// The part of a comparison after its left operand.
    mutating func parseComparisonRest(lhs: Expression) throws(SyntaxError) -> Predicate {
        if isKeyword(.between) {
            let keyword = try advance()
            try rejectModifier(after: keyword)
            let bounds = try parseBetweenBounds()
            return Predicate(.between(value: lhs, bounds: bounds), span: lhs.span.through(bounds.span))
        }
        if isKeyword(.geoWithin) {
            let keyword = try advance()
            try rejectModifier(after: keyword)
            let shape = try parseGeoShape()
            return Predicate(.geoWithin(location: lhs, shape: shape), span: lhs.span.through(shape.span))
        }
        guard let op = comparisonOperator(current) else {
            throw unexpected(expected: "a comparison operator")
        }
        let opToken = try advance()
        var options: StringOptions = []
        if op.acceptsOptions, current.kind == .modifier {
            let modifier = try advance()
            for byte in lexer.bytes[modifier.span.offset..<modifier.span.end] {
                switch byte | 0x20 {
                case UInt8(ascii: "c"): options.insert(.caseInsensitive)
                case UInt8(ascii: "d"): options.insert(.diacriticInsensitive)
                default: break
                }
            }
        } else {
            try rejectModifier(after: opToken)
        }
        let rhs = try parseOperand()
        if isComparisonStart(current) {
            throw SyntaxError(
                .unexpectedToken,
                "comparisons cannot be chained; join them with AND",
                at: current.span
            )
        }
        return Predicate(.comparison(Comparison(lhs, op, rhs, options: options)), span: lhs.span.through(rhs.span))
    }

    /// A modifier where none may stand gets an error that says where modifiers go.
    private func rejectModifier(after token: Token) throws(SyntaxError) {
        guard current.kind == .modifier else { return }
        throw SyntaxError(
            .unsupported,
            "'\(text(of: current))' cannot follow \(text(of: token)); it goes after ==, !=, IN, BEGINSWITH, "
                + "ENDSWITH, CONTAINS and LIKE",
            at: current.span
        )
    }

    /// comparison_operator = '==' | '!=' | '<' | '<=' | '>' | '>=' | IN | BEGINSWITH | ENDSWITH | CONTAINS | LIKE
    ///                     | TEXT (* RQL *) | MATCHES ;
    ///
    /// Keywords a dialect lacks never reach here: the lexer does not classify them.
    func comparisonOperator(_ token: Token) -> ComparisonOperator? {
        switch token.kind {
        case .equal: return .equal
        case .notEqual: return .notEqual
        case .less: return .less
        case .lessOrEqual: return .lessOrEqual
        case .greater: return .greater
        case .greaterOrEqual: return .greaterOrEqual
        case .word:
            switch token.keyword {
            case .in: return .in
            case .beginsWith: return .beginsWith
            case .endsWith: return .endsWith
            case .contains: return .contains
            case .like: return .like
            case .text: return .text
            case .matches: return .matches
            default: return nil
            }
        default: return nil
        }
    }

    func isComparisonStart(_ token: Token) -> Bool {
        comparisonOperator(token) != nil || token.keyword == .between || token.keyword == .geoWithin
    }

    private func isOr(_ token: Token) -> Bool { token.kind == .bars || (token.kind == .word && token.keyword == .or) }
    private func isAnd(_ token: Token) -> Bool {
        token.kind == .ampersands || (token.kind == .word && token.keyword == .and)
    }

    /// between_bounds = list_literal | argument ;
    mutating func parseBetweenBounds() throws(SyntaxError) -> Expression {
        switch current.kind {
        case .leftBrace: return try parseListLiteral()
        case .argument, .formatArgument, .variable: return try parseArgumentExpression()
        default: throw unexpected(expected: "a list such as {1, 5} or an argument")
        }
    }
}
