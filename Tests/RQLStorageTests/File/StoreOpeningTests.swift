import Foundation
import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage

#if canImport(Glibc)
import Glibc
#endif

/// What opening and creating a store file does with whatever is at the path: special files are
/// refused by what they are (never waited on, never read without end), an empty file is said to
/// be empty (read-only) or becomes a store (read-write), nothing is created beside a file that is
/// not a store, and processes creating one store at once all end with the one store.
@Suite("Store file: opening and creating")
struct StoreOpeningTests {
    static let schema: Schema = {
        do {
            return try DatasetLoader.loadSchema(json: StoreCrashTests.schemaJSON)
        } catch {
            fatalError("the test schema reads: \(error)")
        }
    }()

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    @Test("a FIFO, a directory and a device are refused by what they are, at once, read-only or not")
    func specialFiles() throws {
        let directory = try TemporaryDirectory("open")
        let fifo = directory.path("fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        let cases: [(String, String)] = [
            (fifo, "a FIFO (named pipe)"), (directory.url.path, "a directory"), ("/dev/zero", "a character device"),
        ]
        for (path, kind) in cases {
            for readOnly in [true, false] {
                #expect(throws: StoreFileError(path: path, problem: .notRegularFile(kind: kind))) {
                    _ = try BlockStore.open(path: path, readOnly: readOnly)
                }
            }
            #expect(throws: StoreFileError(path: path, problem: .notRegularFile(kind: kind))) {
                _ = try BlockStore.open(path: path, creatingWith: Self.schema)
            }
        }
        #expect(!Self.exists(fifo + ".lock"))
        #expect(throws: StoreFileError(path: "/dev/zero", problem: .notRegularFile(kind: "a character device"))) {
            try BlockStore.checkRegularFile(path: "/dev/zero")
        }
    }

    @Test("a file that is not a store is refused before anything is created beside it")
    func notAStore() throws {
        let directory = try TemporaryDirectory("open")
        let path = directory.path("plain.txt")
        try Data("just some text\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreFileError(path: path, problem: .badMagic)) { _ = try BlockStore.verify(path: path) }
        #expect(throws: StoreFileError(path: path, problem: .badMagic)) {
            _ = try BlockStore.open(path: path, creatingWith: Self.schema)
        }
        #expect(!Self.exists(path + ".lock"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "just some text\n")
    }

    @Test("an empty file is 'empty' read-only, with no lock file made, and becomes an empty store read-write")
    func emptyFile() throws {
        let directory = try TemporaryDirectory("open")
        let path = directory.path("empty.rql")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(throws: StoreFileError(path: path, problem: .emptyFile)) {
            _ = try BlockStore.open(path: path, readOnly: true)
        }
        #expect(throws: StoreFileError(path: path, problem: .emptyFile)) { _ = try BlockStore.verify(path: path) }
        #expect(!Self.exists(path + ".lock"))
        let store = try BlockStore.open(path: path, creatingWith: Self.schema)
        #expect(store.snapshot.version == 0)
        #expect(store.snapshot.schema.classes.map(\.name) == ["Item", "Counter"])
        try store.write { _ = try $0.insert("Counter", ["value": .int(7)]) }
        let again = try BlockStore.open(path: path, readOnly: true)
        #expect(again.snapshot.version == 1)
        #expect(again.snapshot.table(named: "Counter")?.rowCount == 1)
        // Opened read-write with no schema given, an empty file becomes a store with no classes.
        let bare = directory.path("bare.rql")
        #expect(FileManager.default.createFile(atPath: bare, contents: nil))
        #expect(try BlockStore.open(path: bare).snapshot.schema.classes.isEmpty)
        #expect(try BlockStore.verify(path: bare).version == 0)
    }

    @Test("a missing file: open names it, open(creatingWith:) creates it, create refuses an existing one")
    func missingFile() throws {
        let directory = try TemporaryDirectory("open")
        let path = directory.path("new.rql")
        #expect(
            throws: StoreFileError(path: path, problem: .io(operation: "open", reason: "No such file or directory"))
        ) {
            _ = try BlockStore.open(path: path, readOnly: true)
        }
        #expect(!Self.exists(path + ".lock"))
        let created = try BlockStore.open(path: path, creatingWith: Self.schema)
        #expect(created.snapshot.version == 0)
        #expect(throws: StoreFileError(path: path, problem: .exists)) {
            _ = try BlockStore.create(path: path, schema: Self.schema)
        }
        // Creating leaves no temporary file behind; the log is made with the file (its first
        // slot names it).
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        #expect(names == ["new.rql", "new.rql.lock", "new.rql.log"])
    }

    @Test("a symbolic link loop is named as one")
    func symlinkLoop() throws {
        let directory = try TemporaryDirectory("open")
        let (a, b) = (directory.path("a"), directory.path("b"))
        #expect(symlink(a, b) == 0)
        #expect(symlink(b, a) == 0)
        let problem = StoreFileError.Problem.io(operation: "open", reason: String(cString: strerror(ELOOP)))
        #expect(throws: StoreFileError(path: a, problem: problem)) {
            _ = try BlockStore.open(path: a, creatingWith: Self.schema)
        }
        #expect(throws: StoreFileError(path: a, problem: problem)) { _ = try BlockStore.verify(path: a) }
    }

    @Test("a store opened through a symbolic link publishes its readers in the target's lock file")
    func symlinkSharesLockFile() throws {
        let directory = try TemporaryDirectory("open")
        let target = directory.path("target.rql")
        let link = directory.path("link.rql")
        _ = try BlockStore.create(path: target, schema: Self.schema)
        #expect(symlink(target, link) == 0)
        let store = try BlockStore.open(path: link, readOnly: true)
        #expect(store.fileIdentity == FileIdentity(path: target))
        #expect(!Self.exists(link + ".lock"))
        #expect(Self.exists(target + ".lock"))
    }

    /// `count` helper processes started together, each opening or creating the store at `path`
    /// and committing one Item; returns their exit codes and error output.
    static func createTogether(_ path: String, count: Int) throws -> [(Int32, String)] {
        var processes: [(Process, Pipe)] = []
        for _ in 0..<count {
            let process = Process()
            process.executableURL = try StoreCrashTests.helper
            process.arguments = ["create", path]
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            processes.append((process, errors))
        }
        for (process, _) in processes { try process.run() }
        return processes.map { process, errors in
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
    }

    @Test("processes creating one store at once all succeed, and it holds every commit", arguments: [2, 4])
    func concurrentCreation(processes: Int) throws {
        let directory = try TemporaryDirectory("create")
        for trial in 0..<12 {
            let path = directory.path("store-\(trial).rql")
            let results = try Self.createTogether(path, count: processes)
            for (status, errors) in results {
                #expect(status == 0, "trial \(trial): \(errors)")
            }
            let info = try BlockStore.verify(path: path)
            #expect(info.version == UInt64(processes), "trial \(trial)")
            #expect(info.classes.first { $0.name == "Item" }?.objects == processes, "trial \(trial)")
        }
        // No temporary file is left behind.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter {
            $0.contains(".creating-")
        }
        #expect(leftovers.isEmpty)
    }
}
