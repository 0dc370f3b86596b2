import Foundation
import RQLCore
import RQLDSL
import RQLEngine

extension Realm {
    /// A query that does not parse or does not fit the schema: the message, the query text it is
    /// about, and (as `description`) the text with a caret under the offending part.
    ///
    /// ```swift
    /// do {
    ///     _ = try dogs.query("agee > %@", 2)
    /// } catch let error as Realm.QueryError {
    ///     print(error)
    ///     // error: unknown property 'agee' on class 'Dog'; did you mean 'age'?
    ///     //  1 | agee > %@
    ///     //    | ^~~~
    /// }
    /// ```
    public struct QueryError: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// The one-line message.
        ///
        /// ```swift
        /// (try? dogs.query("agee > 2")) // throws; error.message: "No property 'agee' on object of type 'Dog'"
        /// ```
        public let message: String
        /// The query text the error points into (for a `where` closure, the text it lowers to).
        ///
        /// ```swift
        /// error.query  // "agee > 2"
        /// ```
        public let query: String
        /// `syntax`, or the binding error's category (`unknown_property`, `type_mismatch`, …).
        ///
        /// ```swift
        /// error.category  // "unknown_property"
        /// ```
        public let category: String
        /// The message and the query with a caret under the span it is about.
        ///
        /// ```swift
        /// print(error)  // the message, then the query with a caret under "agee"
        /// ```
        public let description: String
    }
}

/// Query text and arguments as `filter(_:_:)` takes them: NSPredicate format (`%@`, `%K`) or
/// RQL (`$0`), Swift values as arguments.
enum QueryText {
    /// Binds `text` for objects of `className`. NSPredicate format is tried first (it is what
    /// Realm Swift's `filter` takes); text that does not parse as NSPredicate but parses as RQL
    /// (`$0`, `SORT(…)`) is read as RQL.
    static func bind(
        _ text: String,
        arguments: [Any],
        target: QueryTarget
    ) throws(Realm.QueryError) -> BoundQuery {
        let converted: [QueryArgument]
        do {
            converted = try arguments.map(QueryArguments.argument)
        } catch {
            throw Realm.QueryError(
                message: error.message,
                query: text,
                category: "invalid_argument",
                description: "error: \(error.message)\n  in: \(text)"
            )
        }
        let dialect = try Self.dialect(of: text)
        do {
            switch target {
            case .objects(let className, let schema):
                return try QueryExecution.bind(
                    text,
                    dialect: dialect,
                    className: className,
                    schema: schema,
                    arguments: converted
                )
            case .elements(let table):
                return try QueryExecution.bind(text, dialect: dialect, elements: table, arguments: converted)
            }
        } catch {
            throw Realm.QueryError(
                message: error.diagnostic.message,
                query: text,
                category: error.category,
                description: error.rendered(in: text)
            )
        }
    }

    /// The dialect `text` is written in: NSPredicate unless only RQL parses it.
    static func dialect(of text: String) throws(Realm.QueryError) -> Dialect {
        do {
            _ = try Parser.parse(text, dialect: .nsPredicate)
            return .nsPredicate
        } catch let nsPredicateError {
            if (try? Parser.parse(text, dialect: .rql)) != nil { return .rql }
            throw Realm.QueryError(
                message: nsPredicateError.diagnostic.message,
                query: text,
                category: "syntax",
                description: nsPredicateError.rendered(in: text)
            )
        }
    }

    /// Binds a `where` closure's predicate for objects of `className`.
    static func bind(
        _ predicate: UnboundPredicate,
        target: QueryTarget
    ) throws(Realm.QueryError) -> BoundQuery {
        do {
            return try QueryCompiler.bind(
                UnboundQuery(predicate: predicate),
                className: target.className,
                schema: target.schema,
                selfProperty: target.selfProperty
            )
        } catch {
            throw Realm.QueryError(
                message: error.error.message,
                query: error.text,
                category: error.error.kind.category,
                description: error.description
            )
        }
    }

    /// Binds result clauses (sort keys, distinct key paths) given by key path strings.
    static func bind(
        _ clauses: [UnboundClause],
        target: QueryTarget
    ) throws(Realm.QueryError) -> [BoundClause] {
        do {
            let query = UnboundQuery(predicate: .constant(true), clauses: clauses)
            return try QueryCompiler.bind(
                query,
                className: target.className,
                schema: target.schema,
                selfProperty: target.selfProperty
            ).clauses
        } catch {
            throw Realm.QueryError(
                message: error.error.message,
                query: error.text,
                category: error.error.kind.category,
                description: error.description
            )
        }
    }

    /// A dotted key path string as an unbound key path.
    static func keyPath(_ text: String) -> UnboundKeyPath {
        UnboundKeyPath(text.split(separator: ".", omittingEmptySubsequences: false).map { .property(String($0)) })
    }
}

/// What a query binds against: objects of a class of the realm's schema, or the elements of a
/// collection of plain values (`SELF` is the element).
enum QueryTarget {
    /// Objects of `className` in `schema`.
    case objects(className: String, schema: RQLCore.Schema)
    /// The rows of a collection of plain values' table.
    case elements(PlainValueTable)

    var className: String {
        switch self {
        case .objects(let className, _): className
        case .elements(let table): table.className
        }
    }

    var schema: RQLCore.Schema {
        switch self {
        case .objects(_, let schema): schema
        case .elements(let table): table.schema
        }
    }

    /// The property `SELF` reads: the element, for plain values.
    var selfProperty: String? {
        if case .elements = self { return PlainValueTable.propertyName }
        return nil
    }
}

/// Swift values given to `filter(_:_:)` as query arguments.
enum QueryArguments {
    struct Failure: Error {
        let message: String
    }

    /// One argument: a value, a list of values (any sequence but a string or data), or a
    /// geospatial shape.
    static func argument(_ value: Any) throws(Failure) -> QueryArgument {
        guard let value = ObjectBase.unwrapped(value) else { return .value(.null) }
        if let shape = value as? any RLMGeospatial { return .geo(shape._rqlRegion) }
        if let single = try single(value) { return .value(single) }
        if let sequence = value as? any Sequence {
            var values: [RQLCore.Value] = []
            for element in sequence.map({ $0 as Any }) {
                guard let element = ObjectBase.unwrapped(element) else {
                    values.append(.null)
                    continue
                }
                guard let converted = try single(element) else {
                    throw Failure(
                        message: "a list argument holds '\(element)' of type \(type(of: element)), not a value"
                    )
                }
                values.append(converted)
            }
            return .list(values)
        }
        throw Failure(message: "'\(value)' of type \(type(of: value)) cannot be a query argument")
    }

    /// A single value, or nil for something that is not one (a sequence).
    private static func single(_ value: Any) throws(Failure) -> RQLCore.Value? {
        switch value {
        case is NSNull: return .null
        case let number as NSNumber where !(value is any _QueryValue):
            return CFNumberIsFloat(number) ? .double(number.doubleValue) : .int(number.int64Value)
        case let queryValue as any _QueryValue:
            switch queryValue._rqlQueryConstant {
            case .constant(let constant): return constant
            case .list(let values): return .list(values)
            case .invalid(let message): throw Failure(message: message)
            default: throw Failure(message: "'\(value)' cannot be a query argument")
            }
        default:
            return nil
        }
    }

    private static func CFNumberIsFloat(_ number: NSNumber) -> Bool {
        let type = String(cString: number.objCType)
        return type == "d" || type == "f"
    }
}
