import Foundation
import RQLStorage

#if canImport(Glibc)
import Glibc
#endif

/// Notices commits that other processes make to a store file, while a store has observations.
///
/// One thread per observed file sleeps in `poll` on an inotify watch of the file (woken when
/// any process writes it), and at most every `interval` anyway (a file system without
/// inotify events still gets noticed). When woken it reads the file's header: only when a
/// newer version is there does it take the store's write lock (which reads the newest
/// version under the cross-process lock, so it never races a commit) and tell the
/// observations. Idle cost: one header read per interval.
///
/// ```swift
/// let watcher = StoreWatcher(store: store) { notifiers.storeMoved() }
/// watcher.stop()
/// ```
// Unchecked: `isStopped` is under `lock`; `descriptor` is set in `init`, before the thread
// that reads it starts, and closed by that thread.
final class StoreWatcher: @unchecked Sendable {
    /// The longest a commit of another process goes unnoticed without an inotify event.
    static let interval = 0.1

    private let store: BlockStore
    private let moved: @Sendable () -> Void
    private let lock = NSLock()
    private var isStopped = false
    private var descriptor: Int32 = -1

    init(store: BlockStore, moved: @escaping @Sendable () -> Void) {
        self.store = store
        self.moved = moved
        #if canImport(Glibc)
        if let path = store.path {
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            // IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB: a commit writes pages and a header slot.
            if descriptor >= 0, inotify_add_watch(descriptor, path, 0x0000_0002 | 0x0000_0008 | 0x0000_0004) >= 0 {
                self.descriptor = descriptor
            } else if descriptor >= 0 {
                close(descriptor)
            }
        }
        #endif
        let thread = Thread { [self] in self.run() }
        thread.name = "RQL store watcher"
        thread.start()
    }

    /// Ends the thread (within one interval).
    func stop() {
        lock.withLock { isStopped = true }
    }

    private var stopped: Bool { lock.withLock { isStopped } }

    private func run() {
        while !stopped {
            wait()
            guard !stopped else { break }
            guard store.hasNewerVersionOnDisk() else { continue }
            // Read the newer version under the write lock, as a writer would; a writer holding
            // it reads the version itself, and the next round tells the observations.
            guard let transaction = store.tryBeginWrite() else { continue }
            transaction.rollback()
            // A read-only store's transaction reads nothing; no writer of this process can race it.
            if store.hasNewerVersionOnDisk() { _ = try? store.refresh() }
            moved()
        }
        #if canImport(Glibc)
        if descriptor >= 0 { close(descriptor) }
        #endif
    }

    /// Sleeps until the file is written or the interval passes.
    private func wait() {
        #if canImport(Glibc)
        if descriptor >= 0 {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, Int32(Self.interval * 1000)) > 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                while read(descriptor, &buffer, buffer.count) > 0 {}
            }
            return
        }
        #endif
        Thread.sleep(forTimeInterval: Self.interval)
    }
}
