import RQLCore
import RQLIR
import RQLSyntax

/// Comparisons: IN and BETWEEN lowered to the basic operators, and the type rules of
/// rql-semantics.md §2–§6 (constants converted to the other side's type, links only with ==/!=,
/// string operators on strings and binaries, `@type` against type names).
extension BindingSession {
    mutating func bindComparison(_ comparison: Comparison, span: SourceSpan) throws(BindError) -> BoundPredicate {
        // Realm Swift's `location IN %@` with a shape argument is GEOWITHIN (RLMQueryUtil.mm).
        if comparison.op == .in, case .argument(let argument) = comparison.rhs.kind,
            case (.geo, _)? = try? argumentValue(argument, span: comparison.rhs.span)
        {
            let shape = GeoShape(.argument(argument), span: comparison.rhs.span)
            return try bindGeoWithin(location: comparison.lhs, shape: shape, span: span)
        }
        switch comparison.op {
        case .text: return try bindFullText(comparison, span: span)
        case .matches: return try bindMatches(comparison, span: span)
        default: break
        }
        let op: ComparisonOperator = comparison.op == .in ? .equal : comparison.op
        let lhs = try bindOperand(comparison.lhs)
        let rhs = try bindOperand(comparison.rhs)
        if comparison.op == .in && !rhs.isMultiValued {
            throw BindError(
                .inNeedsList,
                "The keypath following 'IN' must contain a list. Found \(rhs.quotedText)",
                at: rhs.span
            )
        }
        let bound = try makeComparison(lhs, op, rhs, options: comparison.options, span: span)
        return realmNullHaystackRules(bound, lhs: lhs, rhs: rhs) ?? .comparison(bound)
    }

    /// Two of realm-core's null rules for BEGINSWITH / ENDSWITH / CONTAINS depend on which side is
    /// the constant, so no rule over a pair of values can express them; they are applied here.
    /// A null constant haystack matches nothing (`NULL CONTAINS name` is false even where `name`
    /// is null, while `name CONTAINS NULL` is true everywhere), and a binary `CONTAINS[c] NULL`
    /// skips null haystacks (the string form does not).
    private func realmNullHaystackRules(_ bound: BoundComparison, lhs: Operand, rhs: Operand) -> BoundPredicate? {
        guard bound.op == .beginsWith || bound.op == .endsWith || bound.op == .contains else { return nil }
        if lhs.isNullConstant { return .constant(false) }
        if bound.op == .contains, bound.options.contains(.caseInsensitive), rhs.isNullConstant, !lhs.isMultiValued,
            lhs.type == .data
        {
            let notNull = BoundComparison(bound.lhs, .notEqual, BoundOperand(.constant(.null), isMultiValued: false))
            return .and([.comparison(bound), .comparison(notNull)])
        }
        return nil
    }

    /// `value BETWEEN {low, high}` → `value >= low AND value <= high`.
    mutating func bindBetween(
        value: Expression,
        bounds: Expression,
        span: SourceSpan
    ) throws(BindError) -> BoundPredicate {
        let operand = try bindOperand(value)
        if operand.isMultiValued && operand.quantifier != .all {
            throw BindError(
                .betweenOnList,
                "Only 'ALL' supported for operator 'BETWEEN' when applied to lists (\(operand.quotedText) is one)",
                at: value.span
            )
        }
        let arity = BindError(.betweenOnList, "Operator 'BETWEEN' requires list with 2 elements.", at: bounds.span)
        let low: Operand
        let high: Operand
        switch bounds.kind {
        case .list(let elements):
            guard elements.count == 2 else { throw arity }
            low = try bindOperand(elements[0])
            high = try bindOperand(elements[1])
        case .argument(let argument):
            let (supplied, name) = try argumentValue(argument, span: bounds.span)
            guard case .list(let values) = supplied, values.count == 2 else { throw arity }
            func bound(_ value: Value) -> Operand {
                Operand(
                    expression: .constant(value),
                    isMultiValued: false,
                    source: .argument(name),
                    span: bounds.span,
                    spelling: .text(name)
                )
            }
            low = bound(values[0])
            high = bound(values[1])
        default:
            throw arity
        }
        if low.isMultiValued || high.isMultiValued { throw arity }
        let lower = try makeComparison(operand, .greaterOrEqual, low, options: [], span: span)
        let upper = try makeComparison(operand, .lessOrEqual, high, options: [], span: span)
        return .and([.comparison(lower), .comparison(upper)])
    }

