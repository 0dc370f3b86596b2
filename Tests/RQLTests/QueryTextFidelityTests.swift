import Foundation
import Testing

@testable import RQL

// Query text as realm-swift's own query tests and realm-core's parser tests write it, through
// `filter(_:_:)` with `%K` and `%@` arguments and the matching `.where` closures.

final class MixedShelf: Object {
    @Persisted var name = ""
    @Persisted var anyCol: AnyRealmValue
    @Persisted var note: String?
    @Persisted(indexed: true) var indexedNote: String?
    @Persisted var neighbour: MixedShelf?
    @Persisted var neighbours: List<MixedShelf>
}

@Suite("Query text behaves as in Realm Swift")
struct QueryTextFidelityTests {
    /// Five shelves: `a` holds `[1, [2, 3], {k: [4, 5]}]`, `b` `{k: [1, 2, 3], j: 5}`, `c`
    /// `[[1, 2], [3]]`, `d` the int 5 and `e` a link to `a`; notes "b", "a", nil, "c", "".
    /// `a` and `b` have `e` as neighbour; only `a` and `c` have neighbours in their list.
    static func filled(_ name: String = #function) throws -> Realm {
        let realm = try makeRealm([MixedShelf.self], name: name)
        try realm.write {
            func shelf(_ name: String, _ note: String?, _ value: AnyRealmValue) -> MixedShelf {
                let shelf = MixedShelf(value: ["name": name, "note": note as Any, "indexedNote": note as Any])
                shelf.anyCol = value
                realm.add(shelf)
                return shelf
            }
            let a = shelf(
                "a",
                "b",
                .fromArray([
                    .int(1), .fromArray([.int(2), .int(3)]), .fromDictionary(["k": .fromArray([.int(4), .int(5)])]),
                ])
            )
            let b = shelf("b", "a", .fromDictionary(["k": .fromArray([.int(1), .int(2), .int(3)]), "j": .int(5)]))
            let c = shelf("c", nil, .fromArray([.fromArray([.int(1), .int(2)]), .fromArray([.int(3)])]))
            let d = shelf("d", "c", .int(5))
            let e = shelf("e", "", .object(a))
            a.neighbour = e
            b.neighbour = e
            c.neighbour = a
            e.neighbour = b
            a.neighbours.append(objectsIn: [b, c])
            c.neighbours.append(d)
        }
        return realm
    }

    static func names(_ results: Results<MixedShelf>) -> [String] { results.map(\.name).sorted() }

    // MARK: Subscripts of nested AnyRealmValue collections

