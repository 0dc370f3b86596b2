/// The command line of `rql-bench`, parsed by hand (swift-argument-parser is a dependency).
///
///     rql-bench --json --filter parse/Q7 --samples 51
public struct Options: Sendable {
    /// One JSON object per line instead of the table.
    public var json = false
    /// Only benchmarks whose `suite/name` contains this.
    public var filter: String?
    /// Timed samples per benchmark.
    public var samples = 31
    /// Target duration of one sample; the batch size is chosen to reach it.
    public var sampleNanoseconds: UInt64 = 10_000_000
    /// Untimed batches after calibration, so caches, branch predictors and allocator free lists
    /// are in their steady state.
    public var warmUpBatches = 2
    /// Rows of the benchmark dataset (the contract's quick size by default).
    public var rows = 1_000_000
    /// The dataset's seed.
    public var seed: UInt64 = 42
    /// Print the benchmarks' keys and exit.
    public var list = false

    public init() {}

    public static let usage = """
        usage: rql-bench [--json] [--filter SUBSTRING] [--samples N] [--quick] [--rows N] [--seed S] [--list]

          --json            one JSON object per line (see Benchmarks/README.md for the keys)
          --filter S        run only benchmarks whose "suite/name" contains S (e.g. parse, baseline/Q4)
          --samples N       timed samples per benchmark (default 31, at least 5)
          --quick           9 samples of ~2 ms each, one warm-up batch: a smoke run, not a measurement
          --rows N          rows of the benchmark dataset (default 1000000; counts are checked only
                            against the contract's, for 1000000 rows and seed 42)
          --seed S          the dataset's seed (default 42)
          --list            print the benchmarks' names and exit
        """

    /// Parses `arguments` (without the program name).
    public static func parse(_ arguments: [String]) throws(OptionsError) -> Options {
        var options = Options()
        var samplesGiven = false
        var rest = arguments[...]
        func value(for flag: String) throws(OptionsError) -> String {
            guard let v = rest.popFirst() else { throw OptionsError("\(flag) needs a value") }
            return v
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--json": options.json = true
            case "--list": options.list = true
            case "--filter": options.filter = try value(for: argument)
            case "--samples":
                let v = try value(for: argument)
                guard let n = Int(v), n >= 5 else { throw OptionsError("--samples needs an integer ≥ 5, not '\(v)'") }
                options.samples = n
                samplesGiven = true
            case "--quick":
                if !samplesGiven { options.samples = 9 }
                options.sampleNanoseconds = 2_000_000
                options.warmUpBatches = 1
            case "--rows":
                let v = try value(for: argument)
                guard let n = Int(v), n > 0 else { throw OptionsError("--rows needs a positive integer, not '\(v)'") }
                options.rows = n
            case "--seed":
                let v = try value(for: argument)
                guard let s = UInt64(v) else { throw OptionsError("--seed needs an unsigned integer, not '\(v)'") }
                options.seed = s
            case "-h", "--help": throw OptionsError(nil)
            default: throw OptionsError("unknown argument '\(argument)'")
            }
        }
        return options
    }
}

/// A bad command line; `message` is nil when the user asked for help.
public struct OptionsError: Error, Sendable {
    public let message: String?
    init(_ message: String?) { self.message = message }
}
