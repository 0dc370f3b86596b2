import Dispatch
import Foundation
import RQLCore
import Synchronization
import Testing

@testable import RQLStorage

/// `refresh()` reads another process's commit without the write lock, so a commit of this
/// process (or another refresh) can publish between its read and its publish. The store's
/// version must never go back, and each commit's change set must be recorded once. A refresh
/// is held between the two (`refreshWillPublish`) while the other thread runs; every wait has
/// a watchdog, so a fix that blocked the commit on the held refresh fails instead of hanging.
@Suite("Store file: a refresh racing a commit")
struct RefreshRaceTests {
    /// How long any step may take before the test calls it a deadlock.
    static func deadline() -> DispatchTime { .now() + .seconds(60) }

    /// A refresh of `store` on a thread of its own, held just before it publishes until `release`
    /// is signalled.
    final class HeldRefresh: Sendable {
        /// Signalled when the refresh has read the newer version and waits to publish it.
        let reached = DispatchSemaphore(value: 0)
        /// Signalled when it returned.
        let finished = DispatchSemaphore(value: 0)
        /// What it returned.
        let moved = Mutex<Bool?>(nil)
        /// Whether no refresh has been held yet.
        private let first = Atomic<Bool>(true)

        init(_ store: BlockStore, release: DispatchSemaphore) {
            store.refreshWillPublish.withLock { hook in
                hook = { [self] in
                    // Only the first refresh to get here is held: a commit's own catch-up passes.
                    guard first.exchange(false, ordering: .acquiringAndReleasing) else { return }
                    reached.signal()
                    _ = release.wait(timeout: RefreshRaceTests.deadline())
                }
            }
            Thread { [self] in
                let result = (try? store.refresh()) ?? false
                moved.withLock { $0 = result }
                finished.signal()
            }.start()
        }
    }

    @Test("a commit of this process while a refresh is held: the refresh does not publish its older version")
    func commitDuringRefresh() throws {
        let directory = try TemporaryDirectory("refresh-race")
        let path = directory.path("a.rql")
        let store = try CommitLogDefaultTests.create(path)
        try CommitLogTests.commit(store)
        // Another process's commit, as far as `store` can tell: a store of its own.
        let other = try BlockStore.open(path: path)
        try CommitLogTests.commit(other)
        let otherVersion = other.snapshot.version
        #expect(store.snapshot.version == otherVersion - 1)

        let release = DispatchSemaphore(value: 0)
        let refresh = HeldRefresh(store, release: release)
        try #require(refresh.reached.wait(timeout: Self.deadline()) == .success, "the refresh never read")

        // The commit catches up to the other store's version and commits the one after it.
        let committed = Mutex<UInt64?>(nil)
        let commitDone = DispatchSemaphore(value: 0)
        Thread {
            let version = try? store.write { t in
                _ = try t.insert("Item", ["id": .int(-1), "text": .string("mine"), "history": .list([])])
            }.commit.snapshot.version
            committed.withLock { $0 = version }
            commitDone.signal()
        }.start()
        let commitFinished = commitDone.wait(timeout: Self.deadline()) == .success
        release.signal()
        try #require(commitFinished, "the commit waited for the held refresh")
        try #require(refresh.finished.wait(timeout: Self.deadline()) == .success, "the refresh never returned")

        let newest = try #require(committed.withLock { $0 })
        #expect(newest == otherVersion + 1)
        #expect(store.snapshot.version == newest, "the refresh published version \(store.snapshot.version)")
        #expect(refresh.moved.withLock { $0 } == false)
        #expect(store.snapshot.table(named: "Item")?.rowCount == Int(newest))
        // And the store keeps committing on top of its newest version.
        try CommitLogTests.commit(store)
        #expect(store.snapshot.version == newest + 1)
    }

    @Test("two refreshes of one commit: one publishes, and the commit's change set is recorded once")
    func twoRefreshes() throws {
        let directory = try TemporaryDirectory("refresh-race")
        let path = directory.path("b.rql")
        let store = try CommitLogDefaultTests.create(path)
        try CommitLogTests.commit(store)
        let from = store.snapshot.version
        let other = try BlockStore.open(path: path)
        try CommitLogTests.commit(other)

        let release = DispatchSemaphore(value: 0)
        let refresh = HeldRefresh(store, release: release)
        try #require(refresh.reached.wait(timeout: Self.deadline()) == .success, "the refresh never read")
        // A second refresh on this thread reads the same commit and publishes it.
        #expect(try store.refresh())
        release.signal()
        try #require(refresh.finished.wait(timeout: Self.deadline()) == .success, "the refresh never returned")
        #expect(refresh.moved.withLock { $0 } == false)
        #expect(store.snapshot.version == from + 1)

        // The next commit's change set follows the first one's, each once.
        try CommitLogTests.commit(other)
        #expect(try store.refresh())
        let changes = try #require(store.refreshedChanges(after: from, through: from + 2))
        #expect(changes.map(\.version) == [from + 1, from + 2])
    }
}
