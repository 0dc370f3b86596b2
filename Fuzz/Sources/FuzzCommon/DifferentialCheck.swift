import RQLCore
import RQLEngine
import RQLIR
import RQLStorage
import RQLTestSupport

/// The VM's contract with the oracle on one query (`FuzzDifferential`): for any `VMInput`, on
/// the random schema its seed byte chooses (`VMInput.extendsSchema`, `SchemaExtension`), the
/// three ways of `ThreeWayRunner` (VM with every pass, VM with none, the reference evaluator)
/// 1. all fail with the same error, or all succeed;
/// 2. return the same row keys in the same order;
/// 3. count as many rows as they return;
/// and no way failed to compile a query that binds (`QueryError.engine`: codegen refused the plan).
///
///     DifferentialCheck().violation(in: VMInput(text: "age > 17 LIMIT(3)"))   // nil when all agree
///
/// Inputs whose text is longer than `maximumTextLength` UTF-8 bytes are skipped; the datasets
/// are at most 31 rows, so a unit stays fast.
public struct DifferentialCheck: Sendable {
    public var maximumTextLength = 1024

    public init() {}

    /// Checks fuzzer bytes and traps with a readable report on a violation, so that libFuzzer
    /// records the input as a crash.
    public func run(_ bytes: UnsafeRawBufferPointer) {
        if let violation = violation(in: VMInput(bytes: bytes)) {
            fatalError("\n" + violation.description)
        }
    }

    public func run(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { run($0) }
    }

    /// The first violated invariant for `input`, or nil.
    public func violation(in input: VMInput) -> VMViolation? {
        guard input.text.utf8.count <= maximumTextLength else { return nil }
        var input = input
        input.extendsSchema = true
        let store = input.store()
        // Fresh engines (and caches) per input: nothing learned on one dataset carries over.
        let runner = ThreeWayRunner()
        let outcomes = runner.run(input.text, className: input.className, store: store)
        let bound = outcomes.lazy.compactMap(\.compiled).first.map { IRPrinter.print($0.bound) }
        func violated(_ invariant: VMViolation.Invariant, _ what: String) -> VMViolation {
            VMViolation(invariant: invariant, input: input, bound: bound, detail: what)
        }
        let report = outcomes.map { "  \($0.way): \(describe($0.outcome))" }.joined(separator: "\n")
        for (index, outcome) in outcomes.enumerated() {
            if case .failure(.engine(let error, _)) = outcome.outcome {
                return violated(.codegen, "\(outcome.way): \(error)")
            }
            guard index > 0 else { continue }
            if !same(outcome.outcome, outcomes[0].outcome) {
                return violated(.disagreement, "expected (\(outcomes[0].way)) vs got:\n" + report)
            }
        }
        for (way, outcome) in zip(runner.ways, outcomes) {
            guard let compiled = outcome.compiled, case .success(let keys) = outcome.outcome else { continue }
            let count = way.engine.count(compiled, on: store)
            if count != keys.count {
                return violated(.disagreement, "\(way.name): count \(count) but \(keys.count) rows\n" + report)
            }
        }
        return nil
    }

    private func same(_ a: Result<[RowKey], QueryError>, _ b: Result<[RowKey], QueryError>) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)): return x == y
        case (.failure(let x), .failure(let y)): return x == y
        default: return false
        }
    }

    private func describe(_ outcome: Result<[RowKey], QueryError>) -> String {
        switch outcome {
        case .success(let keys): return "\(keys.count) rows \(keys)"
        case .failure(let error): return "error \(error.category) \(error.diagnostic.message)"
        }
    }
}
