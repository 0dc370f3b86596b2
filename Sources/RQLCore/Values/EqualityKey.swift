/// A hashable stand-in for a value under Realm equality: two values that `ValueComparison.equals`
/// (numbers across types by value, strings by bytes) have equal keys. Hash indexes, `IN` sets
/// and DISTINCT use it.
///
/// Numbers are normalised: an integral value in the `Int64` range becomes `.int`, other
/// binary floats become `.double`, and a decimal that survives a round trip through `Double`
/// becomes that double. NaN keys are equal to each other (callers that must not match NaN check
/// it first).
///
/// ```swift
/// EqualityKey(.double(2.0)) == EqualityKey(.int(2))                       // true
/// EqualityKey(.decimal(try Decimal128("0.5"))) == EqualityKey(.float(0.5))  // true
/// EqualityKey(.string("1")) == EqualityKey(.int(1))                       // false
/// ```
public struct EqualityKey: Hashable, Sendable {
    /// The normalised value.
    public let value: Value

    public init(_ value: Value) {
        self.value = EqualityKey.normalize(value)
    }

    static func normalize(_ value: Value) -> Value {
        switch value {
        case .float(let f): return normalize(double: Double(f))
        case .double(let d): return normalize(double: d)
        case .decimal(let d):
            if d.isNaN { return .double(.nan) }
            if let i = d.int64Value { return .int(i) }
            let asDouble = d.doubleValue
            return Decimal128(asDouble) == d ? normalize(double: asDouble) : .decimal(d)
        case .list(let items): return .list(items.map(normalize))
        case .map(let map): return .map(MixedMap(map.map { ($0.key, normalize($0.value)) }))
        default: return value
        }
    }

    static func normalize(double d: Double) -> Value {
        if d.isNaN { return .double(.nan) }
        if d == d.rounded(), d >= -9_223_372_036_854_775_808.0, d < 9_223_372_036_854_775_808.0 {
            return .int(Int64(d))
        }
        return .double(d)
    }
}
