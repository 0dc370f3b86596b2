import RQLCore
import RQLIR
import RQLSyntax

/// Operands: literals, arguments, lists, key paths with their postfixes, SUBQUERY and arithmetic.
extension BindingSession {
    mutating func bindOperand(_ expression: Expression) throws(BindError) -> Operand {
        let spelling = Spelling.syntax(expression, dialect)
        switch expression.kind {
        case .literal(let literal):
            var operand = Operand(
                expression: try constantExpression(literal, span: expression.span),
                isMultiValued: false,
                source: .literal,
                span: expression.span,
                spelling: spelling
            )
            if case .preciseDouble(_, let exact) = literal { operand.exactDecimals = [0: exact] }
            return operand
        case .argument(let argument):
            if case .variable(let name) = argument, scopes.contains(where: { $0.variable == name }) {
                let path = KeyPath([PathElement(.variable(name), span: expression.span)])
                return try bindKeyPath(path, span: expression.span, spelling: spelling)
            }
            return try argumentOperand(argument, span: expression.span, spelling: spelling)
        case .list(let elements):
            return try listOperand(elements, span: expression.span, spelling: spelling)
        case .keyPath(let keyPath):
            // NSPredicate's `$name` outside any SUBQUERY declaring it is a variable's value.
            if keyPath.elements.count == 1, keyPath.postfix == nil, case .variable(let name) = keyPath.elements[0].kind,
                !scopes.contains(where: { $0.variable == name })
            {
                return try argumentOperand(.variable(name), span: expression.span, spelling: spelling)
            }
            return try bindKeyPath(keyPath, span: expression.span, spelling: spelling)
        case .quantified(let quantifier, let inner):
            var operand = try bindOperand(inner)
            guard operand.quantifier == nil else {
                throw BindError(.unsupportedOperation, "only one of ANY, ALL, NONE may be written", at: expression.span)
            }
            operand.quantifier = quantifier
            operand.span = expression.span
            try checkQuantifier(operand, span: expression.span)
            return operand
        case .subqueryCount(let collection, let variable, let predicate):
            return try bindSubquery(collection, variable: variable, predicate: predicate, span: expression.span)
        case .arithmetic(let first, let rest):
            var result = try arithmeticOperand(first)
            for step in rest {
                let rhs = try arithmeticOperand(step.operand)
                result = try combine(result, step.op, rhs, span: expression.span)
            }
            result.spelling = spelling
            result.span = expression.span
            return result
        }
    }

    /// ANY / ALL / NONE need something multi-valued after them.
    func checkQuantifier(_ operand: Operand, span: SourceSpan) throws(BindError) {
        guard let quantifier = operand.quantifier, !operand.isMultiValued else { return }
        if case .argument(let name) = operand.source {
            throw BindError(
                .quantifierOnScalarArgument,
                "ANY/ALL/NONE are only allowed on arguments which contain a list but '\(name)' is not a list.",
                at: span
            )
        }
        throw BindError(
            .quantifierWithoutList,
            "The keypath following '\(quantifier.rawValue)' must contain a list: \(operand.quotedText) reaches one value",
            at: span
        )
    }

    private func argumentOperand(
        _ argument: Argument,
        span: SourceSpan,
        spelling: Spelling
    ) throws(BindError) -> Operand {
        let (value, name) = try argumentValue(argument, span: span)
        switch value {
        case .value(let scalar):
            return Operand(
                expression: .constant(scalar),
                isMultiValued: false,
                source: .argument(name),
                span: span,
                spelling: .text(name)
            )
        case .list(let values):
            return Operand(
                expression: .constantList(values),
                isMultiValued: true,
                source: .list,
                span: span,
                spelling: .text(name)
            )
        case .geo:
            throw BindError(
                .argumentTypeMismatch,
                "argument \(name) is a geospatial region, which only GEOWITHIN can use",
                at: span
            )
        }
    }

    private func listOperand(
        _ elements: [Expression],
        span: SourceSpan,
        spelling: Spelling
    ) throws(BindError) -> Operand {
        var values: [Value] = []
        var expressions: [BoundExpression] = []
        values.reserveCapacity(elements.count)
        expressions.reserveCapacity(elements.count)
        var hasObjects = false
        var exactDecimals: [Int: Decimal128] = [:]
        for element in elements {
            switch element.kind {
            case .literal(let literal):
                if case .preciseDouble(_, let exact) = literal { exactDecimals[expressions.count] = exact }
                let bound = try constantExpression(literal, span: element.span)
                if case .constant(let value) = bound { values.append(value) } else { hasObjects = true }
                expressions.append(bound)
            case .argument(let argument):
                let (value, name) = try argumentValue(argument, span: element.span)
                switch value {
                case .value(let scalar):
                    values.append(scalar)
                    expressions.append(.constant(scalar))
                case .list(let items):
                    values.append(.list(items))
                    expressions.append(.constant(.list(items)))
                case .geo:
                    throw BindError(
                        .argumentTypeMismatch,
                        "argument \(name) is a geospatial region, which cannot be a list element",
                        at: element.span
                    )
                }
            default:
                throw BindError(
                    .unsupportedOperation,
                    "a list literal may hold only constants and arguments",
                    at: element.span
                )
            }
        }
        var operand = Operand(
            expression: hasObjects ? .list(expressions) : .constantList(values),
            isMultiValued: true,
            source: .list,
            span: span,
            spelling: spelling
        )
        operand.exactDecimals = exactDecimals
        return operand
    }

