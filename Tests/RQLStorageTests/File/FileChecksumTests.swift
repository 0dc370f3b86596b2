import Foundation
import RQLCore
import RQLTestSupport
import Testing

@testable import RQLStorage

/// The two checksums and the format version that says which a file uses: a file of format 5
/// is checksummed with `fourLanes`, files of 3 and 4 with `twoChains`, read and written as what
/// they are, and a file is never read with the other one's checksums.
@Suite("Store file: checksums and the format that names them")
struct FileChecksumTests {
    /// Bytes that are not all alike: `count` of a fixed sequence.
    static func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    }

    /// `count` bytes of a fixed pseudo-random sequence.
    static func random(_ count: Int) -> [UInt8] {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    @Test(
        "the checksums of fixed inputs do not change: each is part of a file format",
        arguments: [
            (0, 0x23B1_3F16_DF4F_E593, 0xEF46_DB37_51D8_E999),
            (1, 0x2296_401B_296E_92AE, 0xFE34_349E_418E_73D7),
            (7, 0x7831_A1C6_DFE2_9CEE, 0xD279_8263_6326_D010),
            (8, 0x2155_12D0_C1EC_75E7, 0x3DA5_C7AA_2696_83E0),
            (31, 0x0AAC_8CF6_CC6B_1D2C, 0xF22A_4F3A_7B17_1663),
            (32, 0x512D_A5D0_C12C_6242, 0xC81B_A2F1_01FF_7571),
            (33, 0x3182_EFEA_0F4A_B29D, 0x03E9_9271_93A1_4DC7),
            (100, 0x48C5_E480_4FA3_0223, 0xD6F6_D96A_9B0C_8AF5),
            (4096, 0xCA9D_48BD_24D6_8B72, 0xD720_BC1D_2AA1_E25F),
        ] as [(Int, UInt64, UInt64)]
    )
    func pinned(count: Int, twoChains: UInt64, fourLanes: UInt64) {
        let bytes = Self.pattern(count)
        #expect(FileChecksum.twoChains.of(bytes) == twoChains)
        #expect(FileChecksum.fourLanes.of(bytes) == fourLanes)
    }

    @Test("the format version names the checksum; a new file gets the four lanes")
    func formatNamesChecksum() {
        #expect(FileChecksum(format: 3) == .twoChains)
        #expect(FileChecksum(format: 4) == .twoChains)
        #expect(FileChecksum(format: 5) == .fourLanes)
        #expect(FileChecksum(format: FileHeader.formatVersion) == .current)
        #expect(FileChecksum.current == .fourLanes)
        #expect(CommitLog.checksum == .twoChains)
    }

    @Test("four lanes: any change within one word, every single bit flip, is caught for certain")
    func singleWord() {
        // 1 KiB and a tail: stripes, the words and bytes after the last stripe.
        let original = Self.random(1024 + 29)
        let expected = FileChecksum.fourLanes.of(original)
        var bytes = original
        for bit in 0..<(bytes.count * 8) {
            bytes[bit / 8] ^= 1 << UInt8(bit % 8)
            #expect(FileChecksum.fourLanes.of(bytes) != expected, "bit \(bit)")
            bytes[bit / 8] ^= 1 << UInt8(bit % 8)
        }
        for word in 0..<(bytes.count / 8) {
            for fill: UInt8 in [0, 0xFF] {
                bytes.replaceSubrange(word * 8..<word * 8 + 8, with: repeatElement(fill, count: 8))
                if bytes != original { #expect(FileChecksum.fourLanes.of(bytes) != expected, "word \(word) \(fill)") }
                bytes = original
            }
        }
    }

    @Test("four lanes: every pair of bit flips in 128 bytes is caught (no pattern of two cancels)")
    func bitPairs() {
        let original = Self.random(128)
        let expected = FileChecksum.fourLanes.of(original)
        var bytes = original
        var missed = 0
        for first in 0..<(bytes.count * 8) {
            bytes[first / 8] ^= 1 << UInt8(first % 8)
            for second in (first + 1)..<(bytes.count * 8) {
                bytes[second / 8] ^= 1 << UInt8(second % 8)
                if FileChecksum.fourLanes.of(bytes) == expected { missed += 1 }
                bytes[second / 8] ^= 1 << UInt8(second % 8)
            }
            bytes[first / 8] ^= 1 << UInt8(first % 8)
        }
        #expect(missed == 0)
    }

    @Test("four lanes: swapped words, zeroed runs and pages, and every shorter length are caught")
    func multiWordDamage() {
        let original = Self.random(4096)
        let expected = FileChecksum.fourLanes.of(original)
        // Any two different words of the first 512 bytes swapped (in one lane or two).
        var bytes = original
        for a in 0..<64 {
            for b in (a + 1)..<64 where original[a * 8..<a * 8 + 8] != original[b * 8..<b * 8 + 8] {
                bytes.replaceSubrange(a * 8..<a * 8 + 8, with: original[b * 8..<b * 8 + 8])
                bytes.replaceSubrange(b * 8..<b * 8 + 8, with: original[a * 8..<a * 8 + 8])
                #expect(FileChecksum.fourLanes.of(bytes) != expected, "words \(a) and \(b)")
                bytes = original
            }
        }
        // A torn write: from any 64-byte boundary on, zeros (the page before it was written).
        for start in stride(from: 0, to: 4096, by: 64) {
            bytes.replaceSubrange(start..<4096, with: repeatElement(0, count: 4096 - start))
            #expect(FileChecksum.fourLanes.of(bytes) != expected, "zeros from \(start)")
            bytes = original
        }
        // Every length of the same bytes, and of zeros, is a different input.
        var seen = Set<UInt64>()
        for length in 0...512 {
            seen.insert(FileChecksum.fourLanes.of(Array(original[0..<length])))
            seen.insert(FileChecksum.fourLanes.of([UInt8](repeating: 0, count: length)))
        }
        #expect(seen.count == 2 * 513 - 1)
    }

    /// A store of a few rows of ints, strings and lists, in a file of `format`.
    static func makeStore(_ directory: TemporaryDirectory, format: UInt32, rows: Int = 40) throws -> String {
        let source = directory.path("source-\(format).rql")
        let store = try StoreCrashTests.createFile(source)
        try StoreCrashTests.insertItems(0..<rows, into: store) { "item \($0)" }
        let path = directory.path("format-\(format).rql")
        try store.compact(to: path, format: format)
        return path
    }

    @Test("every bit flipped in a block, one at a time, is reported as damage", arguments: [UInt32(4), 5])
    func everyBitOfABlock(format: UInt32) throws {
        let directory = try TemporaryDirectory("checksum-bits")
        let path = try Self.makeStore(directory, format: format)
        let snapshot = try BlockStore.open(path: path, readOnly: true).snapshot
        let table = snapshot.tables[0]
        let place = try #require(table.blocks[0].place)
        let algorithm = FileChecksum(format: format)
        let shapes = table.shapes
        let parts = shapes.count + 1
        let context: BlockCoding.Context = ("Item", 0, table.objectSchema.properties.map(\.name))
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path))[place.offset..<place.offset + place.length])
        /// The problem the block's checks (its directory, then each part) report, nil when sound.
        func problem() -> StoreFileError.Problem? {
            bytes.withUnsafeBytes { raw in
                do throws(StoreFileError.Problem) {
                    let layout = try BlockCoding.Layout(
                        raw,
                        parts: parts,
                        checksum: place.checksum,
                        algorithm: algorithm,
                        context: context
                    )
                    for part in 0..<parts { try layout.check(part, context: context) }
                    return nil
                } catch {
                    return error
                }
            }
        }
        #expect(problem() == nil)
        #expect(bytes.count > 500)
        for bit in 0..<(bytes.count * 8) {
            bytes[bit / 8] ^= 1 << UInt8(bit % 8)
            guard case .blockOffsets("Item", 0, let reason)? = problem(), reason.hasPrefix("checksum mismatch") else {
                Issue.record("bit \(bit) of \(bytes.count * 8): \(String(describing: problem()))")
                return
            }
            bytes[bit / 8] ^= 1 << UInt8(bit % 8)
        }
    }

    @Test("a file of format 4 (two chains) reads, verifies and takes commits as format 4")
    func previousFormatRead() throws {
        let directory = try TemporaryDirectory("checksum-v4")
        let path = try Self.makeStore(directory, format: 4)
        let expected = Fixtures.dump(try BlockStore.open(path: directory.path("source-4.rql"), readOnly: true).snapshot)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes[8] == 4)
        // Its slots are the old checksum's: read with the new one they would not check out.
        let slot = Array(bytes[FileHeader.slotOffsets[1]..<FileHeader.slotOffsets[1] + FileHeader.slotSize])
        #expect(slot.withUnsafeBytes { HeaderSlot.decode($0, .twoChains) } != nil)
        #expect(slot.withUnsafeBytes { HeaderSlot.decode($0, .fourLanes) } == nil)
        #expect(Fixtures.dump(try BlockStore.open(path: path, readOnly: true).snapshot) == expected)
        #expect(try BlockStore.verify(path: path).formatVersion == 4)
        do {
            let store = try BlockStore.open(path: path)
            // The first commit is a checkpoint naming the log, the second a record in it.
            try StoreCrashTests.insertItems(40..<42, into: store) { "later \($0)" }
            try StoreCrashTests.insertItems(42..<45, into: store) { "later \($0)" }
            #expect(try store.checkpoint())
            try StoreCrashTests.insertItems(45..<50, into: store) { "logged \($0)" }
        }
        bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes[8] == 4)
        #expect(try BlockStore.verify(path: path).formatVersion == 4)
        let reopened = try BlockStore.open(path: path, readOnly: true).snapshot
        #expect(reopened.tables[0].rowCount == 50)
    }

    @Test("a file read with the other format's checksum is refused, not misread")
    func wrongChecksumRefused() throws {
        let directory = try TemporaryDirectory("checksum-swap")
        for (format, other) in [(UInt32(4), UInt8(5)), (5, 4)] {
            let path = try Self.makeStore(directory, format: format)
            var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            bytes[8] = other
            try bytes.write(to: URL(fileURLWithPath: path))
            #expect(throws: StoreFileError(path: path, problem: .headerChecksum)) {
                try BlockStore.open(path: path, readOnly: true)
            }
            #expect(throws: StoreFileError(path: path, problem: .headerChecksum)) { try BlockStore.verify(path: path) }
        }
    }

    @Test("the fuzz corpus's store files, written by earlier builds in format 3, still verify")
    func earlierBuildsFiles() throws {
        let corpus = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/FuzzStoreFile")
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted()
        let directory = try TemporaryDirectory("checksum-corpus")
        var verified = 0
        for name in names {
            let bytes = try Data(contentsOf: corpus.appendingPathComponent(name))
            // The seeds that are a store file alone and unmodified (others carry a log or damage).
            guard bytes.starts(with: FileHeader.magic), bytes[8] == 3,
                bytes.count == (try? BlockStore.verify(bytesOf: bytes, in: directory))
            else { continue }
            verified += 1
        }
        #expect(verified >= 4)
    }
}

extension BlockStore {
    /// Verifies `bytes` as a store file written to `directory`; returns their count.
    fileprivate static func verify(bytesOf bytes: Data, in directory: TemporaryDirectory) throws -> Int {
        let path = directory.path("\(UUID().uuidString).rql")
        try bytes.write(to: URL(fileURLWithPath: path))
        _ = try verify(path: path)
        return bytes.count
    }
}
