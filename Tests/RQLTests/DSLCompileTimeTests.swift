import RQLIR
import Testing

@testable import RQL

/// realm-swift #7958: a `where` closure of seven `&&`-joined comparisons does not type-check
/// there. The DSL keeps its overload sets small so that this file (eight comparisons over six
/// types, literals on the right) type-checks in milliseconds; measure with
/// `-Xfrontend -debug-time-function-bodies`.
@Suite("DSL compile time")
struct DSLCompileTimeTests {
    @Test("a closure of eight &&-joined comparisons type-checks and binds")
    func eightComparisons() throws {
        let predicate = QueryCompiler.predicate(AllTypesObject.self) {
            $0.intCol > 1 && $0.stringCol == "a" && $0.doubleCol < 2.5 && $0.boolCol == true
                && $0.optStringCol != nil && $0.int8Col >= 3 && $0.enumCol == .chocolate && $0.objectCol.name == "b"
        }
        let schema = try DiscoveredSchema(types: [AllTypesObject.self], closingOverLinks: true).schema
        let bound = try QueryCompiler.bind(
            UnboundQuery(predicate: predicate),
            className: "AllTypesObject",
            schema: schema
        )
        guard case .and(let operands) = bound.predicate else {
            Issue.record("expected one AND, got \(IRPrinter.print(bound))")
            return
        }
        #expect(operands.count == 8)
    }

    @Test("a closure of eight comparisons mixing ||, ! and string methods type-checks and binds")
    func mixedOperators() throws {
        let predicate = QueryCompiler.predicate(Dog.self) {
            !$0.name.contains("x") && ($0.age > 1 || $0.age < 0) && $0.color.starts(with: "t")
                && $0.citiesVisited.count > 1 && $0.favoriteParksByCity["Oslo"] == "Park" && $0.favoriteToy == nil
                && $0.currentCity.in(["Paris", "Rome"]) && $0.companion == .int(3)
        }
        let schema = try DiscoveredSchema(types: [Dog.self], closingOverLinks: true).schema
        let bound = try QueryCompiler.bind(UnboundQuery(predicate: predicate), className: "Dog", schema: schema)
        guard case .and(let operands) = bound.predicate else {
            Issue.record("expected one AND, got \(IRPrinter.print(bound))")
            return
        }
        #expect(operands.count == 8)
    }
}
