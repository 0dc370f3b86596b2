import RQLCore
import RQLIR
import RQLSyntax

/// Literals and arguments to values.
extension BindingSession {
    /// A literal as a bound expression: `.constant`, or `.object` for `obj('Class', pk)`.
    func constantExpression(_ literal: Literal, span: SourceSpan) throws(BindError) -> BoundExpression {
        if case .object(let className, let primaryKey) = literal {
            return try objectReference(className: className, primaryKey: primaryKey, span: span)
        }
        return .constant(try literalValue(literal, span: span))
    }

    /// The value a literal writes. A `B64"…"` literal is a string when its bytes are UTF-8 (the
    /// coercion turns it into binary when it is compared with a binary property).
    func literalValue(_ literal: Literal, span: SourceSpan) throws(BindError) -> Value {
        switch literal {
        case .integer(let value): return .int(value)
        case .double(let value), .preciseDouble(let value, _): return .double(value)
        case .float(let value): return .float(value)
        case .string(let value): return .string(value)
        case .base64(let bytes):
            if let text = String(validating: bytes, as: UTF8.self) { return .string(text) }
            return .data(bytes)
        case .binary(let bytes): return .data(bytes)
        case .timestamp(let seconds, let nanoseconds):
            guard let timestamp = Timestamp(seconds: seconds, nanoseconds: nanoseconds) else {
                throw BindError(.invalidConstant, "invalid timestamp T\(seconds):\(nanoseconds)", at: span)
            }
            return .date(timestamp)
        case .objectId(let hex):
            do {
                return .objectId(try ObjectId(hex: hex))
            } catch {
                throw BindError(.invalidConstant, "invalid ObjectId '\(hex)'", at: span)
            }
        case .uuid(let text):
            do {
                return .uuid(try Value.parseUUID(text))
            } catch {
                throw BindError(.invalidConstant, "invalid UUID '\(text)'", at: span)
            }
        case .bool(let value): return .bool(value)
        case .null: return .null
        case .object:
            throw BindError(.unsupportedOperation, "obj(…) cannot be used here", at: span)
        }
    }

    /// `obj('Class', pk)`: the class must exist and have a primary key, which the key is converted to.
    private func objectReference(
        className writtenName: String,
        primaryKey: Expression,
        span: SourceSpan
    ) throws(BindError) -> BoundExpression {
        // realm-core names a class's table `class_<Name>` and `obj()` takes either spelling
        // (`obj('class_Person', 1)`); a class really named `class_…` wins.
        var className = writtenName
        if schema[className] == nil, className.hasPrefix("class_"), schema[String(className.dropFirst(6))] != nil {
            className = String(className.dropFirst(6))
        }
        guard let objectSchema = schema[className] else {
            var message = "Unknown object type '\(className)'"
            if let suggestion = NameSuggestion.closest(to: className, among: schema.classes.map(\.name)) {
                message += "; did you mean '\(suggestion)'?"
            }
            throw BindError(.unknownClass, message, at: span)
        }
        guard let keyIndex = objectSchema.primaryKeyIndex else {
            throw BindError(
                .unsupportedOperation,
                "obj('\(className)', …) needs a primary key, and class '\(className)' has none",
                at: span
            )
        }
        let keyProperty = objectSchema.properties[keyIndex]
        let key: Value
        var argumentName: String?
        switch primaryKey.kind {
        case .literal(let literal):
            key = try literalValue(literal, span: primaryKey.span)
        case .argument(let argument):
            let (value, name) = try argumentValue(argument, span: primaryKey.span)
            guard case .value(let scalar) = value else {
                throw BindError(
                    .argumentTypeMismatch,
                    "argument \(name) must be a primary key value",
                    at: primaryKey.span
                )
            }
            key = scalar
            argumentName = name
        default:
            throw BindError(.unsupportedOperation, "the primary key of obj(…) must be a constant", at: primaryKey.span)
        }
        if key.isNull { return .object(className: className, primaryKey: .null) }
        do {
            let converted = try ValueCoercion.coerce(key, toCompareWith: keyProperty.type)
            return .object(className: className, primaryKey: converted)
        } catch {
            throw BindError(
                argumentName == nil ? .typeMismatch : .argumentTypeMismatch,
                "the primary key of '\(className)' is of type '\(ValueCoercion.typeName(keyProperty.type))',"
                    + " not '\(key.kind)'",
                at: primaryKey.span
            )
        }
    }

    /// The value supplied for an argument, and its name for messages (`$2`, `%@ #3`, `$name`).
    func argumentValue(_ argument: Argument, span: SourceSpan) throws(BindError) -> (QueryArgument, String) {
        switch argument {
        case .positional(let index):
            return (try positional(index, span: span), "$\(index)")
        case .placeholder(let index, let specifier):
            return (try positional(index, span: span), "%\(specifier) #\(index)")
        case .variable(let name):
            guard let value = variables[name] else {
                throw BindError(.missingArgument, "no value was given for the variable '$\(name)'", at: span)
            }
            return (value, "$\(name)")
        }
    }

    private func positional(_ index: Int, span: SourceSpan) throws(BindError) -> QueryArgument {
        guard index >= 0, index < arguments.count else {
            let provided =
                switch arguments.count {
                case 0: "no arguments are provided"
                case 1: "only 1 argument is provided"
                default: "only \(arguments.count) arguments are provided"
                }
            throw BindError(.missingArgument, "Request for argument at index \(index) but \(provided)", at: span)
        }
        return arguments[index]
    }
}
