import RQLBytecode

/// Why a plan could not become a program.
public enum CodegenError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The plan's class is not in the schema.
    case unknownClass(String)
    /// The finished program failed `ProgramVerifier` (a codegen bug, reported rather than run).
    case invalidProgram(InvalidProgram)
    /// A predicate of the plan (printed as IR) has no register form (a codegen bug, reported
    /// rather than run).
    case unsupported(predicate: String)

    public var description: String {
        switch self {
        case .unknownClass(let name): "no class '\(name)' in the schema"
        case .invalidProgram(let error): error.description
        case .unsupported(let predicate): "no register form for \(predicate)"
        }
    }
}
