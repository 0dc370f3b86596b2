/// The free space of a store file at one version: runs of bytes no live version needs any more,
/// each tagged with the version whose commit freed it, and the file's end (where the space in
/// use ends; a commit that finds no free run large enough appends there).
///
/// A run freed at version `v` was reachable from `v - 1` and is not from `v` or any later
/// version, so a commit may reuse it once no reader holds a version older than `v` (LMDB's
/// rule): `allocate(_:)` takes only runs `release(upTo:)` has released. Every run is a multiple
/// of `FreeList.granule` bytes at a multiple of it, so allocation never leaves padding behind.
///
/// Stored in each version's root record:
/// ```
/// u64 file end, u32 runs, each u64 offset, u64 length, u64 freed-at version (0: reusable)
/// ```
struct FreeList: Equatable, Sendable {
    struct Run: Equatable, Sendable {
        var offset: UInt64
        var length: UInt64
        /// The version whose commit freed the run; 0 once every reader has moved past it.
        var freedAt: UInt64
        var end: UInt64 { offset + length }
    }

    /// Allocation unit and alignment: blocks need 64-byte alignment, and a shared granule means
    /// a freed run of any item fits any item of its size.
    static let granule: UInt64 = 64

    /// Runs in ascending offset order, never overlapping, never adjacent with the same tag.
    private(set) var runs: [Run] = []
    /// The end of the space in use: every page past the header and before it is reachable,
    /// free, or in a run of this list.
    private(set) var fileEnd: UInt64

    init(fileEnd: UInt64) {
        self.fileEnd = Self.rounded(fileEnd)
    }

    init(runs: [Run], fileEnd: UInt64) {
        self.runs = runs
        self.fileEnd = fileEnd
    }

    static func rounded(_ length: UInt64) -> UInt64 {
        (length + granule - 1) / granule * granule
    }

    /// Bytes in runs.
    var freeBytes: UInt64 { runs.reduce(0) { $0 + $1.length } }

    /// Marks reusable every run freed at `limit` or before (no reader holds a version older
    /// than `limit`), merging neighbours that are both reusable.
    mutating func release(upTo limit: UInt64) {
        for i in runs.indices where runs[i].freedAt <= limit { runs[i].freedAt = 0 }
        coalesce()
    }

    /// `length` bytes (rounded up to the granule) at a reusable run's start, first fit, or at
    /// the file's end.
    mutating func allocate(_ length: UInt64) -> UInt64 {
        let size = Self.rounded(Swift.max(length, 1))
        if let i = runs.firstIndex(where: { $0.freedAt == 0 && $0.length >= size }) {
            let offset = runs[i].offset
            if runs[i].length == size {
                runs.remove(at: i)
            } else {
                runs[i].offset += size
                runs[i].length -= size
            }
            return offset
        }
        let offset = fileEnd
        fileEnd += size
        return offset
    }

    /// Adds the run of an item stored at `offset`, `length` bytes long, freed by version
    /// `version`. An item already free (or past the end) is ignored: freeing is idempotent.
    mutating func free(offset: UInt64, length: UInt64, version: UInt64) {
        let run = Run(offset: offset, length: Self.rounded(length), freedAt: version)
        guard run.length > 0, run.offset % Self.granule == 0, run.end <= fileEnd else { return }
        let i = runs.partitioningIndex { $0.offset >= run.offset }
        if i > 0 && runs[i - 1].end > run.offset { return }
        if i < runs.count && runs[i].offset < run.end { return }
        runs.insert(run, at: i)
    }

    /// Sorts and merges adjacent runs with the same tag.
    private mutating func coalesce() {
        var merged: [Run] = []
        merged.reserveCapacity(runs.count)
        for run in runs {
            if let last = merged.last, last.end == run.offset, last.freedAt == run.freedAt {
                merged[merged.count - 1].length += run.length
            } else {
                merged.append(run)
            }
        }
        runs = merged
    }

    /// Adds freed runs in bulk (sorted once), then merges.
    mutating func free(_ items: [(offset: UInt64, length: UInt64)], version: UInt64) {
        for item in items.sorted(by: { $0.offset < $1.offset }) {
            free(offset: item.offset, length: item.length, version: version)
        }
        coalesce()
    }

    // MARK: Coding

    func encode(into writer: inout ByteWriter) {
        writer.u64(fileEnd)
        writer.u32(runs.count)
        for run in runs {
            writer.u64(run.offset)
            writer.u64(run.length)
            writer.u64(run.freedAt)
        }
    }

    /// The free list at `reader`, checked: runs granule-aligned, ascending, not overlapping,
    /// between the header and the file's end, tagged no later than `version`.
    static func decode(
        from reader: inout ByteReader,
        version: UInt64
    ) throws(StoreFileError.Problem) -> FreeList {
        let fileEnd = try reader.u64()
        guard fileEnd >= UInt64(FileHeader.pageSize), fileEnd % granule == 0 else {
            throw .malformed(what: "free list", reason: "file end \(fileEnd)")
        }
        let count = try reader.count(minimumSize: 24)
        var runs: [Run] = []
        runs.reserveCapacity(count)
        var previousEnd = UInt64(FileHeader.pageSize)
        for _ in 0..<count {
            let run = Run(offset: try reader.u64(), length: try reader.u64(), freedAt: try reader.u64())
            guard run.offset >= previousEnd, run.offset % granule == 0, run.length % granule == 0,
                run.offset <= fileEnd, run.length > 0, run.length <= fileEnd - run.offset, run.freedAt <= version
            else {
                throw .malformed(what: "free list", reason: "run at \(run.offset) of \(run.length) bytes")
            }
            previousEnd = run.end
            runs.append(run)
        }
        return FreeList(runs: runs, fileEnd: fileEnd)
    }

    /// The first free run that overlaps `offset ..< offset + length`, if any (`verify`).
    func overlap(offset: UInt64, length: UInt64) -> Run? {
        let i = runs.partitioningIndex { $0.end > offset }
        guard i < runs.count, runs[i].offset < offset + length else { return nil }
        return runs[i]
    }
}

extension Array {
    /// The first index whose element satisfies `predicate`, which must be false then true along
    /// the array (binary search).
    fileprivate func partitioningIndex(where predicate: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if predicate(self[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