    /// Checks two bound operands against each other and converts constants to the other side's type.
    func makeComparison(
        _ lhs: Operand,
        _ op: ComparisonOperator,
        _ rhs: Operand,
        options: StringOptions,
        span: SourceSpan
    ) throws(BindError) -> BoundComparison {
        if lhs.isConstant && rhs.isConstant {
            let typeIsLeft = lhs.source == .typeAttribute
            let (typeSide, other) = typeIsLeft ? (lhs, rhs) : (rhs, lhs)
            if typeSide.source == .typeAttribute, case .constant(.string(let name)) = typeSide.expression {
                throw BindError(
                    .twoConstants,
                    "\(typeSide.quotedText) is always '\(name)': '@type' tells apart the values of a mixed property,"
                        + " and this property is not mixed, so comparing it with \(other.quotedText) decides nothing",
                    at: span
                )
            }
            throw BindError(
                .twoConstants,
                "Cannot compare two constants (\(lhs.quotedText) and \(rhs.quotedText)): one side must be a key path",
                at: span
            )
        }
        if let left = lhs.path, let right = rhs.path, left.isPrimitiveCollection, right.isPrimitiveCollection {
            throw BindError(
                .listVsList,
                "Ordered comparison between two primitive lists is not implemented yet (\(lhs.quotedText) and \(rhs.quotedText))",
                at: span
            )
        }
        if lhs.source == .typeAttribute || rhs.source == .typeAttribute {
            return try typeComparison(lhs, op, rhs, options: options, span: span)
        }
        if op.isStringOperator || !options.isEmpty {
            try checkStringOperands(lhs, op, rhs, options: options, span: span)
        }
        // The operands are borrowed, not copied (an `Operand` is large); only their expressions
        // change when a constant takes the other side's type.
        if rhs.isNullConstant && isLinkList(lhs) {
            throw BindError(.listVsNull, "Cannot compare linklist (\(lhs.quotedText)) with NULL", at: span)
        }
        if lhs.isNullConstant && isLinkList(rhs) {
            throw BindError(.listVsNull, "Cannot compare linklist (\(rhs.quotedText)) with NULL", at: span)
        }
        var lhsExpression = lhs.expression
        var rhsExpression = rhs.expression
        if lhs.type?.targetClassName != nil || rhs.type?.targetClassName != nil
            || isObjectConstant(lhs) || isObjectConstant(rhs)
        {
            try checkLinks(lhs, op, rhs, span: span)
        } else {
            if let type = lhs.type, rhs.isConstant { rhsExpression = try coerced(rhs, to: type) }
            if let type = rhs.type, lhs.isConstant { lhsExpression = try coerced(lhs, to: type) }
            if let left = lhs.type, let right = rhs.type,
                !areComparable(left, right, stringOperator: op.isStringOperator)
            {
                throw BindError(
                    .typeMismatch,
                    "Unsupported comparison between type '\(ValueCoercion.typeName(left))' and type"
                        + " '\(ValueCoercion.typeName(right))' (\(lhs.quotedText) and \(rhs.quotedText))",
                    at: span
                )
            }
        }
        return BoundComparison(
            BoundOperand(lhsExpression, quantifier: lhs.quantifier, isMultiValued: lhs.isMultiValued),
            op,
            BoundOperand(rhsExpression, quantifier: rhs.quantifier, isMultiValued: rhs.isMultiValued),
            options: options
        )
    }

    private func areComparable(_ a: PropertyType, _ b: PropertyType, stringOperator: Bool) -> Bool {
        if a == b || a == .mixed || b == .mixed { return true }
        if a.isNumeric && b.isNumeric { return true }
        return stringOperator && (a == .string || a == .data) && (b == .string || b == .data)
    }

    /// A multi-valued path of links (not a dictionary's values), which cannot be compared with NULL.
    private func isLinkList(_ operand: Operand) -> Bool {
        guard operand.source == .keyPath, operand.isMultiValued, let path = operand.path, path.isLink else {
            return false
        }
        if case .collection(_, .map, _) = path.end { return false }
        return true
    }

    private func isObjectConstant(_ operand: Operand) -> Bool {
        switch operand.expression {
        case .object: return true
        case .constant(.link): return operand.isConstant
        default: return false
        }
    }

