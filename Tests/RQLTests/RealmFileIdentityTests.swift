import Foundation
import Testing

@testable import RQL

#if canImport(Glibc)
import Glibc
#endif

/// A realm file is one file whatever path reaches it, whoever creates it and however empty it
/// is: realms opened through a symbolic link share one store (one write lock, so a nested write
/// is an error, never a wait on itself); processes creating one realm at once all open the one
/// store; an empty file is initialised as realm-core does.
@Suite("File-backed realms: file identity and creation")
struct RealmFileIdentityTests {
    final class Entry: Object {
        @Persisted var text = ""
    }

    /// A class the store does not have yet: opening a realm that declares it needs a write.
    final class Extra: Object {
        @Persisted var number = 0
    }

    static func directory(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rql-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `body` on a thread of its own and waits for it at most `seconds`: nil when it did
    /// not finish (a deadlock), else what it returned.
    static func finishing<T: Sendable>(
        within seconds: Double,
        _ body: @escaping @Sendable () throws -> T
    ) -> Result<
        T, any Error
    >? {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<T, any Error>?
        let thread = Thread {
            result = Result { try body() }
            done.signal()
        }
        thread.start()
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return result
    }

    @Test("realms of one file opened through a symbolic link share its store; a nested write is an error")
    func symbolicLink() throws {
        let directory = try Self.directory("identity")
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("target.realm")
        let link = directory.appendingPathComponent("link.realm")
        _ = try Realm(configuration: Realm.Configuration(fileURL: target, objectTypes: [Entry.self]))
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let outcome = Self.finishing(within: 60) { () throws -> [String] in
            let direct = try Realm(configuration: Realm.Configuration(fileURL: target, objectTypes: [Entry.self]))
            let linked = try Realm(configuration: Realm.Configuration(fileURL: link, objectTypes: [Entry.self]))
            var nested = "no error"
            try direct.write {
                direct.add(Entry(value: ["text": "one"]))
                do {
                    try linked.write { linked.add(Entry(value: ["text": "two"])) }
                } catch let error as Realm.Error {
                    nested = error.code == .invalidTransaction ? "invalidTransaction" : "\(error)"
                }
            }
            // Committed through one path, read through the other on refresh: one store.
            _ = linked.refresh()
            return [nested, linked.objects(Entry.self).map(\.text).joined(separator: ",")]
        }
        let result = try #require(outcome, "the nested write through the link waited on itself")
        let values = try result.get()
        #expect(values == ["invalidTransaction", "one"], "\(values)")
        #expect(!FileManager.default.fileExists(atPath: link.path + ".lock"))
    }

    @Test(
        "inside a write, opening the same file through a symbolic or hard link with a new class is an error, not a wait",
        arguments: ["symbolic", "hard"]
    )
    func openWithNewClassInsideWrite(linkKind: String) throws {
        let directory = try Self.directory("nested-open")
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("target.realm")
        let link = directory.appendingPathComponent("link.realm")
        _ = try Realm(configuration: Realm.Configuration(fileURL: target, objectTypes: [Entry.self]))
        if linkKind == "symbolic" {
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        } else {
            try FileManager.default.linkItem(at: target, to: link)
        }
        let outcome = Self.finishing(within: 60) { () throws -> [String] in
            let direct = try Realm(configuration: Realm.Configuration(fileURL: target, objectTypes: [Entry.self]))
            let wider = Realm.Configuration(fileURL: link, objectTypes: [Entry.self, Extra.self])
            var nested = "no error"
            try direct.write {
                direct.add(Entry(value: ["text": "one"]))
                do {
                    _ = try Realm(configuration: wider)
                } catch let error as Realm.Error {
                    nested = error.code == .invalidTransaction ? "invalidTransaction" : "\(error)"
                }
            }
            // Once the write is over the same open adds the class, through the one store.
            let linked = try Realm(configuration: wider)
            try linked.write { linked.add(Extra(value: ["number": 7])) }
            _ = direct.refresh()
            return [
                nested,
                linked.objects(Entry.self).map(\.text).joined(separator: ","),
                "\(linked.objects(Extra.self).map(\.number))",
                "\(direct.schema.objectSchema.contains { $0.className == "Extra" })",
            ]
        }
        let result = try #require(outcome, "opening through the link inside the write waited on itself")
        let values = try result.get()
        #expect(values == ["invalidTransaction", "one", "[7]", "true"], "\(values)")
    }

    /// `objects(_:)` cannot throw (its signature is Realm Swift's), so the same refusal through
    /// it is a deliberate stop with the reason, never a wait on itself. Run in a helper process;
    /// `ReleaseStopTests` runs the same mode optimized.
    @Test("inside a write, objects(_:) of a class the file lacks through a hard link stops with the reason")
    func objectsOfNewClassInsideLinkedWrite() throws {
        let path = FileRealmTests.temporaryPath("linked-objects")
        defer {
            for file in [path, path + ".link"] {
                for suffix in ["", ".lock", ".log"] { try? FileManager.default.removeItem(atPath: file + suffix) }
            }
        }
        let stopped = try FileRealmTests.runHelper(["stop-new-class-in-linked-write", path])
        #expect(stopped.status != 0, "\(stopped.output)")
        #expect(!stopped.output.contains("not stopped"), "\(stopped.output)")
        #expect(
            stopped.output.contains(
                "*** Terminating app due to uncaught exception 'RLMException', reason: 'The Realm is already in a write transaction"
            ),
            "\(stopped.output)"
        )
        #expect(stopped.output.contains("adding 'Stray' needs a write of its own"), "\(stopped.output)")
    }

    @Test("an empty file is initialised as a realm read-write, and refused read-only as empty")
    func emptyFile() throws {
        let directory = try Self.directory("empty")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("empty.realm")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        var readOnly = Realm.Configuration(fileURL: url, objectTypes: [Entry.self])
        readOnly.readOnly = true
        #expect {
            _ = try Realm(configuration: readOnly)
        } throws: { error in
            (error as? Realm.Error)?.code == .invalidDatabase && "\(error)".contains("empty file")
        }
        let texts = try Thread.run { () throws -> [String] in
            let realm = try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [Entry.self]))
            try realm.write { realm.add(Entry(value: ["text": "kept"])) }
            return realm.objects(Entry.self).map(\.text)
        }
        #expect(texts == ["kept"])
    }

    @Test("processes creating one realm at once all open the one store and keep every write")
    func concurrentCreation() throws {
        let directory = try Self.directory("create")
        defer { try? FileManager.default.removeItem(at: directory) }
        for trial in 0..<8 {
            let path = directory.appendingPathComponent("shared-\(trial).realm").path
            var processes: [(Process, Pipe)] = []
            for _ in 0..<3 {
                let process = Process()
                process.executableURL = try FileRealmTests.helper
                process.arguments = ["add-dog", path]
                let pipe = Pipe()
                process.standardOutput = pipe
                process.standardError = pipe
                processes.append((process, pipe))
            }
            for (process, _) in processes { try process.run() }
            for (process, pipe) in processes {
                let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                #expect(process.terminationStatus == 0, "trial \(trial): \(output)")
            }
            let read = try FileRealmTests.runHelper(["read", path])
            #expect(read.output.hasPrefix("owners=0 dogs=3 "), "trial \(trial): \(read.output)")
        }
    }
}
