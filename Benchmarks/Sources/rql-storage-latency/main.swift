// rql-storage-latency: the latency distribution of single-object commits on the block store
// loaded with the benchmark dataset, each commit timed on its own (rql-bench times batches, so
// it reports means; this reports the median and the tail).
//
//     swift build --package-path Benchmarks -c release
//     Benchmarks/.build/release/rql-storage-latency [ROWS] [COMMITS]
//
// `Benchmarks/Scripts/commit_log.py` runs it beside `sqlite_storage.py` and prints the commit
// log's figures, the bare sync's and SQLite's side by side.
import BenchmarkKit
import Foundation
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

// `--loop insert` or `--loop update`: the dataset in a file, then COMMITS durable logged
// commits of that kind and nothing else, untimed: what `strace -c` and `valgrind
// --tool=callgrind` are run on to count the system calls and instructions of a commit (run it
// with two counts and take the difference over the extra commits).
if let flag = CommandLine.arguments.firstIndex(of: "--loop") {
    let kind = CommandLine.arguments.dropFirst(flag + 1).first ?? "insert"
    let file = StoreFileState(storage: state)
    do {
        try file.prepareFile()
    } catch {
        printError("rql-storage-latency: \(error)")
        exit(1)
    }
    for _ in 0..<commits {
        if kind == "update" { file.commitUpdate() } else { file.commitInsert() }
    }
    exit(0)
}

// `ROWS RECORDS --make-log PATH`: the dataset in a new file at PATH whose commit log holds
// RECORDS one-property updates (the process exits without closing the writer, which would
// checkpoint them). `ROWS OPENS --open PATH`: opens PATH read-only and looks up one primary key,
// OPENS times, nothing else: what `valgrind --tool=callgrind --toggle-collect='*openAndLookUp*'`
// counts (`Benchmarks/Scripts/open_log.sh`).
if let flag = CommandLine.arguments.firstIndex(of: "--make-log") {
    let path = CommandLine.arguments.dropFirst(flag + 1).first ?? "logged.rql"
    let records = commits
    do {
        let writer = try StoreFileState(storage: state).makeLoggedFile(at: path, records: records)
        print("\(path): the dataset and \(records) log records")
        // Exits with the writer open: releasing it would checkpoint the records.
        withExtendedLifetime(writer) { exit(0) }
    } catch {
        printError("rql-storage-latency: \(error)")
        exit(1)
    }
    exit(0)
}
if let flag = CommandLine.arguments.firstIndex(of: "--open") {
    let path = CommandLine.arguments.dropFirst(flag + 1).first ?? "logged.rql"
    let opens = commits
    guard opens > 0 else {
        printError("rql-storage-latency: --open needs a count of opens of at least 1 (ROWS OPENS --open PATH)")
        exit(1)
    }
    var samples: [Double] = []
    for i in 0..<opens {
        let start = MonotonicClock.now()
        blackHole(StoreFileState.openAndLookUp(path: path, key: Int64(i * 7919 % rows)))
        samples.append(Double(MonotonicClock.now() &- start))
    }
    let median = Int(Statistics(samples).median)
    print("open + first primary-key lookup of \(path): median \(median) ns over \(opens) opens")
    exit(0)
}

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
    let mean = samples.reduce(0, +) / Double(samples.count)
    print(
        "\(name): \(commits) commits on \(rows) objects: median \(Int(stats.median)) ns, p99 \(Int(stats.percentile(99))) ns, max \(Int(stats.max)) ns, mean \(Int(mean)) ns"
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
// With the commit log off (it is on by default), each durable commit writes the blocks it
// changed (a whole block: up to 4,096 rows) copy-on-write, so fewer of them are timed.
file.fileStore!.logsCommits = false
let durableCommits = min(commits, 1_000)
measure("insert one object (durable)", commits: durableCommits) { file.commitInsert() }
measure("update one property (durable)", commits: durableCommits) { file.commitUpdate() }
print("file size after the durable commits: \(file.fileSize) bytes")

// The floor a durable commit can reach on this disk, in the same run: a bare 4 KiB pwrite and
// fdatasync into a scratch file (measured again after the commit log's rows).
let barePath = file.directory + "/bare-sync"
let bare = open(barePath, O_RDWR | O_CREAT, 0o644)
var page = [UInt8](repeating: 7, count: 4096)
@MainActor func measureBareSync() {
    measure("bare 4 KiB pwrite + fdatasync", commits: durableCommits) {
        page[0] &+= 1
        _ = page.withUnsafeBytes { pwrite(bare, $0.baseAddress, 4096, 0) }
        fdatasync(bare)
    }
}
measureBareSync()

/// Bytes this process handed to write calls (`wchar` of /proc/self/io): what commits write,
/// checkpoints included.
func bytesWritten() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix("wchar:") {
        return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces)) ?? 0
    }
    return 0
}

