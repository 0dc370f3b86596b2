import RQLBytecode

/// `rqlc opcodes`: prints the VM's instruction-set reference, generated from the one opcode
/// table (`OpcodeInfo.table`) by `OpcodeReference.plainText()`, so it cannot drift from the VM.
///
///     rqlc opcodes    // "filterInt  P1=register P2=column …\n    r[P1] := rows of r[P1] where …"
enum OpcodesCommand: Command {
    static let name = "opcodes"
    static let summary = "Print the VM's instruction-set reference."
    static let help = """
        Usage: rqlc opcodes

        Prints every VM opcode from the opcode table: its name and operand roles, the synopsis
        of what it does, and its description, in the order of the table.

        Options:
          -h, --help          Show this help.

        """
    static let valuedOptions: Set<String> = []
    static let flags: Set<String> = []

    static func run(_ list: ArgumentList, _ context: CommandContext) throws(CommandFailure) {
        guard list.positionals.isEmpty else { throw .usage("takes no arguments") }
        try context.output.write(OpcodeReference.plainText())
    }
}
