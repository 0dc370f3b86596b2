/// Shows a syntax tree's structure as an S-expression, one node per parenthesis, so that
/// precedence and grouping are visible (the canonical printer hides them on purpose).
///
///     SyntaxTreeDump.dump(try Parser.parse("a == 1 OR b == 2 AND NOT c"))
///     // (or (== a 1) (and (== b 2) (not ...)))
///
/// `rqlc explain` prints it as the parsed stage; tests use it to state tree shapes.
public enum SyntaxTreeDump {
    public static func dump(_ query: QuerySyntax) -> String {
        var text = dump(query.predicate, dialect: query.dialect)
        for clause in query.clauses { text += " " + SyntaxPrinter.print(clause) }
        return text
    }

    public static func dump(_ predicate: Predicate, dialect: Dialect = .rql) -> String {
        switch predicate.kind {
        case .and(let operands):
            return "(and " + operands.map { dump($0, dialect: dialect) }.joined(separator: " ") + ")"
        case .or(let operands): return "(or " + operands.map { dump($0, dialect: dialect) }.joined(separator: " ") + ")"
        case .not(let operand): return "(not \(dump(operand, dialect: dialect)))"
        case .constant(let value): return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let comparison):
            var op = comparison.op.rawValue
            if comparison.options.contains(.caseInsensitive) { op += "c" }
            if comparison.options.contains(.diacriticInsensitive) { op += "d" }
            return "(\(op) \(dump(comparison.lhs, dialect: dialect)) \(dump(comparison.rhs, dialect: dialect)))"
        case .between(let value, let bounds):
            return "(BETWEEN \(dump(value, dialect: dialect)) \(dump(bounds, dialect: dialect)))"
        case .geoWithin(let location, let shape):
            return "(GEOWITHIN \(dump(location, dialect: dialect)) \(SyntaxPrinter.print(shape, dialect: dialect)))"
        }
    }

    public static func dump(_ expression: Expression, dialect: Dialect = .rql) -> String {
        switch expression.kind {
        case .arithmetic(let first, let rest):
            var text = dump(first, dialect: dialect)
            for step in rest { text = "(\(step.op.rawValue) \(text) \(dump(step.operand, dialect: dialect)))" }
            return text
        case .quantified(let quantifier, let operand):
            return "(\(quantifier.rawValue) \(dump(operand, dialect: dialect)))"
        case .list(let elements):
            return "{" + elements.map { dump($0, dialect: dialect) }.joined(separator: " ") + "}"
        case .subqueryCount(let collection, let variable, let predicate):
            let path = SyntaxPrinter.print(Expression(.keyPath(collection), span: expression.span), dialect: dialect)
            return "(SUBQUERY \(path) $\(variable) \(dump(predicate, dialect: dialect)))"
        case .literal, .argument, .keyPath:
            return SyntaxPrinter.print(expression, dialect: dialect)
        }
    }
}
