import RQLBytecode
import RQLCore
import RQLIR

/// Comparisons of two single values computed into value registers: two paths
/// (`age > owner.age`), arithmetic (`price * 2 > owner.price + 1`, `age + 1 > 30`). Each side is
/// loaded (`LoadColumn`, `CountElements`, `AggregateElements` through `GatherLink`s), a constant
/// (`LoadConstant`) or `Arithmetic` over two of these; `CompareValues` compares the two
/// registers, or `FilterValue` one register with a constant.
extension Generator {
    /// One value per row.
    indirect enum ValueExpression {
        /// A value loaded through to-one links (its `Gathered.test` is unused).
        case load(Gathered)
        case constant(Value)
        case arithmetic(ArithmeticOperator, ValueExpression, ValueExpression)
        /// `@size` of a string, binary or mixed value (`ValueSize`).
        case size(ValueExpression)
        /// A SUBQUERY's count by the walking `CountSubquery` (`Generator+WalkedSubqueries.swift`).
        case subquery(WalkedSubquery)
        /// Parameter `n` of a correlated SUBQUERY's program (`LoadParameter`).
        case parameter(Int)
        /// The link to the row itself (`LoadObjectLink`): `$t` in `SUBQUERY(toys, $t, $t == best)`.
        case objectLink
        /// A load, and the value for the rows it drops (`Generator+SubscriptedQuantifiers.swift`).
        case defaulted(Gathered, Value)

        var isConstant: Bool {
            if case .constant = self { true } else { false }
        }
    }

    /// A comparison of two value expressions, at least one of them not a constant.
    struct ComparedValues {
        var lhs: ValueExpression
        var op: ComparisonOperator
        var rhs: ValueExpression
        var options: StringOptions
    }

    /// The register form of a comparison of two single values, or nil for other shapes.
    func compared(for comparison: BoundComparison) -> ComparedValues? {
        if let aggregated = walkedAggregate(comparison) { return aggregated }
        if let subscripted = subscriptedQuantified(comparison) { return subscripted }
        // A SUBQUERY count against a constant keeps its own lowering (`subqueryCount(for:)`).
        if Self.readsSubquery(comparison), subqueryCount(for: comparison) != nil { return nil }
        guard comparison.lhs.quantifier == nil, comparison.rhs.quantifier == nil, Self.isSingle(comparison.lhs),
            Self.isSingle(comparison.rhs), let lhs = valueExpression(comparison.lhs.expression),
            let rhs = valueExpression(comparison.rhs.expression), !(lhs.isConstant && rhs.isConstant)
        else { return nil }
        return ComparedValues(lhs: lhs, op: comparison.op, rhs: rhs, options: comparison.options)
    }

    func valueExpression(_ expression: BoundExpression) -> ValueExpression? {
        switch expression {
        case .path(let path) where Self.parameterIndex(path) != nil:
            return Self.parameterIndex(path).map { .parameter($0) }
        case .subqueryCount(let path, let predicate):
            return walkedSubquery(path, predicate).map { .subquery($0) }
        case .constant(let value):
            return .constant(value)
        case .arithmetic(let op, let lhs, let rhs):
            guard let l = valueExpression(lhs), let r = valueExpression(rhs) else { return nil }
            return .arithmetic(op, l, r)
        case .count(let path):
            // `name.@size`: the byte length of one string, binary or mixed value.
            if !path.isMultiValued, let (links, column, property) = linkPath(path), property.collection == .single {
                return .size(
                    .load(
                        Gathered(links: links, column: column, load: .column, op: .equal, constant: .null, options: [])
                    )
                )
            }
            let operand = BoundOperand(expression, isMultiValued: false)
            if let loaded = gathered(operand, .equal, .null, [], quantified: false) { return .load(loaded) }
            // `children[*].@count` counts the links that resolve, repeats included: a SUBQUERY
            // keeping every element.
            guard path.steps.last == .all else { return nil }
            return walkedSubquery(path, .constant(true)).map { .subquery($0) }
        case .path(let path) where path.root == .object && path.steps.isEmpty:
            // `$d` itself inside a SUBQUERY's program: the object's link (`LoadObjectLink`).
            return .objectLink
        case .path, .aggregate, .backlinkCount:
            guard
                let gathered = gathered(
                    BoundOperand(expression, isMultiValued: false),
                    .equal,
                    .null,
                    [],
                    quantified: false
                )
            else { return nil }
            return .load(gathered)
        case .constantList, .list, .type, .object:
            return nil
        }
    }

