import Foundation
import RQLDatasets
import RQLStorage
import RQLTools
import Testing

@testable import RQL

/// A pet with an indexed city, for comparing `Results.explain()` with `rqlc explain`.
final class ExplainedPet: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var city = ""
    @Persisted var age = 0
    @Persisted var name = ""
}

/// `Results.explain()` is `rqlc explain` on the same data: the same bound IR, passes, plan and
/// estimates (a chain has no text, so there is no syntax-tree section).
@Suite("Results.explain() and rqlc explain")
struct ResultsExplainTests {
    static let dataset: String = {
        let pets = (0..<60).map { i in
            #"{"id": \#(i), "city": "City\#(i % 6)", "age": \#((i * 7) % 20), "name": "Pet\#(i % 9)"}"#
        }
        return #"""
            {"schema": {"ExplainedPet": {"primaryKey": "id", "indexed": ["city"],
               "properties": {"id": "int", "city": "string", "age": "int", "name": "string"}}},
             "objects": {"ExplainedPet": [\#(pets.joined(separator: ", "))]}}
            """#
    }()

    func realm() throws -> Realm {
        let identifier = "explain-\(UUID().uuidString)"
        let store = try DatasetLoader.load(json: Self.dataset)
        let coordinator = StoreRegistry.adopt(try BlockStore(importing: store), inMemoryIdentifier: identifier)
        return try withExtendedLifetime(coordinator) {
            try Realm(
                configuration: Realm.Configuration(inMemoryIdentifier: identifier, objectTypes: [ExplainedPet.self])
            )
        }
    }

    /// `rqlc explain` of `query` on the dataset, without its syntax-tree section.
    func rqlcExplain(_ query: String) -> String {
        let result = RQLCommand.run(
            ["explain", "--data", "pets.json", "--class", "ExplainedPet", query],
            environment: CommandEnvironment(files: ["pets.json": Self.dataset])
        )
        #expect(result.exitCode == 0, "\(result.standardError)")
        let text = result.standardOutput
        guard text.hasPrefix("== syntax tree ==\n"), let end = text.range(of: "\n\n") else { return text }
        return String(text[end.upperBound...])
    }

    /// The text without the chain-merging pass's lines: a chain of several operators merges into
    /// one query (the pass fires), a query from text is one already (it does not).
    func withoutChainMerging(_ text: String) -> String {
        var lines = text.components(separatedBy: "\n")
        if let index = lines.firstIndex(where: { $0.dropFirst(2).hasPrefix("chain-merging (") }) {
            lines.remove(at: index)
            if index < lines.count, lines[index].hasPrefix("    ") { lines.remove(at: index) }
        }
        return lines.joined(separator: "\n")
    }

    @Test("a text filter explains as rqlc explains the same text")
    func textFilter() throws {
        let pets = try realm().objects(ExplainedPet.self)
        let query = "city == 'City2' AND age > 5 SORT(age DESC) LIMIT(3)"
        let explained = pets.filter(query).explain()
        #expect(explained == rqlcExplain(query))
        #expect(explained.contains("|--SEARCH ExplainedPet USING INDEX city (city=?)"))
    }

    @Test("a chain of filter, where and sorted is one plan, explained as its merged query")
    func chain() throws {
        let pets = try realm().objects(ExplainedPet.self)
        let chained = pets.filter("city == 'City2'").where { $0.age > 5 }.sorted(byKeyPath: "age", ascending: false)
        let explained = chained.explain()
        #expect(explained.contains("\n+ chain-merging (fired): "))
        #expect(
            withoutChainMerging(explained)
                == withoutChainMerging(rqlcExplain("city == 'City2' AND age > 5 SORT(age DESC)"))
        )
    }

    @Test("NSPredicate text and an unfiltered prefix explain as rqlc does")
    func otherForms() throws {
        let pets = try realm().objects(ExplainedPet.self)
        #expect(pets.filter("name == %@", "Pet3").explain() == rqlcExplain("name == 'Pet3'"))
        #expect(
            withoutChainMerging(pets.prefix(4).explain()) == withoutChainMerging(rqlcExplain("TRUEPREDICATE LIMIT(4)"))
        )
    }
}
