import RQLCore
import RQLIR
import Testing

/// rql-semantics.md §10: SORT, DISTINCT and LIMIT, applied left to right.
@Suite("Reference evaluator: SORT, DISTINCT, LIMIT")
struct ClauseTests {
    let h: Harness

    init() throws {
        h = try Harness(fixture: "sort_distinct", className: "person")
    }

    func sort(_ keys: (String, Bool)...) -> BoundClause {
        .sort(keys.map { BoundSortKey(path: h.path($0.0), ascending: $0.1) })
    }

    func distinct(_ paths: String...) -> BoundClause {
        .distinct(paths.map { h.path($0) })
    }

    func names(_ clauses: [BoundClause], where predicate: BoundPredicate = .constant(true)) -> [Value] {
        h.values(predicate, clauses, of: "name")
    }

    @Test("SORT is stable and multi-key: age ASC keeps Adam before Ben; age ASC, name DESC puts Ben first")
    func sortOrder() {
        #expect(names([sort(("age", true))]) == Value.strings("Adam", "Ben", "Frank"))
        #expect(names([sort(("age", false))]) == Value.strings("Frank", "Adam", "Ben"))
        #expect(names([sort(("age", true), ("name", false))]) == Value.strings("Ben", "Adam", "Frank"))
        #expect(names([sort(("account.balance", true))]) == Value.strings("Adam", "Frank", "Ben"))
        #expect(names([sort(("account.balance", false))]) == Value.strings("Ben", "Adam", "Frank"))
    }

    @Test("DISTINCT keeps the first of each tuple; several DISTINCTs apply in turn")
    func distinctOrder() {
        #expect(names([distinct("age")]) == Value.strings("Adam", "Frank"))
        #expect(names([distinct("age", "account.balance")]) == Value.strings("Adam", "Frank", "Ben"))
        #expect(names([distinct("age"), distinct("account.balance")]) == Value.strings("Adam"))
        #expect(h.values(.constant(true), [sort(("age", true)), distinct("age")], of: "age") == Value.ints(28, 30))
        #expect(
            names([sort(("name", false)), distinct("age"), sort(("name", true)), distinct("name")])
                == Value.strings("Ben", "Frank")
        )
    }

    @Test("LIMIT before or after SORT: SORT(name) LIMIT(2) is Adam, Ben; LIMIT(2) SORT(name) is Adam, Frank")
    func limitOrder() {
        let adults = h.cmp("age", .greater, .int(0))
        #expect(names([sort(("name", true)), .limit(2)], where: adults) == Value.strings("Adam", "Ben"))
        #expect(names([.limit(2), sort(("name", true))], where: adults) == Value.strings("Adam", "Frank"))
        #expect(names([.limit(0)]).isEmpty)
        #expect(names([.limit(2), .limit(1)]) == Value.strings("Adam"))
        #expect(names([.limit(10)]).count == 3)
    }

    @Test("count ignores the clauses; run honours them")
    func countIgnoresClauses() {
        let query = h.query(.constant(true), [.limit(1)])
        #expect(h.evaluator.count(query) == 3)
        #expect(h.evaluator.run(query).count == 1)
        #expect(h.evaluator.matches(query, position: 2))
        #expect(!h.evaluator.matches(query, position: 3))
    }

    static let nullLinks = """
        {
          "schema": {
            "Person": { "properties": { "name": "string", "age": "int?", "buddy": "Person?" } }
          },
          "objects": { "Person": [
            { "name": "A", "age": 3, "buddy": 3 },
            { "name": "B", "age": null, "buddy": null },
            { "name": "C", "age": 1, "buddy": 1 },
            { "name": "D", "age": 2, "buddy": 0 },
            { "name": "E", "age": null, "buddy": 2 }
          ] }
        }
        """

    @Test("Nulls sort first ascending; a null link on the sort path sorts last ascending, first descending")
    func nullsInSort() throws {
        let h = try Harness(json: Self.nullLinks, className: "Person")
        let byAge = BoundClause.sort([BoundSortKey(path: h.path("age"), ascending: true)])
        #expect(h.values(.constant(true), [byAge], of: "name") == Value.strings("B", "E", "C", "D", "A"))
        let byBuddyAge = BoundClause.sort([BoundSortKey(path: h.path("buddy.age"), ascending: true)])
        // buddy ages: A→D 2, B no buddy, C→B null, D→A 3, E→C 1.
        #expect(h.values(.constant(true), [byBuddyAge], of: "name") == Value.strings("C", "E", "A", "D", "B"))
        let descending = BoundClause.sort([BoundSortKey(path: h.path("buddy.age"), ascending: false)])
        #expect(h.values(.constant(true), [descending], of: "name") == Value.strings("B", "D", "A", "E", "C"))
    }

    @Test("DISTINCT treats nulls as equal and drops objects whose path crosses a null link")
    func nullsInDistinct() throws {
        let h = try Harness(json: Self.nullLinks, className: "Person")
        #expect(
            h.values(.constant(true), [.distinct([h.path("age")])], of: "name") == Value.strings("A", "B", "C", "D")
        )
        #expect(
            h.values(.constant(true), [.distinct([h.path("buddy.age")])], of: "name")
                == Value.strings("A", "C", "D", "E")
        )
    }
}
