import Foundation

@_spi(Fuzzing)
extension BlockStore {
    /// Recomputes the header slots' checksums of a store file's bytes (the slot checksum, and
    /// the data checksum over the commit's bytes when they are in range), so a fuzzer's mutation
    /// of the pages reaches the readers instead of stopping at the checksum. Block and node
    /// checksums (checked on first read) are left as they are.
    public static func resealHeaderSlots(_ bytes: inout [UInt8]) {
        for offset in FileHeader.slotOffsets where offset + FileHeader.slotSize <= bytes.count {
            var slot: HeaderSlot?
            bytes.withUnsafeBytes { raw in
                var reader = ByteReader(
                    UnsafeRawBufferPointer(rebasing: raw[offset..<offset + FileHeader.slotSize]),
                    base: 0,
                    what: "slot"
                )
                guard let version = try? reader.u64(), let rootOffset = try? reader.u64(),
                    let rootLength = try? reader.u64(), let writtenLength = try? reader.u64(),
                    let fileEnd = try? reader.u64(),
                    let dataChecksum = try? reader.u64(), let flags = try? reader.u64()
                else { return }
                var resealed = HeaderSlot(
                    version: version,
                    rootOffset: rootOffset,
                    rootLength: rootLength,
                    writtenLength: writtenLength,
                    fileEnd: fileEnd,
                    dataChecksum: dataChecksum,
                    pagesSynced: flags == 2
                )
                let read = { (at: UInt64, length: UInt64) throws(StoreFileError.Problem) -> [UInt8] in
                    guard at <= UInt64(raw.count), length <= UInt64(raw.count) - at else {
                        throw .pointerOutOfRange(what: "the commit", offset: at)
                    }
                    return Array(raw[Int(at)..<Int(at + length)])
                }
                if let checksum = try? resealed.commitChecksum(read) { resealed.dataChecksum = checksum }
                slot = resealed
            }
            if let slot { bytes.replaceSubrange(offset..<offset + FileHeader.slotSize, with: slot.encoded()) }
        }
    }
}
