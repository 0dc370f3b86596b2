/// Whether this binary was compiled with optimizations. Debug timings say nothing about the
/// code that ships (no inlining, no specialization, exclusivity checks on every access), so
/// `rql-bench` refuses to run in a debug build.
public enum BuildConfiguration {
    public static var isDebug: Bool {
        #if DEBUG
        return true
        #else
        return false
        #endif
    }
}
