import RQLBytecode
import RQLCore
import RQLSema
import RQLStorage
import RQLSyntax
import RQLVM
import Testing

/// TEXT and ANY / NONE GEOWITHIN through several to-many hops or backlinks run as the walking
/// `CountSubquery` (the one-object test compiled over the class the hops reach), and
/// agree with the reference evaluator on `SearchLoweringTests`' data (null
/// strings and links, links to deleted objects, objects that are not points).
@Suite("Lowering of TEXT and GEOWITHIN through to-many hops")
struct WalkedSearchLoweringTests {
    static func lowers(_ text: String) throws {
        for opcodes in try SearchLoweringTests.check(text) {
            #expect(opcodes.contains(.countSubquery), "\(text) does not emit CountSubquery")
        }
    }

    @Test(
        "TEXT through two to-many hops or backlinks",
        arguments: [
            "friends.friends.text TEXT 'object'", "friends.friends.text TEXT '-object'",
            "NOT friends.friends.text TEXT 'manage*'", "@links.Doc.friends.text TEXT 'cafe'",
            "friends.parent.friends.text TEXT 'database*'", "@links.Doc.parent.friends.text TEXT 'object -great'",
        ]
    )
    func text(query: String) throws {
        try Self.lowers(query)
    }

    @Test(
        "ANY and NONE GEOWITHIN through to-many hops or backlinks",
        arguments: [
            "ANY friends.places GEOWITHIN geoBox([0, 0], [1, 1])",
            "NONE friends.places GEOWITHIN geoBox([0, 0], [1, 1])",
            "ANY friends.friends.place GEOWITHIN geoCircle([0.5, 0.5], 1)",
            "NONE friends.friends.place GEOWITHIN geoBox([0, 0], [1, 1])",
            "ANY @links.Doc.friends.place GEOWITHIN geoBox([0, 0], [1, 1])",
            "NOT ANY friends.friends.places GEOWITHIN geoCircle([0, 0], 1)",
        ]
    )
    func geoWithin(query: String) throws {
        try Self.lowers(query)
    }

    @Test(
        "MATCHES through two to-many hops or backlinks",
        arguments: [
            "ANY friends.friends.title MATCHES 'A.*'", "ALL friends.friends.title MATCHES '[a-zA-Z]+'",
            "NONE @links.Doc.friends.title MATCHES '.*a'", "friends.parent.friends.m MATCHES 'G.*'",
        ]
    )
    func matches(query: String) throws {
        try Self.lowers(query)
    }

    @Test("ALL GEOWITHIN through two to-many hops is tested thing by thing by LoadGroups and agrees")
    func allGeoWithin() throws {
        // A null or dangling link anywhere on the way fails ALL; a count of objects cannot see it,
        // so each thing reached is tested (`DeepGroupLoweringTests` has more of these).
        for opcodes in try SearchLoweringTests.check("ALL friends.friends.place GEOWITHIN geoBox([0, 0], [1, 1])") {
            #expect(opcodes.contains(.compareGroups))
        }
    }
}
