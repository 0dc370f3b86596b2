import Foundation
import RQLStorage
import Synchronization
import Testing

@testable import RQL

/// A realm's files: `fileExists`, `deleteFiles`, `writeCopy`, `shouldCompactOnLaunch`, and
/// classes stored under another name.
@Suite("Realm files")
struct RealmFilesTests {
    final class Entry: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var text = ""
    }

    /// Stored as "Animal" through realm-swift's hook.
    final class Creature: Object {
        override class func _realmObjectName() -> String? { "Animal" }
        @Persisted var name = ""
    }

    private func fill(_ url: URL, count: Int, deleteAllButOne: Bool = false) throws {
        try Thread.run {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [Entry.self]))
            try realm.write {
                for i in 0..<count {
                    realm.create(Entry.self, value: ["id": i, "text": String(repeating: "x", count: 200)])
                }
            }
            if deleteAllButOne {
                try realm.write { realm.delete(realm.objects(Entry.self).filter("id > 0")) }
            }
        }
    }

    private static func size(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test("fileExists and deleteFiles: an open realm's file is not deleted; a closed one's is, with its lock file")
    func existsAndDelete() throws {
        let url = URL(fileURLWithPath: FileRealmTests.temporaryPath("delete"))
        let configuration = Realm.Configuration(fileURL: url, objectTypes: [Entry.self])
        #expect(!Realm.fileExists(for: configuration))
        #expect(try Realm.deleteFiles(for: configuration) == false)
        var realm: Realm? = try Realm(configuration: configuration)
        try realm?.write { realm?.create(Entry.self, value: ["id": 1]) }
        #expect(Realm.fileExists(for: configuration))
        #expect(throws: Realm.Error.self) { try Realm.deleteFiles(for: configuration) }
        // From another thread too: the realm is open in the process.
        #expect(throws: Realm.Error.self) { try Thread.run { try Realm.deleteFiles(for: configuration) } }
        #expect(Realm.fileExists(for: configuration))
        realm = nil
        #expect(try Realm.deleteFiles(for: configuration))
        #expect(!Realm.fileExists(for: configuration))
        #expect(!FileManager.default.fileExists(atPath: url.path + ".lock"))
    }

    @Test("deleteFiles removes a file no realm has open; reopening starts empty")
    func deleteClosed() throws {
        let url = URL(fileURLWithPath: FileRealmTests.temporaryPath("delete-closed"))
        let configuration = Realm.Configuration(fileURL: url, objectTypes: [Entry.self])
        try fill(url, count: 3)
        #expect(try Realm.deleteFiles(for: configuration))
        #expect(!Realm.fileExists(for: configuration))
        let count = try Thread.run { try Realm(configuration: configuration).objects(Entry.self).count }
        #expect(count == 0)
        try Realm.deleteFiles(for: configuration)
    }

    @Test("writeCopy writes a compacted copy that opens with the same objects, and refuses an existing file")
    func writeCopy() throws {
        let url = URL(fileURLWithPath: FileRealmTests.temporaryPath("copy-source"))
        let copy = URL(fileURLWithPath: FileRealmTests.temporaryPath("copy"))
        defer {
            try? FileManager.default.removeItem(at: url)
            try? FileManager.default.removeItem(at: copy)
        }
        try fill(url, count: 2_000, deleteAllButOne: true)
        try Thread.run {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [Entry.self]))
            try realm.writeCopy(toFile: copy)
            #expect(throws: Realm.Error.self) { try realm.writeCopy(toFile: copy) }
            #expect(throws: Realm.Error.self) { try realm.writeCopy(toFile: copy, encryptionKey: Data(count: 64)) }
        }
        #expect(Self.size(copy) < Self.size(url))
        let ids = try Thread.run {
            try Realm(configuration: Realm.Configuration(fileURL: copy, objectTypes: [Entry.self]))
                .objects(Entry.self).map(\.id)
        }
        #expect(Array(ids) == [0])
    }

    @Test("shouldCompactOnLaunch is asked on the first open in a process and compacts when it says so")
    func compactOnLaunch() throws {
        let url = URL(fileURLWithPath: FileRealmTests.temporaryPath("compact"))
        defer { try? FileManager.default.removeItem(at: url) }
        try fill(url, count: 2_000, deleteAllButOne: true)
        // A new process would open the file for the first time: close it in this one (which
        // writes the commits of its log into the file).
        try StoreRegistry.close(path: url.standardizedFileURL.path)
        let before = Self.size(url)
        let asked = Mutex<[(Int, Int)]>([])
        let configuration = Realm.Configuration(
            fileURL: url,
            shouldCompactOnLaunch: { total, used in
                asked.withLock { $0.append((total, used)) }
                return used < total
            },
            objectTypes: [Entry.self]
        )
        let ids = try Thread.run { try Realm(configuration: configuration).objects(Entry.self).map(\.id) }
        #expect(Array(ids) == [0])
        let calls = asked.withLock { $0 }
        #expect(calls.count == 1)
        #expect(calls.first.map { $0.0 == before && $0.1 < $0.0 } == true)
        #expect(Self.size(url) < before)
        // Not asked again in this process.
        _ = try Thread.run { try Realm(configuration: configuration).objects(Entry.self).count }
        #expect(asked.withLock { $0.count } == 1)
    }

    @Test("shouldCompactOnLaunch through a symbolic link compacts the file it names, which keeps no log")
    func compactOnLaunchThroughSymbolicLink() throws {
        let url = URL(fileURLWithPath: FileRealmTests.temporaryPath("compact-target"))
        let link = URL(fileURLWithPath: FileRealmTests.temporaryPath("compact-link"))
        defer {
            for file in [url.path, link.path] {
                for suffix in ["", ".log", ".lock"] { try? FileManager.default.removeItem(atPath: file + suffix) }
            }
        }
        try fill(url, count: 2_000, deleteAllButOne: true)
        try StoreRegistry.close(path: url.standardizedFileURL.path)
        #expect(FileManager.default.fileExists(atPath: url.path + ".log"))
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: url.path)
        let before = Self.size(url)
        let configuration = Realm.Configuration(
            fileURL: link,
            shouldCompactOnLaunch: { total, used in used < total },
            objectTypes: [Entry.self]
        )
        let ids = try Thread.run { try Realm(configuration: configuration).objects(Entry.self).map(\.id) }
        #expect(Array(ids) == [0])
        // The link still names the file, now compacted; the log beside the file went with the
        // old file (the copy names none), and none was left beside the link.
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == url.path)
        #expect(Self.size(url) < before)
        #expect(!FileManager.default.fileExists(atPath: link.path + ".log"))
        try StoreRegistry.close(path: link.standardizedFileURL.path)
        let direct = Realm.Configuration(fileURL: url, objectTypes: [Entry.self])
        try Thread.run {
            let realm = try Realm(configuration: direct)
            #expect(realm.objects(Entry.self).map(\.id) == [0])
            try realm.write { realm.create(Entry.self, value: ["id": 1, "text": "after"]) }
        }
        try StoreRegistry.close(path: url.standardizedFileURL.path)
        #expect(try Thread.run { try Realm(configuration: direct).objects(Entry.self).count } == 2)
    }

    @Test("shouldCompactOnLaunch is skipped while another store has the file open")
    func compactSkippedWhenShared() throws {
        let url = URL(fileURLWithPath: FileRealmTests.temporaryPath("compact-shared"))
        defer { try? FileManager.default.removeItem(at: url) }
        try fill(url, count: 500, deleteAllButOne: true)
        try StoreRegistry.close(path: url.standardizedFileURL.path)
        let other = try BlockStore.open(path: url.path, readOnly: true)
        let asked = Mutex(0)
        let configuration = Realm.Configuration(
            fileURL: url,
            shouldCompactOnLaunch: { _, _ in
                asked.withLock { $0 += 1 }
                return true
            },
            objectTypes: [Entry.self]
        )
        _ = try Thread.run { try Realm(configuration: configuration).objects(Entry.self).count }
        #expect(asked.withLock { $0 } == 0)
        withExtendedLifetime(other) {}
    }

    @Test("deleteFiles and shouldCompactOnLaunch hold back while another process has the file open through a hard link")
    func otherProcessThroughHardLink() throws {
        let path = FileRealmTests.temporaryPath("held-link")
        let linkPath = path + "-link.realm"
        defer {
            for file in [path, path + ".log", path + ".lock", linkPath, linkPath + ".log", linkPath + ".lock"] {
                try? FileManager.default.removeItem(atPath: file)
            }
        }
        let original = path + "-original.realm"
        defer {
            for suffix in ["", ".log", ".lock"] { try? FileManager.default.removeItem(atPath: original + suffix) }
        }
        #expect(try FileRealmTests.runHelper(["write", original]).status == 0)
        // A link opens only a file whose newest checkpoint names no commit log, as a compacted
        // copy's does: a log the checkpoint names lives beside the other name, out of reach.
        try BlockStore.open(path: original).compact(to: path)
        try FileManager.default.linkItem(atPath: path, toPath: linkPath)
        // The holder publishes in `<link>.lock`, a lock file this process never reads: only its
        // mark on the file shows it.
        let holder = Process()
        holder.executableURL = try FileRealmTests.helper
        holder.arguments = ["hold", linkPath]
        let output = Pipe()
        let input = Pipe()
        holder.standardOutput = output
        holder.standardInput = input
        try holder.run()
        let opened = Self.readLine(output.fileHandleForReading)
        #expect(opened.hasPrefix("open "), "the holder said \(opened)")

        let asked = Mutex(0)
        let compacting = Realm.Configuration(
            fileURL: URL(fileURLWithPath: path),
            shouldCompactOnLaunch: { _, _ in
                asked.withLock { $0 += 1 }
                return true
            }
        )
        _ = try Thread.run { try Realm(configuration: compacting).isEmpty }
        #expect(asked.withLock { $0 } == 0, "compacted a file another process has open")
        let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path))
        #expect {
            try Realm.deleteFiles(for: configuration)
        } throws: { error in
            (error as? Realm.Error)?.code == .fileAccess && "\(error)".contains("another process has it open")
        }
        #expect(FileManager.default.fileExists(atPath: path))

        // Throws, where `write(_:)` traps, when the helper has died: the test fails, the run goes on.
        try input.fileHandleForWriting.write(contentsOf: Data("\n".utf8))
        holder.waitUntilExit()
        #expect(holder.terminationStatus == 0)
        #expect(try Realm.deleteFiles(for: configuration))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// One line of `handle`, read byte by byte: a pipe's handle reads no lines, and reading
    /// to its end would wait for the holder to exit.
    private static func readLine(_ handle: FileHandle) -> String {
        var line = Data()
        while true {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }

    @Test("a class is stored under the name _realmObjectName() gives")
    func storedName() throws {
        let realm = try makeRealm([Creature.self])
        try realm.write { realm.add(Creature(value: ["name": "Rex"])) }
        #expect(realm.schema["Animal"] != nil)
        #expect(realm.dynamicObjects("Animal").first?["name"] as? String == "Rex")
        #expect(Creature.className() == "Animal")
    }
}
