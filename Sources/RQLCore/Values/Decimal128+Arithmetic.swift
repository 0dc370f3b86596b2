/// Decimal arithmetic with IEEE 754-2008 results for `+ - * /`, rounded half to even to 34
/// digits. Exact results keep the ideal exponent (`2.50 * 4 == 10.00`, `10 / 4 == 2.5`); NaN
/// propagates; `∞ - ∞`, `0 × ∞`, `0 / 0` and `∞ / ∞` are NaN; `x / 0` is a signed infinity.
///
/// ```swift
/// try Decimal128("0.1") + Decimal128("0.2") == Decimal128("0.3")  // true (unlike Double)
/// (try Decimal128("1") / Decimal128("3")).description  // "0.3333333333333333333333333333333333"
/// ```
extension Decimal128 {
    public static prefix func - (operand: Decimal128) -> Decimal128 {
        guard operand.kind != .nan else { return operand }
        return Decimal128(
            kind: operand.kind,
            isNegative: !operand.isNegative,
            coefficient: operand.coefficient,
            exponent: operand.exponent
        )
    }

    public static func + (lhs: Decimal128, rhs: Decimal128) -> Decimal128 {
        add(lhs, rhs, subtract: false)
    }

    public static func - (lhs: Decimal128, rhs: Decimal128) -> Decimal128 {
        add(lhs, rhs, subtract: true)
    }

    public static func * (lhs: Decimal128, rhs: Decimal128) -> Decimal128 {
        if lhs.isNaN || rhs.isNaN { return .nan }
        let negative = lhs.isNegative != rhs.isNegative
        if lhs.isInfinite || rhs.isInfinite {
            if lhs.isZero || rhs.isZero { return .nan }
            return negative ? .negativeInfinity : .infinity
        }
        let product = lhs.coefficient.multipliedFullWidth(by: rhs.coefficient)
        return rounded(
            high: product.high,
            low: product.low,
            exponent: Int(lhs.exponent) + Int(rhs.exponent),
            negative: negative
        )
    }

    public static func / (lhs: Decimal128, rhs: Decimal128) -> Decimal128 {
        if lhs.isNaN || rhs.isNaN { return .nan }
        let negative = lhs.isNegative != rhs.isNegative
        switch (lhs.isInfinite, rhs.isInfinite) {
        case (true, true): return .nan
        case (true, false): return negative ? .negativeInfinity : .infinity
        case (false, true): return Decimal128(kind: .finite, isNegative: negative, coefficient: 0, exponent: 0)
        case (false, false): break
        }
        if rhs.isZero {
            if lhs.isZero { return .nan }
            return negative ? .negativeInfinity : .infinity
        }
        let idealExponent = Int(lhs.exponent) - Int(rhs.exponent)
        if lhs.isZero { return Decimal128(isNegative: negative, coefficient: 0, exponent: idealExponent) }
        // Scale the dividend so that the quotient has at least 35 digits (34 + a rounding digit).
        let scale = max(0, 35 + digitCount(rhs.coefficient) - digitCount(lhs.coefficient))
        var high: UInt128 = 0
        var low = lhs.coefficient
        for _ in 0..<scale { (high, low) = multiplyByTen(high, low) }
        let (quotientHigh, remainderHigh) = high.quotientAndRemainder(dividingBy: rhs.coefficient)
        let (quotientLow, remainder) = rhs.coefficient.dividingFullWidth((remainderHigh, low))
        var result = rounded(
            high: quotientHigh,
            low: quotientLow,
            exponent: idealExponent - scale,
            negative: negative,
            sticky: remainder != 0
        )
        // An exact quotient drops the padding zeros back toward the ideal exponent.
        if remainder == 0, result.kind == .finite {
            var c = result.coefficient
            var e = Int(result.exponent)
            while e < idealExponent && c != 0 && c % 10 == 0 {
                c /= 10
                e += 1
            }
            result = Decimal128(isNegative: negative, coefficient: c, exponent: e)
        }
        return result
    }

