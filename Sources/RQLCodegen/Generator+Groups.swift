import RQLBytecode
import RQLCore
import RQLIR

/// Comparisons no narrower instruction covers, where both sides can be many values: two
/// multi-valued paths (`items.price != items.price`, `ALL items.price IN ANY items.price`),
/// arithmetic over a to-many path or a constant list (`items.price * 2 > items.price`, `ALL {8,
/// 10} / 2 >= ANY items.price`), `obj(…)` against a dictionary's `@values`, `[*]` over mixed
/// values (`value[*][*] = dict[*][*]`), a collection after a subscripted link list
/// (`link[0].list = {4, 5, 6}`). Each side becomes a `LoadGroups` (its values per row, in the
/// groups the reference evaluator quantifies separately), and one `CompareGroups` applies the
/// reference's rule: element by element when both sides are unquantified and multi-valued,
/// membership for `==` against a list under ANY, otherwise the quantifiers nested.
extension Generator {
    /// Two `LoadGroups` operands and how they compare.
    struct GroupCompared {
        /// The operands; `.valueRegister(i)` in them stands for `loads[i]` until emitted.
        var lhs: GroupOperand
        var rhs: GroupOperand
        var comparison: GroupComparison
        /// Whether every path is followed separately, in order (element-wise comparisons).
        var sequences: Bool
        /// Whether `CompareSequences` compares the two sides (key paths and constant lists, one
        /// through several to-many links), deciding from folded walks where it can.
        var walksSequences = false
        /// Single values loaded by the existing instructions before the groups (`@count`,
        /// aggregates, `@links.@count` of a single-valued side, a SUBQUERY count).
        var loads: [ValueExpression] = []
    }

    /// The register form of a comparison through `LoadGroups` and `CompareGroups`, or nil when
    /// a side is something else (a path from a SUBQUERY element, a SUBQUERY count the walking
    /// `CountSubquery` cannot load, a load that may drop a row). A SUBQUERY count and
    /// `@links.@count` are one value a row, loaded first (`SUBQUERY(…).@count IN {1, 2}`).
    func groupCompared(for comparison: BoundComparison) -> GroupCompared? {
        var loads: [ValueExpression] = []
        guard let (lhs, lhsIsType) = groupOperand(comparison.lhs, &loads),
            let (rhs, rhsIsType) = groupOperand(comparison.rhs, &loads)
        else { return nil }
        let elementwise =
            comparison.lhs.isMultiValued && comparison.rhs.isMultiValued && comparison.lhs.quantifier == nil
            && comparison.rhs.quantifier == nil
        if elementwise {
            let form = GroupComparison(
                comparison.op,
                options: comparison.options,
                form: .elementwise,
                lhsIsType: lhsIsType,
                rhsIsType: rhsIsType
            )
            if lhs.isSequence, rhs.isSequence, loads.isEmpty,
                max(toManyHops(comparison.lhs.expression), toManyHops(comparison.rhs.expression)) > 1
            {
                // Sequences of every path, which `CompareSequences` decides without following
                // every path where the reference evaluator does (`elementwiseByLength`).
                var compared = GroupCompared(lhs: lhs, rhs: rhs, comparison: form, sequences: true)
                compared.walksSequences = true
                return compared
            }
            // Every path is followed in order (`LoadGroups` with `sequences`), as the reference
            // evaluator follows them for these sides (`ReferenceEvaluator.holds`,
            // `context.sequences`: its shortcuts take key paths and constant lists only, which
            // `CompareSequences` takes): `dogs.owners.dogs.toys.price * 2 == dogs.toys.price`
            // costs the fan-out to the power of the to-many hops there too.
            return GroupCompared(lhs: lhs, rhs: rhs, comparison: form, sequences: true, loads: loads)
        }
        let form: GroupComparison.Form =
            membership(comparison, typed: lhsIsType || rhsIsType)
            ?? .quantified(lhs: comparison.lhs.quantifier ?? .any, rhs: comparison.rhs.quantifier ?? .any)
        let compared = GroupComparison(
            comparison.op,
            options: comparison.options,
            form: form,
            lhsIsType: lhsIsType,
            rhsIsType: rhsIsType
        )
        return GroupCompared(lhs: lhs, rhs: rhs, comparison: compared, sequences: false, loads: loads)
    }

