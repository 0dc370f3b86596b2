import Foundation
import RQLCore
import RQLStorage
import Testing

@testable import RQL

final class DepthHolder: Object {
    @Persisted var name = ""
    @Persisted var root: DepthNode?
}

final class DepthNode: EmbeddedObject {
    @Persisted var level = 0
    @Persisted var child: DepthNode?
}

/// Chains of embedded objects as deep as a user can make them (issue 16): giving, copying,
/// describing and deleting them recursed once per level, so a long enough chain overflowed the
/// stack. Embedded objects now nest at most `WriteTransaction.maximumEmbeddedDepth` levels below
/// their owner: a deeper chain, however it is built, is a typed error and leaves the realm as
/// it was; a chain at the bound works everywhere.
@Suite("Deep chains of embedded objects")
struct EmbeddedDepthTests {
    static let bound = WriteTransaction.maximumEmbeddedDepth

    /// Unmanaged nodes `1 ... levels`, each the child of the one before. All are returned, so
    /// that releasing the chain releases one node at a time instead of each node releasing the
    /// next (Swift's own recursion).
    static func chain(_ levels: Int) -> [DepthNode] {
        let nodes = (1...levels).map { DepthNode(value: ["level": $0]) }
        for i in 0..<levels - 1 { nodes[i].child = nodes[i + 1] }
        return nodes
    }

    /// The levels read by walking the stored chain from `holder`'s root.
    static func levels(below holder: DepthHolder) -> [Int] {
        var levels: [Int] = []
        var node = holder.root
        while let current = node {
            levels.append(current.level)
            node = current.child
        }
        return levels
    }

    static func embeddedRows(_ realm: Realm) -> Int {
        realm.context.coordinator.store.snapshot.table(named: "DepthNode")?.rowCount ?? -1
    }

    @Test("adding a chain of 10,000 unmanaged embedded objects is a typed error and writes nothing")
    func tenThousandLevels() throws {
        let realm = try makeRealm([DepthHolder.self, DepthNode.self])
        let nodes = Self.chain(10_000)
        let holder = DepthHolder(value: ["name": "deep"])
        holder.root = nodes[0]
        #expect {
            try realm.write { realm.add(holder) }
        } throws: { error in
            (error as? Realm.Error)?.code == .invalidValue && "\(error)".contains("more than \(Self.bound) levels")
        }
        #expect(realm.objects(DepthHolder.self).isEmpty)
        #expect(Self.embeddedRows(realm) == 0)
        // Described unmanaged, the chain prints a bounded text.
        #expect(holder.description.count < 5_000)
    }

    @Test("a chain at the bound is added, read, described, copied and deleted with its owner")
    func chainAtTheBound() throws {
        let realm = try makeRealm([DepthHolder.self, DepthNode.self])
        let nodes = Self.chain(Self.bound)
        let holder = DepthHolder(value: ["name": "first"])
        holder.root = nodes[0]
        try realm.write { realm.add(holder) }
        #expect(Self.levels(below: holder) == Array(1...Self.bound))
        #expect(nodes.allSatisfy { $0.realm != nil })
        #expect(holder.description.contains(ObjectDescription.depthExceeded))
        #expect(holder.description.count < 5_000)

        // Assigning a managed embedded chain to another owner copies it, level by level.
        let copy = DepthHolder(value: ["name": "copy"])
        try realm.write {
            realm.add(copy)
            copy.root = holder.root
        }
        #expect(Self.levels(below: copy) == Array(1...Self.bound))
        #expect(Self.embeddedRows(realm) == 2 * Self.bound)

        // Deleting an owner deletes its whole chain (and only its own).
        try realm.write { realm.delete(holder) }
        #expect(Self.embeddedRows(realm) == Self.bound)
        try realm.write { realm.delete(copy) }
        #expect(Self.embeddedRows(realm) == 0)
    }

    /// What the thread of `smallStack` returns.
    final class Outcome: @unchecked Sendable {
        // Unchecked: written by the thread before it signals, read after the wait.
        var levels: Result<[Int], any Error> = .success([])
    }

    @Test("a chain at the bound is added and copied on a thread with a 256 KB stack")
    func smallStack() throws {
        // Giving, planning, creating, copying and binding embedded objects keep work lists: none
        // of them takes a stack frame per level, so a chain at the bound fits a small stack
        // (one nested call per level took several frames each, in a debug build about 2 KB).
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            outcome.levels = Result {
                let realm = try makeRealm([DepthHolder.self, DepthNode.self], name: "smallStack")
                let nodes = Self.chain(Self.bound)
                let holder = DepthHolder(value: ["name": "small stack"])
                holder.root = nodes[0]
                let copy = DepthHolder(value: ["name": "copy"])
                try realm.write {
                    realm.add(holder)
                    realm.add(copy)
                    copy.root = holder.root
                }
                return Self.levels(below: copy) + Self.levels(below: holder)
            }
            done.signal()
        }
        thread.stackSize = 256 * 1024
        thread.start()
        done.wait()
        #expect(try outcome.levels.get() == Array(1...Self.bound) + Array(1...Self.bound))
    }

    @Test("growing a managed chain one level at a time stops with a typed error past the bound")
    func growingOneLevelAtATime() throws {
        let realm = try makeRealm([DepthHolder.self, DepthNode.self])
        let holder = DepthHolder(value: ["name": "grown"])
        try realm.write {
            realm.add(holder)
            holder.root = DepthNode(value: ["level": 1])
        }
        var deepest = try #require(holder.root)
        try realm.write {
            for level in 2...Self.bound {
                deepest.child = DepthNode(value: ["level": level])
                deepest = try #require(deepest.child)
            }
        }
        #expect(Self.levels(below: holder) == Array(1...Self.bound))
        #expect {
            try realm.write { deepest.child = DepthNode(value: ["level": Self.bound + 1]) }
        } throws: { error in
            (error as? Realm.Error)?.code == .invalidValue && "\(error)".contains("level \(Self.bound + 1)")
        }
        #expect(Self.levels(below: holder) == Array(1...Self.bound))
        #expect(Self.embeddedRows(realm) == Self.bound)
    }

    @Test("the store takes embedded values nested to the bound and refuses 1,000 levels with a typed error")
    func storeLevel() throws {
        let store = BlockStore(
            schema: try RQLCore.Schema([
                ObjectSchema(
                    name: "Holder",
                    properties: [Property(name: "root", type: .object("Node"), isOptional: true)]
                ),
                ObjectSchema(
                    name: "Node",
                    properties: [
                        Property(name: "level", type: .int),
                        Property(name: "child", type: .object("Node"), isOptional: true),
                    ],
                    isEmbedded: true
                ),
            ])
        )
        /// The values of a chain of `levels` embedded nodes, built from the deepest up.
        func chain(_ levels: Int) -> Value {
            var value = Value.map(MixedMap([("level", .int(Int64(levels)))]))
            for level in stride(from: levels - 1, through: 1, by: -1) {
                value = .map(MixedMap([("level", .int(Int64(level))), ("child", value)]))
            }
            return value
        }
        let transaction = store.beginWrite()
        #expect {
            try transaction.insert("Holder", ["root": chain(1_000)])
        } throws: { error in
            "\(error)".contains("at most \(Self.bound) levels") && "\(error)".contains("level \(Self.bound + 1)")
        }
        _ = try transaction.insert("Holder", ["root": chain(Self.bound)])
        _ = try transaction.commit()
        #expect(store.snapshot.table(named: "Node")?.rowCount == Self.bound)
    }
}