func bytesPerCommit(_ name: String, _ count: Int, _ body: () -> Void) {
    let before = bytesWritten()
    for _ in 0..<count { body() }
    print("\(name): \((bytesWritten() - before) / count) bytes written per commit over \(count) commits")
}

bytesPerCommit("update one property (durable)", 200) { file.commitUpdate() }

// The same with the commit log: each commit appends one record to `<path>.log` and syncs it;
// a checkpoint writes the touched blocks once the log passes its threshold (4 MiB).
let logged = file.fileStore!
logged.logsCommits = true
let logPath = file.path! + ".log"
func logSize() -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: logPath))?[.size] as? Int) ?? 0
}
measure("insert one object (durable, commit log)", commits: durableCommits) { file.commitInsert() }
measure("update one property (durable, commit log)", commits: durableCommits) { file.commitUpdate() }
measureBareSync()

/// Commits and bare syncs taken in turn, so that both meet the same moments of a loaded disk:
/// the ratio of their medians is the figure to compare with the 1.3× target.
@MainActor func measurePaired(_ name: String, _ body: () -> Void) {
    var page = [UInt8](repeating: 9, count: 4096)
    var commitSamples: [Double] = []
    var bareSamples: [Double] = []
    for i in 0..<(durableCommits + 200) {
        let start = MonotonicClock.now()
        body()
        let middle = MonotonicClock.now()
        page[0] &+= 1
        _ = page.withUnsafeBytes { pwrite(bare, $0.baseAddress, 4096, 0) }
        fdatasync(bare)
        let end = MonotonicClock.now()
        guard i >= 200 else { continue }  // warm-up
        commitSamples.append(Double(middle &- start))
        bareSamples.append(Double(end &- middle))
    }
    let commit = Statistics(commitSamples).median
    let sync = Statistics(bareSamples).median
    print(
        "\(name), paired with a bare 4 KiB pwrite + fdatasync: median \(Int(commit)) ns against \(Int(sync)) ns"
            + String(format: " (%.2fx)", commit / sync)
    )
}
measurePaired("insert one object (durable, commit log)") { file.commitInsert() }
measurePaired("update one property (durable, commit log)") { file.commitUpdate() }
close(bare)
unlink(barePath)
do {
    // Amortized over one checkpoint cycle as the threshold makes it: from a checkpoint, the
    // commits up to and including the one that writes the next checkpoint (the first to write
    // to the store file: logged commits write the log alone).
    _ = try logged.checkpoint()
    func storeModified() -> Int {
        var info = stat()
        stat(file.path!, &info)
        return info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec
    }
    let checkpointedAt = storeModified()
    var before = bytesWritten()
    var cycle = 0
    var start = MonotonicClock.now()
    while cycle < 1_000_000 {
        file.commitUpdate()
        cycle += 1
        if storeModified() != checkpointedAt { break }
    }
    var seconds = Double(MonotonicClock.now() &- start) / 1e9
    print(
        "update one property (durable, commit log): \((bytesWritten() - before) / cycle) bytes written per commit"
            + " over a checkpoint cycle of \(cycle) commits, the checkpoint included; \(Int(Double(cycle) / seconds)) commits/s"
    )
    _ = try logged.checkpoint()
    let checkpointed = file.fileSize + logSize()
    before = bytesWritten()
    start = MonotonicClock.now()
    for _ in 0..<10_000 { file.commitInsert() }
    seconds = Double(MonotonicClock.now() &- start) / 1e9
    print(
        "10,000 durable inserts (commit log): \(Int(10_000 / seconds)) commits/s, \((bytesWritten() - before) / 10_000) bytes written per commit"
    )
    let after = file.fileSize + logSize()
    print("store + log after a checkpoint: \(checkpointed) bytes; after 10,000 more commits: \(after) bytes")
    // Open + first lookup with 1,000 records in the log.
    _ = try logged.checkpoint()
    logged.checkpointThreshold = 1 << 30
    for _ in 0..<1_000 { file.commitUpdate() }
    var opens: [Double] = []
    for _ in 0..<20 {
        let start = MonotonicClock.now()
        blackHole(file.openAndLookUp())
        opens.append(Double(MonotonicClock.now() &- start))
    }
    let stats = Statistics(opens)
    print(
        "open + first primary-key lookup with 1,000 log records: median \(Int(stats.median)) ns, p99 \(Int(stats.percentile(99))) ns"
    )
    // The longest log the threshold lets an open meet: a whole checkpoint cycle of updates.
    for _ in 0..<max(cycle - 1_000, 0) { file.commitUpdate() }
    opens = []
    for _ in 0..<5 {
        let start = MonotonicClock.now()
        blackHole(file.openAndLookUp())
        opens.append(Double(MonotonicClock.now() &- start))
    }
    print(
        "open + first primary-key lookup with \(cycle) log records (a full log): median \(Int(Statistics(opens).median)) ns"
    )
} catch {
    printError("rql-storage-latency: \(error)")
    exit(1)
}