    mutating func emit(_ compared: GroupCompared, into register: Int32, comment: String) {
        if compared.walksSequences {
            builder.emit(
                .compareSequences,
                p1: register,
                p4: builder.constant(.sequenceComparison(lhs: compared.lhs, rhs: compared.rhs, compared.comparison)),
                comment: comment
            )
            return
        }
        var compared = compared
        if !compared.loads.isEmpty {
            let registers = compared.loads.map { Int(emitValue($0, into: register)) }
            compared.lhs = compared.lhs.replacingRegisters(registers)
            compared.rhs = compared.rhs.replacingRegisters(registers)
        }
        let lhs = builder.makeValueRegister()
        builder.emit(
            .loadGroups,
            p1: register,
            p3: lhs,
            p4: builder.constant(.groupOperand(compared.lhs, sequences: compared.sequences))
        )
        let rhs = builder.makeValueRegister()
        builder.emit(
            .loadGroups,
            p1: register,
            p3: rhs,
            p4: builder.constant(.groupOperand(compared.rhs, sequences: compared.sequences))
        )
        builder.emit(
            .compareGroups,
            p1: register,
            p2: lhs,
            p4: builder.constant(.groupComparison(compared.comparison)),
            p5: UInt16(clamping: rhs),
            comment: comment
        )
    }

    /// `x IN {…}`, `x == ANY {…}`, `ANY {…} == path`: `==` without options against a constant
    /// list or list literal under ANY, the other side not `@type` (the reference evaluator's
    /// `membership`, which tests `EqualityKey`s: NaN is never a member).
    private func membership(_ comparison: BoundComparison, typed: Bool) -> GroupComparison.Form? {
        guard comparison.op == .equal, comparison.options.isEmpty, !typed else { return nil }
        func isList(_ operand: BoundOperand) -> Bool {
            switch operand.expression {
            case .constantList, .list: true
            default: false
            }
        }
        let (list, other): (BoundOperand, BoundOperand)
        let listOnRight: Bool
        if isList(comparison.rhs) {
            (list, other, listOnRight) = (comparison.rhs, comparison.lhs, true)
        } else if isList(comparison.lhs), comparison.rhs.quantifier ?? .any == .any {
            (list, other, listOnRight) = (comparison.lhs, comparison.rhs, false)
        } else {
            return nil
        }
        guard list.quantifier ?? .any == .any else { return nil }
        return .membership(other.quantifier ?? .any, listOnRight: listOnRight)
    }

    /// The `LoadGroups` form of one side and whether it is `@type` of its values, or nil. A
    /// single-valued side may hold counts and aggregates, loaded into value registers first.
    func groupOperand(_ operand: BoundOperand, _ loads: inout [ValueExpression]) -> (GroupOperand, Bool)? {
        if case .type(let path) = operand.expression {
            guard path.root == .object else { return nil }
            return (.path(path, grouped: operand.isMultiValued), true)
        }
        guard let expression = groupOperand(operand.expression, &loads, loading: !operand.isMultiValued) else {
            return nil
        }
        if case .path(let path, _) = expression { return (.path(path, grouped: operand.isMultiValued), false) }
        return (expression, false)
    }

    private func groupOperand(
        _ expression: BoundExpression,
        _ loads: inout [ValueExpression],
        loading: Bool
    ) -> GroupOperand? {
        switch expression {
        case .constant(let value):
            return .constant(value)
        case .constantList(let values):
            return .values(values)
        case .list(let elements):
            var operands: [GroupOperand] = []
            for element in elements {
                guard let operand = groupOperand(element, &loads, loading: loading) else { return nil }
                operands.append(operand)
            }
            return .list(operands)
        case .path(let path):
            if let n = Self.parameterIndex(path), Self.groupsParameterIndex(path) == nil {
                // A correlated SUBQUERY's parameter of one value (`Generator+SubqueryParameters.swift`).
                loads.append(.parameter(n))
                return .valueRegister(loads.count - 1)
            }
            guard path.root == .object else { return nil }
            return .path(path, grouped: false)
        case .arithmetic(let op, let lhs, let rhs):
            guard let l = arithmeticSide(lhs, &loads, loading: loading),
                let r = arithmeticSide(rhs, &loads, loading: loading)
            else { return nil }
            return .arithmetic(op, l, r)
        case .object(let className, let primaryKey):
            return .object(className: className, primaryKey: primaryKey)
        case .count(let path):
            // A single-valued side's count is loaded by the narrower instructions when they can
            // (`name.@size` of one string is a `ValueSize`, not a count of elements); otherwise,
            // and on a multi-valued side, it is counted per row as the reference counts: links
            // along every path, by the weights of a folding walk (so `dogs.toys.@count` inside
            // arithmetic over `dogs.age` costs what its objects cost), each collection or
            // value's size (`m.x.@size` of a mixed value).
            if loading, !(linkPath(path).map { $0.2.collection == .single } ?? false),
                let operand = loaded(expression, &loads, loading: loading)
            {
                return operand
            }
            guard path.root == .object else { return nil }
            return .count(path)
        case .aggregate(let function, let path):
            if loading, let operand = loaded(expression, &loads, loading: loading) { return operand }
            guard path.root == .object else { return nil }
            return .aggregate(function, path)
        case .backlinkCount:
            // One total per row even over a multi-valued path (`dogs.@links.@count`).
            return loaded(expression, &loads, loading: true)
        case .subqueryCount(let path, let predicate):
            // One count per row however many elements the path reaches (the walking
            // `CountSubquery`, which gives a value for every row).
            guard let subquery = walkedSubquery(path, predicate) else { return nil }
            loads.append(.subquery(subquery))
            return .valueRegister(loads.count - 1)
        case .type:
            return nil
        }
    }

