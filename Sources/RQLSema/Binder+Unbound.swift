import RQLCore
import RQLIR
import RQLSyntax

/// A DSL query lowered to the syntax tree the binder reads: the tree (NSPredicate dialect), the
/// constants it refers to as `%@` arguments, and the text it reads as, which the tree's spans
/// point into, so that a binding error renders with a caret like any query's.
///
/// ```swift
/// let lowered = try Binder.lower(UnboundQuery(predicate: agePredicate))
/// lowered.text       // "age > %@"
/// lowered.arguments  // [.value(.int(2))]
/// ```
public struct LoweredQuery: Hashable, Sendable {
    /// The query as the parser would have produced it from `text` in the NSPredicate dialect.
    public let syntax: QuerySyntax
    /// The value of each `%@`, in order.
    public let arguments: [QueryArgument]
    /// An NSPredicate-format rendering of the query; every span of `syntax` points into it.
    public let text: String
}

extension Binder {
    /// Lowers a DSL query to a syntax tree without looking at any schema. Fails only on an
    /// `UnboundExpression.invalid` operand, whose message it reports.
    ///
    /// The lowering is structural: each unbound node becomes the syntax node the parser builds for
    /// its text (constants become `%@` arguments, SUBQUERY elements `$colN` variables, map keys
    /// `[%@]` subscripts), so binding the result is binding that text, and a closure and the
    /// equivalent string get identical bound IR with no semantics of their own here.
    public static func lower(_ query: UnboundQuery) throws(BindError) -> LoweredQuery {
        var lowering = UnboundLowering()
        let predicate = try lowering.predicate(query.predicate, nested: false)
        var clauses: [PostQueryClause] = []
        for clause in query.clauses { clauses.append(try lowering.clause(clause)) }
        return LoweredQuery(
            syntax: QuerySyntax(predicate: predicate, clauses: clauses, dialect: .nsPredicate),
            arguments: lowering.arguments,
            text: lowering.text
        )
    }

    /// Binds a DSL query to the objects of `className` through the same path as query text.
    ///
    /// ```swift
    /// let bound = try Binder(schema: schema).bind(UnboundQuery(predicate: predicate), className: "Dog")
    /// ```
    public func bind(_ query: UnboundQuery, className: String) throws(BindError) -> BoundQuery {
        let lowered = try Binder.lower(query)
        return try bind(lowered.syntax, className: className, arguments: lowered.arguments)
    }
}

/// Writes the text of a lowered query left to right while building its nodes, so every node's
/// span is the text just written for it.
struct UnboundLowering {
    private(set) var text = ""
    private(set) var arguments: [QueryArgument] = []
    /// Unicode scalars written so far: spans' columns count scalars.
    private var scalarCount = 0
    /// How many SUBQUERYs enclose the node being lowered.
    private var subqueryLevel = 0

    /// Where a node's text starts.
    private struct Mark {
        var offset: Int
        var scalars: Int
    }

    private var mark: Mark { Mark(offset: text.utf8.count, scalars: scalarCount) }

    private func span(from start: Mark) -> SourceSpan {
        SourceSpan(offset: start.offset, length: text.utf8.count - start.offset, line: 1, column: start.scalars + 1)
    }

    private mutating func emit(_ piece: String) {
        text += piece
        scalarCount += piece.unicodeScalars.count
    }

    /// A `%@` standing for `argument`.
    private mutating func placeholder(_ argument: QueryArgument) -> Argument {
        arguments.append(argument)
        emit("%@")
        return .placeholder(arguments.count - 1, specifier: "@")
    }

    // MARK: Predicates

    /// `nested` parenthesizes AND and OR, which is what makes the text read as the tree.
    mutating func predicate(_ predicate: UnboundPredicate, nested: Bool) throws(BindError) -> Predicate {
        let start = mark
        let kind: PredicateKind
        switch predicate {
        case .constant(let value):
            emit(value ? "TRUEPREDICATE" : "FALSEPREDICATE")
            kind = .constant(value)
        case .and(let operands), .or(let operands):
            let isAnd: Bool
            if case .and = predicate { isAnd = true } else { isAnd = false }
            // The syntax tree's AND and OR hold two or more operands.
            if operands.isEmpty { return try self.predicate(.constant(isAnd), nested: nested) }
            if operands.count == 1 { return try self.predicate(operands[0], nested: nested) }
            if nested { emit("(") }
            var lowered: [Predicate] = []
            for (i, operand) in operands.enumerated() {
                if i > 0 { emit(isAnd ? " AND " : " OR ") }
                lowered.append(try self.predicate(operand, nested: true))
            }
            if nested { emit(")") }
            kind = isAnd ? .and(lowered) : .or(lowered)
        case .not(let operand):
            emit("NOT ")
            kind = .not(try self.predicate(operand, nested: true))
        case .comparison(let comparison):
            kind = .comparison(try self.comparison(comparison))
        case .between(let value, let lower, let upper):
            let operand = try expression(value)
            emit(" BETWEEN ")
            let boundsStart = mark
            emit("{")
            let lowStart = mark
            let low = Expression(.argument(placeholder(.value(lower))), span: span(from: lowStart))
            emit(", ")
            let highStart = mark
            let high = Expression(.argument(placeholder(.value(upper))), span: span(from: highStart))
            emit("}")
            kind = .between(value: operand, bounds: Expression(.list([low, high]), span: span(from: boundsStart)))
        case .geoWithin(let keyPath, let region):
            let location = try expression(.keyPath(keyPath))
            emit(" GEOWITHIN ")
            let shapeStart = mark
            let shape = GeoShape(.argument(placeholder(.geo(region))), span: span(from: shapeStart))
            kind = .geoWithin(location: location, shape: shape)
        }
        return Predicate(kind, span: span(from: start))
    }

