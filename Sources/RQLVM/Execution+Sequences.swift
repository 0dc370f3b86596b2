import RQLBytecode
import RQLCore

/// `CompareSequences`: two unquantified multi-valued sides compared element by element, in
/// order, where a side is a key path through several to-many links (`dogs.owners.dogs.age ==
/// dogs.age`) or a constant list. The sequence of such a path is the values of every path, in
/// order, which can be exponentially long (`owners.dogs.owners.dogs.name`); this decides the
/// comparison as the reference evaluator does (`ReferenceEvaluator.holds`,
/// `elementwiseByLength`, `alignedElementwise`), from each side walked folding the objects met
/// again, and follows every path only where the reference does too.
extension Execution {
    /// `CompareSequences`: keeps the rows of r[P1] whose sequences of `lhs` and `rhs` compare.
    func compareSequences(
        _ instruction: Op,
        _ lhs: GroupOperand,
        _ rhs: GroupOperand,
        _ comparison: GroupComparison,
        block: TableBlock
    ) {
        let r = Int(instruction.p1)
        guard let table else {
            registers.clear(r)
            return
        }
        let start = block.positions.lowerBound
        registers.keep(r) { row in
            sequencesCompare(lhs, rhs, comparison, from: .object(table, start + Int(row)))
        }
    }

    /// One side walked folding repeated objects: its groups, their exact lengths (repeats
    /// counted by the weights), whether nothing was folded (the groups are then the sequences
    /// themselves), and whether no group was opened per owner (one sequence, every path in order).
    private struct SequenceSide {
        var groups: [[Value]]
        var lengths: [Int]
        var exact: Bool
        var sequential: Bool
    }

    private func side(_ operand: GroupOperand, from object: PathItem) -> SequenceSide {
        switch operand {
        case .path(let path, _):
            let (groups, folded, opened) = weightedGroups(of: path, from: object, folding: true)
            return SequenceSide(
                groups: groups.map { flatten($0.items, isMultiValued: path.isMultiValued) },
                lengths: groups.map { length(of: $0, isMultiValued: path.isMultiValued) },
                exact: !folded,
                sequential: !opened
            )
        case .values(let values):
            return SequenceSide(groups: [values], lengths: [values.count], exact: true, sequential: true)
        case .constant, .object, .list, .arithmetic, .valueRegister, .parameterGroups, .count, .aggregate,
            .withinRegion, .matching, .searchingText:
            // Not a sequence (the verifier refuses it): compared as its one group of values.
            let values = values(of: operand, at: object, row: 0, sequences: true)
            return SequenceSide(groups: [values], lengths: [values.count], exact: true, sequential: true)
        }
    }

    /// Whether some group of `lhs` and some group of `rhs`, as full sequences, compare element-wise.
    private func sequencesCompare(
        _ lhs: GroupOperand,
        _ rhs: GroupOperand,
        _ comparison: GroupComparison,
        from object: PathItem
    ) -> Bool {
        let op = comparison.op
        let pair = { (l: Value, r: Value) in comparison.pair(l, r) }
        let left = side(lhs, from: object)
        let right = side(rhs, from: object)
        if lhs == rhs, comparison.lhsIsType == comparison.rhsIsType, left.groups.count == 1 {
            // One sequence compared with itself, position by position: each value with itself,
            // so only which values occur matters, not their order or repeats.
            let values = left.groups[0]
            return op == .notEqual ? values.contains { pair($0, $0) } : values.allSatisfy { pair($0, $0) }
        }
        if left.exact && right.exact {
            return left.groups.contains { l in right.groups.contains { r in op.holdsElementwise(l, r, pair) } }
        }
        if let aligned = aligned(lhs, rhs, comparison, from: object) { return aligned }
        if left.groups.count == 1, right.groups.count == 1, left.lengths[0] == right.lengths[0],
            left.exact || left.sequential, right.exact || right.sequential
        {
            // Two sequences of the same length: walk both in step, stopping at the first pair
            // that decides.
            let l = sequence(lhs, left.groups[0], exact: left.exact, from: object)
            let r = sequence(rhs, right.groups[0], exact: right.exact, from: object)
            let wantAny = op == .notEqual
            while let a = l.next(), let b = r.next() {
                if pair(a, b) == wantAny { return wantAny }
            }
            return !wantAny
        }
        let someLengthsEqual = left.lengths.contains { l in right.lengths.contains(l) }
        guard someLengthsEqual else {
            // Every pair differs in length: only `!=` holds, and it holds for any pair.
            return op == .notEqual && !left.lengths.isEmpty && !right.lengths.isEmpty
        }
        // The reference evaluator follows every path here too (`context.sequences`).
        let leftGroups = groups(of: lhs, at: object, row: 0, sequences: true)
        let rightGroups = groups(of: rhs, at: object, row: 0, sequences: true)
        return leftGroups.contains { l in rightGroups.contains { r in op.holdsElementwise(l, r, pair) } }
    }

