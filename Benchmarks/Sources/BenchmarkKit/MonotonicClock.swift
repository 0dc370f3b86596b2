#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds from `CLOCK_MONOTONIC`: never steps back, unaffected by NTP slews of the wall clock.
///
///     let start = MonotonicClock.now()
///     work()
///     let elapsed = MonotonicClock.now() &- start   // ns
///
/// Read once at each end of a batch, so the ~20 ns of a `clock_gettime` call is spread over
/// thousands of iterations and does not show in per-iteration times.
public enum MonotonicClock {
    /// The current reading, in nanoseconds since an arbitrary fixed point.
    @inline(__always)
    public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}
