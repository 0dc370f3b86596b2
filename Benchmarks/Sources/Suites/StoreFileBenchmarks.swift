import BenchmarkKit
import Foundation
import RQLCore
import RQLStorage

/// The store file (`BlockStore.create` / `open(path:)`) on the benchmark dataset's `Person` rows:
///
///     rql-bench --filter storage-file/ --samples 5
///
/// - `bulk-file`: a new store file loaded from the dataset's columns in one transaction, commit
///   and its syncs included (rows/s = rows ÷ median); the file size is printed once.
/// - `open-lookup`: open the 1M-object file and look up one primary key.
/// - `open-lookup-log`: the same on a copy of the file whose commit log holds 1,000 records
///   (one-property updates of random objects, no checkpoint after them): open replays them.
/// - `open-lookup-full-log`: the same with a full log: one-property updates up to the default
///   checkpoint threshold (4 MiB, about 40,000 records), the longest log an open can meet.
/// - `Q1`…`Q12` `memory` / `file`: each benchmark query as a plain block-by-block scan over the
///   typed views (`withBlock`), on the in-memory store and on the same rows read from the file
///   (mapped in place): the same loop over the same layout, so equal within noise.
///
/// Durable single-object commits (median and p99) are in `rql-storage-latency`.
extension Registry {
    public mutating func registerStoreFileBenchmarks(rows: Int, seed: UInt64) {
        let state = StoreFileState(storage: StorageState(rows: rows, seed: seed))
        let fields: [(key: String, value: JSONValue)] = [("n", .int(rows))]
        add(
            Benchmark(suite: "storage-file", name: "bulk-file", fields: fields, setUp: { try state.prepare() }) {
                iterations in
                for _ in 0..<iterations { blackHole(state.bulkLoadFile()) }
            }
        )
        add(
            Benchmark(suite: "storage-file", name: "open-lookup", fields: fields, setUp: { try state.prepareFile() }) {
                iterations in
                for _ in 0..<iterations { blackHole(state.openAndLookUp()) }
            }
        )
        add(
            Benchmark(
                suite: "storage-file",
                name: "open-lookup-log",
                fields: fields,
                setUp: { try state.prepareLoggedFile(records: 1_000) }
            ) {
                iterations in
                for _ in 0..<iterations { blackHole(state.openAndLookUp(log: .some)) }
            }
        )
        add(
            Benchmark(
                suite: "storage-file",
                name: "open-lookup-full-log",
                fields: fields,
                setUp: { try state.prepareFullLogFile() }
            ) {
                iterations in
                for _ in 0..<iterations { blackHole(state.openAndLookUp(log: .full)) }
            }
        )
        for (id, scan) in BlockScans.all {
            let text = BenchmarkQuery.all.first { $0.id == id }?.text
            add(
                Benchmark(
                    suite: "storage-file",
                    name: "\(id)-memory",
                    text: text,
                    fields: fields,
                    setUp: { try state.prepareScans() }
                ) {
                    iterations in
                    for _ in 0..<iterations { blackHole(scan(state.memoryTable!)) }
                }
            )
            add(
                Benchmark(
                    suite: "storage-file",
                    name: "\(id)-file",
                    text: text,
                    fields: fields,
                    setUp: { try state.prepareScans() }
                ) {
                    iterations in
                    for _ in 0..<iterations { blackHole(scan(state.fileTable!)) }
                }
            )
        }
    }
}

/// Scratch directories to remove at exit (benchmark state lives until the process ends).
nonisolated(unsafe) private var scratchDirectories: [String] = []

/// Removes `directory` when the process exits, as a benchmark's scratch files outlive the state
/// that made them (the runner exits without releasing its suites).
func removeAtExit(_ directory: String) {
    scratchDirectories.append(directory)
    if scratchDirectories.count == 1 {
        atexit { for directory in scratchDirectories { try? FileManager.default.removeItem(atPath: directory) } }
    }
}

/// The file-backed stores of the benchmark dataset, built lazily in a temporary directory that
/// is removed at exit.
public final class StoreFileState {
    public let storage: StorageState
    public let directory: String
    private var counter = 0
    /// The whole dataset in a file, and that file opened (mapped) again.
    public private(set) var path: String?
    public private(set) var fileStore: BlockStore?
    /// A second file of the dataset with records in its commit log, and the writer that made
    /// them (kept open: closing it would checkpoint them).
    public private(set) var loggedPath: String?
    private var loggedWriter: BlockStore?
    /// A third, whose log is full: as many updates as the default checkpoint threshold lets in.
    public private(set) var fullLogPath: String?
    private var fullLogWriter: BlockStore?
    private var memoryStore: BlockStore?
    var memoryTable: BlockTable? { memoryStore?.snapshot.table(named: "Person") }
    var fileTable: BlockTable? { fileStore?.snapshot.table(named: "Person") }

