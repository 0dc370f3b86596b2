// rql-storage-latency: the latency distribution of single-object commits on the block store
// loaded with the benchmark dataset, each commit timed on its own (rql-bench times batches, so
// it reports means; this reports the median and the tail).
//
//     swift build --package-path Benchmarks -c release
//     Benchmarks/.build/release/rql-storage-latency [ROWS] [COMMITS]
import BenchmarkKit
import Suites

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let rows = arguments.first ?? 1_000_000
let commits = arguments.dropFirst().first ?? 10_000
if BuildConfiguration.isDebug {
    printError("rql-storage-latency: refusing to run a debug build")
    exit(1)
}
let state = StorageState(rows: rows, seed: 42)
do {
    try state.prepareStore()
} catch {
    printError("rql-storage-latency: \(error)")
    exit(1)
}

func measure(_ name: String, commits: Int = commits, _ body: () -> Void) {
    for _ in 0..<200 { body() }  // warm-up
    var samples: [Double] = []
    samples.reserveCapacity(commits)
    for _ in 0..<commits {
        let start = MonotonicClock.now()
        body()
        samples.append(Double(MonotonicClock.now() &- start))
    }
    let stats = Statistics(samples)
    print(
        "\(name): \(commits) commits on \(rows) objects: median \(Int(stats.median)) ns, p99 \(Int(stats.percentile(99))) ns, max \(Int(stats.max)) ns"
    )
}

measure("insert one object (in memory)") { state.commitInsert() }
measure("update one property (in memory)") { state.commitUpdate() }

// The same on the dataset in a store file: every commit durable (its pages and header slot
// written, one fdatasync). Then the file's size, and opening it with a first key lookup.
let file = StoreFileState(storage: state)
do {
    var start = MonotonicClock.now()
    try file.prepareFile()
    let bulkMilliseconds = Double(MonotonicClock.now() &- start) / 1e6
    print("bulk insert of \(rows) objects to a file, sync included, and reopen: \(bulkMilliseconds) ms")
    print("file size after the bulk insert: \(file.fileSize) bytes")
    var opens: [Double] = []
    for _ in 0..<50 {
        start = MonotonicClock.now()
        blackHole(file.openAndLookUp())
        opens.append(Double(MonotonicClock.now() &- start))
    }
    let stats = Statistics(opens)
    print("open + first primary-key lookup: median \(Int(stats.median)) ns, p99 \(Int(stats.percentile(99))) ns")
} catch {
    printError("rql-storage-latency: \(error)")
    exit(1)
}
// Each durable commit appends the blocks it changed (a whole block: up to 4,096 rows), and the
// file does not reuse space yet, so fewer of them are timed.
let durableCommits = min(commits, 1_000)
measure("insert one object (durable)", commits: durableCommits) { file.commitInsert() }
measure("update one property (durable)", commits: durableCommits) { file.commitUpdate() }
print("file size after the durable commits: \(file.fileSize) bytes")
