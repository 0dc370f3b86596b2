import RQLCore

/// Comparisons under realm-core's quantifier rules (`ValueBase::compare`): each side becomes a
/// sequence of values; a multi-valued side is quantified (ANY unless written otherwise); two
/// unquantified multi-valued sides compare element-wise in order. A path through a to-many link
/// to a collection is quantified per owner of that collection, as realm-core evaluates it
/// (`ALL list.integers == 1` holds when some linked object's integers are all 1). Each pair of values is
/// decided by `ValueComparison`, except `@type`, which matches type names (`TypeAttribute`).
extension ReferenceEvaluator {
    func holds(_ comparison: BoundComparison, in context: Context) -> Bool {
        // IN, TEXT and MATCHES never reach a bound comparison; broken IR (which `IRVerifier`
        // reports) holds for nothing.
        guard !comparison.op.isLowered else { return false }
        let lhsIsType = isTypeOf(comparison.lhs.expression)
        let rhsIsType = isTypeOf(comparison.rhs.expression)
        let pair = { (l: Value, r: Value) -> Bool in
            Self.compare(l, lhsIsType: lhsIsType, comparison.op, r, rhsIsType: rhsIsType, options: comparison.options)
        }

        if comparison.lhs.isMultiValued && comparison.rhs.isMultiValued && comparison.lhs.quantifier == nil
            && comparison.rhs.quantifier == nil
        {
            if let decided = elementwiseByLength(comparison, in: context, pair) { return decided }
            // Order and repeats matter here: follow every path (see `walk(_:in:)`).
            var sequences = context
            sequences.sequences = true
            let lhsGroups = groups(of: comparison.lhs, in: sequences)
            let rhsGroups = groups(of: comparison.rhs, in: sequences)
            return lhsGroups.contains { lhs in
                rhsGroups.contains { rhs in comparison.op.holdsElementwise(lhs, rhs, pair) }
            }
        }
        if let member = membership(comparison, in: context) { return member }
        // Quantifiers see sets: repeated objects are folded, values stay as they are.
        let lhsGroups = groups(of: comparison.lhs, in: context)
        let rhsGroups = groups(of: comparison.rhs, in: context)
        // A single-valued operand is "ANY" over its one value; when it has none (an index out of
        // range) the comparison is false whatever the operator, as in realm-core.
        let lhsQuantifier = comparison.lhs.quantifier ?? .any
        let rhsQuantifier = comparison.rhs.quantifier ?? .any
        return lhsGroups.contains { lhs in
            rhsGroups.contains { rhs in
                lhsQuantifier.holds(over: lhs) { l in
                    rhsQuantifier.holds(over: rhs) { r in pair(l, r) }
                }
            }
        }
    }

    /// `x IN {…}` / `x == ANY {…}` / `ANY path IN $0`: one side is a constant list under ANY, the
    /// operator is a plain `==`. Whether a value is in the list is then a hash lookup of its
    /// `EqualityKey` (Realm equality, NaN never equal) in a set built once per list, instead of
    /// a comparison with every element. Nil when the comparison has another shape.
    private func membership(_ comparison: BoundComparison, in context: Context) -> Bool? {
        guard comparison.op == .equal, comparison.options.isEmpty else { return nil }
        // `Q l ∈ L : ∃ r ∈ list : l == r` is `Q l ∈ L : l ∈ list`; with the list on the left
        // the quantifiers nest the other way, which is membership only when both are ANY.
        func isList(_ operand: BoundOperand) -> Bool {
            switch operand.expression {
            case .constantList, .list: true
            default: false
            }
        }
        let (list, other): (BoundOperand, BoundOperand)
        if isList(comparison.rhs) {
            (list, other) = (comparison.rhs, comparison.lhs)
        } else if isList(comparison.lhs), comparison.rhs.quantifier ?? .any == .any {
            (list, other) = (comparison.lhs, comparison.rhs)
        } else {
            return nil
        }
        guard list.quantifier ?? .any == .any, !isTypeOf(other.expression) else { return nil }
        let set: Set<EqualityKey>
        switch list.expression {
        case .constantList(let elements):
            set = context.memberships.set(of: elements)
        case .list(let elements):
            // `obj(…)` look-ups do not depend on the object either: one set per run.
            set = context.memberships.set(of: elements) { elements.flatMap { values(of: $0, in: context) } }
        default:
            return nil
        }
        let quantifier = other.quantifier ?? .any
        return groups(of: other, in: context).contains { group in
            quantifier.holds(over: group) { value in
                !NumericComparison.isNaN(value) && set.contains(EqualityKey(value))
            }
        }
    }