    /// A key path and its postfix: `.path`, `.count`, `.type`, `.aggregate`, `.backlinkCount`.
    mutating func bindKeyPath(_ keyPath: KeyPath, span: SourceSpan, spelling: Spelling) throws(BindError) -> Operand {
        var resolved = try resolvePath(keyPath, span: span)
        switch keyPath.postfix {
        case nil:
            switch resolved.end {
            case .allBacklinks:
                throw BindError(.unsupportedOperation, "'@links' must be followed by '.@count'", at: span)
            case .elementLengths:
                return Operand(
                    expression: .count(resolved.bound),
                    isMultiValued: true,
                    source: .keyPath,
                    type: .int,
                    span: span,
                    spelling: spelling
                )
            default:
                return Operand(
                    expression: .path(resolved.bound),
                    isMultiValued: resolved.isMultiValued,
                    source: .keyPath,
                    type: resolved.valueType,
                    span: span,
                    spelling: spelling,
                    path: resolved
                )
            }
        case .count:
            return try countOperand(resolved, span: span, spelling: spelling)
        case .type:
            if case .allBacklinks = resolved.end {
                throw BindError(.unsupportedOperation, "'@links' must be followed by '.@count'", at: span)
            }
            flattenLinkCollection(&resolved)
            if !resolved.isMultiValued || resolved.isLink, let name = TypeAttribute.name(of: resolved.valueType) {
                // A property that is not mixed has one type whatever the object (realm-core's
                // `Value<TypeOfValue>(TypeOfValue(column))`): `int.@type` is the constant 'int',
                // so `mixed.@type == int.@type` is `mixed.@type == 'int'`. Links are 'link' even
                // through a list (realm-core types any link column, `links` included, as
                // `ObjectLink`), so `links.@type` does not depend on how many objects it holds.
                return Operand(
                    expression: .constant(.string(name)),
                    isMultiValued: false,
                    source: .typeAttribute,
                    type: resolved.valueType,
                    span: span,
                    spelling: spelling
                )
            }
            return Operand(
                expression: .type(resolved.bound),
                isMultiValued: resolved.isMultiValued,
                source: .typeAttribute,
                type: .mixed,
                span: span,
                spelling: spelling
            )
        case .aggregate(let function, let property):
            return try aggregateOperand(resolved, function, property: property, span: span, spelling: spelling)
        }
    }

    /// A name in single quotes for a message.
    private func quoted(_ name: String) -> String { "'\(name)'" }

    private func countOperand(
        _ resolved: ResolvedPath,
        span: SourceSpan,
        spelling: Spelling
    ) throws(BindError) -> Operand {
        let expression: BoundExpression
        let isMultiValued: Bool
        switch resolved.end {
        case .allBacklinks:
            expression = .backlinkCount(
                BoundPath(
                    root: resolved.root,
                    steps: resolved.steps,
                    isMultiValued: resolved.crossedToMany,
                    rootClassName: resolved.rootClass.name,
                    valueType: .int
                )
            )
            isMultiValued = false
        case .collection(let elementType, let kind, _) where elementType.targetClassName != nil && kind != .map:
            // Links are counted through the whole path, as one total per object (realm-core's
            // `LinkCount`): `items.@count`, `friends.items.@count`.
            expression = .count(resolved.bound)
            isMultiValued = false
        case .collection, .mixed, .elementLengths, .value(.string), .value(.data):
            expression = .count(resolved.bound)
            isMultiValued = resolved.crossedToMany
        case .objects:
            // A to-one link (or `self`, or a SUBQUERY element) counts the objects it reaches: 0 for
            // a null link, 1 otherwise, as realm-core's `Columns<Link>::count()`; through a
            // to-many link it is one total per object.
            expression = .count(resolved.bound)
            isMultiValued = false
        case .value(let type):
            throw BindError(
                .unsupportedOperation,
                "\(quoted(resolved.lastName)) is of type '\(ValueCoercion.typeName(type))', which has no size:"
                    + " @count and @size apply to collections, links, strings and binary values",
                at: span
            )
        }
        return Operand(
            expression: expression,
            isMultiValued: isMultiValued,
            source: .keyPath,
            type: .int,
            span: span,
            spelling: spelling
        )
    }
}
