import Dispatch
import Foundation
import RQLCore
import Synchronization
import Testing

@testable import RQLStorage

@Suite("Block store: concurrent readers and one writer")
struct ConcurrencyTests {
    /// Each commit adds one to every Dog's age and appends a Dog of age 1, so version v holds
    /// exactly v dogs whose ages are v, v - 1, …, 1 in key order. Readers on three other threads
    /// check that on every snapshot they take while the writer commits, through `value(at:)` and
    /// through the block views.
    @Test("readers on other threads always see a whole committed version")
    func readersSeeConsistentSnapshots() throws {
        let store = BlockStore(schema: try Fixtures.schema())
        let commits = 300
        let failures = Mutex<[String]>([])
        let done = Atomic<Bool>(false)
        let checks = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            if worker == 0 {
                for v in 1...commits {
                    let t = store.beginWrite()
                    let dogs = t.reader.table(named: "Dog")!
                    for position in 0..<dogs.rowCount {
                        let key = dogs.rowKey(at: position)
                        guard case .int(let age) = dogs.value(at: position, property: 1) else { continue }
                        try? t.set("age", of: ObjectLink(className: "Dog", key: key), to: .int(age + 1))
                    }
                    _ = try? t.insert("Dog", ["name": .string("d\(v)"), "age": .int(1)])
                    _ = try? t.commit()
                }
                done.store(true, ordering: .releasing)
                return
            }
            repeat {
                let snapshot = store.snapshot
                let dogs = snapshot.table(named: "Dog")!
                let v = Int(snapshot.version)
                var problem: String?
                if dogs.rowCount != v { problem = "version \(v) has \(dogs.rowCount) dogs" }
                for position in 0..<dogs.rowCount where problem == nil {
                    if dogs.value(at: position, property: 1) != .int(Int64(v - position)) {
                        problem = "version \(v): dog \(position) has age \(dogs.value(at: position, property: 1))"
                    }
                }
                // The block views must say the same.
                var sum: Int64 = 0
                for b in 0..<dogs.blockCount {
                    dogs.withBlock(b) { block in
                        if case .int(let ages) = block.columns[1] { for i in 0..<block.count { sum += ages.values[i] } }
                    }
                }
                if sum != Int64(v * (v + 1) / 2) { problem = problem ?? "version \(v): block ages sum to \(sum)" }
                if let problem { failures.withLock { $0.append(problem) } }
                checks.add(1, ordering: .relaxed)
            } while !done.load(ordering: .acquiring)
        }
        #expect(failures.withLock { $0 } == [])
        let checked = checks.load(ordering: .relaxed)
        #expect(checked >= 3)
        #expect(store.snapshot.version == UInt64(commits))
    }

    @Test("a second beginWrite waits until the first transaction ends")
    func oneWriterAtATime() throws {
        let store = BlockStore(schema: try Fixtures.schema())
        let first = store.beginWrite()
        #expect(store.tryBeginWrite() == nil)
        let started = Atomic<Bool>(false)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let second = store.beginWrite()
            started.store(true, ordering: .releasing)
            _ = try? second.insert("Dog", ["name": .string("second")])
            _ = try? second.commit()
            finished.signal()
        }
        Thread.sleep(forTimeInterval: 0.05)
        let startedEarly = started.load(ordering: .acquiring)
        #expect(!startedEarly)
        try first.insert("Dog", ["name": .string("first")])
        _ = try first.commit()
        finished.wait()
        let dogs = try #require(store.snapshot.table(named: "Dog"))
        #expect(store.snapshot.version == 2)
        #expect(dogs.value(at: 0, property: 0) == .string("first"))
        #expect(dogs.value(at: 1, property: 0) == .string("second"))
    }
}
