import RQLBytecode
import RQLCodegen

/// A query the engine accepted but could not turn into something it runs, or a program the VM
/// refused to go on running: a bug in the engine, never in the query. It names the query (its
/// text, or the bound query printed as IR) so that the bug can be reproduced; there is no second
/// executor to fall back on.
///
/// ```swift
/// do {
///     _ = try engine.compile(plan, store: store)
/// } catch {
///     print(error)  // internal error: codegen failed on the query 'age > 2' of class Dog: …
/// }
/// ```
public struct EngineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What failed.
    public enum Reason: Hashable, Sendable {
        /// Codegen refused the optimized plan.
        case codegen(CodegenError)
        /// The VM met an instruction it cannot run where it is (the verifier should have refused
        /// the program).
        case execution(InvalidProgram)
    }

    /// The query: its text when compiled from text, otherwise the bound query printed as IR.
    public let query: String
    /// The class the query selects from.
    public let className: String
    public let reason: Reason

    public init(query: String, className: String, reason: Reason) {
        self.query = query
        self.className = className
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .codegen(let error):
            "internal error: codegen failed on the query '\(query)' of class \(className): \(error)"
        case .execution(let error):
            "internal error: the VM stopped on the query '\(query)' of class \(className): \(error)"
        }
    }
}
