import RQLCore

/// A stable, readable text form of bound IR, for golden tests and `rqlc explain`: one
/// parenthesized prefix form per node, values in RQL literal syntax (`Value.description`).
///
///     IRPrinter.print(query)
///     // (query Dog (and (> Dog.age 2) (BEGINSWITH[c] Dog.name 'r')) (sort Dog.name ASC) (limit 3))
///
/// - paths: the root class then the steps, `Person.dogs.age`, `Dog.@links.Person.dogs`,
///   `Person.dogs[0]`, `[FIRST]`, `[LAST]`, `[*]`, `['key']`, `.@keys`, `.@values`; a SUBQUERY
///   element root is `$0:Dog` (`$depth:Class`, 0 the innermost);
/// - an operand with a written quantifier is `(ANY x)` / `(ALL x)` / `(NONE x)`;
/// - comparisons are `(op[c][d] lhs rhs)`; `@count`, `@type`, aggregates and `@links.@count`
///   are `(@count p)`, `(@type p)`, `(@min p)`, `(@links.@count p)`; a SUBQUERY count is
///   `(subquery p pred)`; arithmetic `(+ a b)`; `obj(…)` is `(obj 'Class' pk)`; lists `{a, b}`.
public enum IRPrinter {
    /// The whole query: class, predicate and clauses.
    public static func print(_ query: BoundQuery) -> String {
        var parts = ["query", query.className, print(query.predicate)]
        parts += query.clauses.map(print)
        return "(" + parts.joined(separator: " ") + ")"
    }

    /// One SORT, DISTINCT or LIMIT clause: `(sort Dog.name ASC Dog.age DESC)`.
    public static func print(_ clause: BoundClause) -> String {
        switch clause {
        case .sort(let keys):
            return "(sort"
                + keys.map {
                    " " + print($0.path) + ($0.ascending ? " ASC" : " DESC") + ($0.caseInsensitive ? "[c]" : "")
                }
                .joined() + ")"
        case .distinct(let paths):
            return "(distinct" + paths.map { " " + print($0) }.joined() + ")"
        case .limit(let count):
            return "(limit \(count))"
        }
    }

    public static func print(_ predicate: BoundPredicate) -> String {
        switch predicate {
        case .constant(let value):
            return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .and(let operands):
            return "(and" + operands.map { " " + print($0) }.joined() + ")"
        case .or(let operands):
            return "(or" + operands.map { " " + print($0) }.joined() + ")"
        case .not(let operand):
            return "(not \(print(operand)))"
        case .comparison(let comparison):
            var op = comparison.op.rawValue
            if comparison.options.contains(.caseInsensitive) { op += "[c]" }
            if comparison.options.contains(.diacriticInsensitive) { op += "[d]" }
            return "(\(op) \(print(comparison.lhs)) \(print(comparison.rhs)))"
        case .fullText(let path, let query):
            return "(TEXT \(print(path)) \(Value.string(print(query)).description))"
        case .geoWithin(let path, let quantifier, let region):
            return "(GEOWITHIN \(quantifier.rawValue) \(print(path)) \(print(region)))"
        case .matches(let operand, let pattern):
            return "(MATCHES \(print(operand)) \(Value.string(pattern.source).description))"
        }
    }

    /// An operand, wrapped in its quantifier when one was written.
    public static func print(_ operand: BoundOperand) -> String {
        let expression = print(operand.expression)
        guard let quantifier = operand.quantifier else { return expression }
        return "(\(quantifier.rawValue) \(expression))"
    }

    public static func print(_ expression: BoundExpression) -> String {
        switch expression {
        case .constant(let value):
            return value.description
        case .constantList(let values):
            return Value.list(values).description
        case .list(let elements):
            return "{" + elements.map(print).joined(separator: ", ") + "}"
        case .path(let path):
            return print(path)
        case .count(let path):
            return "(@count \(print(path)))"
        case .type(let path):
            return "(@type \(print(path)))"
        case .aggregate(let function, let path):
            return "(\(function.rawValue) \(print(path)))"
        case .subqueryCount(let path, let predicate):
            return "(subquery \(print(path)) \(print(predicate)))"
        case .arithmetic(let op, let lhs, let rhs):
            return "(\(op.rawValue) \(print(lhs)) \(print(rhs)))"
        case .object(let className, let primaryKey):
            return "(obj \(Value.string(className).description) \(primaryKey.description))"
        case .backlinkCount(let path):
            return "(@links.@count \(print(path)))"
        }
    }

    public static func print(_ path: BoundPath) -> String {
        var text: String
        switch path.root {
        case .object: text = path.rootClassName
        case .element(let depth): text = "$\(depth):\(path.rootClassName)"
        }
        for step in path.steps {
            text += print(step)
        }
        return text
    }

    public static func print(_ step: PathStep) -> String {
        switch step {
        case .property(_, _, let name): ".\(name)"
        case .backlinks(let className, let property): ".@links.\(className).\(property)"
        case .index(let n): "[\(n)]"
        case .first: "[FIRST]"
        case .last: "[LAST]"
        case .all: "[*]"
        case .key(let key): "[\(Value.string(key).description)]"
        case .keys: ".@keys"
        case .values: ".@values"
        }
    }

    /// The search string as it would be written: `word`, `prefix*`, `-excluded`.
    public static func print(_ query: TextSearch) -> String {
        query.terms.map { ($0.isExcluded ? "-" : "") + $0.token + ($0.isPrefix ? "*" : "") }.joined(separator: " ")
    }

    /// `(box [lon, lat] [lon, lat])`, `(circle [lon, lat] radius)`, `(polygon {ring} {hole})`.
    public static func print(_ region: GeoRegion) -> String {
        switch region {
        case .box(let bottomLeft, let topRight):
            return "(box \(print(bottomLeft)) \(print(topRight)))"
        case .circle(let center, let radius):
            return "(circle \(print(center)) \(radius))"
        case .polygon(let rings):
            return "(polygon" + rings.map { " {" + $0.map(print).joined(separator: ", ") + "}" }.joined() + ")"
        }
    }

    public static func print(_ point: GeoPoint) -> String {
        "[\(point.longitude), \(point.latitude)]"
    }
}
