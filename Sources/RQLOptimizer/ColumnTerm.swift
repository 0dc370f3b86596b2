import RQLCore
import RQLIR

/// A key path that reads exactly one value per object: property steps only, each through a
/// typed to-one link (a null link makes the value null), ending in a single property. This is
/// the shape whose comparisons the optimizer may combine, invert and answer from an index: no
/// quantifier, no collection, no mixed value standing in for an object.
///
///     Person.age             // column of Person
///     Person.address.city    // through a to-one (embedded) link
///     Person.dogs.age        // not a column: to-many
struct ColumnPath: Hashable {
    /// The path itself.
    var path: BoundPath
    /// The property the last step reads.
    var property: Property
    /// The last step's column number in its class.
    var propertyIndex: Int

    /// Whether the path is one step from the object under test (what an index answers).
    var isDirect: Bool { path.steps.count == 1 && path.root == .object }

    /// The column `operand` reads, when it is a plain single-valued path with no quantifier.
    /// `home`, the class of the query when the caller knows it, saves looking it up by name.
    init?(_ operand: BoundOperand, schema: Schema, home: ObjectSchema? = nil) {
        self.init(operand) { className, stepIndex in
            // Read through the optional: binding `home` (`if let`) copied the whole schema.
            if home?.name == className, let count = home?.properties.count {
                return stepIndex < count ? home?.properties[stepIndex] : nil
            }
            return Self.property(at: stepIndex, of: className, in: schema)
        }
    }

    /// The column `operand` reads, `home` being the class of the query. Taking the class as it
    /// is, not as an optional, spares copying it into one (this runs for every comparison).
    init?(_ operand: BoundOperand, schema: Schema, home: ObjectSchema) {
        self.init(operand) { className, stepIndex in
            guard home.name == className else { return Self.property(at: stepIndex, of: className, in: schema) }
            return stepIndex < home.properties.count ? home.properties[stepIndex] : nil
        }
    }

    /// Property `stepIndex` of the named class, if both exist.
    private static func property(at stepIndex: Int, of className: String, in schema: Schema) -> Property? {
        guard let found = schema.lookUpClass(className), stepIndex < found.properties.count else { return nil }
        return found.properties[stepIndex]
    }

    /// The column `operand` reads, each step's property found by `property` (class name, column).
    private init?(_ operand: BoundOperand, property propertyAt: (String, Int) -> Property?) {
        guard operand.quantifier == nil, !operand.isMultiValued, case .path(let path) = operand.expression,
            !path.isMultiValued, !path.steps.isEmpty
        else { return nil }
        var currentClass = path.rootClassName
        var last: Property?
        var index = 0
        let lastStep = path.steps.count - 1
        for number in path.steps.indices {
            guard case .property(let className, let stepIndex, let name) = path.steps[number],
                className == currentClass, stepIndex >= 0,
                // One property read out of its class, and nothing else copied.
                let property = propertyAt(className, stepIndex)
            else { return nil }
            guard property.name == name, !property.isToMany, !property.isBacklink else { return nil }
            if number < lastStep {
                // Only a typed to-one link leads on; a mixed value holding a link does not.
                guard case .object(let target) = property.type else { return nil }
                currentClass = target
            }
            last = property
            index = stepIndex
        }
        guard let last else { return nil }
        self.path = path
        self.property = last
        self.propertyIndex = index
    }
}

/// A comparison between a column and a constant, in the orientation "column op constant":
/// `age > 5`, `5 < age` (flipped), `age IN {1, 2}` (a membership: `==` against every element of
/// a list under ANY).
struct ColumnTerm {
    /// What the column is compared with.
    enum Test: Equatable {
        /// `column op value` with one constant.
        case compare(ComparisonOperator, Value)
        /// `column == ANY {values}`: equal to some element.
        case member([Value])
    }

    var column: ColumnPath
    /// The column's operand as written (reused when the term is rebuilt).
    var operand: BoundOperand
    var test: Test
    var options: StringOptions

