import Foundation
import FuzzCommon
import RQLCore
import RQLDatasets
import RQLEngine
import RQLStorage
import RQLSyntax
import Testing

/// The fuzz package's directory, found from this file: Tests/FuzzCommonTests/<this file>.
private let fuzzDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The files of `Fuzz/<folder>`, by name, so a failure names the file to look at.
private func inputs(in folder: String) -> [String] {
    let directory = fuzzDirectory.appendingPathComponent(folder)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { !$0.hasPrefix(".") }.sorted().map { "\(folder)/\($0)" }
}

private func contents(of file: String) throws -> String {
    String(decoding: try bytes(of: file), as: UTF8.self)
}

private func bytes(of file: String) throws -> [UInt8] {
    Array(try Data(contentsOf: fuzzDirectory.appendingPathComponent(file)))
}

@Suite("Fuzz regression replay")
struct RegressionReplayTests {
    @Test("Minimized crashers no longer break a parse invariant", arguments: inputs(in: "Regressions/FuzzParse"))
    func regression(file: String) throws {
        let violations = ParseCheck.standard.violations(in: try contents(of: file))
        #expect(violations.isEmpty, "\(file):\n\(violations.map(\.description).joined(separator: "\n\n"))")
    }

    @Test("Seed corpus inputs keep the parse invariants", arguments: inputs(in: "Corpus/FuzzParse"))
    func seed(file: String) throws {
        let violations = ParseCheck.standard.violations(in: try contents(of: file))
        #expect(violations.isEmpty, "\(file):\n\(violations.map(\.description).joined(separator: "\n\n"))")
    }

    @Test("The seed corpus is there and holds parsable queries")
    func seedCorpusIsPresent() throws {
        let files = inputs(in: "Corpus/FuzzParse")
        #expect(files.count > 100)
        let parsable = files.filter { (try? Parser.parse(try contents(of: $0))) != nil }
        #expect(parsable.count > files.count / 2)
    }
}

@Suite("FuzzQuery regression replay")
struct QueryReplayTests {
    @Test("Minimized crashers no longer break a query invariant", arguments: inputs(in: "Regressions/FuzzQuery"))
    func regression(file: String) throws {
        let violation = QueryCheck.standard.violation(in: QueryInput(bytes: try bytes(of: file)))
        #expect(violation == nil, "\(file):\n\(violation?.description ?? "")")
    }

    @Test("Seed corpus inputs keep the query invariants", arguments: inputs(in: "Corpus/FuzzQuery"))
    func seed(file: String) throws {
        let violation = QueryCheck.standard.violation(in: QueryInput(bytes: try bytes(of: file)))
        #expect(violation == nil, "\(file):\n\(violation?.description ?? "")")
    }

    @Test("The seed corpus is there and many seeds bind against the demo schema")
    func seedCorpusIsPresent() throws {
        let files = inputs(in: "Corpus/FuzzQuery")
        #expect(files.count > 100)
        let check = QueryCheck.standard
        let bound = try files.filter { file in
            let input = QueryInput(bytes: try bytes(of: file))
            let arguments = input.argumentIndices.compactMap { check.arguments[$0] }
            return (try? check.compile(input, check.store.schema, arguments)) != nil
        }
        #expect(bound.count >= 100, "only \(bound.count) of \(files.count) seeds bind")
    }
}

@Suite("FuzzDataset regression replay")
struct DatasetReplayTests {
    @Test("Minimized crashers no longer break a dataset invariant", arguments: inputs(in: "Regressions/FuzzDataset"))
    func regression(file: String) throws {
        let violation = DatasetCheck.standard.violation(in: try contents(of: file))
        #expect(violation == nil, "\(file):\n\(violation?.description ?? "")")
    }

    @Test("Seed corpus inputs keep the dataset invariants", arguments: inputs(in: "Corpus/FuzzDataset"))
    func seed(file: String) throws {
        let violation = DatasetCheck.standard.violation(in: try contents(of: file))
        #expect(violation == nil, "\(file):\n\(violation?.description ?? "")")
    }

    @Test("The seed corpus is there and every seed loads")
    func seedCorpusIsPresent() throws {
        let files = inputs(in: "Corpus/FuzzDataset")
        #expect(files.count >= 5)
        for file in files {
            #expect(throws: Never.self, "\(file)") { _ = try DatasetLoader.load(json: try contents(of: file)) }
        }
    }
}