    private static func add(_ lhs: Decimal128, _ rhs: Decimal128, subtract: Bool) -> Decimal128 {
        let rhsNegative = rhs.isNegative != subtract
        if lhs.isNaN || rhs.isNaN { return .nan }
        if lhs.isInfinite || rhs.isInfinite {
            if lhs.isInfinite && rhs.isInfinite && lhs.isNegative != rhsNegative { return .nan }
            if lhs.isInfinite { return lhs }
            return rhsNegative ? .negativeInfinity : .infinity
        }
        // Align on the smaller exponent. When that would overflow, keep 36 digits of the larger
        // operand and fold what falls off the smaller one into a sticky digit.
        var (big, small) = (lhs, rhs)
        var bigNegative = lhs.isNegative
        var smallNegative = rhsNegative
        if big.exponent < small.exponent {
            swap(&big, &small)
            swap(&bigNegative, &smallNegative)
        }
        var bigCoefficient = big.coefficient
        var exponent = Int(big.exponent)
        while exponent > Int(small.exponent) && digitCount(bigCoefficient) < 36 {
            bigCoefficient *= 10
            exponent -= 1
        }
        var smallCoefficient = small.coefficient
        var sticky = false
        var shift = exponent - Int(small.exponent)
        if shift > 0 {
            // Keep one digit below the larger operand's precision so that rounding stays exact.
            bigCoefficient *= 10
            exponent -= 1
            shift -= 1
            while shift > 0 && smallCoefficient != 0 {
                sticky = sticky || smallCoefficient % 10 != 0
                smallCoefficient /= 10
                shift -= 1
            }
            if shift > 0 { smallCoefficient = 0 }
            if sticky { smallCoefficient |= 1 }
        }
        let magnitude: UInt128
        let negative: Bool
        if bigNegative == smallNegative {
            magnitude = bigCoefficient + smallCoefficient
            negative = bigNegative
        } else if bigCoefficient >= smallCoefficient {
            magnitude = bigCoefficient - smallCoefficient
            negative = bigNegative
        } else {
            magnitude = smallCoefficient - bigCoefficient
            negative = smallNegative
        }
        // IEEE: an exact zero sum of operands with opposite signs is +0.
        if magnitude == 0 {
            return Decimal128(isNegative: false, coefficient: 0, exponent: min(Int(lhs.exponent), Int(rhs.exponent)))
        }
        return rounded(high: 0, low: magnitude, exponent: exponent, negative: negative)
    }

    /// Rounds a 256-bit coefficient to 34 digits, half to even, then brings the exponent into range.
    private static func rounded(
        high: UInt128,
        low: UInt128,
        exponent: Int,
        negative: Bool,
        sticky: Bool = false
    )
        -> Decimal128
    {
        var high = high
        var low = low
        var exponent = exponent
        var lastDropped: UInt128 = 0
        var sticky = sticky
        var dropped = false
        while high != 0 || low >= Decimal128.coefficientLimit {
            sticky = sticky || lastDropped != 0
            let (quotientHigh, remainderHigh) = high.quotientAndRemainder(dividingBy: 10)
            let (quotientLow, remainder) = UInt128(10).dividingFullWidth((remainderHigh, low))
            high = quotientHigh
            low = quotientLow
            lastDropped = remainder
            dropped = true
            exponent += 1
        }
        if dropped && (lastDropped > 5 || (lastDropped == 5 && (sticky || low % 2 == 1))) {
            low += 1
            if low == Decimal128.coefficientLimit {
                low /= 10
                exponent += 1
            }
        } else if !dropped && sticky && low < Decimal128.coefficientLimit / 10 {
            // Only reachable from division, whose scaling guarantees 35 digits; kept for safety.
            low = low * 10 + 1
            exponent -= 1
        }
        return Decimal128(isNegative: negative, coefficient: low, exponent: exponent)
    }

    private static func multiplyByTen(_ high: UInt128, _ low: UInt128) -> (UInt128, UInt128) {
        let product = low.multipliedFullWidth(by: 10)
        return (high * 10 + product.high, product.low)
    }
}