    @Test("realm-swift: `[%K]` with the key path '#any' is the wildcard over a nested AnyRealmValue collection")
    func keyPathAnyIsTheWildcard() throws {
        let shelves = try Self.filled().objects(MixedShelf.self)
        #expect(Self.names(shelves.filter("anyCol[%K] == %@", "#any", 5)) == ["b"])
        #expect(Self.names(shelves.filter("%K[%K] == %@", "anyCol", "#any", 5)) == ["b"])
        #expect(Self.names(shelves.filter("%K[%@][%K] == %@", "anyCol", "k", "#any", 3)) == ["b"])
        #expect(Self.names(shelves.filter("%K[%K][%K] == %@", "anyCol", "#any", "#any", 3)) == ["a", "b", "c"])
        #expect(
            Self.names(shelves.filter("%K[%K][%K] == %@", "anyCol", "#any", "#any", 3))
                == Self.names(shelves.filter("anyCol[*][*] == 3"))
        )
    }

    /// Realm Swift's predicate builder documents its subscript form as `anyCol[0]['key'][#any]`:
    /// NSPredicate reads `#any` as the key path `any`, which Realm Swift takes for the wildcard.
    @Test("realm-swift: `[#any]` written out is the wildcard, as `[*]` and `[%K]` with '#any' are")
    func writtenHashAnyIsTheWildcard() throws {
        let shelves = try Self.filled().objects(MixedShelf.self)
        #expect(Self.names(shelves.filter("anyCol[#any] == 5")) == ["b"])
        #expect(Self.names(shelves.filter("anyCol['k'][#any] == 3")) == ["b"])
        #expect(Self.names(shelves.filter("anyCol[2]['k'][#any] == 4")) == ["a"])
        #expect(Self.names(shelves.filter("anyCol[#any][#any] == %@", 3)) == ["a", "b", "c"])
        for (written, wildcard) in [
            ("anyCol[#any] == 5", "anyCol[*] == 5"),
            ("anyCol[#any][#any] > 2", "anyCol[*][*] > 2"),
            ("anyCol[#any].@count == 2", "anyCol[*].@count == 2"),
            ("ANY anyCol[#any] == 1", "ANY anyCol[*] == 1"),
        ] {
            #expect(Self.names(shelves.filter(written)) == Self.names(shelves.filter(wildcard)), "\(written)")
        }
        // Only `#any`, as Realm Swift compares it: another escaped name is no subscript.
        #expect(throws: Realm.QueryError.self) { try shelves.query("anyCol[#ANY] == 5") }
        #expect(throws: Realm.QueryError.self) { try shelves.query("anyCol[#size] == 5") }
    }

    @Test("realm-swift: `.any` in a where closure and the `[%K]` text it stands for give the same objects")
    func anyClosureMatchesText() throws {
        let shelves = try Self.filled().objects(MixedShelf.self)
        let closure = shelves.where { $0.anyCol[1].any == .int(3) }
        #expect(Self.names(closure) == ["a", "c"])
        #expect(Self.names(shelves.filter("anyCol[%@][%K] == %@", 1, "#any", 3)) == Self.names(closure))
        #expect(Self.names(shelves.where { $0.anyCol.any == .int(5) }) == ["b"])
    }

    @Test("realm-swift: @count and @size of a nested collection reached by `%K[%@]`")
    func nestedCountsThroughKeyPathArguments() throws {
        let shelves = try Self.filled().objects(MixedShelf.self)
        #expect(Self.names(shelves.filter("%K[%@].@count == %@", "anyCol", 1, 2)) == ["a"])
        #expect(Self.names(shelves.filter("%K[%@].@size == %@", "anyCol", "k", 3)) == ["b"])
        #expect(Self.names(shelves.filter("%K[%@].@count > %@", "anyCol", 0, 0)) == ["c"])
        #expect(Self.names(shelves.filter("%K.@count == %@", "anyCol", 3)) == ["a"])
        #expect(Self.names(shelves.filter("%K[%@][%@] == %@", "anyCol", "k", 0, 1)) == ["b"])
    }

    // MARK: Ordering of optional strings

    @Test(
        "realm-swift: <, <=, >, >= on an optional string against an argument; nil never matches",
        arguments: [
            ("note > %@", "a", ["a", "d"]), ("note >= %@", "a", ["a", "b", "d"]),
            ("note < %@", "b", ["b", "e"]), ("note <= %@", "b", ["a", "b", "e"]),
            ("note > %@", "", ["a", "b", "d"]), ("note < %@", "", []),
            ("indexedNote > %@", "a", ["a", "d"]), ("indexedNote >= %@", "a", ["a", "b", "d"]),
            ("indexedNote < %@", "b", ["b", "e"]), ("indexedNote <= %@", "b", ["a", "b", "e"]),
            ("neighbour.note >= %@", "b", ["c"]), ("neighbour.note < %@", "b", ["a", "b", "e"]),
        ] as [(String, String, [String])]
    )
    func optionalStringOrdering(query: String, argument: String, expected: [String]) throws {
        let shelves = try Self.filled().objects(MixedShelf.self)
        #expect(Self.names(shelves.filter(query, argument)) == expected)
        let optional: String? = argument
        #expect(Self.names(shelves.filter(query, optional as Any)) == expected)
        let keyPath = String(query.prefix { $0 != " " })
        let keyed = query.replacingOccurrences(of: keyPath, with: "%K")
        #expect(Self.names(shelves.filter(keyed, keyPath, argument)) == expected)
    }

    @Test("realm-swift: the where closure forms of optional string ordering match the text")
    func optionalStringOrderingClosures() throws {
        let shelves = try Self.filled().objects(MixedShelf.self)
        #expect(Self.names(shelves.where { $0.note > "a" }) == ["a", "d"])
        #expect(Self.names(shelves.where { $0.note <= "b" }) == ["a", "b", "e"])
        #expect(Self.names(shelves.where { $0.indexedNote >= "a" }) == ["a", "b", "d"])
        #expect(Self.names(shelves.where { $0.indexedNote < "b" }) == ["b", "e"])
    }

    // MARK: @type of links

    @Test("realm-core: a list of links has the type 'link' whatever it holds, like a mixed link through a link")
    func typeOfLinkList() throws {
        let shelves = try Self.filled().objects(MixedShelf.self)
        // `b` holds no neighbours, but its neighbour's value is a link: realm-core types the
        // list column itself (ObjectLink), so `b` matches as `a` does.
        #expect(Self.names(shelves.filter("neighbours.@type == neighbour.anyCol.@type")) == ["a", "b"])
        #expect(Self.names(shelves.filter("neighbour.anyCol.@type == neighbours.@type")) == ["a", "b"])
        #expect(Self.names(shelves.filter("anyCol.@type == neighbours.@type")) == ["e"])
        #expect(Self.names(shelves.filter("neighbour.anyCol.@type == neighbour.@type")) == ["a", "b"])
        let error = #expect(throws: Realm.QueryError.self) { try shelves.query("neighbours.@type == 'link'") }
        #expect(error?.category == "two_constants")
    }
}
