import Foundation
import FuzzCommon
import RQLCore
import RQLDatasets
@_spi(Fuzzing) import RQLStorage
import Testing

/// The FuzzStoreFile seeds and minimized crashers, replayed through `StoreFileCheck`.
@Suite("FuzzStoreFile regression replay")
struct StoreFileReplayTests {
    static let fuzzDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func inputs(in folder: String) -> [String] {
        let directory = fuzzDirectory.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { "\(folder)/\($0)" }
    }

    static func bytes(of file: String) throws -> [UInt8] {
        Array(try Data(contentsOf: fuzzDirectory.appendingPathComponent(file)))
    }

    @Test(
        "Minimized crashers no longer break a store file invariant",
        arguments: inputs(in: "Regressions/FuzzStoreFile")
    )
    func regression(file: String) throws {
        let violation = StoreFileCheck.violation(in: try Self.bytes(of: file))
        #expect(violation == nil, "\(file): \(violation ?? "")")
    }

    @Test("Seed corpus inputs keep the store file invariants", arguments: inputs(in: "Corpus/FuzzStoreFile"))
    func seed(file: String) throws {
        let violation = StoreFileCheck.violation(in: try Self.bytes(of: file))
        #expect(violation == nil, "\(file): \(violation ?? "")")
    }

    @Test("The seed corpus is there and the unmodified seeds verify")
    func seedCorpusIsPresent() throws {
        let files = Self.inputs(in: "Corpus/FuzzStoreFile")
        #expect(files.count >= 5)
        var sound = 0
        for file in files where try Self.bytes(of: file).first == UInt8(ascii: "R") {
            let path = NSTemporaryDirectory() + "/rql-seed-\(UUID().uuidString).rql"
            defer {
                try? FileManager.default.removeItem(atPath: path)
            }
            try Data(try Self.bytes(of: file)).write(to: URL(fileURLWithPath: path))
            _ = try BlockStore.verify(path: path)
            sound += 1
        }
        #expect(sound >= 4)
    }
}

/// `StoreFileCheck` on a store with a commit log: the input carries the log after the store's
/// bytes, and the check replays it; mutated records (resealed or not) keep the invariants.
@Suite("FuzzStoreFile: the commit log")
struct StoreFileLogCheckTests {
    /// A store file with `commits` logged commits after its checkpoint, and the log after it.
    static func input(commits: Int) throws -> [UInt8] {
        let directory = NSTemporaryDirectory() + "/rql-fuzz-log-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/log.rql"
        let schema = try DatasetLoader.loadSchema(
            json: #"{"schema": {"Item": {"primaryKey": "id", "properties": {"id": "int", "tags": "list<string>"}}}}"#
        )
        let store = try BlockStore.create(path: path, schema: schema)
        for id in 0..<Int64(commits) {
            _ = try store.write { t in
                try t.insert("Item", ["id": .int(id), "tags": .list([.string("t\(id)")])])
                if id > 0 {
                    try t.set("tags", of: ObjectLink(className: "Item", key: RowKey(0)), to: .list([.string("\(id)")]))
                }
            }
        }
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        // The records alone: the log is preallocated, and mutations of its zeros after the last
        // record would test little.
        let log = Array(try Data(contentsOf: URL(fileURLWithPath: path + ".log")))
        var end = 64
        while end + 4 <= log.count {
            let length = Int(log[end]) | Int(log[end + 1]) << 8 | Int(log[end + 2]) << 16 | Int(log[end + 3]) << 24
            guard length > 0 else { break }
            end += length
        }
        return bytes + log.prefix(end)
    }

    @Test("a store with a log passes, and mutated records are caught or read consistently")
    func mutatedLog() throws {
        let whole = try Self.input(commits: 6)
        #expect(StoreFileCheck.violation(in: whole) == nil)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        let split = try #require(StoreFileCheck.firstIndex(of: BlockStore.commitLogMagic, in: whole))
        for i in 0..<150 {
            var bytes = whole
            if i % 2 == 1 { bytes[0] |= 1 }
            for _ in 0..<(1 + next(3)) {
                bytes[split + 8 + next(whole.count - split - 8)] ^= UInt8(1 + next(255))
            }
            #expect(StoreFileCheck.violation(in: bytes) == nil, "mutation \(i)")
        }
    }
}
