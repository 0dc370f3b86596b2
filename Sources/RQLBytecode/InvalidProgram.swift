/// A program that breaks a rule of the instruction set, with every problem found, each naming
/// its instruction. The verifier throws it before a run (`ProgramVerifier.check`); the VM throws
/// it when an unverified program reaches an instruction it cannot run where it is, instead of
/// ending the run early with a shortened answer.
///
/// ```swift
/// do {
///     try ProgramVerifier.check(program)
/// } catch {
///     print(error)  // invalid program for class Person: 4: FilterInt: runs on a batch, outside the batch loop
/// }
/// ```
public struct InvalidProgram: Error, Hashable, Sendable, CustomStringConvertible {
    /// The class the program selects from.
    public let className: String
    /// What is wrong, in address order (whole-program problems, address -1, last).
    public let problems: [ProgramVerifier.Problem]

    public init(className: String, problems: [ProgramVerifier.Problem]) {
        self.className = className
        self.problems = problems
    }

    public var description: String {
        "invalid program for class \(className): " + problems.map(\.description).joined(separator: "; ")
    }
}
