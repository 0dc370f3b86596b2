import RQLBytecode
import RQLCore
import RQLEngine
import RQLSema
import RQLStorage
import RQLVM
import Testing

/// How many of realm-core's public query vectors still compile to a program with a `FilterRow`
/// (the row-at-a-time port of the reference evaluator) once optimized: a ratchet, so that a
/// change that takes a shape back off the register instructions fails here, and the shapes that
/// remain are printed by name.
@Suite("Row-at-a-time filters left")
struct RowFilterCensusTests {
    /// The most programs that may keep a `FilterRow`; lower it when a shape is lowered.
    static let allowed = 0

    @Test("conformance programs with a FilterRow stay at most the recorded number")
    func census() throws {
        guard case .array(let suites)? = try ConformanceVMTests.loadVectors()["suites"] else { return }
        var programs = 0
        var rowFilters: [String] = []
        for suite in suites {
            guard let data = suite["data"], case .array(let cases)? = suite["cases"],
                let store = try? DatasetLoader.load(document: data)
            else { continue }
            for testCase in cases where testCase["skip"] == nil {
                guard case .string(let query)? = testCase["query"], case .string(let className)? = testCase["class"]
                else { continue }
                var arguments: [QueryArgument] = []
                if case .array(let values)? = testCase["args"] {
                    arguments = values.compactMap { try? ArgumentReader.read($0, store: store) }
                    guard arguments.count == values.count else { continue }
                }
                guard
                    let bound = try? QueryEngine.compile(
                        query,
                        className: className,
                        schema: store.schema,
                        arguments: arguments
                    )
                else { continue }
                let program = try VMHarness.compile(bound, store: store, optimized: true)
                programs += 1
                if program.instructions.contains(where: { $0.opcode == .filterRow }) { rowFilters.append(query) }
            }
        }
        print("FilterRow census: \(rowFilters.count) of \(programs) optimized conformance programs")
        for query in rowFilters { print("  FilterRow: \(query)") }
        #expect(programs > 900)
        #expect(rowFilters.count <= Self.allowed, "\(rowFilters.count) programs keep a FilterRow")
    }
}
