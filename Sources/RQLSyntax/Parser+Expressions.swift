import RQLCore

/// Operands: arithmetic, values, quantifiers, lists and subqueries.
extension QueryParser {
    /// operand = product ( ( '+' | '-' ) product )* ;
    ///
    /// `seed`, when given, is an already parsed first factor (a parenthesized operand).
    mutating func parseOperand(startingWith seed: Expression? = nil) throws(SyntaxError) -> Expression {
        let first = try parseProduct(startingWith: seed)
        guard current.kind == .plus || current.kind == .minus else { return first }
        var rest: [ArithmeticStep] = []
        var end = first.span
        while current.kind == .plus || current.kind == .minus {
            let op: ArithmeticOperator = try advance().kind == .plus ? .add : .subtract
            let operand = try parseProduct()
            rest.append(ArithmeticStep(op, operand))
            end = operand.span
        }
        return Expression(.arithmetic(first: first, rest: rest), span: first.span.through(end))
    }

    /// product = factor ( ( '*' | '/' ) factor )* ;
    mutating func parseProduct(startingWith seed: Expression? = nil) throws(SyntaxError) -> Expression {
        let first: Expression
        if let seed { first = seed } else { first = try parseFactor() }
        guard current.kind == .star || current.kind == .slash else { return first }
        var rest: [ArithmeticStep] = []
        var end = first.span
        while current.kind == .star || current.kind == .slash {
            let op: ArithmeticOperator = try advance().kind == .star ? .multiply : .divide
            let operand = try parseFactor()
            rest.append(ArithmeticStep(op, operand))
            end = operand.span
        }
        return Expression(.arithmetic(first: first, rest: rest), span: first.span.through(end))
    }

    /// factor = '(' operand ')' | value ;
    mutating func parseFactor() throws(SyntaxError) -> Expression {
        guard current.kind == .leftParen else { return try parseValue() }
        let open = try advance()
        try enterNesting(openedBy: open)
        defer { leaveNesting() }
        let inner = try parseOperand()
        let close = try expect(.rightParen, "')' to close the '(' at column \(open.span.column)")
        return Expression(inner.kind, span: open.span.through(close.span))
    }

    /// value = literal | argument | list_literal | quantified | subquery | key_path_expression ;
    mutating func parseValue() throws(SyntaxError) -> Expression {
        switch current.kind {
        case .integer, .floatingPoint, .infinity, .nan, .string, .base64, .timestamp, .dateTime, .objectId, .uuid:
            return try parseLiteral()
        case .argument, .formatArgument:
            return try parseArgumentExpression()
        case .leftBrace:
            return try parseListLiteral()
        case .escapedWord, .keyPathArgument, .variable:
            return try parseKeyPathExpression()
        case .atWord where current.keyword == .atLinks:
            return try parseKeyPathExpression()
        case .word:
            switch current.keyword {
            case .true, .false, .yes, .no, .null, .nilLiteral:
                return try parseLiteral()
            case .bin, .binary, .obj:
                return try peek().kind == .leftParen ? parseLiteral() : parseKeyPathExpression()
            case .any, .someQuantifier, .all, .noneQuantifier:
                return try parseQuantified()
            case .subquery:
                return try parseSubquery()
            case nil, .selfKeyword:
                return try parseKeyPathExpression()
            case let keyword? where keyword.isContextual:
                return try parseKeyPathExpression()
            default:
                throw unexpected(expected: "a value")
            }
        default:
            throw unexpected(expected: "a value")
        }
    }

    /// quantified = QUANTIFIER ( key_path_expression | list_literal | argument ) ;
    ///
    /// QUANTIFIER = ANY | SOME | ALL | NONE ;
    mutating func parseQuantified() throws(SyntaxError) -> Expression {
        let token = try advance()
        let quantifier: Quantifier =
            switch token.keyword {
            case .all: .all
            case .noneQuantifier: .none
            default: .any
            }
        let operand: Expression
        switch current.kind {
        case .leftBrace:
            operand = try parseListLiteral()
        case .argument, .formatArgument:
            operand = try parseArgumentExpression()
        case .word
        where current.keyword == nil || current.keyword?.isContextual == true || current.keyword == .selfKeyword:
            operand = try parseKeyPathExpression()
        case .escapedWord, .keyPathArgument, .variable, .atWord:
            operand = try parseKeyPathExpression()
        default:
            throw unexpected(expected: "a key path, a list or an argument")
        }
        return Expression(.quantified(quantifier, operand), span: token.span.through(operand.span))
    }

