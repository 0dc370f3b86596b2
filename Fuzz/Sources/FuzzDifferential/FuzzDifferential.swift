import FuzzCommon

/// libFuzzer's entry point: each input is a small generated dataset and a query, run three ways
/// (VM with every pass, VM with none, the reference evaluator) that must agree on keys and counts
/// (see `VMInput` for the byte layout, `DifferentialCheck` for the invariants).
/// Build only with Fuzz/run.sh's recipe; a plain `swift build` links a binary that does not fuzz.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDifferential(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    DifferentialCheck().run(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
