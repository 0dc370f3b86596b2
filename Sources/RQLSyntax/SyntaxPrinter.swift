import RQLCore

/// Writes a syntax tree back as query text in its canonical form.
///
/// The canonical form uses upper-case keywords, one space around binary operators, single-quoted
/// strings and the fewest parentheses that keep the tree's shape, so that for every tree `t` the
/// parser gives back `t`: `Parser.parse(SyntaxPrinter.print(t)) == t`.
///
///     SyntaxPrinter.print(try Parser.parse("age>2 and (name beginswith[c] \"r\")"))
///     // age > 2 AND name BEGINSWITH[c] 'r'
public enum SyntaxPrinter {
    /// The query in the dialect it was parsed in.
    public static func print(_ query: QuerySyntax) -> String {
        var printer = Writer(dialect: query.dialect)
        printer.write(query.predicate)
        for clause in query.clauses {
            printer.output += " "
            printer.write(clause)
        }
        return printer.output
    }

    public static func print(_ predicate: Predicate, dialect: Dialect = .rql) -> String {
        var printer = Writer(dialect: dialect)
        printer.write(predicate)
        return printer.output
    }

    public static func print(_ expression: Expression, dialect: Dialect = .rql) -> String {
        var printer = Writer(dialect: dialect)
        printer.write(expression)
        return printer.output
    }

    public static func print(_ clause: PostQueryClause) -> String {
        var printer = Writer(dialect: .rql)
        printer.write(clause)
        return printer.output
    }

    public static func print(_ shape: GeoShape, dialect: Dialect = .rql) -> String {
        var printer = Writer(dialect: dialect)
        printer.write(shape)
        return printer.output
    }
}

/// Accumulates the text of one tree.
private struct Writer {
    let dialect: Dialect
    var output = ""

    init(dialect: Dialect) { self.dialect = dialect }

    // MARK: - Predicates

