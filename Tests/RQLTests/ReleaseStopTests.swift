import Foundation
import RQLTestSupport
import Testing

/// Realm Swift's deliberate stops (a bad query in `filter`, a write outside a transaction, a
/// deleted object read…) must say why in the build configuration servers run: an optimized one,
/// where `preconditionFailure` drops its message. Each case runs a release build of
/// `realm-file-helper` in a mode that reaches one stop, and reads its standard error.
///
/// The helper is built optimized by the Benchmarks package (`HelperExecutable`).
@Suite("Deliberate stops in a release build")
struct ReleaseStopTests {

    /// The optimized helper, built once per test run (incremental when nothing changed). The
    /// build runs on a thread of its own and the tests await it: blocking the test runner's few
    /// threads for the minutes an optimized build takes would hold up every other suite.
    actor ReleaseHelper {
        static let shared = ReleaseHelper()
        private var build: Task<Result<URL, HelperBuildFailure>, Never>?

        func url() async throws(HelperBuildFailure) -> URL {
            let build =
                self.build
                ?? Task {
                    await withCheckedContinuation { continuation in
                        Thread {
                            continuation.resume(
                                returning: Result { () throws(HelperBuildFailure) in
                                    try HelperExecutable.realmFile.url()
                                }
                            )
                        }.start()
                    }
                }
            self.build = build
            return try await build.value.get()
        }
    }

    static func run(_ executable: URL, _ arguments: [String]) -> (status: Int32, output: String) {
        do {
            return try runProcess(executable, arguments)
        } catch {
            return (-1, "\(error)")
        }
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
