import RQLCore

/// Prints a program the way SQLite's EXPLAIN does, one row per instruction with fixed columns
/// `addr opcode p1 p2 p3 p4 p5 comment`, and the QUERY PLAN tree from its `Explain`
/// instructions.
///
///     print(ExplainFormatter.listing(program))
///     // addr  opcode          p1    p2    p3    p4                      p5  comment
///     // 0     Explain         1     0     0     SCAN Person             0
///     // …
///     print(ExplainFormatter.planTree(program))
///     // QUERY PLAN
///     // `--SCAN Person
public enum ExplainFormatter {
    /// One row of a listing, for tools that print their own format (`rqlc explain --format json`).
    public struct Row: Hashable, Sendable {
        public let address: Int
        public let opcode: String
        public let p1: Int32
        public let p2: Int32
        public let p3: Int32
        public let p4: String
        public let p5: UInt16
        public let comment: String
    }

    /// The rows of `program`'s listing.
    public static func rows(_ program: Program) -> [Row] {
        program.instructions.enumerated().map { address, instruction in
            Row(
                address: address,
                opcode: instruction.opcode.name,
                p1: instruction.p1,
                p2: instruction.p2,
                p3: instruction.p3,
                p4: describeP4(instruction, program.constants),
                p5: instruction.p5,
                comment: comment(instruction)
            )
        }
    }

    /// The listing as text, columns aligned.
    public static func listing(_ program: Program) -> String {
        let header = ["addr", "opcode", "p1", "p2", "p3", "p4", "p5", "comment"]
        let body = rows(program).map { row in
            [
                String(row.address), row.opcode, String(row.p1), String(row.p2), String(row.p3), row.p4,
                String(row.p5), row.comment,
            ]
        }
        let table = [header] + body
        var widths = [Int](repeating: 0, count: header.count)
        for line in table {
            for (index, cell) in line.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        let text = table.map { line in
            line.enumerated().map { index, cell in
                index == line.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count + 2)
            }.joined().trimmingTrailingSpaces()
        }.joined(separator: "\n")
        return text + subprograms(program)
    }

    /// The listings of the SUBQUERY programs `program` holds (`CountSubquery`), each after a
    /// line naming the instruction that runs it.
    private static func subprograms(_ program: Program) -> String {
        var text = ""
        for (address, instruction) in program.instructions.enumerated() where program.constants.contains(instruction.p4)
        {
            let nested: Program
            switch program.constants[instruction.p4] {
            case .program(let program, _), .subquery(let program, _, _, _): nested = program
            default: continue
            }
            text +=
                "\n\nprogram K[\(instruction.p4)] of addr \(address) (over \(nested.className)):\n" + listing(nested)
        }
        return text
    }

    /// The QUERY PLAN tree the program's `Explain` instructions spell, SQLite-style.
    public static func planTree(_ program: Program) -> String {
        var children: [Int32: [(id: Int32, text: String)]] = [:]
        for instruction in program.instructions where instruction.opcode == .explain {
            guard program.constants.contains(instruction.p4), case .text(let text) = program.constants[instruction.p4]
            else { continue }
            children[instruction.p2, default: []].append((instruction.p1, text))
        }
        var lines = ["QUERY PLAN"]
        func visit(_ parent: Int32, prefix: String) {
            let rows = children[parent] ?? []
            for (index, row) in rows.enumerated() {
                let isLast = index == rows.count - 1
                lines.append(prefix + (isLast ? "`--" : "|--") + row.text)
                if row.id != parent { visit(row.id, prefix: prefix + (isLast ? "   " : "|  ")) }
            }
        }
        visit(0, prefix: "")
        return lines.joined(separator: "\n")
    }

    /// The plan rows' texts in program order (`["SCAN Person", "USE TOP-N SORT FOR …"]`).
    public static func planRows(_ program: Program) -> [String] {
        program.instructions.compactMap { instruction in
            guard instruction.opcode == .explain, program.constants.contains(instruction.p4),
                case .text(let text) = program.constants[instruction.p4]
            else { return nil }
            return text
        }
    }

    private static func comment(_ instruction: Instruction) -> String {
        if !instruction.comment.isEmpty { return instruction.comment }
        switch instruction.opcode.info.roles[2] {
        case .comparison:
            return ComparisonOperator(code: instruction.p3).map { "op \($0.rawValue)" } ?? ""
        default:
            return ""
        }
    }

