import Foundation

@_spi(Fuzzing)
extension BlockStore {
    /// Recomputes the header slots' checksums of a store file's bytes (the slot checksum, and
    /// the data checksum over the commit's bytes when they are in range), so a fuzzer's mutation
    /// of the pages reaches the readers instead of stopping at the checksum. Block and node
    /// checksums (checked on first read) are left as they are.
    public static func resealHeaderSlots(_ bytes: inout [UInt8]) {
        for offset in FileHeader.slotOffsets where offset + FileHeader.slotSize <= bytes.count {
            var slot: [UInt8]?
            bytes.withUnsafeBytes { raw in
                let algorithm = FileChecksum(storeHeader: raw)
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
                if let checksum = try? resealed.commitChecksum(read, algorithm) { resealed.dataChecksum = checksum }
                slot = resealed.encoded(algorithm)
            }
            if let slot { bytes.replaceSubrange(offset..<offset + FileHeader.slotSize, with: slot) }
        }
    }

    /// Makes a commit log's bytes fit the store file `store`: its header names the newest
    /// readable slot's checkpoint and checks out, and every record frame (walked by the lengths
    /// it gives) carries the header's generation and a checksum that matches, so a fuzzer's
    /// mutations reach the record decoder and replay.
    public static func resealCommitLog(_ log: inout [UInt8], store storeBytes: [UInt8]) {
        guard log.count >= CommitLog.headerSize else { return }
        var newest: HeaderSlot?
        storeBytes.withUnsafeBytes { raw in
            let algorithm = FileChecksum(storeHeader: raw)
            for offset in FileHeader.slotOffsets where offset + FileHeader.slotSize <= raw.count {
                let slot = HeaderSlot.decode(
                    UnsafeRawBufferPointer(rebasing: raw[offset..<offset + FileHeader.slotSize]),
                    algorithm
                )
                if let slot, slot.version >= newest?.version ?? 0 { newest = slot }
            }
        }
        var generation: UInt64 = 1
        if let header = CommitLog.Header.decode(Array(log[0..<CommitLog.headerSize])) { generation = header.generation }
        var store: UInt64 = 0
        for i in 0..<8 where FileHeader.storeIDOffset + i < storeBytes.count {
            store |= UInt64(storeBytes[FileHeader.storeIDOffset + i]) << (8 * UInt64(i))
        }
        let header = CommitLog.Header(
            generation: generation,
            checkpoint: newest?.version ?? 0,
            checkpointChecksum: newest?.dataChecksum ?? 0,
            store: store
        )
        log.replaceSubrange(0..<CommitLog.headerSize, with: header.encoded())
        var at = CommitLog.headerSize
        while log.count - at >= CommitLog.frameOverhead {
            var length = Int(log[at]) | Int(log[at + 1]) << 8 | Int(log[at + 2]) << 16 | Int(log[at + 3]) << 24
            guard length >= CommitLog.frameOverhead, length % 8 == 0, length <= log.count - at else { return }
            length -= 8
            withUnsafeBytes(of: generation.littleEndian) { log.replaceSubrange(at + 8..<at + 16, with: $0) }
            let checksum = log.withUnsafeBytes {
                CommitLog.checksum.of(UnsafeRawBufferPointer(rebasing: $0[at..<at + length]))
            }
            withUnsafeBytes(of: checksum.littleEndian) { log.replaceSubrange(at + length..<at + length + 8, with: $0) }
            at += length + 8
        }
    }

    /// The magic a commit log starts with (fuzz inputs carry a log after it).
    public static var commitLogMagic: [UInt8] { CommitLog.magic }
}
