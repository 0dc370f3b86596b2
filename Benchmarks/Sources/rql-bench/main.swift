// rql-bench: runs the registered benchmarks and prints a table or JSON lines.
// See Benchmarks/README.md.
import BenchmarkKit
import Suites

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func fail(_ message: String) -> Never {
    printError("rql-bench: \(message)")
    exit(1)
}

let options: Options
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    if let message = error.message {
        printError("rql-bench: \(message)\n\(Options.usage)")
        exit(2)
    }
    print(Options.usage)
    exit(0)
}

var registry = Registry()
registry.registerParseBenchmarks()
registry.registerPrintBenchmarks()
registry.registerBaselineBenchmarks(rows: options.rows, seed: options.seed)
registry.registerStorageBenchmarks(rows: options.rows, seed: options.seed)
registry.registerStoreFileBenchmarks(rows: options.rows, seed: options.seed)
registry.registerObjectModelBenchmarks()
registry.registerCollectionBenchmarks()
registry.registerMigrationBenchmarks()
registry.registerVMBenchmarks(rows: options.rows, seed: options.seed)
registry.registerLiveBenchmarks()

let selected = registry.selected(by: options.filter)
if options.list {
    for benchmark in selected { print(benchmark.key) }
    exit(0)
}
if BuildConfiguration.isDebug {
    fail("refusing to run a debug build: its timings are meaningless. Build with -c release.")
}
if selected.isEmpty {
    fail("no benchmark matches '\(options.filter ?? "")'; --list shows them")
}

let runner = Runner(options: options)
var report = Report(json: options.json)
var failures = 0
for benchmark in selected {
    do {
        report.add(benchmark, try runner.measure(benchmark))
    } catch {
        printError("rql-bench: \(benchmark.key): \(error)")
        failures += 1
    }
}
exit(failures == 0 ? 0 : 1)
