import FuzzCommon
import RQLCore
import RQLDatasets
import RQLEngine
import RQLIR
import RQLStorage
import RQLSyntax
import Testing

@Suite("QueryInput reads fuzzer bytes")
struct QueryInputTests {
    @Test("The header byte selects dialect, class and argument count")
    func header() {
        // 0x5b: bit 0 nspredicate, bits 1-2 Person, bits 3-4 three arguments ('A' 'B' 'C' = 1, 2, 3).
        let input = QueryInput(bytes: Array("[ABCname == $0".utf8))
        #expect(input.dialect == .nsPredicate)
        #expect(input.className == "Person")
        #expect(input.argumentIndices == [1, 2, 3])
        #expect(input.text == "name == $0")
    }

    @Test(
        "Encoding and decoding agree",
        arguments: [
            QueryInput(text: ""),
            QueryInput(dialect: .nsPredicate, className: "DogClub", argumentIndices: [15, 0, 7], text: "a == $2"),
            QueryInput(className: "DogToy", argumentIndices: [3], text: "Шарик"),
        ]
    )
    func roundTrip(input: QueryInput) {
        #expect(QueryInput(bytes: input.bytes) == input)
    }

    @Test("Short and empty inputs read without trapping")
    func shortInputs() {
        #expect(QueryInput(bytes: []) == QueryInput(text: ""))
        #expect(QueryInput(bytes: [0xff]).argumentIndices.isEmpty)
        #expect(QueryInput(bytes: [0x18, 0x01]).argumentIndices == [1])
    }

    @Test("Every argument text reads against the demo dataset")
    func argumentsRead() {
        #expect(QueryCheck.standard.arguments.allSatisfy { $0 != nil })
        #expect(QueryCheck.standard.arguments.count == QueryInput.argumentTexts.count)
    }
}

@Suite("QueryCheck catches broken invariants")
struct QueryCheckSelfTests {
    private static func planted(
        compile: QueryCheck.CompileFunction? = nil,
        verify: QueryCheck.VerifyFunction? = nil,
        execute: QueryCheck.RunFunction? = nil
    ) -> QueryCheck {
        let standard = QueryCheck.standard
        return QueryCheck(
            store: standard.store,
            compile: compile ?? standard.compile,
            verify: verify ?? standard.verify,
            execute: execute ?? standard.execute
        )
    }

    @Test("An error span past the end of the query is caught")
    func spanOutsideText() {
        let check = Self.planted(compile: { (input, _, _) throws(QueryError) in
            throw .syntax(
                SyntaxError(
                    .unexpectedToken,
                    "planted",
                    at: SourceSpan(offset: input.text.utf8.count, length: 1, line: 1, column: 1)
                )
            )
        })
        #expect(check.violation(in: QueryInput(text: "age >"))?.invariant == .errorSpan)
    }

    @Test("A verifier problem is caught")
    func verifierProblem() {
        let check = Self.planted(verify: { _, _ in ["planted problem"] })
        let violation = check.violation(in: QueryInput(text: "age > 2"))
        #expect(violation?.invariant == .verifier)
        #expect(violation?.description.contains("planted problem") == true)
    }

    @Test("Repeated, missing and excess row keys are caught")
    func badRows() {
        let repeated = Self.planted(execute: { _, _ in [RowKey(0), RowKey(0)] })
        #expect(repeated.violation(in: QueryInput(text: "age > 2"))?.invariant == .result)
        let missing = Self.planted(execute: { _, _ in [RowKey(1000)] })
        #expect(missing.violation(in: QueryInput(text: "age > 2"))?.invariant == .result)
        let excess = Self.planted(execute: { _, _ in [RowKey(0), RowKey(1)] })
        #expect(excess.violation(in: QueryInput(text: "TRUEPREDICATE LIMIT(1)"))?.invariant == .result)
    }

    @Test("The real engine keeps the invariants on a few inputs")
    func realEngine() {
        for input in [
            QueryInput(text: "age > 2 SORT(age DESC) LIMIT(3)"),
            QueryInput(text: "agee > 2"),
            QueryInput(text: "age >"),
            QueryInput(className: "Person", argumentIndices: [0], text: "dogs.@count > $0"),
            QueryInput(className: "Person", text: "dogs.@count > $0"),
            QueryInput(dialect: .nsPredicate, className: "DogClub", text: "description TEXT 'dogs'"),
            QueryInput(text: "姓名 == 1 &"),
        ] {
            let violation = QueryCheck.standard.violation(in: input)
            #expect(violation == nil, "\(input): \(violation?.description ?? "")")
        }
    }
}

@Suite("DatasetCheck catches broken invariants")
struct DatasetCheckSelfTests {
    private static let small =
        #"{"schema": {"Dog": {"properties": {"name": "string"}}}, "objects": {"Dog": [{"name": "Rex"}]}}"#

    @Test("An export that does not load is caught")
    func unloadableExport() {
        let check = DatasetCheck(load: DatasetCheck.standard.load) { (store) throws(DatasetError) in
            try DatasetExporter.export(store) + ","
        }
        #expect(check.violation(in: Self.small)?.invariant == .exportLoads)
    }

    @Test("An export that is not a fixpoint is caught")
    func driftingExport() {
        // Writes one more object than the store has: each export differs from the one before.
        let growing = DatasetCheck(load: DatasetCheck.standard.load) { store in
            let rows = store.table(named: "Dog")?.rowCount ?? 0
            return #"{"schema": {"Dog": {"properties": {"name": "string"}}}, "objects": {"Dog": ["#
                + Array(repeating: #"{"name": "x"}"#, count: rows + 1).joined(separator: ",") + "]}}"
        }
        #expect(growing.violation(in: Self.small)?.invariant == .exportFixpoint)
    }

    @Test("The real loader and exporter keep the invariants on a few inputs")
    func realLoader() {
        for text in [Self.small, DemoDataset.json, "", "{", "[]", #"{"schema": {}}"#, #"{"schema": {"A": 1}}"#] {
            let violation = DatasetCheck.standard.violation(in: text)
            #expect(violation == nil, "\(text.prefix(40)): \(violation?.description ?? "")")
        }
    }
}
