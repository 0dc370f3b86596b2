import BenchmarkKit
import Foundation
import RQL

/// A schema migration of a large file:
///
///     rql-bench --filter live/migration --samples 3
///     RQL_BENCH_MIGRATION_COUNT=250000 rql-bench --filter live/migration --samples 3
///
/// - `migration`: a file of 1,000,000 `Pet` objects (`id`, `name`, `age`) at schema version 1
///   is opened at version 2, which removes `name` and adds `years`, with a block that sets every
///   new object's `years` from the old object's `age`; the open, the block and the commit are
///   timed (copying the seeded file for each run is timed too, and is small against them). The
///   process's maximum resident set (`/usr/bin/time -v`) includes seeding the file, so each run
///   also samples the resident set while it migrates and prints, on standard error, how far it
///   rose above where it started (`migration: resident +N MB (anonymous +A MB, file +F MB)`):
///   the migration's own peak, and the peaks of its anonymous memory and of its mapped file
///   pages, each on its own. The set-up fails if the first migration of the process (the one
///   that grows a fresh thread's heap) raises the resident set by more than a few blocks
///   (16 MB, or `RQL_BENCH_MIGRATION_RISE_LIMIT_MB`).
extension Registry {
    public mutating func registerMigrationBenchmarks() {
        let state = MigrationBenchmarkState()
        add(
            Benchmark(
                suite: "live",
                name: "migration",
                fields: [("n", .int(MigrationBenchmarkState.count))],
                setUp: { try state.seed() }
            ) { iterations in
                for _ in 0..<iterations { blackHole(state.migrate()) }
            }
        )
    }
}

final class MigrationPetV1: Object {
    override class func className() -> String { "Pet" }
    @Persisted var id = 0
    @Persisted var name = ""
    @Persisted var age = 0
}

final class MigrationPetV2: Object {
    override class func className() -> String { "Pet" }
    @Persisted var id = 0
    @Persisted var age = 0
    @Persisted var years = 0
}

final class MigrationBenchmarkState: @unchecked Sendable {
    /// 1,000,000, or `RQL_BENCH_MIGRATION_COUNT` (the rise at two sizes shows whether the
    /// migration's memory grows with the file).
    static let count = ProcessInfo.processInfo.environment["RQL_BENCH_MIGRATION_COUNT"].flatMap { Int($0) } ?? 1_000_000
    private let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("rql-bench-migration-\(getpid())")
    private var seeded: URL { directory.appendingPathComponent("seed.realm") }
    private var run = 0
    /// The resident set's rise during the last migration.
    private var lastRise = ResidentSampler.Rise()
    /// The most the first migration may raise the resident set, in bytes: a few blocks, at any
    /// count. While glibc kept freed blocks in the thread's arena it rose +15-16 MB at 250k
    /// objects and +73 MB at 1M; since spilling hands them back, +7-8 and +10-11 MB.
    /// `RQL_BENCH_MIGRATION_RISE_LIMIT_MB` sets another.
    static let riseLimit =
        (ProcessInfo.processInfo.environment["RQL_BENCH_MIGRATION_RISE_LIMIT_MB"].flatMap { Int($0) } ?? 16) << 20

    /// Writes the version-1 file once.
    func seed() throws {
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        removeAtExit(directory.path)
        try onThread {
            let realm = try Realm(
                configuration: Realm.Configuration(
                    fileURL: self.seeded,
                    schemaVersion: 1,
                    objectTypes: [MigrationPetV1.self]
                )
            )
            try realm.write {
                var pets: [MigrationPetV1] = []
                pets.reserveCapacity(Self.count)
                for i in 0..<Self.count {
                    pets.append(MigrationPetV1(value: ["id": i, "name": "pet\(i)", "age": i % 20]))
                }
                realm.add(pets)
            }
        }
        // Seeding freed hundreds of megabytes, and glibc gives a new thread the arena of one that
        // ended: a first migration handed the seed's arena would find its pages resident and rise
        // by nothing, whatever it leaves behind. Handed back first, as a fresh process has none.
        #if canImport(Glibc)
        if let trim = dlsym(nil, "malloc_trim") {
            _ = unsafeBitCast(trim, to: (@convention(c) (Int) -> Int32).self)(0)
        }
        #endif
        // Every migration in the process reads a copy it has not opened before.
        let check = migrate()
        guard check == Self.count else { throw MigrationBenchmarkError(message: "migrated \(check) objects") }
        // The first migration of a process is the one whose heap grew with the file (glibc kept
        // the freed blocks in the migration thread's arena): a rise past a few blocks fails.
        guard lastRise.total <= Self.riseLimit else {
            throw MigrationBenchmarkError(
                message:
                    "the first migration's resident set rose +\(lastRise.total >> 10) KB (anonymous +\(lastRise.anonymous >> 10) KB, "
                    + "file +\(lastRise.file >> 10) KB), over the \(Self.riseLimit >> 10) KB of a few blocks (RQL_BENCH_MIGRATION_RISE_LIMIT_MB)"
            )
        }
    }

