import RQLIR
import RQLSema
import RQLSyntax
import Testing

@testable import RQL

/// Closures the type system accepts but the schema does not: the binder's error, rendered in
/// the closure's lowered text with a caret under the part it is about.
@Suite("DSL binding errors")
struct DSLErrorTests {
    static let schema = try? DiscoveredSchema(types: [ToyBox.self, Dog.self], closingOverLinks: true).schema

    func error<T: ObjectBase>(_ type: T.Type, _ closure: (Query<T>) -> Query<Bool>) throws -> DSLQueryError? {
        let schema = try #require(Self.schema)
        do {
            _ = try QueryCompiler.bind(
                UnboundQuery(predicate: QueryCompiler.predicate(type, closure)),
                className: type.className(),
                schema: schema
            )
            return nil
        } catch {
            return error
        }
    }

    @Test("an aggregate the type allows but Realm does not names the collection, under a caret")
    func sumOfDates() throws {
        let failure = try #require(try error(ToyBox.self) { $0.birthdays.sum > Date() })
        #expect(failure.error.kind == .unsupportedAggregate)
        #expect(failure.error.message.contains("'birthdays'"))
        #expect(failure.text == "birthdays.@sum > %@")
        #expect(failure.description.hasSuffix("  birthdays.@sum > %@\n  ^~~~~~~~~~~~~~"))
    }

    @Test("geoWithin on an embedded class that is not a GeoJSON point names the key path")
    func geoOnNonPoint() throws {
        let box = try #require(GeoBox(bottomLeft: (0, 0), topRight: (1, 1)))
        let failure = try #require(try error(ToyBox.self) { $0.spot.geoWithin(box) })
        #expect(failure.error.kind == .geoWrongTarget)
        #expect(failure.error.message.hasPrefix("'spot' links to data in the wrong format"))
    }

    @Test("a key path to a property that is not persisted fails with a message that says so")
    func notPersisted() throws {
        let failure = try #require(try error(Dog.self) { $0.name == "a" && $0.computedAge > 3 })
        #expect(failure.error.message.contains("does not read a persisted (@Persisted) property"))
        #expect(failure.text == "")
    }

    @Test("a subquery over a map's values is refused with the map's name (realm-swift #8654 crashed the parser)")
    func subqueryOverMapValues() throws {
        let failure = try #require(try error(ToyBox.self) { ($0.toysByRoom.values.name == "Ball").count > 0 })
        #expect(failure.error.kind == .subqueryOnPrimitiveList)
        #expect(failure.error.message.contains("'toysByRoom'"))
        #expect(failure.text == "SUBQUERY(toysByRoom.@values, $col1, $col1.name == %@).@count > %@")
    }
}

extension Dog {
    /// Not persisted: reads nothing, so no property name can be recorded for it.
    var computedAge: Int { 7 }
}
