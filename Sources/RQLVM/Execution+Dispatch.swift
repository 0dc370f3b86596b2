import RQLBytecode
import RQLCore

extension Execution {
    /// Executes the instruction at `pc`. `block` is the current batch's block inside the batch
    /// loop, nil outside it. The switch is exhaustive, with no `default`: a new opcode does not
    /// compile until the VM handles it. An instruction that cannot run where it is (outside the
    /// loop, or with the wrong constant) is a `Fault`, never an early, quiet end.
    func step(_ pc: Int, block: TableBlock?) -> Signal {
        let instruction = ops[pc]
        let r = Int(instruction.p1)
        switch instruction.opcode {
        case .halt:
            return .halt
        case .goto:
            return .jump(Int(instruction.p2))
        case .explain:
            return .next
        case .openTable:
            guard case .text(let name)? = constant(instruction.p4) else { return .fault(.wrongConstant) }
            table = store.table(named: name)
            // A store without the class has no rows of it: the empty answer is the answer.
            return table == nil ? .halt : .next
        case .scanTable, .scanNothing, .seekPrimaryKey, .seekIndexEqual, .seekIndexRange:
            guard let table else { return .fault(.noTable) }
            candidates = candidates(for: instruction, table: table)
            return .next
        case .nextBatch:
            guard block == nil else { return .fault(.insideBatchLoop) }
            return .batchLoop(register: r, exit: Int(instruction.p2))
        case .filterInt, .filterDouble, .filterFloat, .filterBool, .filterDate, .filterString, .filterNull,
            .filterIntIn, .filterStringIn:
            guard let block else { return .fault(.outsideBatchLoop) }
            if countFeedingEmit(pc, block: block) { return .next }
            filter(instruction, prepared[pc], block: block)
            return .next
        case .gatherLink:
            guard let block else { return .fault(.outsideBatchLoop) }
            gatherLink(instruction, block: block)
            return .next
        case .loadColumn:
            guard let block else { return .fault(.outsideBatchLoop) }
            loadColumn(instruction, block: block)
            return .next
        case .countElements:
            guard let block else { return .fault(.outsideBatchLoop) }
            reduceElements(instruction, .count, block: block)
            return .next
        case .countMatching:
            guard let block, case .elementTest(let test)? = constant(instruction.p4) else { return refusal(block) }
            reduceElements(instruction, .matching(test), targetColumn: test.targetColumn, block: block)
            return .next
        case .aggregateElements:
            guard let block, case .aggregate(let function, let overMixed, let targetColumn)? = constant(instruction.p4)
            else { return refusal(block) }
            reduceElements(
                instruction,
                .aggregate(function, overMixed: overMixed),
                targetColumn: targetColumn,
                block: block
            )
            return .next
        case .filterValue:
            guard block != nil else { return .fault(.outsideBatchLoop) }
            filterValue(instruction)
            return .next
        case .filterValueIn:
            guard block != nil else { return .fault(.outsideBatchLoop) }
            filterValueIn(instruction)
            return .next
        case .loadConstant:
            guard block != nil else { return .fault(.outsideBatchLoop) }
            loadConstant(instruction)
            return .next
        case .arithmetic:
            guard block != nil else { return .fault(.outsideBatchLoop) }
            arithmetic(instruction)
            return .next
        case .compareValues:
            guard block != nil else { return .fault(.outsideBatchLoop) }
            compareValues(instruction)
            return .next
        case .filterType:
            guard block != nil else { return .fault(.outsideBatchLoop) }
            filterType(instruction)
            return .next
        case .valueSize:
            guard block != nil else { return .fault(.outsideBatchLoop) }
            valueSize(instruction)
            return .next
        case .countBacklinks:
            guard let block else { return .fault(.outsideBatchLoop) }
            countBacklinks(instruction, block: block)
            return .next
        case .selectCopy:
            registers.copy(r, to: Int(instruction.p2))
            return .next
        case .selectUnion:
            registers.union(r, base: Int(instruction.p2), into: Int(instruction.p3))
            return .next
        case .selectExcept:
            registers.except(r, base: Int(instruction.p2), into: Int(instruction.p3))
            return .next
        case .selectClear:
            registers.clear(r)
            return .next
        case .emit:
            guard let block else { return .fault(.outsideBatchLoop) }
            let count = registers.counts[r]
            switch mode {
            case .count:
                matchCount += count
                return .next
            case .rows:
                let rows = registers.ready(r)
                if !fusedTopDecided { decideFusedTop() }
                if fusedTop != nil && offerToFusedTop(rows, count, block: block) { return .next }
                let limited = instruction.p5 == 1
                let room = limited ? max(0, Int(instruction.p3) - resultCount) : count
                let taken = min(count, room)
                appendRows(rows, taken, block: block)
                if limited && resultCount >= Int(instruction.p3) { return .jump(Int(instruction.p2)) }
                return .next
            }
        case .sort:
            guard mode == .rows, case .sortKeys(let sortKeys)? = constant(instruction.p4) else {
                return mode == .rows ? .fault(.wrongConstant) : .next
            }
            reorder(sorted(result, by: sortKeys))
            return .next
        case .topN:
            guard mode == .rows, case .sortKeys(let sortKeys)? = constant(instruction.p4) else {
                return mode == .rows ? .fault(.wrongConstant) : .next
            }
            if takeFusedTop() { return .next }
            reorder(top(Int(instruction.p1), of: result, by: sortKeys))
            return .next
        case .distinct:
            guard mode == .rows, case .paths(let paths)? = constant(instruction.p4) else {
                return mode == .rows ? .fault(.wrongConstant) : .next
            }
            reorder(distinct(result, by: paths))
            return .next
        case .limit:
            if mode == .rows { keepFirst(max(0, Int(instruction.p1))) }
            return .next
        case .loadElement:
            guard let block, case .element(let selectors)? = constant(instruction.p4) else { return refusal(block) }
            loadElement(instruction, selectors, block: block)
            return .next
        case .reducePath:
            guard let block, case .pathWalk(let walk)? = constant(instruction.p4) else { return refusal(block) }
            reducePath(instruction, walk, block: block)
            return .next
        case .gatherElement:
            guard let block, case .element(let selectors)? = constant(instruction.p4), selectors.count == 1 else {
                return refusal(block)
            }
            gatherElement(instruction, selectors[0], block: block)
            return .next
        case .filterValueList:
            guard block != nil,
                case .quantifiedList(let quantifier, let list, let valueFirst)? = constant(instruction.p4)
            else { return refusal(block) }
            filterValueList(instruction, quantifier, list, valueFirst: valueFirst)
            return .next
        case .reducePathAgainst:
            guard let block, case .pathWalk(let walk)? = constant(instruction.p4) else { return refusal(block) }
            reducePath(instruction, walk, against: gathers.values(Int(instruction.p2)), block: block)
            return .next
        case .filterText:
            guard let block else { return .fault(.outsideBatchLoop) }
            filterText(instruction, at: pc, block: block)
            return .next
        case .filterGeoWithin:
            guard let block else { return .fault(.outsideBatchLoop) }
            filterGeoWithin(instruction, block: block)
            return .next
        case .filterMatches:
            guard block != nil else { return .fault(.outsideBatchLoop) }
            filterMatches(instruction)
            return .next
        case .countSubquery:
            guard let block else { return .fault(.outsideBatchLoop) }
            switch constant(instruction.p4) {
            case .program?, .subquery?: break
            default: return .fault(.wrongConstant)
            }
            countSubquery(instruction, at: pc, block: block)
            return searchState.subqueries[pc]?.execution.failure == nil ? .next : .fault(.subprogram)
        case .loadGroups:
            guard let block, case .groupOperand(let operand, let sequences)? = constant(instruction.p4) else {
                return refusal(block)
            }
            loadGroups(instruction, operand, sequences: sequences, block: block)
            return .next
        case .compareGroups:
            guard block != nil, case .groupComparison(let comparison)? = constant(instruction.p4) else {
                return refusal(block)
            }
            compareGroups(instruction, comparison)
            return .next
        case .loadParameter:
            guard block != nil else { return .fault(.outsideBatchLoop) }
            loadParameter(instruction)
            return .next
        case .loadObjectLink:
            guard let block else { return .fault(.outsideBatchLoop) }
            loadObjectLink(instruction, block: block)
            return .next
        case .compareSequences:
            guard let block, case .sequenceComparison(let lhs, let rhs, let comparison)? = constant(instruction.p4)
            else { return refusal(block) }
            compareSequences(instruction, lhs, rhs, comparison, block: block)
            return .next
        }
    }