    /// Copies the seeded file and migrates the copy; returns the number of objects visited.
    func migrate() -> Int {
        run += 1
        let url = directory.appendingPathComponent("run-\(run).realm")
        let log = URL(fileURLWithPath: url.path + ".log")
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.removeItem(at: log)
        do {
            // The checkpoint names its commit log: a copy of the file needs the log beside it.
            try FileManager.default.copyItem(at: seeded, to: url)
            try FileManager.default.copyItem(at: URL(fileURLWithPath: seeded.path + ".log"), to: log)
            let sampler = ResidentSampler()
            defer {
                let rise = sampler.stop()
                lastRise = rise
                FileHandle.standardError.write(
                    Data(
                        "migration: resident +\(rise.total >> 20) MB (anonymous +\(rise.anonymous >> 20) MB, file +\(rise.file >> 20) MB)\n"
                            .utf8
                    )
                )
            }
            let visited = try onThread { () throws -> Int in
                nonisolated(unsafe) var visited = 0
                try Realm.performMigration(
                    for: Realm.Configuration(
                        fileURL: url,
                        schemaVersion: 2,
                        migrationBlock: { migration, _ in
                            migration.enumerateObjects(ofType: "Pet") { old, new in
                                new?["years"] = old?["age"] as? Int ?? 0
                                visited += 1
                            }
                        },
                        objectTypes: [MigrationPetV2.self]
                    )
                )
                return visited
            }
            try? FileManager.default.removeItem(at: url)
            try? FileManager.default.removeItem(at: log)
            return visited
        } catch {
            fatalError("live/migration: \(error)")
        }
    }

    /// Realms are per thread: each step runs on a thread of its own, as a program's would.
    private func onThread<T>(_ body: @escaping () throws -> T) throws -> T {
        nonisolated(unsafe) var result: Result<T, Error>?
        nonisolated(unsafe) let body = body
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            result = Result { try body() }
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        done.wait()
        return try result!.get()
    }
}

/// Samples the process's resident set every millisecond from `/proc/self/statm` until stopped,
/// and gives the highest rise above the first sample, in bytes, with its two halves: anonymous
/// memory (the heap, stacks) and file pages mapped by the process (`statm`'s shared pages).
final class ResidentSampler: @unchecked Sendable {
    /// A resident set split into anonymous memory and mapped file pages, in bytes.
    struct Split {
        var anonymous = 0
        var file = 0
        var total: Int { anonymous + file }
    }

    /// The highest rise of the total, and of each half on its own (their peaks may come at
    /// different moments).
    struct Rise {
        var total = 0
        var anonymous = 0
        var file = 0
    }

    // Unchecked: `start` and `rise` are written by the sampling thread and read after `done` is
    // signalled (under `lock`); `running` is set once under `lock`.
    private let lock = NSLock()
    private var running = true
    private var start = Split()
    private var rise = Rise()
    private let done = DispatchSemaphore(value: 0)

    init() {
        start = Self.resident()
        let thread = Thread { [self] in
            while lock.withLock({ running }) {
                let now = Self.resident()
                lock.withLock {
                    rise.total = max(rise.total, now.total - start.total)
                    rise.anonymous = max(rise.anonymous, now.anonymous - start.anonymous)
                    rise.file = max(rise.file, now.file - start.file)
                }
                usleep(1_000)
            }
            done.signal()
        }
        thread.start()
    }

    func stop() -> Rise {
        lock.withLock { running = false }
        done.wait()
        return lock.withLock { rise }
    }

    static func resident() -> Split {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return Split() }
        let fields = text.split(separator: " ")
        guard fields.count > 2, let pages = Int(fields[1]), let shared = Int(fields[2]) else { return Split() }
        let size = Int(sysconf(Int32(_SC_PAGESIZE)))
        return Split(anonymous: (pages - shared) * size, file: shared * size)
    }
}

struct MigrationBenchmarkError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
