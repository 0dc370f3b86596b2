import RQLCore

/// One named measurement: a body that runs the operation `iterations` times in a row.
///
///     Benchmark(suite: "parse", name: "Q1", text: "age > 90") { iterations in
///         for _ in 0..<iterations { blackHole(try? Parser.parse("age > 90")) }
///     }
///
/// The body runs a whole batch so the clock is read twice per batch, not per iteration, and
/// so the closure call costs nothing measurable against a 10 ms sample.
public struct Benchmark {
    /// The suite's short name, the first column of the report and of `--filter`'s key ("parse").
    public let suite: String
    /// Unique within the suite ("Q1", "Q5+index").
    public let name: String
    /// The value of the JSON `query` key; `name` unless two benchmarks share a query.
    public let query: String
    /// The query text, if the benchmark has one.
    public let text: String?
    /// Extra JSON fields, in order, written between `text` and the timings (`n`, `count`, …).
    public let fields: [(key: String, value: JSONValue)]
    /// The JSON key that repeats the median under a suite-specific name (`baseline_ns`), if any.
    public let medianAlias: String?
    /// Runs before warm-up, untimed: builds inputs and checks the result is right.
    /// Throwing fails the run with the error's description.
    public let setUp: (() throws -> Void)?
    /// Runs the operation `iterations` times.
    public let body: (_ iterations: Int) -> Void

    public init(
        suite: String,
        name: String,
        query: String? = nil,
        text: String? = nil,
        fields: [(key: String, value: JSONValue)] = [],
        medianAlias: String? = nil,
        setUp: (() throws -> Void)? = nil,
        body: @escaping (_ iterations: Int) -> Void
    ) {
        self.suite = suite
        self.name = name
        self.query = query ?? name
        self.text = text
        self.fields = fields
        self.medianAlias = medianAlias
        self.setUp = setUp
        self.body = body
    }

    /// `suite/name`, what `--filter` matches against.
    public var key: String { "\(suite)/\(name)" }
}

/// Every benchmark of one run, in registration order, grouped by suite.
///
///     var registry = Registry()
///     registry.registerParseBenchmarks()
///     registry.add(Benchmark(suite: "parse", name: "Q1") { n in … })
public struct Registry {
    public private(set) var benchmarks: [Benchmark] = []

    public init() {}

    public mutating func add(_ benchmark: Benchmark) {
        precondition(!benchmarks.contains { $0.key == benchmark.key }, "duplicate benchmark \(benchmark.key)")
        benchmarks.append(benchmark)
    }

    /// The suites' names, in the order their first benchmark was added.
    public var suites: [String] {
        var seen: [String] = []
        for benchmark in benchmarks where !seen.contains(benchmark.suite) { seen.append(benchmark.suite) }
        return seen
    }

    /// The benchmarks whose `suite/name` contains `filter` (all of them for `nil`).
    public func selected(by filter: String?) -> [Benchmark] {
        guard let filter, !filter.isEmpty else { return benchmarks }
        return benchmarks.filter { $0.key.contains(filter) }
    }
}
