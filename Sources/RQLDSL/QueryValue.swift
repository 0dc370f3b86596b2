import Foundation
import RQLCore
import RQLIR

/// A Swift value a query can compare with: it becomes a constant of the unbound IR.
///
/// ```swift
/// 3._rqlQueryConstant            // .constant(.int(3))
/// Optional<Int>.none._rqlQueryConstant  // .constant(.null)
/// ```
public protocol _QueryValue {
    /// The constant, or `.invalid` with a message when the value cannot be one (an unmanaged
    /// object, say).
    var _rqlQueryConstant: UnboundExpression { get }
}

extension Bool: _QueryValue {
    public var _rqlQueryConstant: UnboundExpression { .constant(.bool(self)) }
}
extension Int: _QueryValue {
    public var _rqlQueryConstant: UnboundExpression { .constant(.int(Int64(self))) }
}
extension Int8: _QueryValue {
    public var _rqlQueryConstant: UnboundExpression { .constant(.int(Int64(self))) }
}
extension Int16: _QueryValue {
    public var _rqlQueryConstant: UnboundExpression { .constant(.int(Int64(self))) }
}
extension Int32: _QueryValue {
    public var _rqlQueryConstant: UnboundExpression { .constant(.int(Int64(self))) }
}
extension Int64: _QueryValue {
    public var _rqlQueryConstant: UnboundExpression { .constant(.int(self)) }
}
extension Float: _QueryValue {
    public var _rqlQueryConstant: UnboundExpression { .constant(.float(self)) }
}
extension Double: _QueryValue {
    public var _rqlQueryConstant: UnboundExpression { .constant(.double(self)) }
}
extension String: _QueryValue {
    public var _rqlQueryConstant: UnboundExpression { .constant(.string(self)) }
}
extension Data: _QueryValue {
    public var _rqlQueryConstant: UnboundExpression { .constant(.data([UInt8](self))) }
}
extension UUID: _QueryValue {
    public var _rqlQueryConstant: UnboundExpression { .constant(.uuid(self)) }
}
extension Date: _QueryValue {
    public var _rqlQueryConstant: UnboundExpression {
        guard let timestamp = Timestamp(timeIntervalSince1970: timeIntervalSince1970) else {
            return .invalid("the date \(self) cannot be stored (its time is not finite)")
        }
        return .constant(.date(timestamp))
    }
}
extension Optional: _QueryValue where Wrapped: _QueryValue {
    public var _rqlQueryConstant: UnboundExpression {
        switch self {
        case .none: .constant(.null)
        case .some(let wrapped): wrapped._rqlQueryConstant
        }
    }
}

/// Converts values whose static type the DSL does not constrain (the right side of `==` is
/// any `T`, as in realm-swift) into constants.
enum QueryConstant {
    static func expression(_ value: Any) -> UnboundExpression {
        if let optional = value as? any _QueryOptionalValue {
            guard let wrapped = optional._rqlWrapped else { return .constant(.null) }
            return expression(wrapped)
        }
        if let value = value as? any _QueryValue { return value._rqlQueryConstant }
        return .invalid("a value of type '\(type(of: value))' cannot be used in a query")
    }

    /// A list constant for `IN`; invalid when any element is.
    static func list(_ values: some Sequence) -> UnboundExpression {
        var result: [Value] = []
        for element in values {
            switch expression(element) {
            case .constant(let value): result.append(value)
            case .invalid(let message): return .invalid(message)
            default: return .invalid("a value of type '\(type(of: element))' cannot be used in a query")
            }
        }
        return .list(result)
    }

    /// One plain value (for BETWEEN bounds), or the reason it cannot be one.
    static func value(_ value: Any) -> Result<Value, QueryBuildError> {
        switch expression(value) {
        case .constant(let value): .success(value)
        case .invalid(let message): .failure(QueryBuildError(message: message))
        default: .failure(QueryBuildError(message: "a value of type '\(type(of: value))' cannot be used in a query"))
        }
    }
}

/// Why part of a DSL query could not be built; it surfaces when the query is bound.
struct QueryBuildError: Error {
    var message: String
}

/// `Optional` seen without its `Wrapped` type, so that `nil` in any optional becomes NULL.
protocol _QueryOptionalValue {
    var _rqlWrapped: Any? { get }
}

extension Optional: _QueryOptionalValue {
    var _rqlWrapped: Any? {
        switch self {
        case .none: nil
        case .some(let wrapped): wrapped
        }
    }
}
