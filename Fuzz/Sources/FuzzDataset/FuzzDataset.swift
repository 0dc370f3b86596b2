import FuzzCommon

/// libFuzzer's entry point: every input is a JSON dataset that must load and round-trip
/// through the exporter, or be refused with a `DatasetError`.
/// Build only with Fuzz/run.sh's recipe; a plain `swift build` links a binary that does not fuzz.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDataset(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    DatasetCheck.standard.run(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
