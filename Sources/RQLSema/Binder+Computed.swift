import RQLCore
import RQLIR
import RQLSyntax

/// Operands computed from key paths: aggregates, SUBQUERY counts and arithmetic.
extension BindingSession {
    /// `list.@min`, `links.@max.property`, `dict.@sum`: one value per owner of the collection
    /// (`items.@sum.price` is one value per object, `links.integers.@sum` one per linked object).
    func aggregateOperand(
        _ resolved: ResolvedPath,
        _ function: AggregateFunction,
        property: String?,
        span: SourceSpan,
        spelling: Spelling
    ) throws(BindError) -> Operand {
        var path = resolved
        let label = "." + function.rawValue
        let valueType: PropertyType
        switch path.end {
        case .collection(let elementType, let kind, let name):
            if let target = elementType.targetClassName, let targetSchema = schema[target] {
                guard let property else {
                    throw BindError(
                        .aggregateNeedsProperty,
                        "Cannot use aggregate '\(label)' for this type of property: '\(name)' holds objects;"
                            + " name the property to aggregate, as in '\(name)\(label).property'",
                        at: span
                    )
                }
                if kind == .map { path.steps.append(.values) }
                path.crossedToMany = true
                guard let index = targetSchema.propertyIndex(named: property) else {
                    throw unknownProperty(property, on: targetSchema, span: span)
                }
                let target = targetSchema.properties[index]
                guard target.collection == .single, !target.isLink, isAggregatable(target.type, function) else {
                    let typeName = target.isLink ? "link" : ValueCoercion.typeName(target.type)
                    throw BindError(
                        .unsupportedAggregate,
                        "collection aggregate not supported for type '\(typeName)' ('\(target.name)' of '\(target.name)')",
                        at: span
                    )
                }
                path.steps.append(.property(className: targetSchema.name, index: index, name: property))
                path.end = target.type == .mixed ? .mixed : .value(target.type)
                valueType = target.type
            } else {
                if property != nil {
                    throw BindError(
                        .aggregateOnNonList,
                        "Operation '\(label)' cannot apply to property '\(name)' because it is not a list of objects",
                        at: span
                    )
                }
                guard isAggregatable(elementType, function) else {
                    throw BindError(
                        .unsupportedAggregate,
                        "Cannot use aggregate '\(label)' for this type of property:"
                            + " '\(name)' holds \(ValueCoercion.typeName(elementType)) values",
                        at: span
                    )
                }
                valueType = elementType
            }
        case .mixed where property == nil && resolved.steps.count > 0:
            valueType = .mixed
        case .value(let type) where path.crossedToMany && property == nil:
            guard isAggregatable(type, function) else {
                throw BindError(
                    .unsupportedAggregate,
                    "Cannot use aggregate '\(label)' for values of type '\(ValueCoercion.typeName(type))'",
                    at: span
                )
            }
            valueType = type
        case .allBacklinks:
            throw BindError(.unsupportedAggregate, "'@links' can only be counted ('@links.@count')", at: span)
        default:
            throw BindError(
                .aggregateOnNonList,
                "Operation '\(label)' cannot apply to property '\(resolved.lastName)' because it is not a list",
                at: span
            )
        }
        let resultType: PropertyType =
            switch function {
            case .min, .max, .sum: valueType
            case .avg: valueType == .int ? .double : valueType
            }
        return Operand(
            expression: .aggregate(function, path.bound),
            isMultiValued: resolved.collectionOwnersMultiValued ?? false,
            source: .keyPath,
            type: resultType,
            span: span,
            spelling: spelling
        )
    }

    private func isAggregatable(_ type: PropertyType, _ function: AggregateFunction) -> Bool {
        switch type {
        case .int, .float, .double, .decimal128, .mixed: true
        case .date: function == .min || function == .max
        default: false
        }
    }