    /// Links compare only with ==/!= against links of the same class, NULL and `obj(…)`.
    private func checkLinks(
        _ lhs: Operand,
        _ op: ComparisonOperator,
        _ rhs: Operand,
        span: SourceSpan
    ) throws(BindError) {
        guard op == .equal || op == .notEqual else {
            throw BindError(
                .unsupportedOperation,
                "Unsupported operator \(op.rawValue) in query. Only equal (==) and not equal (!=) are supported"
                    + " for links (\(lhs.quotedText) \(op.rawValue) \(rhs.quotedText))",
                at: span
            )
        }
        for (side, other) in [(lhs, rhs), (rhs, lhs)] {
            guard let type = side.type else { continue }
            if type == .mixed { continue }
            guard let target = type.targetClassName else {
                // A non-link key path against a link constant.
                if other.isConstant {
                    throw constantMismatch(other, type: type, span: span)
                }
                continue
            }
            var classes: [(String, Value?)] = []
            switch other.expression {
            case .object(let className, let key): classes.append((className, key))
            case .constant(.link(let link)) where other.isConstant: classes.append((link.className, nil))
            case .constant(.null): break
            case .constant where other.isConstant:
                throw constantMismatch(other, type: type, span: span)
            case .list(let elements):
                for case .object(let className, let key) in elements { classes.append((className, key)) }
            default:
                if let otherType = other.type, otherType != .mixed, otherType.targetClassName == nil {
                    throw BindError(
                        .typeMismatch,
                        "Unsupported comparison between type 'link' and type '\(ValueCoercion.typeName(otherType))'"
                            + " (\(side.quotedText) and \(other.quotedText))",
                        at: span
                    )
                }
            }
            for (className, key) in classes where className != target {
                let keyText = key.map { " with primary key '\($0)'" } ?? ""
                throw BindError(
                    .linkTypeMismatch,
                    "The relationship \(side.quotedText) which links to type '\(target)' cannot be compared to"
                        + " \(other.source == .literal ? "an object" : "an argument") of type '\(className)'\(keyText)",
                    at: span
                )
            }
        }
    }

    /// A constant operand's expression converted to `type`, as realm-core's `ConstantNode::visit`
    /// does.
    private func coerced(_ operand: Operand, to type: PropertyType) throws(BindError) -> BoundExpression {
        switch operand.expression {
        case .constant(let value):
            if let special = nonFinite(value), !type.isNumeric, type != .mixed {
                throw BindError(
                    .invalidConstant,
                    "\(special) not supported for \(ValueCoercion.typeName(type)) (\(operand.quotedText))",
                    at: operand.span
                )
            }
            if type == .decimal128, let exact = operand.exactDecimals[0] { return .constant(.decimal(exact)) }
            do {
                return .constant(try ValueCoercion.coerce(value, toCompareWith: type))
            } catch {
                switch error {
                case .unsupportedComparison: throw constantMismatch(operand, type: type, span: operand.span)
                case .infinityNotSupported, .nanNotSupported:
                    throw BindError(.invalidConstant, "\(error) (\(operand.quotedText))", at: operand.span)
                }
            }
        case .constantList(let values):
            var converted: [Value] = []
            converted.reserveCapacity(values.count)
            for (index, value) in values.enumerated() {
                if type == .decimal128, let exact = operand.exactDecimals[index] {
                    converted.append(.decimal(exact))
                } else if let value = try? ValueCoercion.coerce(value, toCompareWith: type) {
                    converted.append(value)
                } else if type == .data {
                    // realm-core converts each value of a list as it converts one: against a
                    // binary property, a value that is neither bytes nor a string is a type error.
                    throw BindError(
                        .typeMismatch,
                        "Unsupported comparison between type 'binary' and type '\(value.kind)'"
                            + " (\(operand.quotedText) holds \(withArticle(value.kind.description)), not a binary)",
                        at: operand.span
                    )
                } else {
                    converted.append(value)
                }
            }
            return .constantList(converted)
        default:
            return operand.expression
        }
    }

    /// "Infinity" or "NaN" for a non-finite number, as realm-core names them in its messages.
    private func nonFinite(_ value: Value) -> String? {
        let double: Double
        switch value {
        case .double(let d): double = d
        case .float(let f): double = Double(f)
        case .decimal(let d): return d.isNaN ? "NaN" : (d.isInfinite ? "Infinity" : nil)
        default: return nil
        }
        return double.isNaN ? "NaN" : (double.isInfinite ? "Infinity" : nil)
    }

    private func constantMismatch(_ operand: Operand, type: PropertyType, span: SourceSpan) -> BindError {
        let value: Value
        if case .constant(let v) = operand.expression { value = v } else { value = .null }
        if case .argument(let name) = operand.source {
            // A string argument that does not read as a number is realm-core's argument error;
            // an argument of a type that cannot be compared at all is a plain type error, as
            // realm-core reports it ("Unsupported comparison between type 'binary' and type 'int'").
            if case .string = value, type.isNumeric {
                return BindError(
                    .argumentTypeMismatch,
                    "Cannot compare argument \(name) with value '\(value)' to \(withArticle(ValueCoercion.typeName(type)))",
                    at: operand.span
                )
            }
            return BindError(
                .typeMismatch,
                "Unsupported comparison between type '\(ValueCoercion.typeName(type))' and type '\(value.kind)'"
                    + " (argument \(name) is \(withArticle(value.kind.description)), not \(withArticle(ValueCoercion.typeName(type))))",
                at: operand.span
            )
        }
        return BindError(
            .typeMismatch,
            "Unsupported comparison between type '\(ValueCoercion.typeName(type))' and type '\(value.kind)'"
                + " (\(operand.quotedText) is not \(withArticle(ValueCoercion.typeName(type))))",
            at: operand.span
        )
    }

