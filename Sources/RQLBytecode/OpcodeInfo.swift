/// Everything known about one opcode: the single source of truth that the VM's documentation,
/// EXPLAIN, `rqlc opcodes`, `Opcodes.md` and the verifier read.
///
///     Opcode.filterInt.info.synopsis   // "r[P1] := rows of r[P1] where col[P2] P3 K[P4] (int)"
public struct OpcodeInfo: Sendable {
    /// What an instruction's operand means, so that the verifier can check it and EXPLAIN
    /// can comment it.
    public enum Role: String, Sendable, CaseIterable {
        /// Not used; must be 0 (P4: -1).
        case unused
        /// A selection register number.
        case register
        /// A jump target: an instruction address.
        case jump
        /// A property (column) number of the open table.
        case column
        /// A `ComparisonOperator` number (`InstructionOperand`).
        case comparison
        /// A non-negative count.
        case count
        /// A constant-pool index.
        case constant
        /// `StringOptions` bits.
        case options
        /// A plan row number.
        case planRow
        /// A position register number (`p[N]`: rows of another table, reached through links).
        case positionRegister
        /// A value register number (`v[N]`: one value per in-block row).
        case valueRegister
        /// An `ArithmeticOperator` number (`InstructionOperand`).
        case arithmetic
        /// Whose rows a column is read from: 0 for the batch's own rows, N + 1 for the rows held by
        /// position register N (a row without a target reads as null, or as an empty collection).
        case source
    }

    /// Facts about an opcode that tools and the verifier use.
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// May transfer control to P2.
        public static let jumps = Flags(rawValue: 1)
        /// Chooses where candidate rows come from; runs once, before the batch loop.
        public static let accessPath = Flags(rawValue: 2)
        /// Narrows a selection register.
        public static let filter = Flags(rawValue: 4)
        /// Reshapes the result after the scan.
        public static let resultStep = Flags(rawValue: 8)
    }

    public let opcode: Opcode
    /// The EXPLAIN spelling.
    public let name: String
    /// Roles of P1, P2, P3, P4 and P5.
    public let roles: [Role]
    public let flags: Flags
    /// A one-line effect, in `r[P1]` / `K[P4]` / `col[P2]` notation.
    public let synopsis: String
    /// The reference paragraph.
    public let doc: String

    init(
        _ opcode: Opcode,
        _ name: String,
        _ roles: [Role],
        _ flags: Flags = [],
        _ synopsis: String,
        _ doc: String
    ) {
        self.opcode = opcode
        self.name = name
        self.roles = roles
        self.flags = flags
        self.synopsis = synopsis
        self.doc = doc
    }
}