    /// `p.x op p.y` for one key path `p` to objects and two scalar properties `x`, `y`
    /// (`ReferenceEvaluator.alignedElementwise`): position i of both sequences is the same
    /// object's `x` and `y`, so the comparison holds when it holds for every object `p` reaches
    /// (`!=`: for some object), walked folding repeats. Nil for any other shape.
    private func aligned(
        _ lhs: GroupOperand,
        _ rhs: GroupOperand,
        _ comparison: GroupComparison,
        from object: PathItem
    ) -> Bool? {
        guard !comparison.lhsIsType, !comparison.rhsIsType, case .path(let left, _) = lhs,
            case .path(let right, _) = rhs, left.steps.count == right.steps.count,
            let leftLast = left.steps.last, let rightLast = right.steps.last,
            left.steps.dropLast() == right.steps.dropLast(), readsOneScalar(leftLast), readsOneScalar(rightLast)
        else { return nil }
        var prefix = left
        prefix.steps.removeLast()
        var objects = GroupMerger(folding: true)
        for item in walk(prefix, from: object, folding: true) {
            for element in elements(of: item) {
                if case .object = element { objects.add(element) }
            }
        }
        func value(_ step: PathStep, of object: PathItem) -> Value {
            flatten(apply(step, to: object), isMultiValued: false).first ?? .null
        }
        let holds = { (object: PathItem) in comparison.pair(value(leftLast, of: object), value(rightLast, of: object)) }
        return comparison.op == .notEqual ? objects.items.contains(where: holds) : objects.items.allSatisfy(holds)
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

    /// The values of one side in order: its group when exact, else every path of its key path,
    /// one value at a time.
    private func sequence(
        _ operand: GroupOperand,
        _ group: [Value],
        exact: Bool,
        from object: PathItem
    ) -> AnyIterator<Value> {
        guard !exact, case .path(let path, _) = operand else { return AnyIterator(group.makeIterator()) }
        return AnyIterator(PathValues(self, path, from: object))
    }

    /// The values of a path in order, every path followed, produced one at a time (depth first,
    /// the order of a walk without folding; `ReferenceEvaluator.PathValues`), so that a
    /// comparison can stop at the first pair that decides it.
    private struct PathValues: IteratorProtocol {
        let execution: Execution
        let path: BoundPath
        /// For each depth being walked, the things reached there and the next one to visit.
        var stack: [(items: [PathItem], next: Int)]
        /// Values of the last thing reached, not yet handed out.
        var pending: [Value] = []

        init(_ execution: Execution, _ path: BoundPath, from object: PathItem) {
            self.execution = execution
            self.path = path
            stack = [([object], 0)]
        }

        mutating func next() -> Value? {
            while true {
                if !pending.isEmpty { return pending.removeFirst() }
                guard let top = stack.last else { return nil }
                guard top.next < top.items.count else {
                    stack.removeLast()
                    continue
                }
                let item = top.items[top.next]
                stack[stack.count - 1].next += 1
                let depth = stack.count - 1
                guard depth < path.steps.count else {
                    pending = execution.flatten([item], isMultiValued: path.isMultiValued)
                    continue
                }
                let step = path.steps[depth]
                let children: [PathItem]
                if Execution.isObjectStep(step) {
                    children = execution.elements(of: item).flatMap { execution.apply(step, to: $0) }
                } else {
                    children = execution.apply(step, to: item)
                }
                stack.append((children, 0))
            }
        }
    }
}
