/// The instructions of the RQL virtual machine. Everything else about an opcode (its operands,
/// synopsis, documentation, EXPLAIN name) is in the one table, `OpcodeInfo.table`, in this order.
///
/// A program scans one class's table batch by batch (a batch is one storage block, at most
/// 4,096 rows). Selection registers `r0`, `r1`, … hold the in-block row offsets still alive;
/// filters narrow a selection in place, `SelectUnion` / `SelectExcept` combine them for OR and
/// NOT, `Emit` appends the survivors to the result, and the result steps run after the loop.
/// Position registers `p0`, `p1`, … hold, per in-block row, a row position of another table
/// (reached through links; -1 for none); value registers `v0`, `v1`, … hold one value per
/// in-block row (a column read through links, a count, an aggregate) for `FilterValue`.
///
///     let program = try Codegen.generate(plan, schema: store.schema)
///     program.instructions[0].opcode   // .explain
public enum Opcode: UInt8, CaseIterable, Hashable, Sendable {
    /// Stops the program.
    case halt
    /// Jumps to P2.
    case goto
    /// A QUERY PLAN row: no effect when run.
    case explain
    /// Chooses the table of class K[P4] that the rest of the program reads.
    case openTable
    /// Candidates: every row of the table.
    case scanTable
    /// Candidates: none.
    case scanNothing
    /// Candidates: the rows whose primary key (column P1) equals one of the values K[P4].
    case seekPrimaryKey
    /// Candidates: the rows whose indexed column P1 equals one of the values K[P4].
    case seekIndexEqual
    /// Candidates: the rows whose sorted-indexed column P1 lies in the range K[P4].
    case seekIndexRange
    /// Loads the next batch of candidates into r[P1], or jumps to P2 when there is none.
    case nextBatch
    /// Keeps the rows of r[P1] whose int column P2 compares (operator P3) with K[P4].
    case filterInt
    /// Keeps the rows of r[P1] whose double column P2 compares (operator P3) with K[P4].
    case filterDouble
    /// Keeps the rows of r[P1] whose float column P2 compares (operator P3) with K[P4].
    case filterFloat
    /// Keeps the rows of r[P1] whose bool column P2 equals (P3 `==`) or differs from K[P4].
    case filterBool
    /// Keeps the rows of r[P1] whose date column P2 compares (operator P3) with K[P4].
    case filterDate
    /// Keeps the rows of r[P1] whose string column P2 matches K[P4] under operator P3, options P5.
    case filterString
    /// Keeps the rows of r[P1] whose column P2 is null (P3 `==`) or not null (P3 `!=`).
    case filterNull
    /// Keeps the rows of r[P1] whose int column P2 is one of the values K[P4].
    case filterIntIn
    /// Keeps the rows of r[P1] whose string column P2 is one of the strings K[P4].
    case filterStringIn
    /// p[P3] := the targets of the to-one link column P2 of the rows of r[P1] (source P5); null: none.
    case gatherLink
    /// v[P3] := column P2 of the rows of r[P1] (source P5); null where the source has no row.
    case loadColumn
    /// v[P3] := the number of elements of collection column P2 of the rows of r[P1] (source P5).
    case countElements
    /// v[P3] := the number of elements of collection column P2 that pass the test K[P4].
    case countMatching
    /// v[P3] := the aggregate K[P4] of the elements of collection column P2 (source P5).
    case aggregateElements
    /// Keeps the rows of r[P1] whose value v[P2] compares (operator P3, options P5) with K[P4].
    case filterValue
    /// Keeps the rows of r[P1] whose value v[P2] equals one of the values K[P4].
    case filterValueIn
    /// v[P3] := the constant K[P4] at the rows of r[P1].
    case loadConstant
    /// v[P3] := v[P2] (arithmetic operator P5) v[P4]; rows without a result leave r[P1].
    case arithmetic
    /// Keeps the rows of r[P1] whose value v[P2] compares (operator P3, options P5) with v[P4].
    case compareValues
    /// Keeps the rows of r[P1] whose value v[P2]'s type is (P3 `==`) or is not (`!=`) one named in K[P4].
    case filterType
    /// v[P3] := the byte length (or collection size) of v[P2]; rows whose value has none leave r[P1].
    case valueSize
    /// v[P3] := the number of links to the row of source P5 (0 where it has none).
    case countBacklinks
    /// r[P2] := r[P1].
    case selectCopy
    /// r[P3] := the rows of r[P2] that are in r[P1] or in r[P3], in r[P2]'s order.
    case selectUnion
    /// r[P3] := the rows of r[P2] that are not in r[P1], in r[P2]'s order.
    case selectExcept
    /// r[P1] := no rows.
    case selectClear
    /// Appends the rows of r[P1] to the result; with P5 = 1, once P3 rows are there, jumps to P2.
    case emit
    /// Sorts the result stably by the keys K[P4].
    case sort
    /// Keeps the first P1 rows of the result sorted stably by the keys K[P4].
    case topN
    /// Keeps the first result row of each distinct tuple of the paths K[P4].
    case distinct
    /// Keeps the first P1 rows of the result.
    case limit
    /// v[P3] := element K[P4] of collection column P2 (source P5); rows without one leave r[P1].
    case loadElement
    /// v[P3] := the reduction K[P4] over what the path K[P4] reaches from the rows of r[P1].
    case reducePath
    /// p[P3] := the target of element K[P4] of link collection column P2 (source P5); rows without one leave r[P1].
    case gatherElement
    /// Keeps the rows of r[P1] whose value v[P2] compares (operator P3, options P5) with the list K[P4] as quantified.
    case filterValueList
    /// v[P3] := the reduction K[P4] over the path K[P4] from r[P1], compared with v[P2].
    case reducePathAgainst
    /// Keeps the rows of r[P1] whose string column P2 (source P5) has the full-text terms K[P4].
    case filterText
    /// Keeps the rows of r[P1] whose GeoJSON point(s) at link column P2 (source P5) lie in K[P4].
    case filterGeoWithin
    /// Keeps the rows of r[P1] whose value v[P2] is a string the regular expression K[P4] matches.
    case filterMatches
    /// v[P3] := the number of elements of link collection P2 (source P5) passing the program K[P4].
    case countSubquery
    /// v[P3] := the groups of values of the operand K[P4] at each row of r[P1].
    case loadGroups
    /// Keeps the rows of r[P1] whose groups v[P2] compare with the groups v[P5] as K[P4] says.
    case compareGroups
    /// v[P3] := parameter P2 of the run (an outer row's value a correlated SUBQUERY passes in) at r[P1].
    case loadParameter
    /// v[P3] := the link to each row of r[P1] (`$t` itself in a SUBQUERY's program).
    case loadObjectLink
    /// Keeps the rows of r[P1] whose two sequences K[P4] (key paths, constant lists) compare element-wise.
    case compareSequences
}

extension Opcode {
    /// The opcode's row in `OpcodeInfo.table`.
    public var info: OpcodeInfo { OpcodeInfo.table[Int(rawValue)] }
    /// The EXPLAIN name (`FilterInt`).
    public var name: String { info.name }
}