    mutating func emit(_ compared: ComparedValues, into register: Int32, comment: String) {
        // A constant side is the comparison's constant: `FilterValue` (flipped when on the left).
        if case .constant(let k) = compared.rhs {
            let v = emitValue(compared.lhs, into: register)
            emitFilterValue(v, compared.op, k, compared.options, register, comment)
            return
        }
        if case .constant(let k) = compared.lhs, let flipped = compared.op.flipped {
            emitFilterValue(emitValue(compared.rhs, into: register), flipped, k, compared.options, register, comment)
            return
        }
        let l = emitValue(compared.lhs, into: register)
        let r = emitValue(compared.rhs, into: register)
        builder.emit(
            .compareValues,
            p1: register,
            p2: l,
            p3: compared.op.code,
            p4: r,
            p5: UInt16(compared.options.rawValue),
            comment: comment
        )
    }

    private mutating func emitFilterValue(
        _ v: Int32,
        _ op: ComparisonOperator,
        _ k: Value,
        _ options: StringOptions,
        _ register: Int32,
        _ comment: String
    ) {
        builder.emit(
            .filterValue,
            p1: register,
            p2: v,
            p3: op.code,
            p4: builder.constant(.value(k)),
            p5: UInt16(options.rawValue),
            comment: comment
        )
    }

    /// Emits the instructions computing `expression` for the rows of `register`; returns its value
    /// register. `Arithmetic` drops the rows whose operands have no result.
    mutating func emitValue(_ expression: ValueExpression, into register: Int32) -> Int32 {
        switch expression {
        case .load(let gathered):
            return emitLoad(gathered, into: register)
        case .constant(let value):
            let v = builder.makeValueRegister()
            builder.emit(.loadConstant, p1: register, p3: v, p4: builder.constant(.value(value)))
            return v
        case .arithmetic(let op, let lhs, let rhs):
            let l = emitValue(lhs, into: register)
            let r = emitValue(rhs, into: register)
            let v = builder.makeValueRegister()
            builder.emit(.arithmetic, p1: register, p2: l, p3: v, p4: r, p5: UInt16(op.code))
            return v
        case .size(let value):
            let loaded = emitValue(value, into: register)
            let v = builder.makeValueRegister()
            builder.emit(.valueSize, p1: register, p2: loaded, p3: v)
            return v
        case .subquery(let subquery):
            return emit(subquery, into: register)
        case .parameter(let n):
            let v = builder.makeValueRegister()
            builder.emit(.loadParameter, p1: register, p2: Int32(n), p3: v)
            return v
        case .objectLink:
            let v = builder.makeValueRegister()
            builder.emit(.loadObjectLink, p1: register, p3: v)
            return v
        case .defaulted(let gathered, let value):
            return emitDefaulted(gathered, value, into: register)
        }
    }

    /// `@type` of one value compared with type names: the value's load, `==` or `!=`, the names.
    struct TypeTest {
        var value: Gathered
        var op: ComparisonOperator
        var names: [Value]
    }

    /// The register form of `path.@type == name` / `!= name` / `IN {names}` (either side first),
    /// for a single value; nil for other shapes.
    func typeTest(for comparison: BoundComparison) -> TypeTest? {
        guard comparison.op == .equal || comparison.op == .notEqual, comparison.options.isEmpty else { return nil }
        func test(_ type: BoundOperand, _ names: BoundOperand) -> TypeTest? {
            guard type.quantifier == nil, !type.isMultiValued, case .type(let path) = type.expression,
                names.quantifier ?? .any == .any,
                let value = gathered(
                    BoundOperand(.path(path), isMultiValued: false),
                    .equal,
                    .null,
                    [],
                    quantified: false
                )
            else { return nil }
            switch names.expression {
            case .constant(let name):
                return TypeTest(value: value, op: comparison.op, names: [name])
            case .constantList(let list):
                return TypeTest(value: value, op: comparison.op, names: list)
            default:
                return nil
            }
        }
        return test(comparison.lhs, comparison.rhs) ?? test(comparison.rhs, comparison.lhs)
    }

    mutating func emit(_ test: TypeTest, into register: Int32, comment: String) {
        let v = emitLoad(test.value, into: register)
        builder.emit(
            .filterType,
            p1: register,
            p2: v,
            p3: test.op.code,
            p4: builder.constant(.values(test.names)),
            comment: comment
        )
    }
}