    /// P4 as text: the constant it names, shortened.
    static func describeP4(_ instruction: Instruction, _ pool: ConstantPool) -> String {
        guard pool.contains(instruction.p4) else { return "" }
        let text: String
        switch pool[instruction.p4] {
        case .value(let value): text = value.description
        case .values(let values):
            text =
                "{" + values.prefix(8).map(\.description).joined(separator: ", ")
                + (values.count > 8 ? ", … \(values.count) values}" : "}")
        case .text(let string): text = string
        case .sortKeys(let keys):
            text = keys.map { $0.path.dottedName + ($0.ascending ? " ASC" : " DESC") }.joined(separator: ", ")
        case .paths(let paths): text = paths.map(\.dottedName).joined(separator: ", ")
        case .elementTest(let test):
            let element = (test.targetColumn.map { "e.col[\($0)]" } ?? "e") + (test.ofSize ? ".@size" : "")
            let tested = test.pattern.map { "MATCHES /\($0.source)/" } ?? "\(test.op.rawValue) \(test.value)"
            text = (test.negated ? "NOT " : "") + "\(element) \(tested)"
        case .aggregate(let function, _, let targetColumn):
            text = function.rawValue + (targetColumn.map { " of e.col[\($0)]" } ?? "")
        case .textSearch(let search, let targetColumn):
            text =
                (targetColumn.map { "e.col[\($0)]: " } ?? "")
                + search.terms.map { ($0.isExcluded ? "-" : "") + $0.token + ($0.isPrefix ? "*" : "") }.joined(
                    separator: " "
                )
        case .geoRegion(let region, let quantifier, let targetColumn):
            text = "\(quantifier.rawValue)" + (targetColumn.map { " e.col[\($0)]" } ?? "") + " within \(region)"
        case .pattern(let pattern): text = "/\(pattern.source)/"
        case .program(let program, let backlinkProperty):
            text =
                "program over \(program.className)" + (backlinkProperty.map { " linking through \($0)" } ?? "")
                + " (\(program.instructions.count) ops)"
        case .subquery(let program, let hops, let parameters, let start):
            text =
                "program over \(program.className) via \(hops.count) hops"
                + (start.map { " from v[\($0)]" } ?? "")
                + (parameters.isEmpty ? "" : " with " + parameters.map { "v[\($0)]" }.joined(separator: ", "))
                + " (\(program.instructions.count) ops)"
        case .range(let lower, let lowerInclusive, let upper, let upperInclusive):
            text =
                (lower.map { (lowerInclusive ? "[" : "(") + $0.description } ?? "(-inf") + ", "
                + (upper.map { $0.description + (upperInclusive ? "]" : ")") } ?? "+inf)")
        case .element(let selectors): text = selectors.map(\.text).joined()
        case .pathWalk(let walk): text = walk.text
        case .quantifiedList(let quantifier, let values, _):
            text = quantifier.rawValue + " {" + values.prefix(8).map(\.description).joined(separator: ", ") + "}"
        case .groupOperand(let operand, let sequences): text = operand.text + (sequences ? " (in order)" : "")
        case .groupComparison(let comparison): text = comparison.text
        case .sequenceComparison(let lhs, let rhs, let comparison):
            let l = lhs.text + (comparison.lhsIsType ? ".@type" : "")
            let r = rhs.text + (comparison.rhsIsType ? ".@type" : "")
            text = "\(l) \(comparison.op.rawValue) \(r) element-wise"
        }
        return text.count > 60 ? String(text.prefix(57)) + "..." : text
    }
}

extension BoundPath {
    /// `dogs.name`, for EXPLAIN.
    public var dottedName: String {
        let names = steps.map { step -> String in
            switch step {
            case .property(_, _, let name): name
            case .backlinks(let className, let property): "@links.\(className).\(property)"
            case .index(let n): "[\(n)]"
            case .first: "[FIRST]"
            case .last: "[LAST]"
            case .all: "[*]"
            case .key(let key): "['\(key)']"
            case .keys: "@keys"
            case .values: "@values"
            }
        }
        return names.isEmpty ? "self" : names.joined(separator: ".")
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
