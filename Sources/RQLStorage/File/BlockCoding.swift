import RQLCore

/// A block on disk is its packed in-memory form (`Block.packed()`): the row keys, then each
/// column's arrays in property order, every array at the next 16-byte boundary from the
/// block's start (which is 64-byte aligned in the file). The layout is implied by the schema
/// and the row count, so the root stores only each block's offset, length and row count.
///
/// Reading builds `ByteArray`s that point into the read-only mapping (nothing is decoded or
/// copied) after checking that every array lies inside the block and that every offsets array
/// starts at 0, never decreases and ends inside its bytes, so no later read can leave the block.
enum BlockCoding {
    /// The packed form of `block` (a contiguous storage) and its size in bytes.
    static func packed(_ block: Block) -> (block: Block, storage: ByteStorage) {
        let packed = block.packed()
        return (packed, packed.keys.values.storage)
    }

    /// The block stored in `bytes` (inside `mapping`) with `count` rows of `shapes`.
    static func decode(
        _ bytes: UnsafeRawBufferPointer,
        count: Int,
        shapes: [SegmentShape],
        mapping: FileMapping,
        checkValues: Bool,
        context: @autoclosure () -> (className: String, block: Int)
    ) throws(StoreFileError.Problem) -> Block {
        guard count > 0, count <= TableBlock.capacity else {
            let (className, index) = context()
            throw .blockOffsets(
                className: className,
                block: index,
                reason: "row count \(count) outside 1...\(TableBlock.capacity)"
            )
        }
        let storage = ByteStorage(
            mapped: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 64)!,
            capacity: bytes.count,
            mapping: mapping
        )
        return try decode(storage, count: count, shapes: shapes, checkValues: checkValues, context: context())
    }

    /// A block of a file opened for reading: a stub whose bytes are checked on first use (their
    /// `checksum`, then every array's bounds) and then mapped. A block that fails the checks
    /// reads as `placeholder` rows, so nothing traps, and the failure goes to `damage`, where
    /// throwing readers find it.
    static func lazyBlock(
        _ bytes: UnsafeRawBufferPointer,
        count: Int,
        firstKey: Int64,
        checksum: UInt64,
        shapes: [SegmentShape],
        mapping: FileMapping,
        damage: StoreDamage?,
        context: (className: String, block: Int)
    ) -> Block {
        let base = UInt(bitPattern: bytes.baseAddress)
        let length = bytes.count
        return Block(lazy: count, firstKey: firstKey) {
            let raw = UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: base), count: length)
            do throws(StoreFileError.Problem) {
                guard FileChecksum.of(raw) == checksum else {
                    throw .blockOffsets(className: context.className, block: context.block, reason: "checksum mismatch")
                }
                let block = try decode(
                    raw,
                    count: count,
                    shapes: shapes,
                    mapping: mapping,
                    checkValues: false,
                    context: context
                )
                guard block.key(at: 0) == firstKey else {
                    throw .blockOffsets(
                        className: context.className,
                        block: context.block,
                        reason: "first row key \(block.key(at: 0)), the root says \(firstKey)"
                    )
                }
                // The checksum read every byte; readers touch the columns they use again.
                mapping.release(raw)
                return (block.keys, block.columns)
            } catch {
                damage?.record(error)
                let block = placeholder(count: count, firstKey: firstKey, shapes: shapes)
                return (block.keys, block.columns)
            }
        }
    }

    /// `count` rows of empty values (zero, empty, null) with keys from `firstKey` up: what a
    /// damaged block reads as, so readers never trap.
    static func placeholder(count: Int, firstKey: Int64, shapes: [SegmentShape]) -> Block {
        // Every array of `count` rows with empty variable parts fits in 32 bytes a row plus
        // alignment per array, and a collection's empty element arrays in a few more.
        let size = (shapes.count + 1) * ((count + 1) * 32 + 1024)
        let storage = ByteStorage(capacity: size, isPacked: true)
        storage.base.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        let start = firstKey < Int64.max - Int64(TableBlock.capacity) ? Swift.max(firstKey, 0) : 0
        for i in 0..<count { storage.base.storeBytes(of: start + Int64(i), toByteOffset: i * 8, as: Int64.self) }
        do throws(StoreFileError.Problem) {
            return try decode(storage, count: count, shapes: shapes, checkValues: false, context: ("", 0))
        } catch {
            fatalError("an empty block of \(count) rows decodes: \(error)")
        }
    }

    private static func decode(
        _ storage: ByteStorage,
        count: Int,
        shapes: [SegmentShape],
        checkValues: Bool,
        context: (className: String, block: Int)
    ) throws(StoreFileError.Problem) -> Block {
        var reader = ArrayReader(storage: storage, checkValues: checkValues)
        do throws(ArrayReader.Failure) {
            let keys = try reader.fixed(.int, optional: false, count: count)
            for i in 1..<count where keys.values.load(i - 1, as: Int64.self) >= keys.values.load(i, as: Int64.self) {
                throw ArrayReader.Failure("row keys are not ascending at row \(i)")
            }
            guard keys.values.load(0, as: Int64.self) >= 0 else { throw ArrayReader.Failure("negative row key") }
            let columns = try shapes.map { shape throws(ArrayReader.Failure) in try reader.segment(shape, count: count)
            }
            return Block(count: count, keys: keys, columns: columns)
        } catch {
            throw .blockOffsets(className: context.className, block: context.block, reason: error.reason)
        }
    }
}

/// Walks a mapped block's arrays in the order `Block.packed()` lays them out.
private struct ArrayReader {
    struct Failure: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    let storage: ByteStorage
    let checkValues: Bool
    var next = 0

    init(storage: ByteStorage, checkValues: Bool) {
        self.storage = storage
        self.checkValues = checkValues
    }

    mutating func array(_ bytes: Int, _ what: String) throws(Failure) -> ByteArray {
        guard bytes >= 0, next <= storage.capacity, bytes <= storage.capacity - next else {
            throw Failure("\(what) needs \(bytes) bytes at \(next), the block has \(storage.capacity)")
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
        for i in stride(from: 1, through: count, by: 1) where entries[i] < entries[i - 1] {
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
            guard elementCount <= storage.capacity else { throw Failure("\(elementCount) elements cannot fit") }
            let elements = try segment(element, count: elementCount)
            let keys = kind == .map ? try bytes(isString: true, optional: false, count: elementCount) : nil
            return .collection(CollectionSegment(kind: kind, offsets: offsets, elements: elements, keys: keys))
        case .backlinks:
            return .backlinks
        }
    }
}