extension OpcodeInfo {
    /// One row per opcode, in `Opcode` order (a test checks the order).
    public static let table: [OpcodeInfo] = [
        OpcodeInfo(
            .halt,
            "Halt",
            [.unused, .unused, .unused, .unused, .unused],
            [],
            "stop",
            "Ends the program. The result rows gathered so far, after the result steps that ran, are the answer."
        ),
        OpcodeInfo(
            .goto,
            "Goto",
            [.unused, .jump, .unused, .unused, .unused],
            [.jumps],
            "goto P2",
            "Continues at address P2. Closes the batch loop."
        ),
        OpcodeInfo(
            .explain,
            "Explain",
            [.planRow, .planRow, .unused, .constant, .unused],
            [],
            "plan row P1 under P2: K[P4]",
            "A QUERY PLAN row (`SCAN Person`, `SEARCH Person USING INDEX city (city=?)`): row P1, child of "
                + "row P2 (0 at the top), text K[P4]. No effect when run; EXPLAIN builds the plan tree from these "
                + "rows, so the plan shown is the plan run."
        ),
        OpcodeInfo(
            .openTable,
            "OpenTable",
            [.unused, .unused, .unused, .constant, .unused],
            [],
            "open table K[P4]",
            "Opens the table of the class named K[P4] in the store the program runs on. A store without the "
                + "class yields no rows."
        ),
        OpcodeInfo(
            .scanTable,
            "ScanTable",
            [.unused, .unused, .unused, .unused, .unused],
            [.accessPath],
            "candidates := all rows",
            "Every row of the table is a candidate, block by block in table order."
        ),
        OpcodeInfo(
            .scanNothing,
            "ScanNothing",
            [.unused, .unused, .unused, .unused, .unused],
            [.accessPath],
            "candidates := none",
            "No row is a candidate: the predicate is statically false."
        ),
        OpcodeInfo(
            .seekPrimaryKey,
            "SeekPrimaryKey",
            [.column, .unused, .unused, .constant, .unused],
            [.accessPath],
            "candidates := rows with pk col[P1] in K[P4]",
            "The rows whose primary key (column P1) equals one of the values K[P4] (numbers by value), in "
                + "ascending position order, each once."
        ),
        OpcodeInfo(
            .seekIndexEqual,
            "SeekIndexEqual",
            [.column, .unused, .unused, .constant, .unused],
            [.accessPath],
            "candidates := rows with col[P1] in K[P4] (index)",
            "The rows whose indexed column P1 equals one of the values K[P4], from the store's index, in "
                + "ascending position order, each once. Without an index the table is scanned instead; the "
                + "residual filters still decide."
        ),
        OpcodeInfo(
            .seekIndexRange,
            "SeekIndexRange",
            [.column, .unused, .unused, .constant, .unused],
            [.accessPath],
            "candidates := rows with col[P1] in range K[P4] (sorted index)",
            "The rows whose sorted-indexed column P1 lies between the bounds of K[P4], in ascending position "
                + "order. Without a sorted index the table is scanned instead."
        ),
        OpcodeInfo(
            .nextBatch,
            "NextBatch",
            [.register, .jump, .unused, .unused, .unused],
            [.jumps],
            "r[P1] := next batch of candidates, or goto P2",
            "Moves to the next storage block that holds candidates and loads their in-block offsets into "
                + "selection r[P1]; jumps to P2 when every candidate has been seen. A batch never crosses a block."
        ),
        OpcodeInfo(
            .filterInt,
            "FilterInt",
            [.register, .column, .comparison, .constant, .unused],
            [.filter],
            "r[P1] := rows of r[P1] where col[P2] P3 K[P4]",
            "Keeps the rows of r[P1] whose int column P2 compares with the int K[P4] under operator P3. "
                + "A null row satisfies only `!=`. One typed loop over the block's contiguous values."
        ),
        OpcodeInfo(
            .filterDouble,
            "FilterDouble",
            [.register, .column, .comparison, .constant, .unused],
            [.filter],
            "r[P1] := rows of r[P1] where col[P2] P3 K[P4]",
            "Keeps the rows of r[P1] whose double column P2 compares with the double K[P4] under operator "
                + "P3. NaN equals nothing and is unordered; a null row satisfies only `!=`."
        ),
        OpcodeInfo(
            .filterFloat,
            "FilterFloat",
            [.register, .column, .comparison, .constant, .unused],
            [.filter],
            "r[P1] := rows of r[P1] where col[P2] P3 K[P4]",
            "Keeps the rows of r[P1] whose float column P2 compares with the float K[P4] under operator P3, "
                + "as FilterDouble does."
        ),
        OpcodeInfo(
            .filterBool,
            "FilterBool",
            [.register, .column, .comparison, .constant, .unused],
            [.filter],
            "r[P1] := rows of r[P1] where col[P2] P3 K[P4]",
            "Keeps the rows of r[P1] whose bool column P2 equals (P3 `==`) or differs from (P3 `!=`) the "
                + "bool K[P4]; a null row only differs."
        ),
        OpcodeInfo(
            .filterDate,
            "FilterDate",
            [.register, .column, .comparison, .constant, .unused],
            [.filter],
            "r[P1] := rows of r[P1] where col[P2] P3 K[P4]",
            "Keeps the rows of r[P1] whose date column P2 compares with the date K[P4] under operator P3; a "
                + "null row satisfies only `!=`."
        ),
        OpcodeInfo(
            .filterString,
            "FilterString",
            [.register, .column, .comparison, .constant, .options],
            [.filter],
            "r[P1] := rows of r[P1] where col[P2] P3[P5] K[P4]",
            "Keeps the rows of r[P1] whose string column P2 matches the string K[P4] under operator P3 "
                + "(`==`, `!=`, BEGINSWITH, ENDSWITH, CONTAINS, LIKE) with options P5 (`[c]` = 1, `[d]` = 2), "
                + "comparing UTF-8 bytes. A null row satisfies only `!=`."
        ),
        OpcodeInfo(
            .filterNull,
            "FilterNull",
            [.register, .column, .comparison, .unused, .unused],
            [.filter],
            "r[P1] := rows of r[P1] where col[P2] P3 NULL",
            "Keeps the rows of r[P1] whose column P2 is null (P3 `==`, also `<=` and `>=`) or not null "
                + "(P3 `!=`), reading only the null mask."
        ),
        OpcodeInfo(
            .filterIntIn,
            "FilterIntIn",
            [.register, .column, .unused, .constant, .count],
            [.filter],
            "r[P1] := rows of r[P1] where col[P2] IN K[P4]",
            "Keeps the rows of r[P1] whose int column P2 is one of the ints K[P4], by a hash set built "
                + "once per run; P5 = 1 when the list holds NULL too (null rows then match)."
        ),
        OpcodeInfo(
            .filterStringIn,
            "FilterStringIn",
            [.register, .column, .unused, .constant, .count],
            [.filter],
            "r[P1] := rows of r[P1] where col[P2] IN K[P4]",
            "Keeps the rows of r[P1] whose string column P2 is one of the strings K[P4] (bytes equal), by "
                + "a hash set built once per run; P5 = 1 when the list holds NULL too."
        ),
        OpcodeInfo(
            .gatherLink,
            "GatherLink",
            [.register, .column, .positionRegister, .constant, .source],
            [],
            "p[P3] := targets of link col[P2] of src[P5] at r[P1]",
            "A link gather: for each row of r[P1], reads the to-one link column P2 of the source P5 (the "
                + "batch's rows, or the rows of a position register, for a path of several links) and stores "
                + "the target's position in table K[P4] in position register P3; a null link, a link to a "
                + "deleted row, or a source without a row stores -1. Columns of the target are then read "
                + "through p[P3], so `owner.owner.name` is two gathers and one load."
        ),
        OpcodeInfo(
            .loadColumn,
            "LoadColumn",
            [.register, .column, .valueRegister, .unused, .source],
            [],
            "v[P3] := col[P2] of src[P5] at r[P1]",
            "For each row of r[P1], loads the scalar column P2 of the source P5 into value register P3. A "
                + "source without a row (a null link along the path) loads null: Realm compares a path "
                + "through a null link as null, so `owner.name == nil` holds when `owner` is nil. Any scalar "
                + "type: decimal, objectId, uuid and mixed columns are read this way. A to-one link column "
                + "loads the link, or null when it is null or its target was deleted (`owner == nil`)."
        ),
        OpcodeInfo(
            .countElements,
            "CountElements",
            [.register, .column, .valueRegister, .unused, .source],
            [],
            "v[P3] := |col[P2] of src[P5]| at r[P1]",
            "`@count` / `@size` of a list, set or dictionary (of values or of links): for each row of r[P1], "
                + "stores the number of elements of collection column P2 of the source P5 (an int) in value "
                + "register P3; a source without a row (a null link) counts 0. Read off the collection's offsets."
        ),
        OpcodeInfo(
            .countMatching,
            "CountMatching",
            [.register, .column, .valueRegister, .constant, .source],
            [],
            "v[P3] := |{e in col[P2] of src[P5] : K[P4]}| at r[P1]",
            "Quantifiers over a collection of values: for each row of r[P1], counts the elements of "
                + "collection column P2 of the source P5 that pass the element test K[P4] (`e op value` with "
                + "string options, or its negation) into value register P3. ANY is a count above 0, NONE "
                + "a count of 0, ALL a count of 0 failing elements; an empty collection (or a null link) "
                + "counts 0, so ANY is false and ALL and NONE are true. For a list or set of links the test "
                + "reads a column of each target (`ANY dogs.age > 5`), skipping links to deleted objects."
        ),
        OpcodeInfo(
            .aggregateElements,
            "AggregateElements",
            [.register, .column, .valueRegister, .constant, .source],
            [],
            "v[P3] := K[P4] of col[P2] of src[P5] at r[P1]",
            "`@min` / `@max` / `@sum` / `@avg` of a collection of values: for each row of r[P1], stores the "
                + "aggregate K[P4] of the elements of collection column P2 of the source P5 in value register "
                + "P3. Nulls are ignored; no element gives null, or 0 for a sum; over mixed elements every "
                + "number is summed together (`ValueAggregation`). For a list or set of links it aggregates a "
                + "column of each target (`items.@sum.price`), duplicates counted, deleted targets skipped."
        ),
        OpcodeInfo(
            .filterValue,
            "FilterValue",
            [.register, .valueRegister, .comparison, .constant, .options],
            [.filter],
            "r[P1] := rows of r[P1] where v[P2] P3[P5] K[P4]",
            "Keeps the rows of r[P1] whose value in value register P2 compares with K[P4] under operator "
                + "P3 and string options P5, by Realm's one comparison (`ValueComparison`): numbers of "
                + "different types by value, null equal only to null, `[c]` / `[d]` folding."
        ),
        OpcodeInfo(
            .filterValueIn,
            "FilterValueIn",
            [.register, .valueRegister, .unused, .constant, .unused],
            [.filter],
            "r[P1] := rows of r[P1] where v[P2] IN K[P4]",
            "Keeps the rows of r[P1] whose value in value register P2 equals one of the values K[P4] "
                + "(Realm equality: numbers by value, NaN equal to nothing, NULL matching a NULL in the list), "
                + "by a hash set built once per run (`EqualityKey.isMember`)."
        ),
        OpcodeInfo(
            .loadConstant,
            "LoadConstant",
            [.register, .unused, .valueRegister, .constant, .unused],
            [],
            "v[P3] := K[P4] at r[P1]",
            "Stores the value K[P4] in value register P3 for each row of r[P1]: the constant operand of "
                + "`Arithmetic` (`age * 2`) or of `CompareValues`."
        ),
        OpcodeInfo(
            .arithmetic,
            "Arithmetic",
            [.register, .valueRegister, .valueRegister, .valueRegister, .arithmetic],
            [.filter],
            "v[P3] := v[P2] P5 v[P4] at r[P1]",
            "For each row of r[P1], stores `v[P2] op v[P4]` in value register P3, operator P5 (`+ - * /`), "
                + "by Realm's arithmetic rules (`ValueArithmetic`): Int64 overflow carries on in Decimal128, "
                + "a decimal operand makes a decimal, a float or double a double, integer division by zero "
                + "is done in floating point. A pair without a result (null or a non-number) drops the row "
                + "from r[P1]: the comparison the value feeds has no value, so it does not match."
        ),
        OpcodeInfo(
            .compareValues,
            "CompareValues",
            [.register, .valueRegister, .comparison, .valueRegister, .options],
            [.filter],
            "r[P1] := rows of r[P1] where v[P2] P3[P5] v[P4]",
            "Keeps the rows of r[P1] whose value in value register P2 compares with the value in value "
                + "register P4 under operator P3 and string options P5, by `ValueComparison`, as `FilterValue` "
                + "does with a constant: two paths (`age > owner.age`), a path and arithmetic."
        ),
        OpcodeInfo(
            .filterType,
            "FilterType",
            [.register, .valueRegister, .comparison, .constant, .unused],
            [.filter],
            "r[P1] := rows of r[P1] where v[P2].@type P3 ANY K[P4]",
            "`@type` compared with type names (`m.@type == 'numeric'`, `m.@type IN {'int', 'string'}`): keeps "
                + "the rows of r[P1] for which some name of the list K[P4] is (P3 `==`) or is not (P3 `!=`) "
                + "the type of the value in value register P2 (`TypeAttribute`: `numeric` covers the four "
                + "number types, `collection` lists and dictionaries; an unknown name matches nothing)."
        ),
        OpcodeInfo(
            .valueSize,
            "ValueSize",
            [.register, .valueRegister, .valueRegister, .unused, .unused],
            [.filter],
            "v[P3] := @size of v[P2] at r[P1]",
            "`@size` / `@count` of a string, binary or mixed value (`name.@size > 3`): for each row of r[P1], "
                + "stores in value register P3 the byte length of the string or binary in P2 (the size of a "
                + "mixed collection; 0 for null), by `ValueAggregation.reachedSize`. A value without a size "
                + "(a mixed number) drops the row from r[P1]: the comparison has no value to test."
        ),
        OpcodeInfo(
            .countBacklinks,
            "CountBacklinks",
            [.register, .unused, .valueRegister, .unused, .source],
            [],
            "v[P3] := @links.@count of src[P5] at r[P1]",
            "`@links.@count`: for each row of r[P1], stores in value register P3 the number of links from "
                + "any object to the row of source P5 (the row itself, or the target of a to-one link "
                + "gather), by the store's backlink count; 0 where the source has no row (a null link)."
        ),
        OpcodeInfo(
            .selectCopy,
            "SelectCopy",
            [.register, .register, .unused, .unused, .unused],
            [],
            "r[P2] := r[P1]",
            "Copies a selection, so that a branch of OR or NOT can narrow its own copy."
        ),
        OpcodeInfo(
            .selectUnion,
            "SelectUnion",
            [.register, .register, .register, .unused, .unused],
            [],
            "r[P3] := rows of r[P2] in r[P1] or r[P3]",
            "OR: gathers the rows of a disjunction. Keeps the rows of base selection r[P2] that are in r[P1] "
                + "(the rows a branch kept) or already in r[P3], in r[P2]'s order, repeats kept."
        ),
        OpcodeInfo(
            .selectExcept,
            "SelectExcept",
            [.register, .register, .register, .unused, .unused],
            [],
            "r[P3] := rows of r[P2] not in r[P1]",
            "NOT, and the rows an OR branch still has to test: keeps the rows of r[P2] that are not in r[P1], "
                + "in r[P2]'s order."
        ),
        OpcodeInfo(
            .selectClear,
            "SelectClear",
            [.register, .unused, .unused, .unused, .unused],
            [],
            "r[P1] := {}",
            "Empties a selection (FALSEPREDICATE inside OR or NOT)."
        ),
        OpcodeInfo(
            .emit,
            "Emit",
            [.register, .jump, .count, .unused, .count],
            [.jumps],
            "result += r[P1]; if P5 and |result| >= P3 goto P2",
            "Appends the rows of r[P1] to the result in order. With P5 = 1 (LIMIT without an earlier SORT or "
                + "DISTINCT) the scan stops as soon as P3 rows are there: the result keeps the first P3 and "
                + "control moves to P2. Counting ignores the limit, as `count` ignores LIMIT, and never "
                + "builds the result: it adds the selection's size."
        ),
        OpcodeInfo(
            .sort,
            "Sort",
            [.unused, .unused, .unused, .constant, .unused],
            [.resultStep],
            "result := stable sort of result by K[P4]",
            "Sorts the result stably by the keys K[P4] in Realm's value order (nulls first ascending; a key "
                + "path crossing a null link after every value ascending)."
        ),
        OpcodeInfo(
            .topN,
            "TopN",
            [.count, .unused, .unused, .constant, .unused],
            [.resultStep],
            "result := first P1 of stable sort of result by K[P4]",
            "SORT then LIMIT fused: keeps the first P1 rows of the stable sort by K[P4] with a bounded "
                + "selection, never sorting the whole result."
        ),
        OpcodeInfo(
            .distinct,
            "Distinct",
            [.unused, .unused, .unused, .constant, .unused],
            [.resultStep],
            "result := first row of each distinct K[P4] tuple",
            "Keeps the first row of each distinct tuple of the values of the paths K[P4], by hashing "
                + "(`1 == 1.0`, nulls alike); rows whose path crosses a null link are dropped."
        ),
        OpcodeInfo(
            .limit,
            "Limit",
            [.count, .unused, .unused, .unused, .unused],
            [.resultStep],
            "result := first P1 of result",
            "Keeps the first P1 rows of the result."
        ),
        OpcodeInfo(
            .loadElement,
            "LoadElement",
            [.register, .column, .valueRegister, .constant, .source],
            [.filter],
            "v[P3] := col[P2]K[P4] of src[P5] at r[P1]",
            "Subscripts (`scores[0]`, `scores[LAST]`, `dict['a']`, `owner.list[FIRST]`): for each row of "
                + "r[P1], stores in value register P3 the element K[P4] of the list or dictionary in column P2 "
                + "of source P5 (a link element as its link, or null when its target is gone). A list "
                + "without that position drops the row from r[P1], as the comparison has no value to test; "
                + "a missing key reads as null, and so does any element behind a null link."
        ),
        OpcodeInfo(
            .reducePath,
            "ReducePath",
            [.register, .unused, .valueRegister, .constant, .unused],
            [],
            "v[P3] := reduce K[P4] over the path K[P4] from r[P1]",
            "Paths through several to-many hops and backlinks (`ANY dogs.toys.name == 'x'`, "
                + "`@links.Dog.owner.age > 3`, `ALL owners.dogs.scores > 1`, `owners.dogs.@count`): for each "
                + "row of r[P1], follows the hops of K[P4] (to-one links, lists and sets of links, `@links` "
                + "backlinks), folding an object reached along several paths into one with a weight, then "
                + "reads the end (a column, the elements or keys of a collection per object, or the objects) "
                + "and stores the reduction in value register P3: the number of groups the quantifier holds "
                + "in, a link count, an aggregate or a backlink count, for `FilterValue` to compare."
        ),
        OpcodeInfo(
            .gatherElement,
            "GatherElement",
            [.register, .column, .positionRegister, .constant, .source],
            [.filter],
            "p[P3] := target of col[P2]K[P4] of src[P5] at r[P1]",
            "A subscript of a list or dictionary of links followed as a to-one link (`items[FIRST].name`, "
                + "`relations['boss'].age`): for each row of r[P1], stores in position register P3 the row of "
                + "the object that element K[P4] of link collection column P2 of source P5 points at; -1 for "
                + "a missing key, a null or deleted target, or a source without a row (null, as through a null "
                + "link). A list without that position drops the row from r[P1]: the single value compared "
                + "after it does not exist."
        ),
        OpcodeInfo(
            .filterValueList,
            "FilterValueList",
            [.register, .valueRegister, .comparison, .constant, .options],
            [.filter],
            "r[P1] := rows of r[P1] where v[P2] P3[P5] Q K[P4]",
            "A single value compared with a constant list under the list's quantifier (`age > ANY {1, 2}`, "
                + "`name ENDSWITH {'a', 'b'}`, `id == ALL {1, 2}`, `NONE {1, 2} < age`): keeps the rows of r[P1] "
                + "for which the quantifier of K[P4] (ANY: some element, ALL: every element, NONE: no element; "
                + "ALL and NONE hold for an empty list) holds of the value in value register P2 compared under "
                + "operator P3 and string options P5 with the list's elements, the value on the left of the "
                + "operator or, as K[P4] says, on its right (`ValueComparison`)."
        ),
        OpcodeInfo(
            .reducePathAgainst,
            "ReducePathAgainst",
            [.register, .valueRegister, .valueRegister, .constant, .unused],
            [],
            "v[P3] := reduce K[P4] over the path K[P4] from r[P1] against v[P2]",
            "A multi-valued path compared with a value computed per row (`ANY items.price == "
                + "fav_item.price`, `ALL items.price > items.@avg.price`, `integers == single_int`): walks "
                + "the path of K[P4] as `ReducePath` does and stores in value register P3 the number of "
                + "groups in which the quantifier holds of the group's values compared with the row's value "
                + "in value register P2, for `FilterValue` to test `> 0`."
        ),
        OpcodeInfo(
            .filterText,
            "FilterText",
            [.register, .column, .unused, .constant, .source],
            [.filter],
            "r[P1] := rows of r[P1] where col[P2] of src[P5] TEXT K[P4]",
            "`name TEXT 'foo -bar baz*'`: keeps the rows of r[P1] whose string in column P2 of source P5 has, "
                + "among its `FullTextTokenizer` tokens, every included term of K[P4] (a prefix term: a token "
                + "starting with it) and no excluded one; a null string (or a null link on the way) has no "
                + "tokens. On the batch's own rows of a table with a full-text index on P2, the matching "
                + "positions come from the index once per run (`TableReader.fullTextLookup`)."
        ),
        OpcodeInfo(
            .filterGeoWithin,
            "FilterGeoWithin",
            [.register, .column, .unused, .constant, .source],
            [.filter],
            "r[P1] := rows of r[P1] where Q col[P2] of src[P5] GEOWITHIN K[P4]",
            "`location GEOWITHIN geoCircle(...)`: column P2 of source P5 is a to-one link or a list or set of "
                + "links to embedded GeoJSON points (`type` \"Point\", `coordinates` longitude then latitude). "
                + "Keeps the rows of r[P1] for which the quantifier of K[P4] holds over the points' "
                + "containment in its region (`GeoRegion.contains`): ANY, NONE, and ALL (false with no point). "
                + "A null or dangling link, or an object that is not a point, is a point outside."
        ),
        OpcodeInfo(
            .filterMatches,
            "FilterMatches",
            [.register, .valueRegister, .unused, .constant, .unused],
            [.filter],
            "r[P1] := rows of r[P1] where v[P2] MATCHES K[P4]",
            "`name MATCHES 'R.*'`: keeps the rows of r[P1] whose value in value register P2 is a string "
                + "that the regular expression K[P4] matches whole (`RegexPattern`, compiled once when the "
                + "query is bound); null and values of other types never match."
        ),
        OpcodeInfo(
            .countSubquery,
            "CountSubquery",
            [.register, .column, .valueRegister, .constant, .source],
            [],
            "v[P3] := SUBQUERY(col[P2] of src[P5], program K[P4]).@count at r[P1]",
            "`SUBQUERY(dogs, $d, $d.age > 2).@count`: the positions of the live targets of link list or set "
                + "P2 (source P5) of every row of r[P1] are gathered, each distinct one once, and the program "
                + "K[P4] (the subquery's predicate compiled over the target class, `$d` its object) runs over "
                + "them batch by batch; value register P3 gets, per row, the number of its elements that "
                + "matched, an element linked twice counted twice. Dangling links count nothing. With K[P4] a "
                + "walking SUBQUERY (P2 and P5 0), the elements are what its hops reach from each row (to-one "
                + "links, lists, sets and dictionaries of links, backlinks: `SUBQUERY(owners.dogs, $d, ...)`), "
                + "each counted once per path reaching it; when it names parameter registers (a correlated "
                + "subquery, `SUBQUERY(dogs, $d, $d.age > age)`), the program runs once per row with that row's "
                + "values as its parameters; when it names a start register, the hops start from the object "
                + "each row's link in that register names (a null or dangling link reaches nothing) instead of "
                + "the row: `SUBQUERY(dogs, $e, $e.age > $d.age)` inside `SUBQUERY(dogs, $d, ...)`, the "
                + "person passed in as a parameter."
        ),
        OpcodeInfo(
            .loadGroups,
            "LoadGroups",
            [.register, .unused, .valueRegister, .constant, .unused],
            [],
            "v[P3] := groups of K[P4] at r[P1]",
            "One side of a comparison of two multi-valued operands (`items.price != items.price`, `ALL "
                + "items.price * 2 > ANY items.price`, `value[*][*] = dict[*][*]`, `pets.@values == obj('dog', "
                + "'pluto')`): for each row of r[P1], stores in value register P3 a list of lists, the values of "
                + "the operand K[P4] in the groups the reference evaluator quantifies separately: a key path "
                + "walked from the row (links flatten; a collection of values opens one group per owner, a "
                + "mixed list or dictionary one per `[*]`, `@keys` or `@values`), a constant or constant list, "
                + "`obj(class, key)` (null when no object has that key), a list literal, the row's value in a "
                + "value register loaded before (a count or aggregate of a single-valued side), `@count` or an "
                + "aggregate per owner of a collection (`friends.scores.@max`, as the reference counts and "
                + "aggregates: one value each), or arithmetic "
                + "over every pair of two operands' values (one group). With K[P4]'s `sequences`, paths are "
                + "followed one by one, in order (element-wise comparisons); otherwise an object reached "
                + "along several paths is read once."
        ),
        OpcodeInfo(
            .compareGroups,
            "CompareGroups",
            [.register, .valueRegister, .unused, .constant, .valueRegister],
            [.filter],
            "r[P1] := rows of r[P1] where groups v[P2] K[P4] groups v[P5]",
            "Keeps the rows of r[P1] for which some group of value register P2 (`LoadGroups`) and some "
                + "group of value register P5 compare as K[P4] says: quantified (the left quantifier over the "
                + "left group's values, nesting the right one over the right group's, `Quantifier.holds`), "
                + "element by element in order (`ComparisonOperator.holdsElementwise`), or as membership of "
                + "the one side's values in the other's list (`EqualityKey.isMember`). Pairs compare by "
                + "`ValueComparison` under K[P4]'s operator and string options, or, for a side K[P4] marks "
                + "`@type`, by type (`TypeAttribute`: type names, or the other side's types; only `==` and "
                + "`!=` hold)."
        ),
        OpcodeInfo(
            .loadParameter,
            "LoadParameter",
            [.register, .count, .valueRegister, .unused, .unused],
            [],
            "v[P3] := parameter P2 at r[P1]",
            "Stores parameter P2 of the run in value register P3 for each row of r[P1]: in the program of a "
                + "correlated SUBQUERY (`SUBQUERY(dogs, $d, $d.age > age)`), the outer row's value (`age`) that "
                + "`CountSubquery` passes in, compared by `CompareValues` or `FilterValue`. A parameter the run "
                + "was not given reads as null."
        ),
        OpcodeInfo(
            .loadObjectLink,
            "LoadObjectLink",
            [.register, .unused, .valueRegister, .unused, .unused],
            [],
            "v[P3] := link to the row at r[P1]",
            "Stores in value register P3, for each row of r[P1], the link to that row's object: the object "
                + "itself as a value, as a SUBQUERY's program compares its element (`SUBQUERY(toys, $t, "
                + "$t == best)`) with `CompareValues`."
        ),
        OpcodeInfo(
            .compareSequences,
            "CompareSequences",
            [.register, .unused, .unused, .constant, .unused],
            [.filter],
            "r[P1] := rows of r[P1] where sequences K[P4] compare element-wise",
            "Keeps the rows of r[P1] for which the two unquantified sides of K[P4] (key paths, also under "
                + "`@type`, and constant lists) compare element by element in order "
                + "(`ComparisonOperator.holdsElementwise`), where a key path through several to-many links "
                + "(`dogs.owners.dogs.age == dogs.age`) is the sequence of the values of every path, in order. "
                + "As the reference evaluator does, each side is first walked folding the objects met again "
                + "(weighted): sequences with nothing folded are compared as they are, `p.x op p.y` object by "
                + "object, two single sequences of one length value by value, stopping at the first pair that "
                + "decides, sides whose lengths all differ by their lengths; only otherwise is every path "
                + "followed."
        ),
    ]
}