    public init(storage: StorageState) {
        self.storage = storage
        directory = NSTemporaryDirectory() + "/rql-bench-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        removeAtExit(directory)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    public func prepare() throws { try storage.prepare() }

    func freshPath() -> String {
        counter += 1
        return "\(directory)/bulk-\(counter).rql"
    }

    /// A new store file of every row, committed (synced); the file is removed afterwards.
    public func bulkLoadFile() -> Int {
        let path = freshPath()
        defer {
            try? FileManager.default.removeItem(atPath: path)
        }
        do {
            let store = try BlockStore.create(path: path, schema: storage.schema!)
            let transaction = store.beginWrite()
            try transaction.insert(columns: storage.columns!, into: "Person")
            _ = try transaction.commit()
            return store.snapshot.objectCount
        } catch {
            fatalError("bulk load to a file: \(error)")
        }
    }

    /// The dataset in a file, once, opened for writing (the durable commits use it).
    public func prepareFile() throws {
        try prepare()
        guard path == nil else { return }
        let path = "\(directory)/dataset.rql"
        let store = try BlockStore.create(path: path, schema: storage.schema!)
        let transaction = store.beginWrite()
        try transaction.insert(columns: storage.columns!, into: "Person")
        _ = try transaction.commit()
        self.path = path
        fileStore = try BlockStore.open(path: path)
    }

    /// The file's size in bytes.
    public var fileSize: Int {
        guard let path, let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return 0 }
        return (attributes[.size] as? Int) ?? 0
    }

    private var lookups: Int64 = 0

    /// A copy of the dataset's file whose commit log holds `records` one-property updates of
    /// random objects (durable commits, so this takes a few seconds), once.
    public func prepareLoggedFile(records: Int) throws {
        try prepare()
        guard loggedPath == nil else { return }
        let (path, writer) = try makeLoggedFile(named: "logged.rql", records: records)
        loggedWriter = writer
        loggedPath = path
    }

    /// A copy of the dataset's file whose commit log is full: as many one-property updates of
    /// random objects as fit below the default checkpoint threshold (4 MiB), once: tens of
    /// thousands of durable commits, a minute or more on a slow disk.
    public func prepareFullLogFile() throws {
        try prepare()
        guard fullLogPath == nil else { return }
        // The records of these updates differ by a few bytes at most: the first one's frame
        // length says how many fit.
        let (path, writer) = try makeLoggedFile(named: "full-log.rql", records: 1)
        guard let log = FileHandle(forReadingAtPath: path + ".log") else { throw SuiteError("no log beside \(path)") }
        defer { try? log.close() }
        try log.seek(toOffset: 64)
        let length = try log.read(upToCount: 4).map { $0.enumerated().reduce(0) { $0 | Int($1.1) << (8 * $1.0) } } ?? 0
        guard length > 0 else { throw SuiteError("the first record of \(path).log has no length") }
        let records = (4 << 20 - 64) / length - 1
        for _ in 1..<records { storage.commitUpdate(in: writer) }
        guard try BlockStore.info(path: path).logRecords == records else {
            throw SuiteError("the commit log of \(path) does not hold \(records) records")
        }
        fullLogWriter = writer
        fullLogPath = path
    }

    /// A new copy of the dataset's file at `name` whose log holds `records` one-property
    /// updates, and the writer that made them, which logs every commit and never checkpoints
    /// (closing it would checkpoint the log: keep it open).
    private func makeLoggedFile(named name: String, records: Int) throws -> (String, BlockStore) {
        let path = "\(directory)/\(name)"
        return (path, try makeLoggedFile(at: path, records: records))
    }

    /// A new file of the dataset at `path` whose log holds `records` one-property updates, and
    /// the writer that made them (see `makeLoggedFile(named:records:)`).
    public func makeLoggedFile(at path: String, records: Int) throws -> BlockStore {
        try prepare()
        do {
            let store = try BlockStore.create(path: path, schema: storage.schema!)
            let transaction = store.beginWrite()
            try transaction.insert(columns: storage.columns!, into: "Person")
            _ = try transaction.commit()
        }
        let writer = try BlockStore.open(path: path)
        writer.logsCommits = true
        writer.checkpointThreshold = 1 << 30
        for _ in 0..<records { storage.commitUpdate(in: writer) }
        guard try BlockStore.info(path: path).logRecords == records else {
            throw SuiteError("the commit log of \(path) does not hold \(records) records")
        }
        return writer
    }

    /// Which file `openAndLookUp` opens.
    public enum LogLength { case none, some, full }

    /// Opens the file (`log`: the one with 1,000 records in its commit log, or with a full log)
    /// and looks up one primary key (a different one each time).
    public func openAndLookUp(log: LogLength = .none) -> Int {
        lookups = (lookups &* 6_364_136_223_846_793_005 &+ 1) & 0xFFFFF
        let path: String
        switch log {
        case .none: path = self.path!
        case .some: path = loggedPath!
        case .full: path = fullLogPath!
        }
        return Self.openAndLookUp(path: path, key: lookups % Int64(storage.rowCount))
    }

    /// Opens the file at `path` read-only and looks up Person `key`: its position, or -1.
    @inline(never)
    public static func openAndLookUp(path: String, key: Int64) -> Int {
        do {
            let store = try BlockStore.open(path: path, readOnly: true)
            return store.snapshot.table(named: "Person")!.position(ofPrimaryKey: .int(key)) ?? -1
        } catch {
            fatalError("open: \(error)")
        }
    }

    func prepareScans() throws {
        try prepareFile()
        if memoryStore == nil { memoryStore = storage.bulkLoad() }
        for (id, scan) in BlockScans.all {
            let inMemory = scan(memoryTable!)
            let inFile = scan(fileTable!)
            guard inMemory == inFile else { throw SuiteError("\(id): \(inMemory) in memory, \(inFile) in the file") }
        }
    }

    /// One durable transaction inserting one new Person into the file.
    public func commitInsert() { storage.commitInsert(into: fileStore!) }

    /// One durable transaction setting the age of a random Person in the file.
    public func commitUpdate() { storage.commitUpdate(in: fileStore!) }
}