    /// An element-wise comparison decided without following every path: each side's groups
    /// are walked folding repeated objects, which keeps their exact lengths (repeats counted).
    /// When nothing was folded the folded groups are the sequences themselves; otherwise a pair
    /// of groups of different lengths is decided by the lengths alone (`!=` holds, everything
    /// else fails). Nil when some pair needs the full sequences, or a side is not a key path or a
    /// constant list: then every path is followed, in order.
    ///
    /// This keeps `owners.dogs.owners.dogs….name IN {'Rex'}` (a sequence compared with a
    /// one-element list) linear, where following every path would be exponential.
    private func elementwiseByLength(
        _ comparison: BoundComparison,
        in context: Context,
        _ pair: (Value, Value) -> Bool
    ) -> Bool? {
        /// `sequential`: the values of the one group are those of every path in order (no group
        /// was opened per owner), so they can be walked one at a time.
        typealias Side = (groups: [[Value]], lengths: [Int], exact: Bool, sequential: Bool)
        func side(_ operand: BoundOperand) -> Side? {
            switch operand.expression {
            case .path(let path), .type(let path):
                let (weighted, folded, opened) = weightedGroups(of: path, in: context)
                let groups = weighted.map { flatten($0.map(\.item), isMultiValued: path.isMultiValued) }
                let lengths = weighted.map { length(of: $0, isMultiValued: path.isMultiValued) }
                return (groups, lengths, !folded, !opened)
            case .constantList(let values):
                return ([values], [values.count], true, true)
            case .constant, .list, .count, .aggregate, .subqueryCount, .arithmetic, .object, .backlinkCount:
                return nil
            }
        }
        guard let lhs = side(comparison.lhs), let rhs = side(comparison.rhs) else { return nil }
        if comparison.lhs.expression == comparison.rhs.expression, lhs.groups.count == 1 {
            // One sequence compared with itself, position by position: each value with itself,
            // so only which values occur matters, not their order or repeats.
            let values = lhs.groups[0]
            return comparison.op == .notEqual ? values.contains { pair($0, $0) } : values.allSatisfy { pair($0, $0) }
        }
        if lhs.exact && rhs.exact {
            return lhs.groups.contains { l in rhs.groups.contains { r in comparison.op.holdsElementwise(l, r, pair) } }
        }
        if let aligned = alignedElementwise(comparison, in: context, pair) { return aligned }
        if lhs.groups.count == 1, rhs.groups.count == 1, lhs.lengths[0] == rhs.lengths[0],
            lhs.exact || lhs.sequential, rhs.exact || rhs.sequential
        {
            // Two sequences of the same length: walk both in step, stopping at the first pair
            // that decides.
            let left = values(comparison.lhs, lhs.groups[0], exact: lhs.exact, in: context)
            let right = values(comparison.rhs, rhs.groups[0], exact: rhs.exact, in: context)
            let wantAny = comparison.op == .notEqual
            while let l = left.next(), let r = right.next() {
                if pair(l, r) == wantAny { return wantAny }
            }
            return !wantAny
        }
        for l in lhs.lengths {
            for r in rhs.lengths where l == r { return nil }
        }
        // Every pair differs in length: only `!=` holds, and it holds for any pair.
        return comparison.op == .notEqual && !lhs.lengths.isEmpty && !rhs.lengths.isEmpty
    }

