import RQLCore
import RQLIR
import RQLSyntax

/// `operand MATCHES 'pattern'`: NSPredicate's regular-expression operator, in both dialects
/// (realm-core and Realm Swift refuse it). The pattern must be a constant (a literal or an
/// argument), so it is compiled once here, never per object; the left side is a key path to
/// strings (or mixed values), quantified like any comparison.
///
///     name MATCHES 'R.*'              (MATCHES Dog.name 'R.*')
///     ANY tags MATCHES %@             with "^[a-z]+$"
extension BindingSession {
    mutating func bindMatches(_ comparison: Comparison, span: SourceSpan) throws(BindError) -> BoundPredicate {
        if !comparison.options.isEmpty {
            throw BindError(
                .unsupportedOperation,
                "MATCHES takes no [c] or [d]: write (?i) in the pattern for a case-insensitive match",
                at: span
            )
        }
        let lhs = try bindOperand(comparison.lhs)
        guard lhs.source == .keyPath else {
            throw BindError(
                .unsupportedOperation,
                "The left side of MATCHES must be a key path to strings, not '\(lhs.text)'",
                at: lhs.span
            )
        }
        guard lhs.type == .string || lhs.type == .mixed else {
            let typeName = lhs.type.map(ValueCoercion.typeName) ?? "constant"
            throw BindError(
                .stringOperatorOnNonString,
                "Operator 'MATCHES' not supported for type '\(typeName)' ('\(lhs.text)')",
                at: lhs.span
            )
        }
        let rhs = try bindOperand(comparison.rhs)
        guard rhs.isConstant, !rhs.isMultiValued, case .constant(.string(let source)) = rhs.expression else {
            throw BindError(
                .unsupportedOperation,
                "MATCHES needs a regular expression given as a string constant or argument, not '\(rhs.text)'",
                at: rhs.span
            )
        }
        let pattern: RegexPattern
        do {
            pattern = try RegexPattern(source)
        } catch {
            throw BindError(.invalidConstant, error.description, at: rhs.span)
        }
        return .matches(lhs.bound, pattern)
    }
}
