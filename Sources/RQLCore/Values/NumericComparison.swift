/// Exact three-way comparison of numbers of different Realm types, by value.
///
/// Results are -1, 0, 1, or `nil` when a NaN is involved (NaN is unordered and equals nothing).
/// These are the kernels' building blocks: plain functions on primitive types, no `Value`.
///
/// ```swift
/// NumericComparison.compare(Int64(1) << 53 + 1, Double(1 << 53))  // 1: no rounding to double
/// ```
public enum NumericComparison {
    @inlinable
    public static func compare(_ a: Int64, _ b: Int64) -> Int {
        a == b ? 0 : (a < b ? -1 : 1)
    }

    @inlinable
    public static func compare(_ a: Double, _ b: Double) -> Int? {
        if a < b { return -1 }
        if a > b { return 1 }
        return a == b ? 0 : nil
    }

    /// Integer against double without converting the integer to double, which would round
    /// above 2^53 (realm-core's `compare_long_to_double`).
    @inlinable
    public static func compare(_ a: Int64, _ b: Double) -> Int? {
        if b.isNaN { return nil }
        // 2^63 is exactly representable; every Int64 is below it.
        if b >= 9_223_372_036_854_775_808.0 { return -1 }
        if b < -9_223_372_036_854_775_808.0 { return 1 }
        let whole = b.rounded(.towardZero)
        let wholeInt = Int64(whole)
        if a != wholeInt { return a < wholeInt ? -1 : 1 }
        let fraction = b - whole
        return fraction == 0 ? 0 : (fraction > 0 ? -1 : 1)
    }

    @inlinable
    public static func compare(_ a: Double, _ b: Int64) -> Int? {
        compare(b, a).map { -$0 }
    }

    public static func compare(_ a: Decimal128, _ b: Decimal128) -> Int? {
        a.compare(to: b)
    }

    public static func compare(_ a: Decimal128, _ b: Int64) -> Int? {
        a.compare(to: Decimal128(b))
    }

    /// Decimal against double compares in decimal after converting the double through its
    /// shortest round-trip text, so `decimal 0.1 == double 0.1` (as realm-core, which rounds
    /// the double to 15 digits).
    public static func compare(_ a: Decimal128, _ b: Double) -> Int? {
        a.compare(to: Decimal128(b))
    }

    /// Any two numeric values (`int`, `float`, `double`, `decimal`); `nil` if either is not
    /// numeric or a NaN is involved.
    public static func compare(_ a: Value, _ b: Value) -> Int? {
        switch (a, b) {
        case (.int(let x), .int(let y)): return compare(x, y)
        case (.int(let x), .double(let y)): return compare(x, y)
        case (.int(let x), .float(let y)): return compare(x, Double(y))
        case (.int(let x), .decimal(let y)): return compare(y, x).map { -$0 }
        case (.double(let x), .int(let y)): return compare(x, y)
        case (.float(let x), .int(let y)): return compare(Double(x), y)
        case (.double(let x), .double(let y)): return compare(x, y)
        case (.double(let x), .float(let y)): return compare(x, Double(y))
        case (.float(let x), .double(let y)): return compare(Double(x), y)
        case (.float(let x), .float(let y)): return compare(Double(x), Double(y))
        case (.decimal(let x), .decimal(let y)): return compare(x, y)
        case (.decimal(let x), .int(let y)): return compare(x, y)
        case (.decimal(let x), .double(let y)): return compare(x, y)
        case (.decimal(let x), .float(let y)): return compare(x, Double(y))
        case (.double(let x), .decimal(let y)): return compare(y, x).map { -$0 }
        case (.float(let x), .decimal(let y)): return compare(y, Double(x)).map { -$0 }
        default: return nil
        }
    }

    /// Whether a numeric value is NaN (binary or decimal).
    public static func isNaN(_ value: Value) -> Bool {
        switch value {
        case .float(let x): x.isNaN
        case .double(let x): x.isNaN
        case .decimal(let x): x.isNaN
        default: false
        }
    }
}