    private mutating func comparison(_ comparison: UnboundComparison) throws(BindError) -> Comparison {
        let lhs = try expression(comparison.lhs)
        let op = comparison.op
        emit(" " + op.rawValue)
        if !comparison.options.isEmpty {
            emit(
                "["
                    + (comparison.options.contains(.caseInsensitive) ? "c" : "")
                    + (comparison.options.contains(.diacriticInsensitive) ? "d" : "") + "]"
            )
        }
        emit(" ")
        let rhs = try expression(comparison.rhs)
        return Comparison(lhs, op, rhs, options: comparison.options)
    }

    // MARK: Expressions

    private mutating func expression(_ expression: UnboundExpression) throws(BindError) -> Expression {
        let start = mark
        let kind: ExpressionKind
        switch expression {
        case .constant(let value):
            kind = .argument(placeholder(.value(value)))
        case .list(let values):
            kind = .argument(placeholder(.list(values)))
        case .keyPath(let keyPath):
            kind = .keyPath(try self.keyPath(keyPath))
        case .quantified(let quantifier, let operand):
            emit(quantifier.rawValue + " ")
            kind = .quantified(quantifier, try self.expression(operand))
        case .subqueryCount(let collection, let predicate):
            emit("SUBQUERY(")
            let path = try keyPath(collection)
            subqueryLevel += 1
            let variable = "col\(subqueryLevel)"
            emit(", $\(variable), ")
            let inner = try self.predicate(predicate, nested: false)
            subqueryLevel -= 1
            emit(").@count")
            kind = .subqueryCount(collection: path, variable: variable, predicate: inner)
        case .invalid(let message):
            emit("<invalid>")
            throw BindError(.unsupportedOperation, message, at: span(from: start))
        }
        return Expression(kind, span: span(from: start))
    }

    private mutating func keyPath(_ keyPath: UnboundKeyPath) throws(BindError) -> KeyPath {
        var elements: [PathElement] = []
        switch keyPath.root {
        case .object:
            if keyPath.components.isEmpty {
                let start = mark
                emit("SELF")
                elements.append(PathElement(.self, span: span(from: start)))
            }
        case .element(let depth):
            let level = subqueryLevel - depth
            guard level >= 1 else {
                let start = mark
                emit("$col?")
                throw BindError(
                    .unknownProperty,
                    "a key path refers to the element of a SUBQUERY \(depth) levels out, but only \(subqueryLevel) enclose it",
                    at: span(from: start)
                )
            }
            let start = mark
            emit("$col\(level)")
            elements.append(PathElement(.variable("col\(level)"), span: span(from: start)))
        }
        for component in keyPath.components {
            let start = mark
            let kind: PathElementKind
            switch component {
            case .property(let name):
                if !elements.isEmpty { emit(".") }
                emit(name)
                kind = .property(name)
            case .index(let index):
                emit("[\(index)]")
                kind = .index(index)
            case .key(let key):
                emit("[")
                kind = .subscriptArgument(placeholder(.value(.string(key))))
                emit("]")
            case .all:
                emit("[*]")
                kind = .all
            case .keys:
                emit(elements.isEmpty ? "@keys" : ".@keys")
                kind = .keys
            case .values:
                emit(elements.isEmpty ? "@values" : ".@values")
                kind = .values
            }
            elements.append(PathElement(kind, span: span(from: start)))
        }
        var postfix: KeyPathPostfix?
        switch keyPath.postfix {
        case nil:
            break
        case .count:
            emit(".@count")
            postfix = .count
        case .aggregate(let function, let property):
            emit("." + function.rawValue + (property.map { "." + $0 } ?? ""))
            postfix = .aggregate(function, property: property)
        }
        return KeyPath(elements, postfix: postfix)
    }

    // MARK: Clauses

    mutating func clause(_ clause: UnboundClause) throws(BindError) -> PostQueryClause {
        emit(" ")
        let start = mark
        let kind: PostQueryClauseKind
        switch clause {
        case .sort(let keys):
            emit("SORT(")
            var sortKeys: [SortKey] = []
            for (i, key) in keys.enumerated() {
                if i > 0 { emit(", ") }
                let path = try keyPath(key.keyPath)
                emit(key.ascending ? " ASC" : " DESC")
                sortKeys.append(SortKey(path, ascending: key.ascending))
            }
            emit(")")
            kind = .sort(sortKeys)
        case .distinct(let keyPaths):
            emit("DISTINCT(")
            var paths: [KeyPath] = []
            for (i, keyPath) in keyPaths.enumerated() {
                if i > 0 { emit(", ") }
                paths.append(try self.keyPath(keyPath))
            }
            emit(")")
            kind = .distinct(paths)
        case .limit(let count):
            emit("LIMIT(\(count))")
            kind = .limit(count)
        }
        return PostQueryClause(kind, span: span(from: start))
    }
}
