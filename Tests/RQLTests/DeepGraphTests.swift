import Foundation
import Testing

@testable import RQL

final class ChainNode: Object {
    @Persisted var n = 0
    @Persisted var next: ChainNode?
}

final class TreeNode: Object {
    @Persisted var name = ""
    @Persisted var children: List<TreeNode>
    @Persisted var extra: AnyRealmValue
}

/// Object graphs as deep or as cyclic as a user can make them (issue 16): adding a linked chain
/// of 3,000 unmanaged objects overflowed the stack, printing an object whose list holds itself
/// never ended, and a six-level tree printed 7.8 million characters.
@Suite("Deep and cyclic object graphs")
struct DeepGraphTests {
    @Test("realm.add of a linked chain of 100,000 unmanaged objects adds every one, links intact")
    func longChain() throws {
        let realm = try makeRealm([ChainNode.self])
        let count = 100_000
        // Every node is held here, so that releasing the chain releases one node at a time
        // instead of each node's release releasing the next (Swift's own recursion).
        let nodes = (0..<count).map { ChainNode(value: ["n": $0]) }
        for i in 0..<count - 1 { nodes[i].next = nodes[i + 1] }
        try realm.write { realm.add(nodes[0]) }
        #expect(realm.objects(ChainNode.self).count == count)
        #expect(nodes.allSatisfy { $0.realm != nil })
        var walked = 0
        var node: ChainNode? = realm.objects(ChainNode.self).filter("n == 0").first
        while let current = node {
            #expect(current.n == walked)
            walked += 1
            node = current.next
        }
        #expect(walked == count)
    }

    static func cycle() -> TreeNode {
        let node = TreeNode(value: ["name": "loop"])
        node.children.append(node)
        return node
    }

    static func checkBounded(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(text.contains(ObjectDescription.depthExceeded), sourceLocation: sourceLocation)
        #expect(text.count < 2_000, "\(text.count) characters", sourceLocation: sourceLocation)
    }

    @Test("an unmanaged object whose list holds itself prints a bounded description")
    func unmanagedCycle() {
        let node = Self.cycle()
        Self.checkBounded(node.description)
        Self.checkBounded(node.children.description)
        #expect(
            node.description.hasPrefix("TreeNode {\n\tname = loop;\n\tchildren = List<TreeNode> (\n\t\t[0] TreeNode {")
        )
    }

    @Test("a managed object whose list holds itself prints a bounded description")
    func managedCycle() throws {
        let realm = try makeRealm([TreeNode.self])
        let node = Self.cycle()
        try realm.write { realm.add(node) }
        Self.checkBounded(node.description)
        Self.checkBounded(node.children.description)
        Self.checkBounded(realm.objects(TreeNode.self).description)
    }

    @Test("mixed lists nested 50 deep print a bounded description")
    func nestedMixed() {
        var value = AnyRealmValue.int(1)
        for _ in 0..<50 { value = .fromArray([value]) }
        let node = TreeNode(value: ["name": "deep"])
        node.extra = value
        Self.checkBounded(node.description)
    }

    @Test("a wide tree shows 100 elements per list and five levels of objects and lists")
    func wideTree() {
        func tree(depth: Int, fanOut: Int) -> TreeNode {
            let node = TreeNode(value: ["name": "d\(depth)"])
            if depth > 0 {
                node.children.append(objectsIn: (0..<fanOut).map { _ in tree(depth: depth - 1, fanOut: fanOut) })
            }
            return node
        }
        let text = tree(depth: 6, fanOut: 5).description
        // Objects at levels 5, 3 and 1 are shown (1 + 5 + 25); their lists one level down.
        #expect(text.components(separatedBy: "TreeNode {").count - 1 == 31)
        #expect(!text.contains("d3"))
        #expect(text.count < 20_000, "\(text.count) characters")

        let wide = TreeNode(value: ["name": "wide"])
        wide.children.append(objectsIn: (0..<150).map { TreeNode(value: ["name": "c\($0)"]) })
        let listed = wide.children.description
        #expect(listed.contains("[99] TreeNode {") && !listed.contains("[100]"))
        #expect(listed.hasSuffix(",\n\t... 50 objects skipped.\n)"))
    }
}