    /// "an int", "an objectId", "a uuid", "a string": a type name with its article, for messages.
    private func withArticle(_ typeName: String) -> String {
        let vowelSound = typeName.first.map { "aeioAEIO".contains($0) } ?? false
        return (vowelSound ? "an " : "a ") + typeName
    }

    /// The right (and left) side of BEGINSWITH, ENDSWITH, CONTAINS, LIKE and `[c]` / `[d]`
    /// comparisons must be strings or binaries (or mixed values, or NULL).
    private func checkStringOperands(
        _ lhs: Operand,
        _ op: ComparisonOperator,
        _ rhs: Operand,
        options: StringOptions,
        span: SourceSpan
    ) throws(BindError) {
        var spelling = op.isStringOperator ? op.rawValue.lowercased() : op.rawValue
        if options.contains(.caseInsensitive) || options.contains(.diacriticInsensitive) {
            spelling +=
                "[" + (options.contains(.caseInsensitive) ? "c" : "")
                + (options.contains(.diacriticInsensitive) ? "d" : "") + "]"
        }
        // The right side first, as realm-core reports it; no array of the two (they are large).
        try checkStringOperand(rhs, spelling: spelling)
        try checkStringOperand(lhs, spelling: spelling)
    }

    /// One side of `checkStringOperands`.
    private func checkStringOperand(_ operand: Operand, spelling: String) throws(BindError) {
        let typeName: String?
        switch operand.expression {
        case .constant(let value) where operand.isConstant:
            switch value {
            case .null, .string, .data: typeName = nil
            default: typeName = value.kind.description
            }
        case .constantList, .list:
            typeName = nil
        default:
            if let type = operand.type, type != .string, type != .data, type != .mixed {
                typeName = type.targetClassName != nil ? "link" : ValueCoercion.typeName(type)
            } else {
                typeName = nil
            }
        }
        if let typeName {
            throw BindError(
                .stringOperatorOnNonString,
                "Unsupported comparison operator '\(spelling)' against type '\(typeName)', right side must be"
                    + " a string or binary type (\(operand.quotedText))",
                at: operand.span
            )
        }
    }

    /// `mixed.@type == 'numeric'`, `@type IN {'int', 'string'}`.
    private func typeComparison(
        _ lhs: Operand,
        _ op: ComparisonOperator,
        _ rhs: Operand,
        options: StringOptions,
        span: SourceSpan
    ) throws(BindError) -> BoundComparison {
        guard op == .equal || op == .notEqual, options.isEmpty else {
            throw BindError(
                .unsupportedOperation,
                "'@type' can only be compared with == or != (without [c])",
                at: span
            )
        }
        let typeSide = lhs.source == .typeAttribute ? lhs : rhs
        var other = lhs.source == .typeAttribute ? rhs : lhs
        func name(_ value: Value, span: SourceSpan) throws(BindError) -> Value {
            guard case .string(let text) = value else {
                throw BindError(
                    .typeMismatch,
                    "Unsupported comparison between @type and raw value: '@type' and '\(value.kind)'",
                    at: span
                )
            }
            do {
                _ = try TypeAttribute(text)
            } catch {
                throw BindError(.invalidConstant, error.description, at: span)
            }
            return .string(text.lowercased())
        }
        switch other.expression {
        case _ where other.source == .typeAttribute:
            // `mixed.@type == other.@type`: a static name (`int.@type`) is already a
            // lower-case name; another mixed `@type` is compared type with type.
            break
        case .constant(let value) where other.isConstant:
            other.expression = .constant(try name(value, span: other.span))
        case .constantList(let values):
            var names: [Value] = []
            for value in values { names.append(try name(value, span: other.span)) }
            other.expression = .constantList(names)
        default:
            throw BindError(
                .typeMismatch,
                "'@type' can only be compared with type names such as 'int' or 'numeric', not with \(other.quotedText)",
                at: other.span
            )
        }
        return lhs.source == .typeAttribute
            ? BoundComparison(typeSide.bound, op, other.bound, options: options)
            : BoundComparison(other.bound, op, typeSide.bound, options: options)
    }
}
