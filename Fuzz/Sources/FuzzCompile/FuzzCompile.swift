import FuzzCommon

/// libFuzzer's entry point: each input is a generated schema variant and dataset and a query,
/// bound, optimized (with every pass and with none) and compiled to programs the verifier must
/// accept (see `VMInput` for the byte layout, `CompileCheck` for the invariants).
/// Build only with Fuzz/run.sh's recipe; a plain `swift build` links a binary that does not fuzz.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCompile(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    CompileCheck().run(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