    /// `p.x op p.y` for one key path `p` to objects and two scalar properties `x`, `y`: both
    /// sequences have one value per path to an object of `p`, in the same order, so position i
    /// pairs `o.x` with `o.y` for the same object `o`, and the comparison holds when it holds
    /// for every object `p` reaches (`!=`: for some object). Repeats and order do not matter
    /// then, so `p` is walked folding repeated objects. Nil for any other shape.
    private func alignedElementwise(
        _ comparison: BoundComparison,
        in context: Context,
        _ pair: (Value, Value) -> Bool
    ) -> Bool? {
        guard case .path(let left) = comparison.lhs.expression, case .path(let right) = comparison.rhs.expression,
            left.root == right.root, left.steps.count == right.steps.count,
            let leftLast = left.steps.last, let rightLast = right.steps.last,
            left.steps.dropLast() == right.steps.dropLast(),
            readsOneScalar(leftLast), readsOneScalar(rightLast)
        else { return nil }
        var prefix = left
        prefix.steps.removeLast()
        prefix.isMultiValued = true
        prefix.valueType = .mixed
        let objects = self.objects(of: prefix, in: context).map(\.object)
        func value(_ step: PathStep, of object: ObjectRef) -> Value {
            flatten(apply(step, to: .object(object)), isMultiValued: false).first ?? .null
        }
        let holds = { (object: ObjectRef) in pair(value(leftLast, of: object), value(rightLast, of: object)) }
        return comparison.op == .notEqual ? objects.contains(where: holds) : objects.allSatisfy(holds)
    }

    /// Whether a step reads exactly one value of an object: a property that is neither a
    /// collection nor a link.
    private func readsOneScalar(_ step: PathStep) -> Bool {
        guard case .property(let className, let column, _) = step,
            let properties = store.schema[className]?.properties, column >= 0, column < properties.count
        else { return false }
        let property = properties[column]
        return !property.isToMany && !property.isLink && !property.isBacklink
    }

    /// The values of one side of an element-wise comparison in order: its group when exact,
    /// else every path of its key path, one value at a time.
    private func values(
        _ operand: BoundOperand,
        _ group: [Value],
        exact: Bool,
        in context: Context
    ) -> AnyIterator<Value> {
        switch operand.expression {
        case .path(let path) where !exact, .type(let path) where !exact:
            return AnyIterator(PathValues(self, path, in: context))
        default:
            return AnyIterator(group.makeIterator())
        }
    }

    /// The values of an operand, in the groups the quantifier applies to: a multi-valued path
    /// (also under `@type`) yields one group per owner of its last collection (see
    /// `groups(of:in:)`), and the comparison holds when it holds for some pair of groups; every
    /// other operand is one group.
    func groups(of operand: BoundOperand, in context: Context) -> [[Value]] {
        guard operand.isMultiValued else { return [values(of: operand.expression, in: context)] }
        switch operand.expression {
        case .path(let path), .type(let path):
            return groups(of: path, in: context)
        case .constant, .constantList, .list, .count, .aggregate, .subqueryCount, .arithmetic, .object, .backlinkCount:
            return [values(of: operand.expression, in: context)]
        }
    }

    /// One pair of values. A side marked `@type` holds the value whose type is asked about; the
    /// other side holds type names (`'int'`, `'numeric'`, case-insensitive). Only `==` and `!=`
    /// apply to types; an unknown name matches nothing.
    static func compare(
        _ lhs: Value,
        lhsIsType: Bool,
        _ op: ComparisonOperator,
        _ rhs: Value,
        rhsIsType: Bool,
        options: StringOptions
    ) -> Bool {
        guard lhsIsType || rhsIsType else { return ValueComparison.evaluate(lhs, op, rhs, options: options) }
        let same: Bool
        switch (lhsIsType, rhsIsType) {
        case (true, true):
            same = TypeAttribute.sameType(lhs, rhs)
        case (true, false):
            same = typeMatches(lhs, name: rhs)
        case (false, _):
            same = typeMatches(rhs, name: lhs)
        }
        switch op {
        case .equal: return same
        case .notEqual: return !same
        default: return false
        }
    }

    private static func typeMatches(_ value: Value, name: Value) -> Bool {
        guard case .string(let text) = name, let attribute = try? TypeAttribute(text) else { return false }
        return attribute.matches(value)
    }

    private func isTypeOf(_ expression: BoundExpression) -> Bool {
        switch expression {
        case .type: true
        case .constant, .constantList, .list, .path, .count, .aggregate, .subqueryCount, .arithmetic, .object,
            .backlinkCount:
            false
        }
    }
}
