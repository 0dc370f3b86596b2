import RQLEngine

extension QueryEngine {
    /// An engine whose backend is the reference evaluator (`--engine reference`, the oracle),
    /// with its own compiled-query cache: what tests of the language's meaning compile and run queries with,
    /// through the same compiled-query API as the VM.
    ///
    /// ```swift
    /// let compiled = try QueryEngine.reference.compile("age > 2", className: "Dog", store: store)
    /// QueryEngine.reference.run(compiled, on: store)   // [RowKey], by the reference evaluator
    /// ```
    public static let reference: QueryEngine = {
        // These options name no pass, so they cannot be refused.
        guard
            let engine = try? QueryEngine(options: EngineOptions(backend: .reference), cache: CompiledQueryCache())
        else { fatalError("the reference engine's options name no pass") }
        return engine
    }()
}
