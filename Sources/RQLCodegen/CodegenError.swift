/// Why a plan could not become a program.
public enum CodegenError: Error, Hashable, Sendable {
    /// The plan's class is not in the schema.
    case unknownClass(String)
    /// The finished program failed `ProgramVerifier` (a codegen bug, reported rather than run).
    case invalidProgram(problems: [String])
    /// A predicate of the plan (printed as IR) has no register form (a codegen bug, reported
    /// rather than run).
    case unsupported(predicate: String)
}
