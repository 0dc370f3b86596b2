import RQLEngine

/// The options that choose how a query is compiled and run, shared by `run`, `check` and
/// `explain`: `--engine vm|reference`, `--disable-pass NAME` (repeatable) and `--no-optimize`.
enum EngineFlags {
    static let valuedOptions: Set<String> = ["--engine", "--disable-pass"]
    static let flags: Set<String> = ["--no-optimize"]

    /// The help lines for the engine options.
    static let help = """
          --engine E          vm (default: the optimized plan) or reference (the reference
                              evaluator, the oracle).
          --disable-pass NAME Skip one optimizer pass (repeatable); the passes are
        \(passList)
          --no-optimize       Skip the optimizer: a full scan testing the whole query.
        """

    /// The pass names, comma-separated and wrapped under the option's description.
    private static var passList: String {
        var lines: [String] = []
        var line = ""
        for (index, name) in Optimizer.passNames.enumerated() {
            let item = name + (index == Optimizer.passNames.count - 1 ? "." : ",")
            if !line.isEmpty && line.count + 1 + item.count > 70 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + item
        }
        lines.append(line)
        return lines.map { String(repeating: " ", count: 22) + $0 }.joined(separator: "\n")
    }

    /// The engine the options describe, keeping what it compiles in `cache`; `recordsTrace`
    /// keeps the optimizer's plans for explain.
    static func engine(
        _ list: ArgumentList,
        recordsTrace: Bool = false,
        cache: CompiledQueryCache = .shared
    ) throws(CommandFailure) -> QueryEngine {
        var options = EngineOptions(recordsTrace: recordsTrace)
        if let name = try list.value("--engine") {
            guard let backend = EngineBackend(rawValue: name) else {
                throw .usage("unknown engine '\(name)'; use vm or reference")
            }
            options.backend = backend
        }
        options.optimizes = !list.has("--no-optimize")
        options.disabledPasses = Set(list.values("--disable-pass").map(\.text))
        do {
            return try QueryEngine(options: options, cache: cache)
        } catch {
            throw .usage(error.description)
        }
    }
}