    /// The fault of an instruction whose guard on the batch and its constant failed.
    private func refusal(_ block: TableBlock?) -> Signal {
        .fault(block == nil ? .outsideBatchLoop : .wrongConstant)
    }

    /// The typed filters: pick the column view, then one kernel call for the whole selection.
    private func filter(_ instruction: Op, _ operand: PreparedOperand, block: TableBlock) {
        let r = Int(instruction.p1)
        let column = Int(instruction.p2)
        let op = ComparisonOperator(code: instruction.p3) ?? .equal
        let rows = registers.rows(r)
        let count = registers.counts[r]
        let dense = registers.dense[r]
        var kept = 0
        if column >= 0 && column < block.columns.count {
            assert(openColumns.contains(column), "column \(column) read but not opened (ColumnsRead)")
            switch (instruction.opcode, block.columns[column], operand) {
            case (.filterInt, .int(let view), .int(let k)):
                kept = Kernels.filter(view, op, k, rows, count, dense: dense)
            case (.filterDouble, .double(let view), .double(let k)):
                kept = Kernels.filter(view, op, k, rows, count, dense: dense)
            case (.filterFloat, .float(let view), .float(let k)):
                kept = Kernels.filter(view, op, k, rows, count, dense: dense)
            case (.filterBool, .bool(let view), .bool(let k)):
                kept = Kernels.filterBool(view, op, k, rows, count, dense: dense)
            case (.filterDate, .date(let view), .date(let k)):
                kept = Kernels.filter(view, op, k, rows, count, dense: dense)
            case (.filterString, .string(let view), .matcher(let matcher)):
                kept = Kernels.filterString(view, op, matcher, rows, count, dense: dense)
            case (.filterIntIn, .int(let view), .intSet(let set)):
                kept = Kernels.filterIntIn(view, set, nullMatches: instruction.p5 == 1, rows, count, dense: dense)
            case (.filterStringIn, .string(let view), .stringSet(let set)):
                kept = Kernels.filterStringIn(view, set, nullMatches: instruction.p5 == 1, rows, count, dense: dense)
            case (.filterNull, let view, _):
                kept = Kernels.filterNull(Self.nulls(of: view), wantNull: op != .notEqual, rows, count, dense: dense)
            default:
                kept = 0  // a column of another type than the program was compiled for: no match
            }
        }
        registers.counts[r] = kept
        // A dense kernel wrote its survivors' offsets; a sparse one kept the written ones.
        registers.pending[r] = false
        if kept != count || !dense { registers.dense[r] = false } else { registers.dense[r] = true }
    }

    /// The null mask of a scalar column (collections and links have none here).
    static func nulls(of view: ColumnView) -> NullMask {
        switch view {
        case .bool(let v): v.nulls
        case .int(let v): v.nulls
        case .float(let v): v.nulls
        case .double(let v): v.nulls
        case .decimal(let v): v.nulls
        case .date(let v): v.nulls
        case .objectId(let v): v.nulls
        case .uuid(let v): v.nulls
        case .string(let v): v.nulls
        case .data(let v): v.nulls
        case .mixed, .link, .collection: NullMask(words: UnsafeBufferPointer(start: nil, count: 0))
        }
    }
}