    /// One side of arithmetic: groups passed in as a correlated SUBQUERY's parameter stand for
    /// all their values (`$t.price + $d.scores`, `Generator+SubqueryParameters.swift`).
    private func arithmeticSide(
        _ expression: BoundExpression,
        _ loads: inout [ValueExpression],
        loading: Bool
    ) -> GroupOperand? {
        if case .path(let path) = expression, let n = Self.groupsParameterIndex(path) {
            loads.append(.parameter(n))
            return .parameterGroups(loads.count - 1)
        }
        return groupOperand(expression, &loads, loading: loading)
    }

    /// A count or aggregate of a single-valued side, loaded as `compared(for:)` loads it: only
    /// loads that always give a value (a row dropped for want of one would change what ALL and
    /// NONE see).
    private func loaded(
        _ expression: BoundExpression,
        _ loads: inout [ValueExpression],
        loading: Bool
    ) -> GroupOperand? {
        guard loading,
            let gathered = gathered(
                BoundOperand(expression, isMultiValued: false),
                .equal,
                .null,
                [],
                quantified: false
            ),
            gathered.links.allSatisfy({ $0.selector == nil })
        else { return nil }
        switch gathered.load {
        case .count, .aggregate, .backlinks, .walk: break
        case .column, .element, .matching, .walkAgainst: return nil
        }
        loads.append(.load(gathered))
        return .valueRegister(loads.count - 1)
    }

    /// The most to-many links or backlinks one path in `expression` crosses (`Int.max` for a
    /// step the schema does not know).
    private func toManyHops(_ expression: BoundExpression) -> Int {
        switch expression {
        case .constant, .constantList, .object:
            return 0
        case .subqueryCount, .backlinkCount:
            // Loaded into a value register first: one value a row.
            return 0
        case .list(let elements):
            return elements.map(toManyHops).max() ?? 0
        case .arithmetic(_, let lhs, let rhs):
            return max(toManyHops(lhs), toManyHops(rhs))
        case .path(let path), .type(let path), .count(let path), .aggregate(_, let path):
            var toMany = 0
            for (i, step) in path.steps.enumerated() {
                switch step {
                case .backlinks:
                    toMany += 1
                case .property(let className, let index, _):
                    guard let properties = schema[className]?.properties, index >= 0, index < properties.count else {
                        return Int.max
                    }
                    let property = properties[index]
                    // A subscript right after a link list picks one link (`link[0].list`).
                    var subscripted = false
                    if i + 1 < path.steps.count {
                        switch path.steps[i + 1] {
                        case .index, .first, .last, .key: subscripted = true
                        case .property, .backlinks, .all, .keys, .values: break
                        }
                    }
                    if property.isBacklink || (property.isLink && property.isToMany && !subscripted) { toMany += 1 }
                case .index, .first, .last, .all, .key, .keys, .values:
                    continue
                }
            }
            return toMany
        }
    }
}

extension GroupOperand {
    /// The operand with each `.valueRegister(i)` placeholder replaced by `registers[i]`.
    func replacingRegisters(_ registers: [Int]) -> GroupOperand {
        switch self {
        case .constant, .values, .object, .path, .count, .aggregate, .withinRegion, .searchingText: self
        case .list(let elements): .list(elements.map { $0.replacingRegisters(registers) })
        case .arithmetic(let op, let lhs, let rhs):
            .arithmetic(op, lhs.replacingRegisters(registers), rhs.replacingRegisters(registers))
        case .valueRegister(let i): .valueRegister(registers[i])
        case .parameterGroups(let i): .parameterGroups(registers[i])
        case .matching(let operand, let pattern): .matching(operand.replacingRegisters(registers), pattern)
        }
    }
}
