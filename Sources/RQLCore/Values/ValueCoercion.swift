/// Why a constant cannot be compared with a property; the messages are realm-core's.
public enum CoercionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The constant's type cannot be compared with the property's type at all.
    case unsupportedComparison(propertyType: String, constantType: String)
    /// An infinity compared with a property that cannot hold one (`age > inf`).
    case infinityNotSupported(propertyType: String)
    /// A NaN compared with a property that cannot hold one (`age == $0` with `$0 = NaN`).
    case nanNotSupported(propertyType: String)

    public var description: String {
        switch self {
        case .unsupportedComparison(let p, let c): "Unsupported comparison between type '\(p)' and type '\(c)'"
        case .infinityNotSupported(let p): "Infinity not supported for \(p)"
        case .nanNotSupported(let p): "NaN not supported for \(p)"
        }
    }
}

/// Converts a constant (a literal or an argument) to the type of the property it is compared
/// with, as realm-core's `ConstantNode::visit` does (rql-semantics.md §3), so that the executors
/// then compare like with like:
///
/// * against `int`: an integral double or decimal becomes an int (`age == 1.0` matches 1); a
///   fractional one stays as it is, so `age == 1.5` matches nothing and `age < 1.5` works;
///   NaN and infinities are errors; a string is read as a number (`age == '5'`, `'0x10'`, `'010'`
///   is octal 8) or is an error;
/// * against `float`: a double becomes a float (`f == 2.33` matches the float 2.33);
/// * against `decimal128`: numbers and numeric strings become decimals;
/// * against `data`: a string becomes its UTF-8 bytes;
/// * against `mixed`, and for null, nothing changes; list constants convert element by element,
///   and an element that cannot convert stays as it is (it will simply never be equal).
///
/// Other combinations of different types are `CoercionError.unsupportedComparison`.
///
/// ```swift
/// try ValueCoercion.coerce(.double(3.0), toCompareWith: .int)   // .int(3)
/// try ValueCoercion.coerce(.string("42"), toCompareWith: .int)  // .int(42)
/// try ValueCoercion.coerce(.string("x"), toCompareWith: .int)   // throws unsupportedComparison
/// ```
public enum ValueCoercion {
    public static func coerce(_ constant: Value, toCompareWith type: PropertyType) throws(CoercionError) -> Value {
        if case .null = constant { return constant }
        if case .list(let items) = constant {
            return .list(items.map { (try? coerce($0, toCompareWith: type)) ?? $0 })
        }
        let unsupported = CoercionError.unsupportedComparison(
            propertyType: typeName(type),
            constantType: constant.kind.description
        )
        switch type {
        case .mixed:
            return constant
        case .int:
            switch constant {
            case .int: return constant
            case .float(let f): return try integral(Double(f), original: constant)
            case .double(let d): return try integral(d, original: constant)
            case .decimal(let d):
                if d.isNaN { throw .nanNotSupported(propertyType: "int") }
                if d.isInfinite { throw .infinityNotSupported(propertyType: "int") }
                return d.int64Value.map(Value.int) ?? constant
            case .string(let s):
                if let i = parseInteger(s) { return .int(i) }
                if let d = Double(s), d.isFinite { return try integral(d, original: .double(d)) }
                throw unsupported
            default: throw unsupported
            }
        case .float, .double:
            switch constant {
            case .int, .decimal: return constant
            case .float(let f): return type == .float ? constant : .double(Double(f))
            case .double(let d): return type == .float ? .float(Float(d)) : constant
            case .string(let s):
                if let i = parseInteger(s) { return .int(i) }
                guard let d = Double(s) else { throw unsupported }
                return type == .float ? .float(Float(d)) : .double(d)
            default: throw unsupported
            }
        case .decimal128:
            switch constant {
            case .int(let i): return .decimal(Decimal128(i))
            case .float(let f): return .decimal(Decimal128(Double(f)))
            case .double(let d): return .decimal(Decimal128(d))
            case .decimal: return constant
            case .string(let s):
                guard let d = try? Decimal128(s) else { throw unsupported }
                return .decimal(d)
            default: throw unsupported
            }
        case .data:
            switch constant {
            case .data: return constant
            case .string(let s): return .data(Array(s.utf8))
            default: throw unsupported
            }
        case .object, .linkingObjects:
            guard case .link = constant else { throw unsupported }
            return constant
        case .bool, .string, .date, .objectId, .uuid:
            guard constant.kind == kind(of: type) else { throw unsupported }
            return constant
        }
    }

    /// realm-core's name of a property type in messages.
    public static func typeName(_ type: PropertyType) -> String {
        switch type {
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .double: "double"
        case .string: "string"
        case .data: "binary"
        case .date: "timestamp"
        case .decimal128: "decimal128"
        case .objectId: "objectId"
        case .uuid: "uuid"
        case .mixed: "mixed"
        case .object, .linkingObjects: "link"
        }
    }

    /// Integer text as C's `strtoll(text, 0)` reads it in full: optional sign, `0x` hex, a leading
    /// `0` for octal, otherwise decimal; `nil` unless the whole text is consumed and fits.
    public static func parseInteger(_ text: String) -> Int64? {
        var body = Substring(text)
        var negative = false
        if let first = body.first, first == "-" || first == "+" {
            negative = first == "-"
            body = body.dropFirst()
        }
        var radix = 10
        if body.hasPrefix("0x") || body.hasPrefix("0X") {
            radix = 16
            body = body.dropFirst(2)
        } else if body.count > 1 && body.hasPrefix("0") {
            radix = 8
            body = body.dropFirst()
        }
        guard !body.isEmpty, !body.hasPrefix("-"), !body.hasPrefix("+"), let magnitude = UInt64(body, radix: radix)
        else {
            return nil
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        return Int64(exactly: magnitude)
    }

    private static func integral(_ d: Double, original: Value) throws(CoercionError) -> Value {
        if d.isNaN { throw .nanNotSupported(propertyType: "int") }
        if d.isInfinite { throw .infinityNotSupported(propertyType: "int") }
        if d == d.rounded(), d >= -9_223_372_036_854_775_808.0, d < 9_223_372_036_854_775_808.0 {
            return .int(Int64(d))
        }
        return original
    }

    private static func kind(of type: PropertyType) -> ValueKind? {
        switch type {
        case .bool: .bool
        case .string: .string
        case .date: .date
        case .objectId: .objectId
        case .uuid: .uuid
        default: nil
        }
    }
}
