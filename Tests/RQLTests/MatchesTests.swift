import Foundation
import Testing

@testable import RQL

/// `MATCHES`: regular expressions in both query dialects and in `where` closures, beyond
/// Realm Swift (asked since 2015); the pattern is compiled once, when the query is bound.
@Suite("MATCHES in queries")
struct MatchesTests {
    @Test("NSPredicate format, RQL and the closure form select the same objects")
    func threeForms() throws {
        let realm = try makeSeedRealm()
        let dogs = realm.objects(Dog.self)
        let nsPredicate = dogs.filter("name MATCHES %@", "[FR].*")
        let rql = dogs.filter("name MATCHES $0", "[FR].*")
        let closure = dogs.where { $0.name.matches("[FR].*") }
        #expect(nsPredicate.map(\.name) == ["Rex", "Fido"])
        #expect(rql.map(\.name) == ["Rex", "Fido"])
        #expect(closure.map(\.name) == ["Rex", "Fido"])
        #expect(closure.explain().hasPrefix("== bound IR ==\n(query Dog (MATCHES Dog.name '[FR].*'))\n"))
        #expect(nsPredicate.explain() == closure.explain())
        #expect(dogs.filter("name matches '(?i)rex|spot'").map(\.name) == ["Rex", "Spot"])
        #expect(dogs.filter("NOT name MATCHES '.*o.*'").map(\.name) == ["Rex"])
    }

    @Test("over a set, ANY is implied; ALL and NONE can be written")
    func quantified() throws {
        let realm = try makeSeedRealm()
        let dogs = realm.objects(Dog.self)
        #expect(dogs.filter("citiesVisited MATCHES 'B.*'").map(\.name) == ["Wolfie"])
        #expect(dogs.filter("ANY citiesVisited MATCHES 'New.*'").map(\.name) == ["Rex", "Wolfie"])
        #expect(dogs.filter("ALL citiesVisited MATCHES '[NT].*'").map(\.name) == ["Rex", "Fido", "Spot"])
        #expect(dogs.filter("NONE citiesVisited MATCHES 'B.*'").map(\.name) == ["Rex", "Fido", "Spot"])
    }

    @Test("mixed values match when they hold a matching string")
    func mixed() throws {
        let realm = try makeSeedRealm()
        #expect(realm.objects(Dog.self).filter("companion MATCHES 'Fluffy.*'").map(\.name) == ["Wolfie"])
    }

    @Test("bad patterns and operands are located errors")
    func errors() throws {
        let realm = try makeSeedRealm()
        let dogs = realm.objects(Dog.self)
        #expect {
            try dogs.query("name MATCHES 'a(b'")
        } throws: { error in
            (error as? Realm.QueryError)?.message.hasPrefix("invalid regular expression 'a(b'") == true
        }
        #expect {
            try dogs.query("age MATCHES '1.*'")
        } throws: { error in
            (error as? Realm.QueryError)?.category == "string_op_on_non_string"
        }
        #expect {
            try dogs.query("name MATCHES color")
        } throws: { error in
            (error as? Realm.QueryError)?.message.contains("string constant or argument") == true
        }
        #expect(throws: Realm.QueryError.self) { try dogs.query("name MATCHES[c] 'a'") }
        #expect(throws: Realm.QueryError.self) { try dogs.query("name MATCHES %@", 3) }
    }

    @Test("a property named matches is still a name in RQL")
    func contextualKeyword() throws {
        let realm = try makeRealm()
        try realm.write { realm.add(Fixture(value: ["matches": 3])) }
        #expect(realm.objects(Fixture.self).filter("matches == $0", 3).count == 1)
    }
}

final class Fixture: Object {
    @Persisted var matches = 0
}
