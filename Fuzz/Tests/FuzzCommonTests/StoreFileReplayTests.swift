import Foundation
import FuzzCommon
import RQLStorage
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
