/// The arithmetic operators of RQL expressions (`age * 2 > 10`), with realm-core's rules:
///
/// * both operands must be numbers (`int`, `float`, `double`, `decimal`); anything else,
///   including null and a mixed value holding a non-number, gives no value, and a row whose
///   comparison has no value does not match;
/// * `int ∘ int` is 64-bit integer arithmetic (`7 / 2 == 3`); a result outside the `Int64`
///   range carries on in `Decimal128`, exactly for sums, differences and `INT64_MIN / -1`
///   (realm-core wraps around instead, so `age + 9223372036854775807 > 0` is false there for
///   every positive age, and true here); integer division by zero is done in floating point,
///   giving ±∞ (or NaN for `0 / 0`), as realm-core's results show (`age / number > 20` holds
///   where `number` is 0; `age / 0 == 14` nowhere);
/// * with a decimal operand the result is decimal; otherwise a float or double operand makes
///   the result a double (IEEE: division by zero gives ±∞, `0 / 0` NaN).
///
/// ```swift
/// ValueArithmetic.apply(.divide, .int(7), .int(2))      // .int(3)
/// ValueArithmetic.apply(.divide, .int(7), .int(0))      // .double(.infinity)
/// ValueArithmetic.apply(.add, .int(1), .double(0.5))    // .double(1.5)
/// ValueArithmetic.apply(.add, .string("1"), .int(1))    // nil
/// ValueArithmetic.apply(.add, .int(.max), .int(1))      // .decimal(9223372036854775808)
/// ```
public enum ValueArithmetic {
    /// The operator type, kept under this name for callers that spell it `ValueArithmetic.Operator`.
    public typealias Operator = ArithmeticOperator

    /// The result of `lhs op rhs`, or `nil` when there is none (an operand that is not a number).
    public static func apply(_ op: Operator, _ lhs: Value, _ rhs: Value) -> Value? {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)):
            if op == .divide && b == 0 {
                // realm-core divides by an integer zero in floating point: `age / number > 20`
                // holds where `number` is 0, and `age / 0 == 14` holds nowhere.
                return .double(a == 0 ? .nan : a > 0 ? .infinity : -.infinity)
            }
            if let result = integer(op, a, b) { return .int(result) }
            // Out of the Int64 range: the same operation on the exact decimals.
            return decimalResult(op, Decimal128(a), Decimal128(b))
        case (.decimal, _), (_, .decimal):
            guard let a = decimal(lhs), let b = decimal(rhs) else { return nil }
            return decimalResult(op, a, b)
        default:
            guard let a = double(lhs), let b = double(rhs) else { return nil }
            switch op {
            case .add: return .double(a + b)
            case .subtract: return .double(a - b)
            case .multiply: return .double(a * b)
            case .divide: return .double(a / b)
            }
        }
    }

    /// Integer arithmetic as a typed kernel does it: the `Int64` result, or `nil` when there is
    /// none: division by zero (`apply` divides in floating point then), or a result outside the
    /// `Int64` range (`apply` carries on in `Decimal128` then).
    @inlinable
    public static func integer(_ op: Operator, _ a: Int64, _ b: Int64) -> Int64? {
        let (result, overflow): (Int64, Bool)
        switch op {
        case .add: (result, overflow) = a.addingReportingOverflow(b)
        case .subtract: (result, overflow) = a.subtractingReportingOverflow(b)
        case .multiply: (result, overflow) = a.multipliedReportingOverflow(by: b)
        case .divide:
            guard b != 0 else { return nil }
            (result, overflow) = a.dividedReportingOverflow(by: b)
        }
        return overflow ? nil : result
    }

    private static func decimalResult(_ op: Operator, _ a: Decimal128, _ b: Decimal128) -> Value {
        switch op {
        case .add: .decimal(a + b)
        case .subtract: .decimal(a - b)
        case .multiply: .decimal(a * b)
        case .divide: .decimal(a / b)
        }
    }

    private static func double(_ value: Value) -> Double? {
        switch value {
        case .int(let i): Double(i)
        case .float(let f): Double(f)
        case .double(let d): d
        default: nil
        }
    }

    private static func decimal(_ value: Value) -> Decimal128? {
        switch value {
        case .int(let i): Decimal128(i)
        case .float(let f): Decimal128(f)
        case .double(let d): Decimal128(d)
        case .decimal(let d): d
        default: nil
        }
    }
}
