import RQLCore

/// Why a parsed query cannot be bound to a schema: a name that does not exist, types that cannot
/// be compared, an argument that is missing or of the wrong kind. The span points at the part of
/// the query the message is about.
///
///     error: unknown property 'agee' on class 'Dog'; did you mean 'age'?
///       agee > 2
///       ^~~~
public struct BindError: LocatedError, Equatable {
    /// The category of a binding error, stable for tests and tools. `category` is the name the
    /// conformance vectors use.
    public enum Kind: String, Sendable, CaseIterable {
        /// A class that the schema does not have.
        case unknownClass
        /// A query whose class is embedded (it has no objects of its own to select).
        case embeddedClass
        /// A property that the class does not have (the message suggests the closest name).
        case unknownProperty
        /// Two operands whose types cannot be compared (`age == 'abc'`, `name > 5`).
        case typeMismatch
        /// An operator the operand's type does not support (`link > 5`, `@type` with `[c]`).
        case unsupportedOperation
        /// A string operator whose right side is not a string or binary.
        case stringOperatorOnNonString
        /// `@min`/`@max`/`@sum`/`@avg` on a type it does not apply to.
        case unsupportedAggregate
        /// An aggregate over a list of objects without the property to aggregate.
        case aggregateNeedsProperty
        /// An aggregate, `@count` or subscript on something that is not a collection.
        case aggregateOnNonList
        /// A subscript on a property that does not support it (`set[0]`, `dict[FIRST]`, `link[5]`).
        case indexOnNonCollection
        /// A SUBQUERY over a list of primitive values or a to-one link.
        case subqueryOnPrimitiveList
        /// Two primitive-list properties compared with each other.
        case listVsList
        /// A list of objects compared with NULL.
        case listVsNull
        /// ANY / ALL / NONE in front of a key path that reaches one value.
        case quantifierWithoutList
        /// ANY / ALL / NONE in front of an argument that is not a list.
        case quantifierOnScalarArgument
        /// IN whose right side is not multi-valued.
        case inNeedsList
        /// Arithmetic with two multi-valued operands.
        case twoListsArithmetic
        /// Arithmetic on something that is not a number.
        case arithmeticOnNonNumeric
        /// A link compared with an object of another class.
        case linkTypeMismatch
        /// `<`, `>`, … on dictionary keys or other unordered values.
        case dictionaryNotOrdered
        /// BETWEEN on a list without ALL, or with bounds that are not two values.
        case betweenOnList
        /// GEOWITHIN on something that is not a link.
        case geoOnNonLink
        /// GEOWITHIN on a link to a class that is not a GeoJSON point.
        case geoWrongTarget
        /// GEOWITHIN with an argument that is not a shape, or an invalid shape.
        case geoBadArgument
        /// A TEXT query with a bad term, or TEXT on a property without a full-text index.
        case badFullTextTerm
        /// `$n` beyond the arguments given, or a `$name` with no value.
        case missingArgument
        /// An argument of a type that cannot be compared with the other side.
        case argumentTypeMismatch
        /// Two constants compared with each other.
        case twoConstants
        /// A constant that cannot be converted (infinity or NaN for an int, an unknown `@type` name).
        case invalidConstant
        /// A SORT or DISTINCT key that is unknown, crosses a collection, or is not sortable.
        case invalidSortKey

        /// The snake_case name the conformance vectors use (`unknown_property`).
        public var category: String {
            // The vectors abbreviate a few names.
            switch self {
            case .stringOperatorOnNonString: return "string_op_on_non_string"
            case .quantifierOnScalarArgument: return "quantifier_on_scalar_arg"
            case .badFullTextTerm: return "bad_fulltext_term"
            default: break
            }
            var result = ""
            for character in rawValue {
                if character.isUppercase {
                    result += "_" + character.lowercased()
                } else {
                    result.append(character)
                }
            }
            return result
        }
    }

    public var kind: Kind
    public var diagnostic: Diagnostic

    public init(_ kind: Kind, _ message: String, at span: SourceSpan) {
        self.kind = kind
        self.diagnostic = Diagnostic(.error, message, at: span)
    }
}
