import RQLCore
@_spi(RQL) import RQLDSL
import RQLIR
import Testing

// The DSL without the object model: a stand-in object type whose key paths name themselves.

final class Kennel: _QueryObjectBase {
    var name = ""
    var size = 0
    var dogs = Pack()
    var computed: Int { size * 2 }

    static func _rqlQueryPropertyName(for keyPath: AnyKeyPath) -> String? {
        switch keyPath {
        case \Kennel.name: "name"
        case \Kennel.size: "size"
        case \Kennel.dogs: "dogs"
        default: nil
        }
    }
}

final class Hound: _QueryObjectBase {
    var age = 0
    var name = ""
    var tags = Tags()

    static func _rqlQueryPropertyName(for keyPath: AnyKeyPath) -> String? {
        switch keyPath {
        case \Hound.age: "age"
        case \Hound.name: "name"
        case \Hound.tags: "tags"
        default: nil
        }
    }
}

struct Pack: _QueryCollection { typealias Element = Hound }
struct Tags: _QueryCollection { typealias Element = String }

@Suite("Query builder")
struct QueryBuilderTests {
    func predicate(_ closure: (Query<Kennel>) -> Query<Bool>) -> UnboundPredicate {
        closure(Query<Kennel>())._rqlPredicate
    }

    func path(_ names: String..., root: UnboundKeyPath.Root = .object) -> UnboundExpression {
        .keyPath(UnboundKeyPath(root: root, names.map { .property($0) }))
    }

    @Test("a comparison is the key path, the operator and the constant")
    func comparison() {
        #expect(predicate { $0.size > 3 } == .comparison(UnboundComparison(path("size"), .greater, .constant(.int(3)))))
    }

    @Test("&& and || flatten into one AND or OR")
    func flattening() {
        let built = predicate { $0.size > 1 && $0.size < 9 && $0.name == "x" }
        guard case .and(let operands) = built else {
            Issue.record("expected an AND, got \(built)")
            return
        }
        #expect(operands.count == 3)
    }

    @Test("a key path through a collection owes an ANY; count and aggregates settle it")
    func anyThroughCollections() {
        #expect(
            predicate { $0.dogs.age > 2 }
                == .comparison(UnboundComparison(.quantified(.any, path("dogs", "age")), .greater, .constant(.int(2))))
        )
        #expect(
            predicate { $0.dogs.count > 2 }
                == .comparison(
                    UnboundComparison(
                        .keyPath(UnboundKeyPath([.property("dogs")], postfix: .count)),
                        .greater,
                        .constant(.int(2))
                    )
                )
        )
        #expect(
            predicate { $0.dogs.age.max < 9 }
                == .comparison(
                    UnboundComparison(
                        .keyPath(UnboundKeyPath([.property("dogs")], postfix: .aggregate(.max, property: "age"))),
                        .less,
                        .constant(.int(9))
                    )
                )
        )
    }

    @Test("a subquery count re-roots the collection's key paths at its element")
    func subquery() {
        let built = predicate { ($0.dogs.age > 5 && $0.dogs.tags.contains("x") && $0.size > 1).count > 2 }
        let inner: UnboundPredicate = .and([
            .comparison(UnboundComparison(path("age", root: .element(depth: 0)), .greater, .constant(.int(5)))),
            .comparison(
                UnboundComparison(
                    .quantified(.any, path("tags", root: .element(depth: 0))),
                    .equal,
                    .constant(.string("x"))
                )
            ),
            .comparison(UnboundComparison(path("size"), .greater, .constant(.int(1)))),
        ])
        #expect(
            built
                == .comparison(
                    UnboundComparison(
                        .subqueryCount(collection: UnboundKeyPath("dogs"), predicate: inner),
                        .greater,
                        .constant(.int(2))
                    )
                )
        )
    }

    @Test("misuses build an invalid operand whose message says what is wrong")
    func invalidOperands() {
        func message(_ built: UnboundPredicate) -> String? {
            if case .comparison(let c) = built, case .invalid(let message) = c.lhs { return message }
            return nil
        }
        #expect(
            message(predicate { $0.computed > 1 })?.contains("does not read a persisted (@Persisted) property") == true
        )
        #expect(
            message(predicate { $0.size.avg > 1 })?.contains("needs a property reached through a collection") == true
        )
        #expect(
            message(predicate { ($0.size > 1).count > 0 })?.contains(
                "a subquery count needs a predicate on a collection"
            ) == true
        )
    }
}
