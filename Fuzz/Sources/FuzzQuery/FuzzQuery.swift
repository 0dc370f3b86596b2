import FuzzCommon

/// libFuzzer's entry point: each input is a dialect, a class, arguments and a query, compiled
/// and run against the demo dataset (see `QueryInput` for the byte layout).
/// Build only with Fuzz/run.sh's recipe; a plain `swift build` links a binary that does not fuzz.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQuery(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    QueryCheck.standard.run(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}

/// LeakSanitizer's suppressions: the demo store, loaded once into `QueryCheck.standard` and kept
/// for the whole run, is reported as leaked at exit (its column objects are reachable only
/// through enum payloads LeakSanitizer does not read as pointers), which would make every
/// reproduction and `-minimize_crash` run fail. Only allocations made under that initializer
/// are suppressed.
@_cdecl("__lsan_default_suppressions")
public func leakSuppressions() -> UnsafePointer<CChar> {
    UnsafeRawPointer(suppressions.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// NUL-terminated, as every Swift string literal's storage is.
private let suppressions: StaticString = "leak:FuzzCommon10QueryCheckV8standard\n"
