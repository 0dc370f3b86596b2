import RQLCore
import RQLIR
import RQLSyntax

/// One side of a comparison while it is being bound: the bound expression and what the checks
/// need to know about where it came from.
struct Operand {
    /// Where the operand's values come from.
    enum Source: Equatable {
        /// A key path, possibly with `@count`, an aggregate or arithmetic over one.
        case keyPath
        /// A literal written in the query (including `obj(…)`).
        case literal
        /// A scalar argument; the payload is its name for messages (`$2`).
        case argument(String)
        /// A list literal or list argument.
        case list
        /// `path.@type`.
        case typeAttribute
    }

    var expression: BoundExpression
    var isMultiValued: Bool
    var quantifier: Quantifier?
    var source: Source
    /// The type of the values for key-path operands; nil for constants.
    var type: PropertyType?
    var span: SourceSpan
    /// How the operand was written, spelled out only when a message quotes it (`text`).
    var spelling: Spelling
    /// The resolved key path, for a plain key-path operand (no postfix).
    var path: ResolvedPath?
    /// Literals written with more digits than a double holds (`3.141592653589793238`): the exact
    /// decimal for the constant (key 0) or for each such element of a constant list (its
    /// index), used instead of the double when the other side is decimal128.
    var exactDecimals: [Int: Decimal128] = [:]
    /// How deeply arithmetic nests in the expression (`a + b * c` is 2), bounded by
    /// `Binder.maximumArithmeticDepth` so that executors never recurse without limit.
    var arithmeticDepth = 0

    /// The operand as written, for messages.
    var text: String { spelling.text }

    /// Whether the operand is known without looking at any object.
    var isConstant: Bool {
        switch source {
        case .literal, .argument, .list: true
        case .keyPath: false
        case .typeAttribute: type != .mixed
        }
    }

    /// Whether the operand is a null constant (the literal, or a null argument).
    var isNullConstant: Bool {
        if case .constant(.null) = expression, source != .keyPath { return true }
        return false
    }

    /// The operand as written, in single quotes for messages, unless it is a string literal that
    /// already has its own (`'abc'`, not `''abc''`).
    var quotedText: String {
        if let first = text.first, first == "'" || first == "\"" { return text }
        return "'\(text)'"
    }

    var bound: BoundOperand {
        BoundOperand(expression, quantifier: quantifier, isMultiValued: isMultiValued)
    }
}

/// How an operand was written. Binding succeeds far more often than it fails, and printing
/// every operand's syntax up front cost more than binding it (a third of binding an IN list),
/// so the text is printed only when a message needs it.
///
///     Spelling.syntax(expression, .rql).text     // "city IN {'City1', 'City2'}"
///     Spelling.text("$0").text                    // "$0"
indirect enum Spelling {
    /// Text known already: an argument's name.
    case text(String)
    /// The operand's syntax, printed in the query's dialect.
    case syntax(Expression, Dialect)
    /// Arithmetic being combined: `lhs op rhs`.
    case arithmetic(Spelling, ArithmeticOperator, Spelling)

    var text: String {
        switch self {
        case .text(let text): text
        case .syntax(let expression, let dialect): SyntaxPrinter.print(expression, dialect: dialect)
        case .arithmetic(let lhs, let op, let rhs): "\(lhs.text) \(op.rawValue) \(rhs.text)"
        }
    }
}