    /// subquery = SUBQUERY '(' key_path ',' subquery_variable ',' or_predicate ')' '.' COUNT ;
    mutating func parseSubquery() throws(SyntaxError) -> Expression {
        let keyword = try advance()
        try enterNesting(openedBy: keyword)
        defer { leaveNesting() }
        try expect(.leftParen, "'('")
        let collection = try parseKeyPath()
        try expect(.comma, "',' and a variable such as $x")
        let variable = try parseSubqueryVariable()
        try expect(.comma, "',' and the subquery's predicate")
        let predicate = try parseOrPredicate()
        try expect(.rightParen, "')' to close the SUBQUERY")
        let next = try peek()
        guard current.kind == .dot, next.keyword == .atCount || next.keyword == .atSize else {
            let found = current.kind == .dot ? next : current
            throw SyntaxError(
                .unexpectedToken,
                "a SUBQUERY can only be counted: write SUBQUERY(…).@count, not \(describe(found))",
                at: found.span
            )
        }
        try advance()
        let end = try advance()
        return Expression(
            .subqueryCount(collection: collection.path, variable: variable, predicate: predicate),
            span: keyword.span.through(end.span)
        )
    }

    /// subquery_variable = WORD | VARIABLE ;
    ///
    /// Returns the variable's name without its '$', the same in both dialects.
    mutating func parseSubqueryVariable() throws(SyntaxError) -> String {
        switch current.kind {
        case .variable:
            return String(text(of: try advance()).dropFirst())
        case .word where current.keyword == nil:
            let name = text(of: current)
            guard name.hasPrefix("$") else {
                throw SyntaxError(
                    .unexpectedToken,
                    "the SUBQUERY variable '\(name)' must start with '$', as in $x",
                    at: current.span
                )
            }
            try advance()
            return String(name.dropFirst())
        default:
            throw unexpected(expected: "a variable such as $x")
        }
    }

    /// list_literal = '{' ( list_element ( ',' list_element )* )? '}' ;
    mutating func parseListLiteral() throws(SyntaxError) -> Expression {
        let open = try advance()
        var elements: [Expression] = []
        if current.kind != .rightBrace {
            elements.append(try parseListElement())
            while current.kind == .comma {
                try advance()
                elements.append(try parseListElement())
            }
        }
        let close = try expect(.rightBrace, elements.isEmpty ? "a constant or '}'" : "',' or '}'")
        return Expression(.list(elements), span: open.span.through(close.span))
    }

    /// list_element = literal | argument ;
    mutating func parseListElement() throws(SyntaxError) -> Expression {
        switch current.kind {
        case .integer, .floatingPoint, .infinity, .nan, .string, .base64, .timestamp, .dateTime, .objectId, .uuid:
            return try parseLiteral()
        case .argument, .formatArgument, .variable:
            return try parseArgumentExpression()
        case .word:
            switch current.keyword {
            case .true, .false, .yes, .no, .null, .nilLiteral: return try parseLiteral()
            case .bin where try peek().kind == .leftParen, .binary where try peek().kind == .leftParen,
                .obj where try peek().kind == .leftParen:
                return try parseLiteral()
            default: break
            }
        default:
            break
        }
        throw unexpected(expected: "a constant or an argument in the list")
    }

    /// argument = ARGUMENT | FORMAT_ARGUMENT (* NSPredicate *) | VARIABLE (* NSPredicate *) ;
    mutating func parseArgument() throws(SyntaxError) -> (argument: Argument, span: SourceSpan) {
        let token = current
        let argument: Argument
        switch token.kind {
        case .argument:
            argument = .positional(try decodeArgumentIndex(token, digitsFrom: 1))
        case .formatArgument:
            argument = .placeholder(placeholderCount, specifier: String(text(of: token).dropFirst()))
            placeholderCount += 1
        case .variable:
            argument = .variable(String(text(of: token).dropFirst()))
        default:
            throw unexpected(expected: "an argument")
        }
        try advance()
        return (argument, token.span)
    }

    /// An argument as an operand.
    mutating func parseArgumentExpression() throws(SyntaxError) -> Expression {
        let (argument, span) = try parseArgument()
        return Expression(.argument(argument), span: span)
    }

    /// The number of `$12` or `$K12`, ignoring leading zeros (`$002` is `$2`).
    func decodeArgumentIndex(_ token: Token, digitsFrom skip: Int) throws(SyntaxError) -> Int {
        var index = 0
        for byte in text(of: token).utf8.dropFirst(skip) {
            let (product, overflow) = index.multipliedReportingOverflow(by: 10)
            guard !overflow, product <= Int(Int32.max) else {
                throw SyntaxError(.invalidNumber, "argument number \(describe(token)) is too large", at: token.span)
            }
            index = product + Int(byte - UInt8(ascii: "0"))
        }
        return index
    }
}
