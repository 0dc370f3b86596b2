import RQLCore

/// A block on disk is a part directory, then its packed in-memory form (`Block.packed()`): the
/// row keys' arrays (part 0), then each column's arrays in property order (part `c + 1`), every
/// array at the next 16-byte boundary from the start of the parts (64-byte aligned in the file).
///
/// ```
/// u64 part count (columns + 1); per part: u64 end (bytes from the start of the parts), u64
/// checksum of the part's bytes; zeros to a multiple of 64 bytes. Then the parts, back to back.
/// ```
///
/// The root stores each block's offset, length, row count, first key and the directory's
/// checksum; the directory holds each part's. A reader checks the directory, then each part
/// when it first reads it: a query that reads one column checks and pages in that column
/// alone, and still uses no byte that a checksum has not covered.
///
/// Reading builds `ByteArray`s that point into the read-only mapping (nothing is decoded or
/// copied) after checking that every array lies inside its part and that every offsets array
/// starts at 0, never decreases and ends inside its bytes, so no later read can leave the part.
enum BlockCoding {
    /// What names a block and its columns in a problem.
    typealias Context = (className: String, block: Int, columns: [String])

    /// The bytes to store for `block` and the checksum its reference carries (the directory's),
    /// both checksums by `algorithm` (the file's).
    static func encoded(_ block: Block, algorithm: FileChecksum) -> (bytes: [UInt8], checksum: UInt64) {
        let (packed, ends) = block.packedParts()
        let storage = packed.keys.values.storage
        var directory = ByteWriter()
        directory.u64(UInt64(ends.count))
        var start = 0
        for end in ends {
            directory.u64(UInt64(end))
            directory.u64(algorithm.of(UnsafeRawBufferPointer(start: storage.base + start, count: end - start)))
            start = end
        }
        let size = directorySize(parts: ends.count)
        directory.bytes.append(contentsOf: repeatElement(0, count: size - directory.bytes.count))
        let checksum = algorithm.of(directory.bytes)
        var bytes = directory.bytes
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: storage.base, count: storage.capacity))
        return (bytes, checksum)
    }

    /// The directory's size for `parts` parts: a count and two words a part, to 64 bytes.
    static func directorySize(parts: Int) -> Int { (8 + parts * 16 + 63) / 64 * 64 }

    /// Where each part of a block lies, from its checked directory.
    struct Layout {
        /// The parts' bytes (after the directory).
        let data: UnsafeRawBufferPointer
        let ends: [Int]
        let checksums: [UInt64]
        /// The file's checksum (`FileChecksum(format:)`).
        let algorithm: FileChecksum

        /// Reads and checks the directory of the block in `bytes`, which has `parts` parts and
        /// whose directory's checksum by `algorithm` is `checksum`.
        init(
            _ bytes: UnsafeRawBufferPointer,
            parts: Int,
            checksum: UInt64,
            algorithm: FileChecksum,
            context: Context
        ) throws(StoreFileError.Problem) {
            let size = BlockCoding.directorySize(parts: parts)
            guard bytes.count >= size else {
                throw .blockOffsets(
                    className: context.className,
                    block: context.block,
                    reason: "\(bytes.count) bytes cannot hold a directory of \(parts) parts"
                )
            }
            let directory = UnsafeRawBufferPointer(rebasing: bytes[0..<size])
            guard algorithm.of(directory) == checksum else {
                throw .blockOffsets(
                    className: context.className,
                    block: context.block,
                    reason: "checksum mismatch in the part directory"
                )
            }
            data = UnsafeRawBufferPointer(rebasing: bytes[size...])
            var reader = ByteReader(directory, base: 0, what: "block directory")
            guard try reader.u64() == UInt64(parts) else {
                throw .blockOffsets(
                    className: context.className,
                    block: context.block,
                    reason: "the directory does not list \(parts) parts"
                )
            }
            var ends: [Int] = []
            var checksums: [UInt64] = []
            ends.reserveCapacity(parts)
            checksums.reserveCapacity(parts)
            var previous: UInt64 = 0
            for part in 0..<parts {
                let end = try reader.u64()
                guard end >= previous, end <= UInt64(data.count), end % UInt64(ByteStorage.alignment) == 0 else {
                    throw .blockOffsets(
                        className: context.className,
                        block: context.block,
                        reason: "part \(part) ends at \(end), outside \(previous)...\(data.count) or unaligned"
                    )
                }
                ends.append(Int(end))
                checksums.append(try reader.u64())
                previous = end
            }
            guard previous == UInt64(data.count) else {
                throw .blockOffsets(
                    className: context.className,
                    block: context.block,
                    reason: "the parts end at \(previous), the block at \(data.count)"
                )
            }
            self.ends = ends
            self.checksums = checksums
            self.algorithm = algorithm
        }

        func start(of part: Int) -> Int { part == 0 ? 0 : ends[part - 1] }

        /// Checks part `part` against its checksum.
        func check(_ part: Int, context: Context) throws(StoreFileError.Problem) {
            let bytes = UnsafeRawBufferPointer(rebasing: data[start(of: part)..<ends[part]])
            guard algorithm.of(bytes) == checksums[part] else {
                throw .blockOffsets(
                    className: context.className,
                    block: context.block,
                    reason: "checksum mismatch in \(BlockCoding.name(ofPart: part, context))"
                )
            }
        }
    }

    /// "the row keys" or "column 'name'".
    static func name(ofPart part: Int, _ context: Context) -> String {
        if part == 0 { return "the row keys" }
        return part - 1 < context.columns.count ? "column '\(context.columns[part - 1])'" : "column \(part - 1)"
    }

    /// The block stored in `bytes` (inside `mapping`) with `count` rows of `shapes`, every part
    /// checked against its checksum and every value checked (`verify`).
    static func decode(
        _ bytes: UnsafeRawBufferPointer,
        count: Int,
        shapes: [SegmentShape],
        checksum: UInt64,
        algorithm: FileChecksum,
        mapping: FileMapping,
        context: Context
    ) throws(StoreFileError.Problem) -> Block {
        try checkCount(count, context)
        let layout = try Layout(
            bytes,
            parts: shapes.count + 1,
            checksum: checksum,
            algorithm: algorithm,
            context: context
        )
        let storage = mappedStorage(layout.data, mapping: mapping)
        let keys = try part(0, of: layout, storage, count: count, shapes: shapes, context).rowKeys
        var columns: [Segment] = []
        for c in shapes.indices {
            columns.append(try part(c + 1, of: layout, storage, count: count, shapes: shapes, context))
        }
        return Block(count: count, keys: keys, columns: columns)
    }

    private static func checkCount(_ count: Int, _ context: Context) throws(StoreFileError.Problem) {
        guard count > 0, count <= TableBlock.capacity else {
            throw .blockOffsets(
                className: context.className,
                block: context.block,
                reason: "row count \(count) outside 1...\(TableBlock.capacity)"
            )
        }
    }

    private static func mappedStorage(_ data: UnsafeRawBufferPointer, mapping: FileMapping) -> ByteStorage {
        ByteStorage(
            mapped: data.baseAddress ?? UnsafeRawPointer(bitPattern: 64)!,
            capacity: data.count,
            mapping: mapping
        )
    }

    /// Part `part` of a block, checked against its checksum, then its arrays against its bounds
    /// (the row keys also ascending from 0 up).
    private static func part(
        _ part: Int,
        of layout: Layout,
        _ storage: ByteStorage,
        count: Int,
        shapes: [SegmentShape],
        _ context: Context
    ) throws(StoreFileError.Problem) -> Segment {
        try layout.check(part, context: context)
        var reader = ArrayReader(storage: storage, start: layout.start(of: part), end: layout.ends[part])
        do throws(ArrayReader.Failure) {
            let segment: Segment
            if part == 0 {
                let keys = try reader.fixed(.int, optional: false, count: count)
                if let problem = keyProblem(keys.values.buffer(count: count, as: Int64.self)) {
                    throw ArrayReader.Failure(problem)
                }
                segment = .fixed(keys)
            } else {
                segment = try reader.segment(shapes[part - 1], count: count)
            }
            guard reader.next == layout.ends[part] else {
                throw ArrayReader.Failure("its arrays end at \(reader.next), the directory says \(layout.ends[part])")
            }
            return segment
        } catch {
            throw .blockOffsets(
                className: context.className,
                block: context.block,
                reason: "\(name(ofPart: part, context)): \(error.reason)"
            )
        }
    }

    /// What is wrong with a block's row keys, or nil when they ascend from 0 up. One pass without
    /// branches (it vectorises): every key and every step less one (`next - previous - 1`) is
    /// non-negative exactly when the keys are non-negative and strictly ascending, and no step
    /// overflows while the keys are non-negative; where it fails is searched for only then.
    static func keyProblem(_ keys: UnsafeBufferPointer<Int64>) -> String? {
        guard let first = keys.first else { return nil }
        var signs = first
        var i = 1
        while i < keys.count {
            signs |= keys[i] | (keys[i] &- keys[i &- 1] &- 1)
            i &+= 1
        }
        guard signs < 0 else { return nil }
        if let row = (1..<keys.count).first(where: { keys[$0] <= keys[$0 - 1] }) {
            return "row keys are not ascending at row \(row)"
        }
        return "negative row key"
    }

    /// What the stubs of one table's blocks in one mapping share: made once a table at open,
    /// so a stub holds one reference, not a closure holding each of these.
    final class StoredTable: Sendable {
        let shapes: [SegmentShape]
        /// The file's checksum function (by its format).
        let algorithm: FileChecksum
        let mapping: FileMapping
        let damage: StoreDamage?
        let className: String
        let columns: [String]

        init(
            shapes: [SegmentShape],
            algorithm: FileChecksum,
            mapping: FileMapping,
            damage: StoreDamage?,
            className: String,
            columns: [String]
        ) {
            self.shapes = shapes
            self.algorithm = algorithm
            self.mapping = mapping
            self.damage = damage
            self.className = className
            self.columns = columns
        }

        func context(block: Int) -> Context { (className, block, columns) }
    }

    /// Where a stub's block lies in its table's mapping and what the root says of it.
    struct StoredBlock: Sendable {
        /// The block's bytes, as an address (the mapping outlives the stub: `table` holds it).
        let base: UInt
        let length: Int
        let count: Int
        let firstKey: Int64
        /// The directory's checksum.
        let checksum: UInt64
        /// The block's number in its table, for problems.
        let block: Int
        let table: StoredTable
    }

    /// A block of a file opened for reading: a stub whose parts are each checked on first use
    /// (the directory against `checksum`, the part against the directory's checksum, then its
    /// arrays' bounds) and then mapped. A part that fails the checks reads as `placeholder`
    /// rows, so nothing traps, and the failure goes to `damage`, where throwing readers find it.
    static func lazyBlock(
        _ bytes: UnsafeRawBufferPointer,
        count: Int,
        firstKey: Int64,
        checksum: UInt64,
        algorithm: FileChecksum,
        shapes: [SegmentShape],
        mapping: FileMapping,
        damage: StoreDamage?,
        context: Context
    ) -> Block {
        let table = StoredTable(
            shapes: shapes,
            algorithm: algorithm,
            mapping: mapping,
            damage: damage,
            className: context.className,
            columns: context.columns
        )
        return lazyBlock(
            bytes,
            count: count,
            firstKey: firstKey,
            checksum: checksum,
            block: context.block,
            table: table
        )
    }

    /// `lazyBlock` of block number `block` of `table`.
    static func lazyBlock(
        _ bytes: UnsafeRawBufferPointer,
        count: Int,
        firstKey: Int64,
        checksum: UInt64,
        block: Int,
        table: StoredTable
    ) -> Block {
        let stored = StoredBlock(
            base: UInt(bitPattern: bytes.baseAddress),
            length: bytes.count,
            count: count,
            firstKey: firstKey,
            checksum: checksum,
            block: block,
            table: table
        )
        let parts = BlockParts(columnCount: table.shapes.count, source: .stored(stored))
        return Block(lazy: count, firstKey: firstKey, parts: parts)
    }

    /// Part `index` of the stub `stored` (see `lazyBlock`), checked and mapped, or its
    /// placeholder with the damage recorded.
    static func read(_ index: Int, of stored: StoredBlock) -> Segment {
        let table = stored.table
        let shapes = table.shapes
        let count = stored.count
        let firstKey = stored.firstKey
        let context = table.context(block: stored.block)
        let raw = UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: stored.base), count: stored.length)
        do throws(StoreFileError.Problem) {
            try checkCount(count, context)
            let layout = try Layout(
                raw,
                parts: shapes.count + 1,
                checksum: stored.checksum,
                algorithm: table.algorithm,
                context: context
            )
            let storage = mappedStorage(layout.data, mapping: table.mapping)
            table.mapping.willRead(
                UnsafeRawBufferPointer(rebasing: layout.data[layout.start(of: index)..<layout.ends[index]])
            )
            let segment = try part(index, of: layout, storage, count: count, shapes: shapes, context)
            if index == 0, case .fixed(let keys) = segment, keys.values.load(0, as: Int64.self) != firstKey {
                throw .blockOffsets(
                    className: context.className,
                    block: context.block,
                    reason: "first row key \(keys.values.load(0, as: Int64.self)), the root says \(firstKey)"
                )
            }
            return segment
        } catch {
            table.damage?.record(error)
            let empty = placeholder(count: count, firstKey: firstKey, shapes: index == 0 ? [] : [shapes[index - 1]])
            return index == 0 ? .fixed(empty.keys) : empty.columns[0]
        }
    }

    /// `count` rows of empty values (zero, empty, null) with keys from `firstKey` up: what a
    /// damaged part reads as, so readers never trap.
    static func placeholder(count: Int, firstKey: Int64, shapes: [SegmentShape]) -> Block {
        // Every array of `count` rows with empty variable parts fits in 32 bytes a row plus
        // alignment per array, and a collection's empty element arrays in a few more.
        let size = (shapes.count + 1) * ((count + 1) * 32 + 1024)
        let storage = ByteStorage(capacity: size, isPacked: true)
        storage.base.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        let start = firstKey < Int64.max - Int64(TableBlock.capacity) ? Swift.max(firstKey, 0) : 0
        for i in 0..<count { storage.base.storeBytes(of: start + Int64(i), toByteOffset: i * 8, as: Int64.self) }
        var reader = ArrayReader(storage: storage, start: 0, end: size)
        do throws(ArrayReader.Failure) {
            let keys = try reader.fixed(.int, optional: false, count: count)
            let columns = try shapes.map { shape throws(ArrayReader.Failure) in try reader.segment(shape, count: count)
            }
            return Block(count: count, keys: keys, columns: columns)
        } catch {
            fatalError("an empty block of \(count) rows decodes: \(error.reason)")
        }
    }
}

