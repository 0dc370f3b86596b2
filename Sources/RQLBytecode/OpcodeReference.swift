/// The instruction-set reference, generated from `OpcodeInfo.table`: `Opcodes.md` is
/// `OpcodeReference.markdown()` (a test keeps the checked-in file equal), and `rqlc opcodes`
/// prints `OpcodeReference.plainText()`.
public enum OpcodeReference {
    /// The Markdown reference.
    public static func markdown() -> String {
        var lines = [
            "# RQL VM opcodes",
            "",
            "Generated from `OpcodeInfo.table` (Sources/RQLBytecode/OpcodeInfo.swift) by",
            "`OpcodeReference.markdown()`; a test keeps this file equal to the table. Do not edit by hand.",
            "",
            "A program scans one class's table one storage block (at most 4,096 rows) at a time.",
            "`r[N]` is selection register N (the in-block offsets of the rows still alive), `K[N]` constant",
            "N of the pool, `col[N]` property N of the open table. EXPLAIN prints each instruction as",
            "`addr opcode p1 p2 p3 p4 p5 comment`.",
            "",
            "| opcode | p1 | p2 | p3 | p4 | p5 | synopsis |",
            "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        for info in OpcodeInfo.table {
            let roles = info.roles.map { $0 == .unused ? "" : $0.rawValue }
            lines.append("| `\(info.name)` | " + roles.joined(separator: " | ") + " | `\(info.synopsis)` |")
        }
        for info in OpcodeInfo.table {
            lines += ["", "## \(info.name)", "", "`\(info.synopsis)`", "", info.doc]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The plain-text reference for a terminal.
    public static func plainText() -> String {
        var lines: [String] = []
        for info in OpcodeInfo.table {
            let operands = info.roles.enumerated().compactMap { index, role in
                role == .unused ? nil : "P\(index + 1)=\(role.rawValue)"
            }
            lines.append(info.name + "  " + operands.joined(separator: " "))
            lines.append("    " + info.synopsis)
            lines.append("    " + info.doc)
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }
}
