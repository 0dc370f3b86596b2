import Foundation
import Testing

/// Realm Swift's deliberate stops (a bad query in `filter`, a write outside a transaction, a
/// deleted object read…) must say why in the build configuration servers run: an optimized one,
/// where `preconditionFailure` drops its message. Each case runs a release build of
/// `realm-file-helper` in a mode that reaches one stop, and reads its standard error.
///
/// The release build comes from the Benchmarks package (its `realm-file-helper-release` target
/// is the same source): CI builds that package optimized anyway, so the build made here is the
/// one CI's benchmark step reuses, not a second optimized build of the library.
@Suite("Deliberate stops in a release build")
struct ReleaseStopTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The optimized helper, built once per test run (incremental when nothing changed). The
    /// build runs on a thread of its own and the tests await it: blocking the test runner's few
    /// threads for the minutes an optimized build takes would hold up every other suite.
    actor ReleaseHelper {
        static let shared = ReleaseHelper()
        private var build: Task<Result<URL, BuildFailure>, Never>?

        func url() async throws(BuildFailure) -> URL {
            let build =
                self.build
                ?? Task {
                    await withCheckedContinuation { continuation in
                        Thread { continuation.resume(returning: ReleaseStopTests.buildHelper()) }.start()
                    }
                }
            self.build = build
            return try await build.value.get()
        }
    }

    static func buildHelper() -> Result<URL, BuildFailure> {
        let benchmarks = root.appendingPathComponent("Benchmarks")
        let product = "realm-file-helper-release"
        // SwiftPM reuses a package's build plan while that package's manifest is unchanged, so a
        // source file added to the root package (a path dependency here) would be missing from
        // it and the build would fail. Without the plan it plans again (seconds) and still
        // compiles only what changed.
        for plan in [".build/release.yaml", ".build/release/description.json"] {
            try? FileManager.default.removeItem(at: benchmarks.appendingPathComponent(plan))
        }
        let build = run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["swift", "build", "--package-path", benchmarks.path, "-c", "release", "--product", product]
        )
        guard build.status == 0 else { return .failure(BuildFailure(output: build.output)) }
        return .success(benchmarks.appendingPathComponent(".build/release/\(product)"))
    }

    struct BuildFailure: Error, Sendable, CustomStringConvertible {
        let output: String
        var description: String { "swift build -c release failed:\n\(output)" }
    }

    static func run(_ executable: URL, _ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do {
            try process.run()
        } catch {
            return (-1, "\(error)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func stop(_ mode: String) async throws -> (status: Int32, output: String) {
        let helper = try await ReleaseHelper.shared.url()
        let path = FileRealmTests.temporaryPath(mode)
        defer {
            for file in [path, path + ".link"] {
                for suffix in ["", ".lock", ".log"] { try? FileManager.default.removeItem(atPath: file + suffix) }
            }
        }
        return run(helper, [mode, path])
    }

    @Test(
        "each deliberate stop prints Realm Swift's message in an optimized build",
        arguments: [
            ("stop-bad-query", ["Invalid query", "agee > 2", "^"]),
            ("stop-write-outside", ["Attempting to modify object outside of a write transaction"]),
            ("stop-deleted-read", ["Object has been deleted or invalidated"]),
            ("stop-unknown-class", ["Object type 'Stray' is not managed by the Realm"]),
            ("stop-wrong-key-type", ["Invalid value 'one' of type 'String' for 'Owner.id' primary key"]),
            ("stop-sum-of-string", ["sum is not supported for string property 'Dog.name'."]),
            (
                "stop-new-class-in-linked-write",
                ["The Realm is already in a write transaction", "adding 'Stray' needs a write of its own"]
            ),
        ]
    )
    func stopSaysWhy(mode: String, expected: [String]) async throws {
        let stopped = try await Self.stop(mode)
        #expect(stopped.status != 0, "\(stopped.output)")
        #expect(!stopped.output.contains("not stopped"), "\(stopped.output)")
        #expect(
            stopped.output.contains("*** Terminating app due to uncaught exception 'RLMException', reason: '"),
            "\(stopped.output)"
        )
        for text in expected {
            #expect(stopped.output.contains(text), "\(text) missing from: \(stopped.output)")
        }
    }

    @Test("the helper is optimized: a plain preconditionFailure's message is dropped")
    func helperIsOptimized() async throws {
        let stopped = try await Self.stop("stop-plain-precondition")
        #expect(stopped.status != 0, "\(stopped.output)")
        #expect(!stopped.output.contains("not stopped"), "\(stopped.output)")
        #expect(!stopped.output.contains("a message only an unoptimized build prints"), "\(stopped.output)")
    }
}
