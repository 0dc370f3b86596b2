/// Why a store file could not be created, opened, read or written: the file's path and what is
/// wrong, precisely enough to tell a damaged file from a missing one.
///
/// ```swift
/// do { _ = try BlockStore.open(path: "dogs.rql") }
/// catch { print(error) }  // store file 'dogs.rql': bad magic (not an RQL store file)
/// ```
public struct StoreFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Problem: Error, Hashable, Sendable {
        /// The file does not start with the store file magic.
        case badMagic
        /// The header names a format version this build cannot read.
        case unsupportedFormat(version: UInt32)
        /// Neither header slot holds a version whose checksums match.
        case headerChecksum
        /// Header slot `slot` (0 or 1) is neither empty nor matches its checksum, so what it
        /// named is unknown.
        case slotChecksum(slot: Int)
        /// The file's newest version could not be read and the intact version before it was
        /// read instead: `newest` is the number its header slot names (nil when the slot itself
        /// is unreadable), `problem` why it could not be read. A damaged last commit and a torn
        /// one that never returned look the same on disk.
        indirect case newestVersionUnreadable(newest: UInt64?, intact: UInt64, problem: Problem)
        /// The file ends before `expected` bytes (it has `actual`).
        case truncated(expected: UInt64, actual: UInt64)
        /// The bytes a commit wrote do not match the checksum its header slot recorded.
        case dataChecksum(version: UInt64)
        /// A reference to a page or record outside the file or the version that owns it.
        case pointerOutOfRange(what: String, offset: UInt64)
        /// A block's offsets disagree with its length or with each other.
        case blockOffsets(className: String, block: Int, reason: String)
        /// A record whose contents are impossible (a bad count, an unsorted index, a bad schema).
        case malformed(what: String, reason: String)
        /// A system call failed: the operation and `errno`'s text.
        case io(operation: String, reason: String)
        /// `create` found a file already there.
        case exists
        /// The path names something a store cannot be: what it is (`a directory`, `a FIFO`).
        case notRegularFile(kind: String)
        /// The file has no bytes (opened read-only; opened read-write it becomes an empty store).
        case emptyFile
        /// The file was opened read-only and a write was attempted.
        case readOnly
        /// Another process committed a version this writer did not start from.
        case conflict(expected: UInt64, found: UInt64)
        /// The newest checkpoint names a commit log (`generation`) and the log at `log` is
        /// missing (`foreign` false) or belongs to another store file: the store was opened
        /// through a hard link under another name, or copied without its `.log`, so the
        /// commits after the checkpoint cannot be read.
        case commitLogMissing(log: String, generation: UInt64, foreign: Bool)
    }

    /// The file's path as given.
    public let path: String
    public let problem: Problem

    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    public var description: String {
        "store file '\(path)': " + problem.text
    }
}

extension StoreFileError.Problem: CustomStringConvertible {
    public var description: String { text }

    var text: String {
        switch self {
        case .badMagic: "bad magic (not an RQL store file)"
        case .unsupportedFormat(let version): "unsupported format version \(version)"
        case .headerChecksum: "header checksum mismatch in both slots"
        case .slotChecksum(let slot): "header slot \(slot) does not match its checksum"
        case .newestVersionUnreadable(let newest?, let intact, let problem):
            "the newest version \(newest) could not be read (\(problem.text)); version \(intact) is intact"
                + " (the last commit is damaged, or was cut short before it returned)"
        case .newestVersionUnreadable(nil, let intact, let problem):
            "the newest version could not be read (\(problem.text): it may name a version newer than"
                + " \(intact)); version \(intact) is intact"
        case .truncated(let expected, let actual): "truncated: needs \(expected) bytes, has \(actual)"
        case .dataChecksum(let version): "checksum mismatch in the pages of version \(version)"
        case .pointerOutOfRange(let what, let offset): "\(what) points out of range (offset \(offset))"
        case .blockOffsets(let className, let block, let reason): "block \(block) of '\(className)': \(reason)"
        case .malformed(let what, let reason): "malformed \(what): \(reason)"
        case .io(let operation, let reason): "\(operation) failed: \(reason)"
        case .exists: "already exists"
        case .notRegularFile(let kind): "not a regular file: it is \(kind)"
        case .emptyFile: "empty file (0 bytes), not an RQL store file"
        case .readOnly: "opened read-only"
        case .conflict(let expected, let found):
            "another process committed version \(found); this write started from \(expected)"
        case .commitLogMissing(let log, let generation, let foreign):
            "its checkpoint is followed by commit log generation \(generation), and '\(log)' "
                + (foreign ? "belongs to another store file" : "is missing")
                + ": the commits since the checkpoint cannot be read (was the store opened through a hard link"
                + " under another name, or copied without '\(log.split(separator: "/").last.map(String.init) ?? log)'? open it by its"
                + " own name or a symbolic link, copy both files, or use a compacted copy)"
        }
    }
}

/// Where a block or a tree node is stored: in which open file (files are numbered per process)
/// and at what offset. A block or node with a place is not written again by the next commit.
struct FilePlace: Hashable, Sendable {
    let file: UInt64
    let offset: UInt64
    let length: UInt64
    /// `FileChecksum` of the `length` bytes: checked when the block or node is first read.
    let checksum: UInt64
}
