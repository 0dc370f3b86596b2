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
///   rose above where it started (`migration: resident +N MB`): the migration's own peak.
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

    /// Writes the version-1 file once.
    func seed() throws {
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
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
        // Every migration in the process reads a copy it has not opened before.
        let check = migrate()
        guard check == Self.count else { throw MigrationBenchmarkError(message: "migrated \(check) objects") }
    }

    /// Copies the seeded file and migrates the copy; returns the number of objects visited.
    func migrate() -> Int {
        run += 1
        let url = directory.appendingPathComponent("run-\(run).realm")
        try? FileManager.default.removeItem(at: url)
        do {
            try FileManager.default.copyItem(at: seeded, to: url)
            let sampler = ResidentSampler()
            defer {
                let rise = sampler.stop()
                FileHandle.standardError.write(Data("migration: resident +\(rise >> 20) MB\n".utf8))
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
/// and gives the highest rise above the first sample, in bytes.
final class ResidentSampler: @unchecked Sendable {
    // Unchecked: `start`, `peak` and `running` are written by the sampling thread and read
    // after `done` is signalled (or, for `running`, set once under `lock`).
    private let lock = NSLock()
    private var running = true
    private var start = 0
    private var peak = 0
    private let done = DispatchSemaphore(value: 0)

    init() {
        start = Self.resident()
        peak = start
        let thread = Thread { [self] in
            while lock.withLock({ running }) {
                let now = Self.resident()
                lock.withLock { peak = max(peak, now) }
                usleep(1_000)
            }
            done.signal()
        }
        thread.start()
    }

    func stop() -> Int {
        lock.withLock { running = false }
        done.wait()
        return lock.withLock { peak - start }
    }

    static func resident() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

struct MigrationBenchmarkError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
