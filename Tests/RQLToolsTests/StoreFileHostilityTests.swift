import Foundation
import RQLStorage
import Testing

@testable import RQLTools

#if canImport(Glibc)
import Glibc
#endif

/// `rqlc`'s store commands over whatever a careless or hostile user names: special files are
/// refused by what they are (exit 2, never a wait or an endless read), an empty file is said to
/// be empty or becomes a store, a failure under way is exit 1 (not the usage code), and a
/// dataset with fewer properties than the store's class is imported with defaults.
@Suite("rqlc: store files against hostile paths")
struct StoreFileHostilityTests {
    typealias Directory = StoreCommandTests.Directory

    @Test("info, verify and export of a FIFO are refused at once, naming a FIFO")
    func fifo() throws {
        let directory = try Directory()
        let fifo = directory.path("fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        for command in ["info", "verify", "export"] {
            let result = RQLCommand.run([command, fifo])
            #expect(result.exitCode == 2, "\(command)")
            #expect(result.standardError.contains("not a regular file: it is a FIFO (named pipe)"), "\(command)")
        }
    }

    @Test("a directory where a store is expected is named as one, and nothing is made beside it")
    func directory() throws {
        let directory = try Directory()
        for command in ["info", "verify", "export"] {
            let result = RQLCommand.run([command, directory.url.path])
            #expect(result.exitCode == 2, "\(command)")
            #expect(result.standardError.contains("it is a directory"), "\(command): \(result.standardError)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.url.path + ".lock"))
    }

    @Test("an empty file: info and verify say 'empty file' (exit 1); import makes it a store")
    func emptyFile() throws {
        let directory = try Directory()
        let store = directory.path("empty.rql")
        #expect(FileManager.default.createFile(atPath: store, contents: nil))
        for command in ["info", "verify"] {
            let result = RQLCommand.run([command, store])
            #expect(result.exitCode == 1, "\(command)")
            #expect(result.standardError.contains("empty file"), "\(command): \(result.standardError)")
        }
        // export takes a dataset too: an empty one is an empty JSON text.
        #expect(RQLCommand.run(["export", store]).exitCode == 1)
        #expect(!FileManager.default.fileExists(atPath: store + ".lock"))
        let dataset = directory.path("d.json")
        try #"{"schema": {"Dog": {"properties": {"age": "int"}}}, "objects": {"Dog": [{"age": 3}]}}"#
            .write(toFile: dataset, atomically: false, encoding: .utf8)
        let imported = RQLCommand.run(["import", dataset, store])
        #expect(imported.exitCode == 0, "\(imported.standardError)")
        let count = RQLCommand.run(["run", "--data", store, "--class", "Dog", "--count", "age == 3"])
        #expect(count.standardOutput == "1\n")
    }

    @Test("a dataset with fewer properties than the store's class is imported, the rest taking defaults")
    func fewerProperties() throws {
        let directory = try Directory()
        let store = directory.path("dogs.rql")
        let full = directory.path("full.json")
        let fewer = directory.path("fewer.json")
        try #"""
        {"schema": {"Dog": {"properties": {"name": "string", "age": "int", "tags": "list<string>", "owner": "Person?"}},
                    "Person": {"properties": {"name": "string"}}},
         "objects": {"Person": [{"name": "Ann"}], "Dog": [{"name": "Rex", "age": 3, "tags": ["a"], "owner": 0}]}}
        """#.write(toFile: full, atomically: false, encoding: .utf8)
        try #"{"schema": {"Dog": {"properties": {"name": "string"}}}, "objects": {"Dog": [{"name": "Fido"}]}}"#
            .write(toFile: fewer, atomically: false, encoding: .utf8)
        #expect(RQLCommand.run(["import", full, store]).exitCode == 0)
        let imported = RQLCommand.run(["import", fewer, store])
        #expect(imported.exitCode == 0, "\(imported.standardError)")
        let fido = RQLCommand.run(["run", "--data", store, "--class", "Dog", "name == 'Fido'"])
        #expect(fido.standardOutput == #"{"name":"Fido","age":0,"tags":[],"owner":null}"# + "\n")
        #expect(RQLCommand.run(["verify", store]).exitCode == 0)
    }

    @Test("a failure under way (a full disk) exits 1; a path that cannot be opened exits 2")
    func exitCodes() {
        let full = StoreFileError(path: "s.rql", problem: .io(operation: "pwrite", reason: "No space left on device"))
        #expect(StoreFileSource.failure(full).exitCode == 1)
        let sync = StoreFileError(path: "s.rql", problem: .io(operation: "fdatasync", reason: "Input/output error"))
        #expect(StoreFileSource.failure(sync).exitCode == 1)
        let missing = StoreFileError(path: "s.rql", problem: .io(operation: "open", reason: "No such file"))
        #expect(StoreFileSource.failure(missing).exitCode == 2)
        let fifo = StoreFileError(path: "f", problem: .notRegularFile(kind: "a FIFO (named pipe)"))
        #expect(StoreFileSource.failure(fifo).exitCode == 2)
        #expect(StoreFileSource.failure(StoreFileError(path: "e", problem: .emptyFile)).exitCode == 1)
    }

    @Test("/dev/zero as a dataset fails at its first byte; as a store it is refused")
    func devZero() throws {
        let directory = try Directory()
        let store = directory.path("new.rql")
        let imported = RQLCommand.run(["import", "/dev/zero", store])
        #expect(imported.exitCode == 1)
        #expect(imported.standardError.contains("offset 0"), "\(imported.standardError)")
        #expect(!FileManager.default.fileExists(atPath: store))
        let run = RQLCommand.run(["run", "--data", "/dev/zero", "--class", "Dog", "--count", "TRUEPREDICATE"])
        #expect(run.exitCode == 1)
        let exported = RQLCommand.run(["export", "/dev/zero"])
        #expect(exported.exitCode == 2)
        #expect(exported.standardError.contains("it is a character device"))
    }
}
