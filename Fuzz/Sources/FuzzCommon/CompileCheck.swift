import RQLBytecode
import RQLCodegen
import RQLCore
import RQLEngine
import RQLIR
import RQLOptimizer
import RQLStorage

/// The compiler back end's invariants on one query (`FuzzCompile`): for any `VMInput` whose
/// query binds against its generated schema, extended with the properties its seed byte
/// chooses (`VMInput.extendsSchema`, `SchemaExtension`),
/// 1. the optimizer returns a plan, with every pass and with none (it never breaks the IR);
/// 2. codegen compiles every one of those plans, and the unoptimized plan (it never refuses a
///    bound query);
/// 3. `ProgramVerifier` accepts every program codegen returns.
/// A query that does not parse or bind is fine: that is `FuzzQuery`'s ground.
///
///     CompileCheck().violation(in: VMInput(text: "age > 17 SORT(name ASC)"))   // nil when all is right
///
/// Inputs whose text is longer than `maximumTextLength` UTF-8 bytes are skipped.
public struct CompileCheck: Sendable {
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
        let query: BoundQuery
        do {
            // No cache: a cached syntax tree would outlive the input, and LeakSanitizer reads
            // what a global keeps through enum payloads as leaked.
            query = try QueryEngine(cache: CompiledQueryCache(capacity: 0))
                .bind(input.text, className: input.className, schema: store.schema)
        } catch {
            return nil
        }
        func violated(_ invariant: VMViolation.Invariant, _ what: String) -> VMViolation {
            VMViolation(invariant: invariant, input: input, bound: IRPrinter.print(query), detail: what)
        }
        var plans = [("unoptimized", PhysicalPlan.unoptimized(query))]
        for (name, enabled) in [("all passes", true), ("no passes", false)] {
            let options = OptimizerOptions(
                isEnabled: enabled,
                verifiesEachPass: true,
                recordsPlans: false,
                statisticsCache: StatisticsCache()
            )
            do {
                plans.append((name, try Optimizer.optimize(LogicalPlan(query), store: store, options: options).0))
            } catch {
                return violated(.optimizer, "\(name): \(error)")
            }
        }
        for (name, plan) in plans {
            let program: Program
            do {
                program = try Codegen.generate(plan, schema: store.schema)
            } catch {
                return violated(.codegen, "\(name) plan: \(error)")
            }
            let problems = ProgramVerifier.verify(program)
            guard problems.isEmpty else {
                return violated(
                    .verifier,
                    "\(name) plan's program:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
                )
            }
        }
        return nil
    }
}
