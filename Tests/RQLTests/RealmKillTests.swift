import Foundation
import RQLCore
import RQLStorage
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A realm's writer killed with SIGKILL at random moments, its commits in the commit log (on by
/// default): every write that returned is there after the kill, with nothing half-applied.
@Suite("File-backed realms: a writer killed during its commits")
struct RealmKillTests {
    /// The Dogs' names in the file at `path`, in key order.
    static func names(_ path: String) throws -> [String] {
        let snapshot = try BlockStore.open(path: path, readOnly: true).snapshot
        guard let table = snapshot.table(named: "Dog"), let name = table.objectSchema.propertyIndex(named: "name")
        else { return [] }
        return table.allKeys.compactMap { key in
            guard case .string(let text)? = table.row(of: key)?.value(name) else { return nil }
            return text
        }
    }

    @Test("20 kills of a process writing one dog a transaction lose no write that returned")
    func killedWriter() throws {
        let path = FileRealmTests.temporaryPath("kill")
        defer { for suffix in ["", ".log", ".lock"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var acknowledged = 0
        var sawLog = false
        for round in 0..<20 {
            let process = Process()
            process.executableURL = try FileRealmTests.helper
            process.arguments = ["commit-loop", path]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32.random(in: 50_000...400_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            if let last = printed.split(separator: "\n").compactMap({ Int($0) }).last { acknowledged = last }
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let info = try BlockStore.verify(path: path)
            sawLog = sawLog || info.logRecords > 0
            let count = info.classes.first { $0.name == "Dog" }?.objects ?? 0
            // The write in flight when the kill came may have landed too.
            #expect(
                count >= acknowledged && count <= acknowledged + 1,
                "round \(round): \(count) after \(acknowledged)"
            )
            #expect(try Self.names(path) == (0..<count).map { "d\($0)" }, "round \(round)")
            acknowledged = count
        }
        #expect(acknowledged > 20)
        #expect(sawLog)
    }
}
