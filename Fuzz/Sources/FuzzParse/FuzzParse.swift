import FuzzCommon

/// libFuzzer's entry point: every input goes through the parser in both dialects.
/// Build only with Fuzz/run.sh's recipe; a plain `swift build` links a binary that does not fuzz.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParse(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    ParseCheck.standard.run(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