    /// `SUBQUERY(collection, $x, predicate).@count`.
    mutating func bindSubquery(
        _ collection: KeyPath,
        variable: String,
        predicate: Predicate,
        span: SourceSpan
    ) throws(BindError) -> Operand {
        let collectionSpan =
            collection.elements.first.map { first in
                first.span.through(collection.elements.last?.span ?? first.span)
            } ?? span
        let resolved = try resolvePath(collection, span: collectionSpan)
        let target: ObjectSchema
        switch resolved.end {
        case .collection(let elementType, let kind, let name) where kind != .map:
            guard let targetName = elementType.targetClassName, let targetSchema = schema[targetName] else {
                throw BindError(
                    .subqueryOnPrimitiveList,
                    "A subquery can not operate on a list of primitive values (property '\(name)')",
                    at: collectionSpan
                )
            }
            target = targetSchema
        default:
            let kind = resolved.isLink ? "link" : ValueCoercion.typeName(resolved.valueType)
            throw BindError(
                .subqueryOnPrimitiveList,
                "A subquery must operate on a list property, but '\(resolved.lastName)' is type '\(kind)'",
                at: collectionSpan
            )
        }
        if collection.postfix != nil {
            throw BindError(.subqueryOnPrimitiveList, "A subquery must operate on a list property", at: collectionSpan)
        }
        guard scopes.count < Binder.maximumSubqueryDepth else {
            throw BindError(
                .unsupportedOperation,
                "SUBQUERYs may nest at most \(Binder.maximumSubqueryDepth) deep",
                at: span
            )
        }
        if scopes.contains(where: { $0.variable == variable }) {
            throw BindError(
                .unsupportedOperation,
                "Unable to create a subquery expression with variable '$\(variable)' since an identical variable"
                    + " already exists in this context",
                at: span
            )
        }
        scopes.append(Scope(variable: variable, objectSchema: target))
        defer { scopes.removeLast() }
        let inner = try bindPredicate(predicate)
        return Operand(
            expression: .subqueryCount(path: resolved.bound, predicate: inner),
            isMultiValued: resolved.crossedToMany,
            source: .keyPath,
            type: .int,
            span: span,
            spelling: .syntax(
                Expression(
                    .subqueryCount(collection: collection, variable: variable, predicate: predicate),
                    span: span
                ),
                dialect
            )
        )
    }

    /// One operand of `+ - * /`.
    mutating func arithmeticOperand(_ expression: Expression) throws(BindError) -> Operand {
        try bindOperand(expression)
    }

    /// `lhs op rhs`: both numeric, at most one multi-valued.
    func combine(
        _ lhs: Operand,
        _ op: ArithmeticOperator,
        _ rhs: Operand,
        span: SourceSpan
    ) throws(BindError) -> Operand {
        guard let lhsType = numericType(of: lhs), let rhsType = numericType(of: rhs) else {
            throw BindError(
                .arithmeticOnNonNumeric,
                "Cannot perform '\(op.rawValue)' operation on \(lhs.quotedText) and \(rhs.quotedText): both must be numbers",
                at: span
            )
        }
        if lhs.isMultiValued && rhs.isMultiValued {
            throw BindError(.twoListsArithmetic, "Operations involving two lists are not supported", at: span)
        }
        let type: PropertyType
        if lhsType == .mixed || rhsType == .mixed {
            type = .mixed
        } else if lhsType == .decimal128 || rhsType == .decimal128 {
            type = .decimal128
        } else if lhsType == .double || rhsType == .double {
            type = .double
        } else if lhsType == .float || rhsType == .float {
            type = .float
        } else {
            type = .int
        }
        let depth = max(lhs.arithmeticDepth, rhs.arithmeticDepth) + 1
        guard depth <= Binder.maximumArithmeticDepth else {
            throw BindError(
                .unsupportedOperation,
                "an arithmetic expression may nest at most \(Binder.maximumArithmeticDepth) operators deep",
                at: span
            )
        }
        let constant = lhs.isConstant && rhs.isConstant
        var result = Operand(
            expression: .arithmetic(op, lhs.expression, rhs.expression),
            isMultiValued: lhs.isMultiValued || rhs.isMultiValued,
            quantifier: lhs.quantifier ?? rhs.quantifier,
            source: constant ? .literal : .keyPath,
            type: constant ? nil : type,
            span: span,
            spelling: .arithmetic(lhs.spelling, op, rhs.spelling)
        )
        result.arithmeticDepth = depth
        return result
    }

    /// The numeric type of an arithmetic operand, or nil when it is not a number.
    private func numericType(of operand: Operand) -> PropertyType? {
        switch operand.source {
        case .keyPath:
            guard let type = operand.type, type.isNumeric || type == .mixed else { return nil }
            if case .path(let path) = operand.expression, path.valueType.targetClassName != nil { return nil }
            return type
        case .typeAttribute:
            return nil
        case .literal, .argument, .list:
            switch operand.expression {
            case .constant(let value): return numericType(of: value)
            case .constantList(let values):
                var type: PropertyType = .int
                for value in values {
                    guard let elementType = numericType(of: value) else { return nil }
                    if elementType != .int { type = elementType }
                }
                return type
            case .arithmetic: return operand.type ?? .double
            default: return nil
            }
        }
    }

    private func numericType(of value: Value) -> PropertyType? {
        switch value {
        case .int: .int
        case .float: .float
        case .double: .double
        case .decimal: .decimal128
        default: nil
        }
    }
}
