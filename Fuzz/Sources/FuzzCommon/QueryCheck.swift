import RQLCore
import RQLDatasets
import RQLEngine
import RQLIR
import RQLSema
import RQLStorage
import RQLSyntax

/// The compiler's and evaluator's invariants, checked on one query against the demo dataset.
///
/// For any `QueryInput` (a dialect, a class, up to three arguments and a query text):
/// 1. compiling returns (no trap, no hang; the fuzzer's `-timeout` catches the latter);
/// 2. a failure is a `QueryError` whose span lies inside the query text, on character
///    boundaries, with line and column agreeing with the offset, and `rendered(in:)` returns;
/// 3. a bound query passes the `IRVerifier` with no problems;
/// 4. running it returns, with distinct row keys that all exist in the class's table, and no
///    more of them than any LIMIT allows.
///
///     QueryCheck.standard.run(QueryInput(className: "Dog", text: "age > 2").bytes)   // traps on a violation
///     QueryCheck.standard.violation(in: QueryInput(text: "age > 2"))                // nil when all is right
///
/// The compile, verify and run functions are stored so a test can plant a bug and see that the
/// check notices. Inputs whose text is longer than `maximumTextLength` UTF-8 bytes are skipped,
/// which keeps the work per input bounded.
public struct QueryCheck: Sendable {
    public typealias CompileFunction =
        @Sendable (QueryInput, Schema, [QueryArgument]) throws(QueryError) -> BoundQuery
    public typealias VerifyFunction = @Sendable (BoundQuery, Schema) -> [String]
    public typealias RunFunction = @Sendable (BoundQuery, BlockSnapshot) -> [RowKey]

    public var store: BlockSnapshot
    /// `QueryInput.argumentTexts`, read against `store`; nil where `ArgumentReader` refuses one.
    public var arguments: [QueryArgument?]
    public var compile: CompileFunction
    public var verify: VerifyFunction
    public var execute: RunFunction
    public var maximumTextLength = 2048

    public init(
        store: BlockSnapshot,
        compile: @escaping CompileFunction,
        verify: @escaping VerifyFunction,
        execute: @escaping RunFunction
    ) {
        self.store = store
        self.arguments = QueryInput.argumentTexts.map { try? ArgumentReader.read($0, store: store) }
        self.compile = compile
        self.verify = verify
        self.execute = execute
    }

    /// The real compiler, verifier and evaluator over the demo dataset, loaded once.
    public static let standard: QueryCheck = {
        let store: BlockSnapshot
        do {
            store = try DemoDataset.load()
        } catch {
            fatalError("the demo dataset does not load: \(error)")
        }
        return QueryCheck(
            store: store,
            compile: { (input, schema, arguments) throws(QueryError) in
                // No cache: a cached syntax tree would outlive the input (see CompileCheck).
                try QueryEngine(cache: CompiledQueryCache(capacity: 0)).bind(
                    input.text,
                    dialect: input.dialect,
                    className: input.className,
                    schema: schema,
                    arguments: arguments
                )
            },
            verify: { query, schema in IRVerifier(schema: schema).verify(query) },
            execute: { query, store in ReferenceEvaluator(store: store).run(query) }
        )
    }()

    /// Checks fuzzer bytes and traps with a readable report on a violation, so that libFuzzer
    /// records the input as a crash.
    public func run(_ bytes: UnsafeRawBufferPointer) {
        if let violation = violation(in: QueryInput(bytes: bytes)) {
            fatalError("\n" + violation.description)
        }
    }

    public func run(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { run($0) }
    }

    /// The first violated invariant for `input`, or nil.
    public func violation(in input: QueryInput) -> QueryViolation? {
        guard input.text.utf8.count <= maximumTextLength else { return nil }
        // Every argument the dataset accepts (all of them, checked by a test); a refused one is
        // left out, which the binder reports as a missing argument.
        let supplied = input.argumentIndices.compactMap { arguments[$0] }
        let query: BoundQuery
        do {
            query = try compile(input, store.schema, supplied)
        } catch {
            return spanViolation(of: error, input: input)
        }
        return boundViolation(of: query, input: input)
    }

    // MARK: - Invariant 2: error spans

    private func spanViolation(of error: QueryError, input: QueryInput) -> QueryViolation? {
        let span = error.diagnostic.span
        if let problem = spanProblem(span, in: input.text) {
            return QueryViolation(
                invariant: .errorSpan,
                input: input,
                detail: "\(problem)\nerror: \(error.category) \(error.diagnostic.message)\n\(spanDescription(span))"
            )
        }
        // Must not trap; the text itself is free-form.
        _ = error.rendered(in: input.text)
        return nil
    }

    // MARK: - Invariants 3 and 4: the verifier and the result rows

    private func boundViolation(of query: BoundQuery, input: QueryInput) -> QueryViolation? {
        func violated(_ invariant: QueryViolation.Invariant, _ what: String) -> QueryViolation {
            QueryViolation(invariant: invariant, input: input, bound: IRPrinter.print(query), detail: what)
        }
        let problems = verify(query, store.schema)
        guard problems.isEmpty else {
            return violated(.verifier, "problems:\n" + problems.map { "  - \($0)" }.joined(separator: "\n"))
        }
        guard let table = store.table(named: query.className) else {
            return violated(.result, "the bound query's class '\(query.className)' has no table")
        }
        let keys = execute(query, store)
        var seen = Set<RowKey>()
        for key in keys {
            guard table.position(of: key) != nil else {
                return violated(.result, "key \(key) is not a row of \(query.className) (\(table.rowCount) rows)")
            }
            guard seen.insert(key).inserted else {
                return violated(.result, "key \(key) is returned twice: \(keys)")
            }
        }
        for case .limit(let limit) in query.clauses where keys.count > limit {
            return violated(.result, "\(keys.count) rows returned under LIMIT(\(limit))")
        }
        return nil
    }
}
