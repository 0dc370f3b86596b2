/// The two rules for the values of multi-valued operands that every executor applies (the
/// reference evaluator, the VM's row filter and its path walks), defined once so they cannot
/// drift apart.
extension Quantifier {
    /// Whether `body` holds of `values` as the quantifier asks: ANY is ∃ (false when empty),
    /// ALL is ∀ (true when empty), NONE is ¬∃ (true when empty).
    ///
    ///     Quantifier.all.holds(over: [], { _ in false })              // true
    ///     Quantifier.any.holds(over: [.int(1), .int(5)]) { $0 == .int(5) }   // true
    @inlinable
    public func holds(over values: [Value], _ body: (Value) -> Bool) -> Bool {
        switch self {
        case .any: values.contains(where: body)
        case .all: values.allSatisfy(body)
        case .none: !values.contains(where: body)
        }
    }
}

extension ComparisonOperator {
    /// Two unquantified lists compared in order (`scores == {1, 5, 9}`): `==` needs equal
    /// lengths and every pair equal, `!=` is its negation, every other operator needs equal
    /// lengths and `pair` to hold of every pair.
    ///
    ///     ComparisonOperator.notEqual.holdsElementwise([.int(1)], [.int(1), .int(2)]) { $0 != $1 }   // true
    @inlinable
    public func holdsElementwise(_ lhs: [Value], _ rhs: [Value], _ pair: (Value, Value) -> Bool) -> Bool {
        switch self {
        case .notEqual:
            lhs.count != rhs.count || zip(lhs, rhs).contains { pair($0, $1) }
        default:
            lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { pair($0, $1) }
        }
    }
}