/// Walks a mapped part's arrays in the order `Block.packed()` lays them out.
private struct ArrayReader {
    struct Failure: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    let storage: ByteStorage
    /// Where the arrays being read must end (a part's end).
    let end: Int
    var next: Int

    init(storage: ByteStorage, start: Int, end: Int) {
        self.storage = storage
        self.end = Swift.min(end, storage.capacity)
        next = start
    }

    mutating func array(_ bytes: Int, _ what: String) throws(Failure) -> ByteArray {
        guard bytes >= 0, next <= end, bytes <= end - next else {
            throw Failure("\(what) needs \(bytes) bytes at \(next), the part ends at \(end)")
        }
        let array = ByteArray(storage: storage, offset: next, capacity: bytes)
        next += (bytes + ByteStorage.alignment - 1) / ByteStorage.alignment * ByteStorage.alignment
        return array
    }

    mutating func nulls(count: Int) throws(Failure) -> ByteArray {
        let words = NullBits.wordCount(count)
        let array = try array(words * 8, "a null bitmap")
        if count & 63 != 0 {
            let last = array.load(words - 1, as: UInt64.self)
            guard last >> UInt64(count & 63) == 0 else { throw Failure("null bits set past the row count") }
        }
        return array
    }

    mutating func fixed(_ type: FixedType, optional: Bool, count: Int) throws(Failure) -> FixedSegment {
        let (bytes, overflow) = count.multipliedReportingOverflow(by: type.stride)
        guard !overflow else { throw Failure("\(count) values overflow") }
        let values = try array(bytes, "values")
        if type == .bool {
            let raw = values.buffer(count: count, as: UInt8.self)
            guard raw.allSatisfy({ $0 <= 1 }) else { throw Failure("a bool that is neither 0 nor 1") }
        }
        return FixedSegment(type: type, values: values, nulls: optional ? try nulls(count: count) : nil)
    }