    mutating func write(_ predicate: Predicate) {
        switch predicate.kind {
        case .or(let operands):
            write(operands, separator: " OR ") { if case .or = $0 { true } else { false } }
        case .and(let operands):
            write(operands, separator: " AND ") {
                switch $0 {
                case .and, .or: true
                default: false
                }
            }
        case .not(let operand):
            output += "NOT "
            switch operand.kind {
            case .and, .or: parenthesized(operand)
            default: write(operand)
            }
        case .constant(let value):
            output += value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let comparison):
            write(comparison.lhs)
            output += " \(comparison.op.rawValue)"
            if comparison.options == .caseInsensitive { output += "[c]" }
            if comparison.options == .diacriticInsensitive { output += "[d]" }
            if comparison.options == [.caseInsensitive, .diacriticInsensitive] { output += "[cd]" }
            output += " "
            write(comparison.rhs)
        case .between(let value, let bounds):
            write(value)
            output += " BETWEEN "
            write(bounds)
        case .geoWithin(let location, let shape):
            write(location)
            output += " GEOWITHIN "
            write(shape)
        }
    }

    /// Operands joined by `separator`, parenthesizing those for which `needsParentheses` holds.
    private mutating func write(
        _ operands: [Predicate],
        separator: String,
        needsParentheses: (PredicateKind) -> Bool
    ) {
        for (index, operand) in operands.enumerated() {
            if index > 0 { output += separator }
            if needsParentheses(operand.kind) { parenthesized(operand) } else { write(operand) }
        }
    }

    private mutating func parenthesized(_ predicate: Predicate) {
        output += "("
        write(predicate)
        output += ")"
    }

    // MARK: - Expressions

    mutating func write(_ expression: Expression) {
        switch expression.kind {
        case .literal(let literal):
            write(literal)
        case .argument(let argument):
            write(argument)
        case .keyPath(let path):
            write(path)
        case .list(let elements):
            output += "{"
            for (index, element) in elements.enumerated() {
                if index > 0 { output += ", " }
                write(element)
            }
            output += "}"
        case .quantified(let quantifier, let operand):
            output += quantifier.rawValue + " "
            write(operand)
        case .subqueryCount(let collection, let variable, let predicate):
            output += "SUBQUERY("
            write(collection)
            output += ", $\(variable), "
            write(predicate)
            output += ").@count"
        case .arithmetic(let first, let rest):
            let isMultiplicative = rest.first?.op.isMultiplicative ?? false
            writeArithmeticOperand(first, inMultiplicativeChain: isMultiplicative)
            for step in rest {
                output += " \(step.op.rawValue) "
                writeArithmeticOperand(step.operand, inMultiplicativeChain: isMultiplicative)
            }
        }
    }

    /// A nested chain keeps its parentheses unless it is a product inside a sum, where precedence
    /// alone rebuilds the same tree.
    private mutating func writeArithmeticOperand(_ operand: Expression, inMultiplicativeChain: Bool) {
        guard case .arithmetic(_, let rest) = operand.kind else { return write(operand) }
        let operandIsMultiplicative = rest.first?.op.isMultiplicative ?? false
        if !inMultiplicativeChain && operandIsMultiplicative {
            write(operand)
        } else {
            output += "("
            write(operand)
            output += ")"
        }
    }

    mutating func write(_ argument: Argument) {
        switch argument {
        case .positional(let index): output += "$\(index)"
        case .placeholder(_, let specifier): output += "%\(specifier)"
        case .variable(let name): output += "$\(name)"
        }
    }

    mutating func write(_ path: KeyPath) {
        for (index, element) in path.elements.enumerated() {
            write(element.kind, isFirst: index == 0)
        }
        switch path.postfix {
        case nil: break
        case .count: output += ".@count"
        case .type: output += ".@type"
        case .aggregate(let function, let property):
            output += "." + function.rawValue
            if let property {
                output += "."
                writeName(property)
            }
        }
    }

    private mutating func write(_ element: PathElementKind, isFirst: Bool) {
        let dot = isFirst ? "" : "."
        switch element {
        case .property(let name):
            output += dot
            writeName(name)
        case .backlinks(let className, let property):
            output += dot + "@links."
            writeName(className)
            output += "."
            writeName(property)
        case .allBacklinks: output += dot + "@links"
        case .keys: output += dot + "@keys"
        case .values: output += dot + "@values"
        case .index(let index): output += "[\(index)]"
        case .first: output += "[FIRST]"
        case .last: output += "[LAST]"
        case .all: output += "[*]"
        case .key(let key): output += "[\(quoted(key))]"
        case .subscriptArgument(let argument):
            output += "["
            write(argument)
            output += "]"
        case .keyPathArgument(let index): output += dot + (dialect == .rql ? "$K\(index)" : "%K")
        case .variable(let name): output += dot + "$\(name)"
        case .self: output += dot + "SELF"
        }
    }

    /// A property or class name, escaped so that it lexes back as one name.
    private mutating func writeName(_ name: String) {
        switch dialect {
        case .rql:
            for scalar in name.unicodeScalars {
                switch scalar {
                case " ": output += "\\ "
                case "\t": output += "\\t"
                case "\n": output += "\\n"
                case "\r": output += "\\r"
                default: output.unicodeScalars.append(scalar)
                }
            }
        case .nsPredicate:
            let isKeyword = Array(name.utf8).withUnsafeBufferPointer {
                Keyword.lookUp($0, dialect: .nsPredicate) != nil
            }
            output += isKeyword ? "#" + name : name
        }
    }

    // MARK: - Constants

    mutating func write(_ literal: Literal) {
        switch literal {
        case .integer(let value): output += String(value)
        case .double(let value): output += format(value)
        case .preciseDouble(_, let decimal):
            // Every digit written, in a form that reads back as the same literal: an integer
            // beyond Int64 is read as a precise double whatever its value, so it stays an integer;
            // any other integral value gets a ".0" so that it does not read back as an Int64.
            let text = decimal.description
            let isIntegral = !text.contains(where: { $0 == "." || $0 == "E" || $0 == "e" })
            output += !isIntegral || Int64(text) == nil ? text : text + ".0"
        case .float(let value):
            // An overflowing float literal is the only way to an infinite float; 1e39 overflows again.
            output += value.isFinite ? "\(value)f" : value < 0 ? "-1e39f" : "1e39f"
        case .string(let text): output += quoted(text)
        case .base64(let bytes): output += "B64\"\(Base64.encode(bytes))\""
        case .binary(let bytes):
            let text = String(decoding: bytes, as: UTF8.self)
            output += Array(text.utf8) == bytes ? "bin(\(quoted(text)))" : "bin(B64\"\(Base64.encode(bytes))\")"
        case .timestamp(let seconds, let nanoseconds): output += "T\(seconds):\(nanoseconds)"
        case .objectId(let hex): output += "oid(\(hex))"
        case .uuid(let text): output += "uuid(\(text))"
        case .bool(let value): output += value ? "true" : "false"
        case .null: output += "null"
        case .object(let className, let primaryKey):
            output += "obj(\(quoted(className)), "
            write(primaryKey)
            output += ")"
        }
    }

    /// The shortest text that reads back as the same double: Swift's own `description`, which
    /// always has a '.' or an exponent, or `inf`, `-inf`, `nan` (NSPredicate has no such words,
    /// and only reaches infinity through an overflowing literal, so it gets one back: one beyond
    /// even Decimal128's range, since `1e999` would read back as a precise double).
    private func format(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite {
            return dialect == .rql ? (value < 0 ? "-inf" : "inf") : (value < 0 ? "-1e99999" : "1e99999")
        }
        return "\(value)"
    }

    /// `text` in single quotes with the characters that need it escaped.
    func quoted(_ text: String) -> String {
        var result = "'"
        for scalar in text.unicodeScalars {
            switch scalar {
            case "'": result += "\\'"
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case "\0": result += "\\0"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "'"
    }

    // MARK: - Clauses and shapes

    mutating func write(_ clause: PostQueryClause) {
        switch clause.kind {
        case .sort(let keys):
            output += "SORT("
            for (index, key) in keys.enumerated() {
                if index > 0 { output += ", " }
                write(key.keyPath)
                output += key.ascending ? " ASC" : " DESC"
            }
            output += ")"
        case .distinct(let paths):
            output += "DISTINCT("
            for (index, path) in paths.enumerated() {
                if index > 0 { output += ", " }
                write(path)
            }
            output += ")"
        case .limit(let count):
            output += "LIMIT(\(count))"
        }
    }

    mutating func write(_ shape: GeoShape) {
        switch shape.kind {
        case .box(let bottomLeft, let topRight):
            output += "geoBox("
            write(bottomLeft)
            output += ", "
            write(topRight)
            output += ")"
        case .circle(let center, let radius):
            output += "geoCircle("
            write(center)
            output += ", "
            write(radius)
            output += ")"
        case .polygon(let loops):
            output += "geoPolygon("
            for (index, loop) in loops.enumerated() {
                if index > 0 { output += ", " }
                output += "{"
                for (pointIndex, point) in loop.enumerated() {
                    if pointIndex > 0 { output += ", " }
                    write(point)
                }
                output += "}"
            }
            output += ")"
        case .argument(let argument):
            write(argument)
        }
    }

    private mutating func write(_ point: GeoPoint) {
        output += "["
        write(point.longitude)
        output += ", "
        write(point.latitude)
        if let altitude = point.altitude {
            output += ", "
            write(altitude)
        }
        output += "]"
    }
}