    /// The term `comparison` states, if it compares a column with constants; a constant on the
    /// left is moved to the right (with `<` and `>` exchanged).
    init?(_ comparison: BoundComparison, schema: Schema, home: ObjectSchema? = nil) {
        self.init(comparison) { ColumnPath($0, schema: schema, home: home) }
    }

    /// The term `comparison` states, `home` being the class of the query (taken as it is: see
    /// `ColumnPath.init(_:schema:home:)`).
    init?(_ comparison: BoundComparison, schema: Schema, home: ObjectSchema) {
        self.init(comparison) { ColumnPath($0, schema: schema, home: home) }
    }

    private init?(_ comparison: BoundComparison, column columnOf: (BoundOperand) -> ColumnPath?) {
        if let column = columnOf(comparison.lhs), let test = Self.test(comparison.op, constant: comparison.rhs) {
            self.init(column: column, operand: comparison.lhs, test: test, options: comparison.options)
        } else if let column = columnOf(comparison.rhs),
            let flipped = comparison.op.flipped,
            // `[c]`/`[d]` equality is only ever written column-first; leave the other way alone.
            comparison.options.isEmpty || comparison.op.isOrdered,
            let test = Self.test(flipped, constant: comparison.lhs)
        {
            self.init(column: column, operand: comparison.rhs, test: test, options: comparison.options)
        } else {
            return nil
        }
    }

    init(column: ColumnPath, operand: BoundOperand, test: Test, options: StringOptions) {
        self.column = column
        self.operand = operand
        self.test = test
        self.options = options
    }

    private static func test(_ op: ComparisonOperator, constant: BoundOperand) -> Test? {
        switch constant.expression {
        case .constant(let value) where constant.quantifier == nil && !constant.isMultiValued:
            return .compare(op, value)
        case .constantList(let values)
        where op == .equal && constant.isMultiValued && (constant.quantifier == nil || constant.quantifier == .any):
            // With a single-valued column on the other side a list without a quantifier is ANY too.
            return .member(values)
        default:
            return nil
        }
    }

    /// The term as a predicate, column on the left; a membership carries an explicit ANY.
    var predicate: BoundPredicate {
        switch test {
        case .compare(let op, let value):
            return .comparison(
                BoundComparison(operand, op, BoundOperand(.constant(value), isMultiValued: false), options: options)
            )
        case .member(let values):
            return .comparison(
                BoundComparison(
                    operand,
                    .equal,
                    BoundOperand(.constantList(values), quantifier: .any, isMultiValued: true),
                    options: options
                )
            )
        }
    }

    /// Whether the term holds for an object whose column equals `value`, decided on the constants
    /// alone. Callers guarantee `exactlyComparable` for the values involved, so that a column
    /// equal to `value` compares with every constant exactly as `value` does.
    func holds(for value: Value) -> Bool {
        switch test {
        case .compare(let op, let constant):
            return ValueComparison.evaluate(value, op, constant, options: options)
        case .member(let values):
            return values.contains { ValueComparison.equals(value, $0, options: options) }
        }
    }

    /// The constants the term mentions.
    var constants: [Value] {
        switch test {
        case .compare(_, let value): [value]
        case .member(let values): values
        }
    }
}

extension ColumnTerm {
    /// Whether comparisons of one column with `constants` may be reasoned about through the
    /// constants alone (`x > 7` implies `x > 5` because `7 > 5`): true when the non-null
    /// constants are all of one type, or all `int`/`float`/`double` against an `int`, `float` or
    /// `double` column. Realm compares numbers of different types by value, but a decimal
    /// against a double goes through the double's shortest decimal text, so mixing a decimal
    /// with a double (or an int with a double beyond 2^53 against a decimal column) can break
    /// transitivity; such groups are left alone.
    static func exactlyComparable(_ constants: [Value], columnType: PropertyType) -> Bool {
        var kinds = Set<ValueKind>()
        for value in constants where !value.isNull { kinds.insert(value.kind) }
        if kinds.count <= 1 { return true }
        let binary: Set<ValueKind> = [.int, .float, .double]
        switch columnType {
        case .int, .float, .double: return kinds.isSubset(of: binary)
        default: return false
        }
    }
}
