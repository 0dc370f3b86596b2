import Foundation
import Synchronization

/// The programs tests run as processes of their own: a writer killed with SIGKILL, a second user
/// of a realm's file, a deliberate stop. They are executable targets of the Benchmarks package,
/// built optimized there, for two reasons: SwiftPM makes a product of every executable target of
/// a root package, and the root package has exactly three (`RQL`, `RQLEngine`, `rqlc`); and an
/// optimized build is the one a crash and Realm's stops must be tested in (CI builds that package
/// optimized anyway, so the build is shared).
///
/// `bash .ci/test` builds both before `swift test` and says so in `RQL_HELPERS_BUILT`; a plain
/// `swift test` builds each on its first use (minutes on a fresh clone, then seconds).
public enum HelperExecutable: String, CaseIterable, Sendable {
    /// `Tests/StoreCrashHelper`: commits to a store file until killed, holds a version open, and
    /// the other roles `StoreCrashTests` and its neighbours give it.
    case storeCrash = "store-crash-helper"
    /// `Tests/RealmFileHelper`: writes, reads, observes and stops in a realm's file.
    case realmFile = "realm-file-helper"

    /// The executable, built if this process has not built it yet (and `RQL_HELPERS_BUILT` is
    /// unset); a failed build is thrown with its output.
    ///
    /// ```swift
    /// let (status, output) = try runProcess(try HelperExecutable.realmFile.url(), ["read", path])
    /// ```
    public func url() throws(HelperBuildFailure) -> URL {
        let name = rawValue
        return try Self.built.withLock { built throws(HelperBuildFailure) -> URL in
            if let url = built[name] { return url }
            let url = try Self.build(name)
            built[name] = url
            return url
        }
    }

    private static let built = Mutex<[String: URL]>([:])

    /// The Benchmarks package: found from this file upwards, since `Fuzz` compiles this module
    /// through a symbolic link of its own.
    private static var benchmarks: URL {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("Benchmarks")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("Package.swift").path) {
                return candidate
            }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: "Benchmarks")
    }

    private static func build(_ product: String) throws(HelperBuildFailure) -> URL {
        let url = benchmarks.appendingPathComponent(".build/release/\(product)")
        if ProcessInfo.processInfo.environment["RQL_HELPERS_BUILT"] != nil {
            guard FileManager.default.isExecutableFile(atPath: url.path) else {
                throw HelperBuildFailure(output: "RQL_HELPERS_BUILT is set but \(url.path) is not an executable")
            }
            return url
        }
        // SwiftPM reuses a package's build plan while that package's manifest is unchanged, so a
        // source file added to the root package (a path dependency here) would be missing from
        // it and the build would fail. Without the plan it plans again (seconds) and still
        // compiles only what changed.
        for plan in [".build/release.yaml", ".build/release/description.json"] {
            try? FileManager.default.removeItem(at: benchmarks.appendingPathComponent(plan))
        }
        let build: (status: Int32, output: String)
        do {
            build = try runProcess(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["swift", "build", "--package-path", benchmarks.path, "-c", "release", "--product", product]
            )
        } catch {
            throw HelperBuildFailure(output: "\(error)")
        }
        guard build.status == 0 else { throw HelperBuildFailure(output: build.output) }
        return url
    }
}

/// A helper executable that could not be built: `swift build`'s output.
///
/// ```swift
/// do { _ = try HelperExecutable.storeCrash.url() } catch { print(error.output) }
/// ```
public struct HelperBuildFailure: Error, Sendable, CustomStringConvertible {
    public let output: String
    public var description: String { "swift build -c release of a test helper failed:\n\(output)" }
}

/// Runs `executable` with `arguments` to its end: its exit status and its standard output and
/// error, interleaved as written. Throws when it cannot be started.
///
/// ```swift
/// let (status, output) = try runProcess(URL(fileURLWithPath: "/bin/echo"), ["hi"])   // (0, "hi\n")
/// ```
public func runProcess(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
