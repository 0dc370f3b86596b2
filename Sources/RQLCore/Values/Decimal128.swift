/// An IEEE 754-2008 decimal128 number: a sign, a coefficient of up to 34 decimal digits and an
/// exponent in `-6176...6111`, plus NaN and the infinities.
///
/// Values keep their cohort (`1.0` and `1.00` print differently) but compare and hash by value
/// (`1.0 == 1.00`). NaN equals NaN under `==` so that `Decimal128` is a lawful `Hashable`;
/// Realm's rule that NaN matches nothing lives in `ValueComparison`.
///
/// ```swift
/// let price = try Decimal128("19.99")
/// price.description            // "19.99"
/// price > Decimal128(19)       // true
/// Decimal128(7).int64Value     // 7
/// ```
public struct Decimal128: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// What kind of number a value is; finite values use `coefficient` and `exponent`.
    public enum Kind: UInt8, Sendable {
        /// A finite number `±coefficient × 10^exponent`.
        case finite
        /// Positive or negative infinity (by `isNegative`).
        case infinity
        /// Not a number.
        case nan
    }

    /// Finite, infinite or NaN.
    public let kind: Kind
    /// The sign; `-0` is kept but equals `0`.
    public let isNegative: Bool
    /// The coefficient, below 10^34; zero for NaN and the infinities.
    public let coefficient: UInt128
    /// The power of ten the coefficient is scaled by; zero for NaN and the infinities.
    public let exponent: Int32

    /// The largest coefficient plus one: 10^34.
    public static let coefficientLimit: UInt128 = powerOfTen(34)
    /// The smallest exponent of a finite value.
    public static let minExponent: Int32 = -6176
    /// The largest exponent of a finite value.
    public static let maxExponent: Int32 = 6111

    public static let nan = Decimal128(kind: .nan, isNegative: false, coefficient: 0, exponent: 0)
    public static let infinity = Decimal128(kind: .infinity, isNegative: false, coefficient: 0, exponent: 0)
    public static let negativeInfinity = Decimal128(kind: .infinity, isNegative: true, coefficient: 0, exponent: 0)
    public static let zero = Decimal128(kind: .finite, isNegative: false, coefficient: 0, exponent: 0)

    init(kind: Kind, isNegative: Bool, coefficient: UInt128, exponent: Int32) {
        self.kind = kind
        self.isNegative = isNegative
        self.coefficient = coefficient
        self.exponent = exponent
    }

    /// Builds a finite value, rounding the coefficient to 34 digits (half to even) and bringing the
    /// exponent into range; overflows to an infinity and underflows toward zero as IEEE does.
    public init(isNegative: Bool, coefficient: UInt128, exponent: Int) {
        var c = coefficient
        var e = exponent
        var roundingDigits: [UInt8] = []
        while c >= Decimal128.coefficientLimit {
            roundingDigits.append(UInt8(c % 10))
            c /= 10
            e += 1
        }
        while e < Int(Decimal128.minExponent) && (c != 0 || !roundingDigits.isEmpty) {
            roundingDigits.append(UInt8(c % 10))
            c /= 10
            e += 1
        }
        if e < Int(Decimal128.minExponent) { e = Int(Decimal128.minExponent) }
        if !roundingDigits.isEmpty {
            // roundingDigits holds the dropped digits, least significant first.
            let first = roundingDigits.removeLast()
            let restNonZero = roundingDigits.contains { $0 != 0 }
            if first > 5 || (first == 5 && (restNonZero || c % 2 == 1)) {
                c += 1
                if c == Decimal128.coefficientLimit {
                    c /= 10
                    e += 1
                }
            }
        }
        while e > Int(Decimal128.maxExponent) && c != 0 && c * 10 < Decimal128.coefficientLimit {
            c *= 10
            e -= 1
        }
        if e > Int(Decimal128.maxExponent) {
            if c != 0 {
                self = isNegative ? .negativeInfinity : .infinity
                return
            }
            e = Int(Decimal128.maxExponent)
        }
        self.init(kind: .finite, isNegative: isNegative, coefficient: c, exponent: Int32(e))
    }

    /// The exact decimal value of an integer.
    public init(_ value: Int64) {
        self.init(kind: .finite, isNegative: value < 0, coefficient: UInt128(value.magnitude), exponent: 0)
    }

    /// The decimal value of a double's shortest round-trip representation, so `Decimal128(0.1)`
    /// is exactly `0.1` (realm-core rounds to 15 digits instead; both agree on such literals).
    public init(_ value: Double) {
        self.init(shortestRepresentationOf: value)
    }

    /// The decimal value of a float's shortest round-trip representation, so `Decimal128(3.3 as
    /// Float)` is exactly `3.3`, as realm-core's 7-digit rounding of floats makes it.
    public init(_ value: Float) {
        self.init(shortestRepresentationOf: value)
    }

    private init<F: BinaryFloatingPoint & CustomStringConvertible>(shortestRepresentationOf value: F) {
        if value.isNaN {
            self = .nan
        } else if value.isInfinite {
            self = value < 0 ? .negativeInfinity : .infinity
        } else {
            // Swift's description of a finite binary float is always valid decimal text.
            self = (try? Decimal128(parsing: value.description)) ?? .nan
        }
    }

    /// Reads `[+-]digits[.digits][e[+-]digits]`, `NaN`, `Inf` or `Infinity` (case-insensitive).
    ///
    /// ```swift
    /// try Decimal128("-1.5E+3").description  // "-1.5E+3"
    /// ```
    public init(_ text: String) throws(ValueParseError) {
        self = try Decimal128(parsing: text)
    }

    public var isNaN: Bool { kind == .nan }
    public var isInfinite: Bool { kind == .infinity }
    public var isFinite: Bool { kind == .finite }
    public var isZero: Bool { kind == .finite && coefficient == 0 }

    /// The value as an `Int64` when it is integral and in range, else `nil`.
    public var int64Value: Int64? {
        guard kind == .finite else { return nil }
        var c = coefficient
        var e = exponent
        while e < 0 {
            guard c % 10 == 0 else { return nil }
            c /= 10
            e += 1
        }
        while e > 0 {
            guard c <= UInt128(UInt64.max) else { return nil }
            c *= 10
            e -= 1
        }
        if isNegative {
            guard c <= UInt128(Int64.max) + 1 else { return nil }
            return c == UInt128(Int64.max) + 1 ? Int64.min : -Int64(c)
        }
        guard c <= UInt128(Int64.max) else { return nil }
        return Int64(c)
    }

    /// The nearest `Double` (correctly rounded from the decimal text).
    public var doubleValue: Double {
        switch kind {
        case .nan: return .nan
        case .infinity: return isNegative ? -.infinity : .infinity
        case .finite:
            let magnitude = Double("\(coefficient)e\(exponent)") ?? .nan
            return isNegative ? -magnitude : magnitude
        }
    }

    /// Three-way comparison by value; `nil` when either side is NaN.
    public func compare(to other: Decimal128) -> Int? {
        if kind == .nan || other.kind == .nan { return nil }
        let lhsSign = signum
        let rhsSign = other.signum
        if lhsSign != rhsSign { return lhsSign < rhsSign ? -1 : 1 }
        if lhsSign == 0 { return 0 }
        let magnitude = Decimal128.compareMagnitude(self, other)
        return isNegative ? -magnitude : magnitude
    }

    /// -1, 0 or 1; infinities count as ±1. Meaningless for NaN.
    private var signum: Int {
        if kind == .finite && coefficient == 0 { return 0 }
        return isNegative ? -1 : 1
    }

    private static func compareMagnitude(_ a: Decimal128, _ b: Decimal128) -> Int {
        switch (a.kind == .infinity, b.kind == .infinity) {
        case (true, true): return 0
        case (true, false): return 1
        case (false, true): return -1
        case (false, false): break
        }
        let aDigits = digitCount(a.coefficient)
        let bDigits = digitCount(b.coefficient)
        let aAdjusted = Int(a.exponent) + aDigits
        let bAdjusted = Int(b.exponent) + bDigits
        if aAdjusted != bAdjusted { return aAdjusted < bAdjusted ? -1 : 1 }
        // Same magnitude order: pad the shorter coefficient so both have the same digit count.
        var ac = a.coefficient
        var bc = b.coefficient
        if aDigits < bDigits { ac *= powerOfTen(bDigits - aDigits) }
        if bDigits < aDigits { bc *= powerOfTen(aDigits - bDigits) }
        return ac == bc ? 0 : (ac < bc ? -1 : 1)
    }

    public static func == (lhs: Decimal128, rhs: Decimal128) -> Bool {
        if lhs.kind == .nan || rhs.kind == .nan { return lhs.kind == rhs.kind }
        return lhs.compare(to: rhs) == 0
    }

    public static func < (lhs: Decimal128, rhs: Decimal128) -> Bool {
        lhs.compare(to: rhs).map { $0 < 0 } ?? false
    }

    public func hash(into hasher: inout Hasher) {
        // Hash the cohort's canonical member: trailing zeros stripped, zero unsigned.
        hasher.combine(kind)
        guard kind != .nan else { return }
        if kind == .infinity {
            hasher.combine(isNegative)
            return
        }
        var c = coefficient
        var e = exponent
        if c == 0 {
            hasher.combine(0 as UInt8)
            return
        }
        while c % 10 == 0 {
            c /= 10
            e += 1
        }
        hasher.combine(isNegative)
        hasher.combine(c)
        hasher.combine(e)
    }
}

/// 10^n for 0 ≤ n ≤ 38.
func powerOfTen(_ n: Int) -> UInt128 {
    var result: UInt128 = 1
    for _ in 0..<n { result *= 10 }
    return result
}

/// The number of decimal digits of `value` (1 for zero).
func digitCount(_ value: UInt128) -> Int {
    var count = 1
    var v = value
    while v >= 10 {
        v /= 10
        count += 1
    }
    return count
}