@Suite("ParseCheck catches broken invariants")
struct ParseCheckSelfTests {
    @Test("A printer that drops the result clauses breaks the fixpoint")
    func droppedClauses() {
        let check = ParseCheck(parse: ParseCheck.standard.parse) { query in
            var query = query
            query.clauses = []
            return SyntaxPrinter.print(query)
        }
        let violations = check.violations(in: "age > 2 SORT(age ASC)")
        #expect(violations.map(\.invariant) == [.printFixpoint])
        #expect(violations.first?.printed == "age > 2")
    }

    @Test("A printer whose text does not parse breaks the fixpoint")
    func unparsablePrint() {
        let check = ParseCheck(parse: ParseCheck.standard.parse) { SyntaxPrinter.print($0) + " AND" }
        #expect(check.violations(in: "TRUEPREDICATE").count == Dialect.allCases.count)
    }

    @Test("An error span past the end of the input is caught")
    func spanOutsideInput() {
        let check = ParseCheck(
            parse: { (source, _) throws(SyntaxError) in
                throw SyntaxError(
                    .unexpectedToken,
                    "planted",
                    at: SourceSpan(offset: source.utf8.count, length: 1, line: 1, column: 1)
                )
            },
            print: ParseCheck.standard.print
        )
        let violations = check.violations(in: "age >")
        #expect(violations.map(\.invariant) == [.errorSpan, .errorSpan])
        #expect(violations.first?.detail.contains("not inside the input") == true)
    }

    @Test("An error span whose line disagrees with its offset is caught")
    func spanLineMismatch() {
        let check = ParseCheck(
            parse: { (source, _) throws(SyntaxError) in
                throw SyntaxError(.unexpectedToken, "planted", at: SourceSpan(offset: 2, length: 0, line: 1, column: 3))
            },
            print: ParseCheck.standard.print
        )
        #expect(check.violations(in: "a\nb").first?.invariant == .errorSpan)
        #expect(check.violations(in: "abc").isEmpty)
    }

    @Test("The real parser keeps the invariants on a few inputs")
    func realParser() {
        for source in [
            "age > 2 AND name BEGINSWITH[c] 'r' SORT(age DESC) LIMIT(5)", "", "age >", "姓名 == 1 &", "\u{FFFD}",
        ] {
            #expect(ParseCheck.standard.violations(in: source).isEmpty, "\(source.debugDescription)")
        }
    }
}

@Suite("FuzzCompile and FuzzDifferential regression replay")
struct VMReplayTests {
    @Test("Minimized crashers no longer break a compile invariant", arguments: inputs(in: "Regressions/FuzzCompile"))
    func compileRegression(file: String) throws {
        let violation = CompileCheck().violation(in: VMInput(bytes: try bytes(of: file)))
        #expect(violation == nil, "\(file):\n\(violation?.description ?? "")")
    }

    @Test("Seed corpus inputs keep the compile invariants", arguments: inputs(in: "Corpus/FuzzCompile"))
    func compileSeed(file: String) throws {
        let violation = CompileCheck().violation(in: VMInput(bytes: try bytes(of: file)))
        #expect(violation == nil, "\(file):\n\(violation?.description ?? "")")
    }

    @Test(
        "Minimized crashers no longer make the three ways disagree",
        arguments: inputs(in: "Regressions/FuzzDifferential")
    )
    func differentialRegression(file: String) throws {
        let violation = DifferentialCheck().violation(in: VMInput(bytes: try bytes(of: file)))
        #expect(violation == nil, "\(file):\n\(violation?.description ?? "")")
    }

    @Test("Seed corpus inputs run the same three ways", arguments: inputs(in: "Corpus/FuzzDifferential"))
    func differentialSeed(file: String) throws {
        let violation = DifferentialCheck().violation(in: VMInput(bytes: try bytes(of: file)))
        #expect(violation == nil, "\(file):\n\(violation?.description ?? "")")
    }

    @Test("The seed corpora are there and most seeds bind against the generated schema")
    func seedCorporaArePresent() throws {
        for harness in ["FuzzCompile", "FuzzDifferential"] {
            let files = inputs(in: "Corpus/\(harness)")
            #expect(files.count >= 50, "\(harness) has \(files.count) seeds")
            let unbound = try files.map { VMInput(bytes: try bytes(of: $0)) }.filter { input in
                (try? QueryEngine().bind(input.text, className: input.className, schema: input.store().schema)) == nil
            }
            #expect(
                unbound.count * 10 <= files.count,
                "\(harness): \(unbound.count) of \(files.count) seeds do not bind: \(Set(unbound.map(\.text)).sorted())"
            )
        }
    }
}