    /// An offsets array of `count + 1` `Int`s from 0, non-decreasing; returns it and its last entry.
    mutating func offsets(count: Int) throws(Failure) -> (ByteArray, Int) {
        let offsets = try array((count + 1) * 8, "offsets")
        let entries = offsets.buffer(count: count + 1, as: Int.self)
        guard entries[0] == 0 else { throw Failure("offsets start at \(entries[0]), not 0") }
        // One pass without branches (it vectorises), as `BlockCoding.keyProblem`: every entry and
        // every step is non-negative exactly when the entries never decrease (no step overflows
        // while the entries are non-negative); where it fails is searched for only then.
        var signs = 0
        var i = 1
        while i <= count {
            signs |= entries[i] | (entries[i] &- entries[i &- 1])
            i &+= 1
        }
        if signs < 0, let i = (1...count).first(where: { entries[$0] < entries[$0 - 1] }) {
            throw Failure("offsets decrease at item \(i)")
        }
        return (offsets, entries[count])
    }

    mutating func bytes(isString: Bool, optional: Bool, count: Int) throws(Failure) -> BytesSegment {
        let (offsets, total) = try offsets(count: count)
        let bytes = try array(total, "bytes")
        return BytesSegment(
            isString: isString,
            offsets: offsets,
            bytes: bytes,
            nulls: optional ? try nulls(count: count) : nil
        )
    }

    mutating func segment(_ shape: SegmentShape, count: Int) throws(Failure) -> Segment {
        switch shape {
        case .fixed(let type, let optional):
            return .fixed(try fixed(type, optional: optional, count: count))
        case .bytes(let isString, let optional):
            return .bytes(try bytes(isString: isString, optional: optional, count: count))
        case .mixed:
            return .mixed(
                MixedSegment(encoded: try bytes(isString: false, optional: false, count: count), cache: MixedCache())
            )
        case .collection(let kind, let element):
            let (offsets, elementCount) = try offsets(count: count)
            guard elementCount <= end - next else { throw Failure("\(elementCount) elements cannot fit") }
            let elements = try segment(element, count: elementCount)
            let keys = kind == .map ? try bytes(isString: true, optional: false, count: elementCount) : nil
            return .collection(CollectionSegment(kind: kind, offsets: offsets, elements: elements, keys: keys))
        case .backlinks:
            return .backlinks
        }
    }
}
