#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The processor time the calling thread spends, for the tests that bound runaway work ("a
/// 40,000-value IN finishes well under a second"). Wall-clock time counts whatever else the
/// machine is doing: on two cores busy with parallel tests and builds, linear work measured
/// 1.0–1.3 s of wall time in runs where it took a fraction of that on the processor. The work
/// these tests time runs on the calling thread, so its thread time is what an exponential or
/// quadratic regression would blow up, and nothing else.
///
///     let (keys, spent) = ThreadCPUTime.measure { try VirtualMachine().run(program, on: store) }
///     #expect(spent < .seconds(1))
public enum ThreadCPUTime {
    /// Runs `body` once and returns its result with the processor time this thread spent in it.
    public static func measure<T>(_ body: () throws -> T) rethrows -> (T, Duration) {
        let start = now()
        let result = try body()
        return (result, now() - start)
    }

    /// This thread's processor time so far.
    public static func now() -> Duration {
        var time = timespec()
        // CLOCK_THREAD_CPUTIME_ID exists on every Linux and Darwin this builds on; it cannot fail.
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
    }
}
