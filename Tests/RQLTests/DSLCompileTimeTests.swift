import Foundation
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

    /// A program that uses `RQL` as a user's would, with the eight-comparison closure.
    static let eightComparisonProgram = """
        import RQL
        enum Flavor: String, PersistableEnum { case chocolate, vanilla }
        final class Toy: Object { @Persisted var name = "" }
        final class Thing: Object {
            @Persisted var intCol = 0
            @Persisted var stringCol = ""
            @Persisted var doubleCol = 0.0
            @Persisted var boolCol = false
            @Persisted var optStringCol: String?
            @Persisted var int8Col: Int8 = 0
            @Persisted var enumCol: Flavor = .vanilla
            @Persisted var objectCol: Toy?
        }
        func count(_ realm: Realm) -> Int {
            realm.objects(Thing.self).where {
                $0.intCol > 1 && $0.stringCol == "a" && $0.doubleCol < 2.5 && $0.boolCol == true
                    && $0.optStringCol != nil && $0.int8Col >= 3 && $0.enumCol == .chocolate
                    && $0.objectCol.name == "b"
            }.count
        }
        """

    /// The compiler's own limit makes "under a second" a build error rather than a timing:
    /// with `-solver-expression-time-threshold=1` swiftc gives up on any expression that takes
    /// longer ("unable to type-check this expression in reasonable time"). It takes about
    /// 70 ms today. Uses the `RQL` module built next to this test binary.
    @Test("swiftc type-checks the eight-comparison closure within a one-second solver limit")
    func eightComparisonsUnderSolverLimit() throws {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let modules = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("Modules")
        #expect(FileManager.default.fileExists(atPath: modules.appendingPathComponent("RQL.swiftmodule").path))
        let source = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rql-eight-\(UUID().uuidString).swift"
        )
        try Self.eightComparisonProgram.write(to: source, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: source) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swiftc", "-typecheck", "-I", modules.path, "-Xfrontend", "-solver-expression-time-threshold=1",
            source.path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(!output.contains("reasonable time"), "\(output)")
    }
}
