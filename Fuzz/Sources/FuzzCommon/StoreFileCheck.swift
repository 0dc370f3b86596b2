import Foundation
import RQLCore
@_spi(Fuzzing) import RQLStorage

/// The store file reader's invariants, checked on the bytes of one (usually damaged) file:
/// 1. opening returns a store or throws a `StoreFileError` (no trap, no hang);
/// 2. an opened store reads: every table's every block through `withBlock`, every value
///    through `value(at:property:)`, primary-key and index lookups, backlinks;
/// 3. `verify` returns or throws a `StoreFileError`, and when it passes, opening passes at the
///    same version, with no fallback and no damage met by the reads;
/// 4. a fallback is never silent: when open read an older version than the file's newest
///    (`BlockStore.fallback`), `verify` throws.
///
/// Half of the inputs (first byte odd) get their header slot checksums recomputed first
/// (`BlockStore.resealHeaderSlots`), so mutations inside the pages reach the block and tree
/// readers instead of stopping at the commit checksum.
///
/// An input holding the commit log's magic ("RQLCLOG\0") is split there: the bytes from the
/// magic on are the store's commit log (`<path>.log`), replayed on open; resealed inputs get
/// its header and record checksums recomputed too (`BlockStore.resealCommitLog`).
///
///     StoreFileCheck.run(Array(try Data(contentsOf: seed)))   // traps on a violation
public enum StoreFileCheck {
    /// Where inputs are written (a store is read from a file, by mapping it): a fresh name per
    /// input, since tests check inputs in parallel.
    static func freshPath() -> String {
        let directory = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        return "\(directory)/rql-fuzz-store-\(getpid())-\(UUID().uuidString).rql"
    }

    public static func run(_ bytes: UnsafeRawBufferPointer) {
        run(Array(bytes))
    }

    public static func run(_ input: [UInt8]) {
        if let violation = violation(in: input) { fatalError("\n" + violation) }
    }

    /// The first violated invariant, or nil.
    public static func violation(in input: [UInt8]) -> String? {
        var bytes = input
        var log: [UInt8]?
        if let split = firstIndex(of: BlockStore.commitLogMagic, in: bytes) {
            log = Array(bytes[split...])
            bytes.removeSubrange(split...)
        }
        if let first = bytes.first, first & 1 == 1 {
            // The magic starts with 'R' (even); the flag bit is carried by byte 0's low bit:
            // restore it so the file is still recognised, then reseal.
            bytes[0] &= ~1
            BlockStore.resealHeaderSlots(&bytes)
            if log != nil { BlockStore.resealCommitLog(&log!, store: bytes) }
        }
        let path = freshPath()
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return nil }
        defer {
            try? FileManager.default.removeItem(atPath: path)
            // The reader table and the commit log a store keeps beside its file.
            try? FileManager.default.removeItem(atPath: path + ".lock")
            try? FileManager.default.removeItem(atPath: path + ".log")
        }
        if let log, !FileManager.default.createFile(atPath: path + ".log", contents: Data(log)) { return nil }
        var openedVersion: UInt64?
        var fallback: StoreFileError?
        var damage: StoreFileError?
        do {
            let store = try BlockStore.open(path: path, readOnly: true)
            openedVersion = store.snapshot.version
            fallback = store.fallback
            read(store.snapshot)
            damage = store.snapshot.fileDamage
        } catch {
            _ = error.description
        }
        do {
            let info = try BlockStore.verify(path: path)
            guard let openedVersion else { return "verify passed but open failed" }
            guard info.version == openedVersion else {
                return "verify read version \(info.version), open read \(openedVersion)"
            }
            if let fallback { return "verify passed but open fell back: \(fallback)" }
            if let damage { return "verify passed but reading met damage: \(damage)" }
        } catch {
            _ = error.description
        }
        return nil
    }

    /// Where `pattern` first occurs in `bytes`.
    public static func firstIndex(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
        var i = 0
        while i <= bytes.count - pattern.count {
            if bytes[i] == first, bytes[i..<i + pattern.count].elementsEqual(pattern) { return i }
            i += 1
        }
        return nil
    }

    /// Reads everything a query could read.
    static func read(_ snapshot: BlockSnapshot) {
        for objectSchema in snapshot.schema.classes {
            guard let table = snapshot.table(named: objectSchema.name) else { continue }
            for b in 0..<table.blockCount {
                table.withBlock(b) { block in
                    _ = block.rowKeys.reduce(0) { $0 &+ $1.rawValue }
                    _ = block.columns.count
                }
            }
            for position in 0..<Swift.min(table.rowCount, 2_000) {
                _ = table.rowKey(at: position)
                for property in objectSchema.properties.indices {
                    let value = table.value(at: position, property: property)
                    if table.hasIndex(property: property) { _ = table.indexLookup(property: property, equalTo: value) }
                    if property == objectSchema.primaryKeyIndex { _ = table.position(ofPrimaryKey: value) }
                }
                _ = table.backlinkCount(at: position)
                _ = table.position(of: table.rowKey(at: position))
            }
            for property in objectSchema.properties.indices where table.hasFullTextIndex(property: property) {
                _ = table.fullTextLookup(property: property, token: "a", prefix: true)
            }
        }
    }
}
