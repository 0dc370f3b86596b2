import FuzzCommon

/// libFuzzer's entry point: every input is a store file (usually a damaged one) that must open
/// and read, or be refused with a `StoreFileError`; `verify` must agree with open.
/// Build only with Fuzz/run.sh's recipe; a plain `swift build` links a binary that does not fuzz.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStoreFile(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    StoreFileCheck.run(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
