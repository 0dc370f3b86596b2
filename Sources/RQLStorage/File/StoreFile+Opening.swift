import Foundation
import RQLCore

#if canImport(Glibc)
import Glibc
#endif

/// Creating and opening store files, so that two processes doing it at once both end with the
/// one store: a new file is written whole under a temporary name and linked into place (a
/// reader of `path` finds no file or a whole store, never a half-written one), and an empty file
/// is initialised under the writer lock with its magic written last.
///
/// Nothing is created beside a file until it is known to be a store (or an empty file opened
/// read-write): the reader table's `<path>.lock` comes after the checks.
extension StoreFile {
    /// Creates a new file holding version 0 of an empty store of `schema` and returns it open;
    /// throws `.exists` when there is a file at `path` (made meanwhile or not), leaving it alone.
    /// `logs`: the store will log its commits, so its log is made before the file and version
    /// 0's slot names it (a compacted copy does not log, and stays one file). `format` is the
    /// newest but for tests, which make files of the formats this build still reads.
    static func create(
        path: String,
        schema: Schema,
        logs: Bool = true,
        format: UInt32 = FileHeader.formatVersion
    ) throws(StoreFileError) -> (StoreFile, BlockSnapshot) {
        let temporary = path + ".creating-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        let descriptor: Int32
        do {
            descriptor = try FileSystem.open(temporary, flags: O_RDWR | O_CREAT | O_EXCL)
        } catch {
            // Named by the path asked for: the temporary name is this function's business.
            throw StoreFileError(path: path, problem: error.problem)
        }
        defer { unlink(temporary) }
        let file = try StoreFile(path: path, descriptor: descriptor, isReadOnly: false)
        var generation: UInt64 = 0
        // A log that cannot be made (a directory this process may not write to): none is named,
        // and the first logged commit is a checkpoint naming one.
        if logs, let log = try? CommitLog.openFile(path: file.logPath, readOnly: false, create: true) {
            close(log)
            generation = UInt64.random(in: 1...CommitLog.maxGeneration)
        }
        let snapshot = try file.initialise(schema: schema, logGeneration: generation, format: format)
        guard link(temporary, path) == 0 else {
            if errno == EEXIST { throw StoreFileError(path: path, problem: .exists) }
            throw FileSystem.failure(path, "link")
        }
        try file.discardForeignLog()
        return (file, snapshot)
    }

    /// Opens an existing store file and reads its newest valid version. An empty file opened
    /// read-write is initialised as a store of `initialSchema` (as realm-core does); read-only it
    /// is `.emptyFile`.
    static func open(
        path: String,
        readOnly: Bool,
        initialSchema: Schema? = nil
    ) throws(StoreFileError) -> (StoreFile, BlockSnapshot) {
        guard let opened = try openChecked(path: path, readOnly: readOnly, initialSchema: initialSchema) else {
            throw FileSystem.failure(path, "open", code: ENOENT)
        }
        return opened
    }

    /// Opens the store file at `path`, or creates it with `schema` when there is none; when
    /// another process creates it first, opens what that one made.
    static func openOrCreate(path: String, schema: Schema) throws(StoreFileError) -> (StoreFile, BlockSnapshot) {
        // A file that vanishes between a failed create and the open (deleted, or a dangling
        // symbolic link) is tried again a few times, then reported.
        for _ in 0..<4 {
            if let opened = try openChecked(path: path, readOnly: false, initialSchema: schema) { return opened }
            do {
                return try create(path: path, schema: schema)
            } catch  where error.problem == .exists {
                continue
            }
        }
        throw FileSystem.failure(path, "open", code: ENOENT)
    }

    /// `open`, or nil when there is no file at `path`.
    private static func openChecked(
        path: String,
        readOnly: Bool,
        initialSchema: Schema?
    ) throws(StoreFileError) -> (StoreFile, BlockSnapshot)? {
        guard let descriptor = try FileSystem.openRegular(path, flags: readOnly ? O_RDONLY : O_RDWR) else {
            return nil
        }
        var prologue: [UInt8]
        do {
            prologue = try FileSystem.read(descriptor, count: 16, at: 0, path)
            if isUninitialised(prologue) {
                // Wait for a process initialising the file (it holds the writer lock), then look again.
                while flock(descriptor, LOCK_SH) != 0 && errno == EINTR {}
                defer { flock(descriptor, LOCK_UN) }
                prologue = try FileSystem.read(descriptor, count: 16, at: 0, path)
            }
            if !prologue.isEmpty || readOnly {
                try checkPrologue(prologue, path)
            }
        } catch {
            close(descriptor)
            throw error
        }
        let file = try StoreFile(path: path, descriptor: descriptor, isReadOnly: readOnly)
        if prologue.isEmpty { try file.initialiseIfEmpty(schema: initialSchema ?? Schema.empty) }
        return (file, try file.readNewest(current: nil, thorough: false).snapshot)
    }

    /// An empty file, or one whose first bytes are all zero: a file being initialised shows
    /// this until its magic is written, last.
    private static func isUninitialised(_ prologue: [UInt8]) -> Bool {
        prologue.allSatisfy { $0 == 0 }
    }

    private static func checkPrologue(_ prologue: [UInt8], _ path: String) throws(StoreFileError) {
        guard !prologue.isEmpty else { throw StoreFileError(path: path, problem: .emptyFile) }
        let result: Result<Void, StoreFileError.Problem> = prologue.withUnsafeBytes { raw in
            Result { () throws(StoreFileError.Problem) in try FileHeader.checkPrologue(raw) }
        }
        do {
            try result.get()
        } catch let problem {
            // A short file with the magic is a store cut short; checkPrologue says so.
            throw StoreFileError(path: path, problem: problem)
        }
    }

    /// Initialises the file as a store of `schema` unless another process did so first.
    private func initialiseIfEmpty(schema: Schema) throws(StoreFileError) {
        lock()
        defer { unlock() }
        guard try FileSystem.size(descriptor, path) == 0 else { return }
        _ = try initialise(schema: schema)
    }

    /// Writes version 0, an empty store of `schema`, into this empty file: the header page, the
    /// commit and its slot, synced, then the magic, synced, so the file is a store only once it
    /// is a whole one. Call on a file no other process writes (new, or under the lock).
    fileprivate func initialise(
        schema: Schema,
        logGeneration: UInt64 = 0,
        format: UInt32 = FileHeader.formatVersion
    ) throws(StoreFileError) -> BlockSnapshot {
        // Known before the header is on disk: version 0's commit is checksummed by it.
        state.withLock { $0.format = format }
        var prologue = FileHeader.prologue(format: format)
        withUnsafeBytes(of: UInt64.random(in: 1 ... .max).littleEndian) { prologue.append(contentsOf: $0) }
        try FileSystem.write(descriptor, [UInt8](repeating: 0, count: FileHeader.pageSize), at: 0, path)
        let snapshot = BlockSnapshot(schema: schema)
        try write(snapshot, base: nil, slotIndex: 0, logGeneration: logGeneration)
        try FileSystem.write(descriptor, prologue, at: 0, path)
        try FileSystem.sync(descriptor, path)
        return snapshot.pinned(pins.pin(0))
    }
}

extension Schema {
    /// A schema with no classes: what an empty file is initialised with when no schema is given.
    fileprivate static let empty: Schema = {
        do {
            return try Schema([])
        } catch {
            fatalError("a schema with no classes is valid: \(error)")
        }
    }()
}
