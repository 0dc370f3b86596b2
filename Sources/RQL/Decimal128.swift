import Foundation
import RQLCore

/// A 128-bit IEEE 754-2008 decimal floating-point number: up to 34 significant digits, exponents
/// from -6176 to 6111. Arithmetic and comparison are the engine's (`RQLCore.Decimal128`), the
/// same rules queries use.
///
/// ```swift
/// let price: Decimal128 = "19.99"
/// let total = price * 3           // 59.97
/// total > 50                      // true
/// Decimal128(value: 0.1).stringValue  // "0.1"
/// ```
public struct Decimal128: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The value as the engine stores it.
    let core: RQLCore.Decimal128

    init(_ core: RQLCore.Decimal128) {
        self.core = core
    }

    /// Zero.
    ///
    /// ```swift
    /// Decimal128() == 0  // true
    /// ```
    public init() {
        self.core = .zero
    }

    /// Reads decimal text (`"1.5"`, `"-2E+3"`, `"NaN"`, `"Inf"`); throws for anything else.
    ///
    /// ```swift
    /// let price = try Decimal128(string: "9.99")
    /// ```
    public init(string: String) throws {
        do {
            core = try RQLCore.Decimal128(string)
        } catch {
            throw RealmValueError.invalidDecimal128(string)
        }
    }

    /// Converts an integer of any width, a `Float`, a `Double`, an `NSNumber`, a Foundation
    /// `Decimal` or decimal text. Stops the program for any other value or unreadable text, as
    /// Realm Swift does; use `init(string:)` for text from outside the program.
    ///
    /// ```swift
    /// Decimal128(value: 3)  // 3; Decimal128(value: "1.5") is 1.5
    /// ```
    public init(value: Any) {
        guard let converted = Decimal128.converting(value) else {
            realmStop("cannot convert '\(value)' of type \(type(of: value)) to Decimal128")
        }
        self = converted
    }

    /// The exact value of the number.
    ///
    /// ```swift
    /// Decimal128(number: NSNumber(value: 2.5))  // 2.5
    /// ```
    public init(number: NSNumber) {
        self = Decimal128.converting(number) ?? Decimal128(RQLCore.Decimal128(number.doubleValue))
    }

    /// The integer's exact value, when 34 digits hold it.
    ///
    /// ```swift
    /// Decimal128(exactly: 42)  // 42
    /// ```
    public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = Int64(exactly: source) else {
            guard let text = try? RQLCore.Decimal128(String(source)) else { return nil }
            self.init(text)
            return
        }
        self.init(RQLCore.Decimal128(value))
    }

    /// The conversions of `init(value:)`, or nil.
    static func converting(_ value: Any) -> Decimal128? {
        switch value {
        case let value as Decimal128: return value
        case let value as Int: return Decimal128(RQLCore.Decimal128(Int64(value)))
        case let value as Int8: return Decimal128(RQLCore.Decimal128(Int64(value)))
        case let value as Int16: return Decimal128(RQLCore.Decimal128(Int64(value)))
        case let value as Int32: return Decimal128(RQLCore.Decimal128(Int64(value)))
        case let value as Int64: return Decimal128(RQLCore.Decimal128(value))
        case let value as UInt: return Decimal128(exactly: value)
        case let value as UInt64: return Decimal128(exactly: value)
        case let value as Float: return Decimal128(RQLCore.Decimal128(value))
        case let value as Double: return Decimal128(RQLCore.Decimal128(value))
        case let value as Decimal: return try? Decimal128(string: value.description)
        case let value as String: return try? Decimal128(string: value)
        case let value as NSNumber:
            // An integral NSNumber converts exactly; any other through its double value.
            if let integer = Int64(exactly: value.doubleValue), value.doubleValue == Double(integer) {
                return Decimal128(RQLCore.Decimal128(value.int64Value))
            }
            return Decimal128(RQLCore.Decimal128(value.doubleValue))
        default: return nil
        }
    }

    /// The smallest finite value, -9999999999999999999999999999999999E+6111.
    ///
    /// ```swift
    /// Decimal128.min < 0  // true
    /// ```
    public static var min: Decimal128 { -max }

    /// The largest finite value, 9999999999999999999999999999999999E+6111.
    ///
    /// ```swift
    /// Decimal128.max > 0  // true
    /// ```
    public static var max: Decimal128 {
        Decimal128(
            RQLCore.Decimal128(
                isNegative: false,
                coefficient: RQLCore.Decimal128.coefficientLimit - 1,
                exponent: Int(RQLCore.Decimal128.maxExponent)
            )
        )
    }

    /// Whether the value is not a number.
    ///
    /// ```swift
    /// try Decimal128(string: "NaN").isNaN  // true
    /// ```
    public var isNaN: Bool { core.isNaN }
    /// Realm's decimal NaN is quiet and signaling alike: same as `isNaN`.
    ///
    /// ```swift
    /// Decimal128(1).isSignaling  // false
    /// ```
    public var isSignaling: Bool { core.isNaN }
    /// Same as `isNaN`.
    ///
    /// ```swift
    /// Decimal128(1).isSignalingNaN  // false
    /// ```
    public var isSignalingNaN: Bool { core.isNaN }

    /// The absolute value.
    ///
    /// ```swift
    /// Decimal128(-2.5).magnitude  // 2.5
    /// ```
    public var magnitude: Decimal128 { core.isNegative ? -self : self }

    /// The canonical text (`"1.5"`, `"-2E+3"`, `"NaN"`).
    ///
    /// ```swift
    /// Decimal128(1.5).stringValue  // "1.5"
    /// ```
    public var stringValue: String { core.description }

    /// The nearest `Double`.
    ///
    /// ```swift
    /// Decimal128(1.5).doubleValue  // 1.5
    /// ```
    public var doubleValue: Double { core.doubleValue }

    public var description: String { core.description }

    public static func == (lhs: Decimal128, rhs: Decimal128) -> Bool { lhs.core == rhs.core }
    public static func < (lhs: Decimal128, rhs: Decimal128) -> Bool { lhs.core < rhs.core }
    public func hash(into hasher: inout Hasher) { hasher.combine(core) }

    public static prefix func - (operand: Decimal128) -> Decimal128 { Decimal128(-operand.core) }
    public static func + (lhs: Decimal128, rhs: Decimal128) -> Decimal128 { Decimal128(lhs.core + rhs.core) }
    public static func - (lhs: Decimal128, rhs: Decimal128) -> Decimal128 { Decimal128(lhs.core - rhs.core) }
    public static func * (lhs: Decimal128, rhs: Decimal128) -> Decimal128 { Decimal128(lhs.core * rhs.core) }
    public static func / (lhs: Decimal128, rhs: Decimal128) -> Decimal128 { Decimal128(lhs.core / rhs.core) }

    /// `other - self`.
    ///
    /// ```swift
    /// Decimal128(1).distance(to: 3)  // 2
    /// ```
    public func distance(to other: Decimal128) -> Decimal128 { other - self }
    /// `self + n`.
    ///
    /// ```swift
    /// Decimal128(1).advanced(by: 2)  // 3
    /// ```
    public func advanced(by n: Decimal128) -> Decimal128 { self + n }
}

extension Decimal128: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral {
    public init(integerLiteral value: Int64) {
        self.init(RQLCore.Decimal128(value))
    }

    /// The literal's shortest decimal form: `0.1` is exactly 0.1.
    public init(floatLiteral value: Double) {
        self.init(RQLCore.Decimal128(value))
    }

    /// Decimal text written in the program; stops the program if it is not a number.
    public init(stringLiteral value: String) {
        guard let parsed = try? RQLCore.Decimal128(value) else {
            realmStop("'\(value)' is not a Decimal128 number")
        }
        self.init(parsed)
    }
}

extension Decimal128: Codable {
    /// Decodes decimal text, an integer or a double.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            try self.init(string: text)
        } else if let integer = try? container.decode(Int64.self) {
            self.init(RQLCore.Decimal128(integer))
        } else if let double = try? container.decode(Double.self) {
            self.init(RQLCore.Decimal128(double))
        } else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "Cannot convert value to Decimal128"
            )
        }
    }

    /// Encodes the canonical text.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }
}
