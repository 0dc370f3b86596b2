import RQLCore
import RQLSyntax

/// The parser's invariants, checked on one input in every dialect.
///
/// For any bytes, decoded as UTF-8 with replacement (`String(decoding:as:)`), and each `Dialect`:
/// 1. parsing returns (no trap, no hang; the fuzzer's `-timeout` catches the latter);
/// 2. a `SyntaxError`'s span lies inside the input: `0 <= offset`, `offset + length <= utf8.count`,
///    `line, column >= 1`, starts on a character boundary, its line and column agree with its
///    offset, and `rendered(in:)` returns;
/// 3. a tree `t` prints to canonical text `p` that is a fixpoint: `parse(p) == t` and
///    `print(parse(p)) == p`.
///
///     ParseCheck.standard.run(Array("age > 2".utf8))          // traps on a violation
///     ParseCheck.standard.violations(in: "age > 2")            // [] when the parser is right
///
/// The parse and print functions are stored so a test can plant a broken printer and see that
/// the check notices.
public struct ParseCheck: Sendable {
    public typealias ParseFunction = @Sendable (String, Dialect) throws(SyntaxError) -> QuerySyntax
    public typealias PrintFunction = @Sendable (QuerySyntax) -> String

    public var parse: ParseFunction
    public var print: PrintFunction

    public init(parse: @escaping ParseFunction, print: @escaping PrintFunction) {
        self.parse = parse
        self.print = print
    }

    /// The real parser and canonical printer.
    public static let standard = ParseCheck(
        parse: { (source, dialect) throws(SyntaxError) in try Parser.parse(source, dialect: dialect) },
        print: { SyntaxPrinter.print($0) }
    )

    /// Checks `bytes` in every dialect and traps with a readable report on the first violation,
    /// so that libFuzzer records the input as a crash.
    public func run(_ bytes: UnsafeRawBufferPointer) {
        let source = String(decoding: bytes, as: UTF8.self)
        for dialect in Dialect.allCases {
            if let violation = violation(in: source, dialect: dialect) {
                fatalError("\n" + violation.description)
            }
        }
    }

    public func run(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { run($0) }
    }

    /// Every violation for `source`, at most one per dialect; empty when the parser is right.
    public func violations(in source: String) -> [ParseViolation] {
        Dialect.allCases.compactMap { violation(in: source, dialect: $0) }
    }

    /// The first violated invariant for `source` in `dialect`, or nil.
    public func violation(in source: String, dialect: Dialect) -> ParseViolation? {
        let tree: QuerySyntax
        do {
            tree = try parse(source, dialect)
        } catch {
            return spanViolation(of: error, in: source, dialect: dialect)
        }
        return fixpointViolation(of: tree, source: source, dialect: dialect)
    }

    // MARK: - Invariant 2: error spans

    private func spanViolation(of error: SyntaxError, in source: String, dialect: Dialect) -> ParseViolation? {
        if let problem = spanProblem(error.span, in: source) {
            return ParseViolation(
                invariant: .errorSpan,
                dialect: dialect,
                input: source,
                detail: "\(problem)\nerror: \(error.kind) \(error.message)\n\(spanDescription(error.span))"
            )
        }
        // Must not trap; the text itself is free-form.
        _ = error.rendered(in: source)
        return nil
    }

    // MARK: - Invariant 3: the printer's fixpoint

    private func fixpointViolation(of tree: QuerySyntax, source: String, dialect: Dialect) -> ParseViolation? {
        let printed = print(tree)
        func violated(_ what: String) -> ParseViolation {
            ParseViolation(invariant: .printFixpoint, dialect: dialect, input: source, printed: printed, detail: what)
        }
        guard tree.dialect == dialect else {
            return violated("the tree's dialect is \(tree.dialect), not \(dialect)")
        }
        let reparsed: QuerySyntax
        do {
            reparsed = try parse(printed, dialect)
        } catch {
            return violated(
                "the printed form does not parse: \(error.kind) \(error.message)\n"
                    + error.rendered(in: printed)
            )
        }
        guard reparsed == tree else {
            return violated("the printed form parses to a different tree\nfirst:    \(tree)\nreparsed: \(reparsed)")
        }
        let reprinted = print(reparsed)
        guard reprinted == printed else {
            return violated("printing the reparsed tree gives different text\nreprinted: \(reprinted.debugDescription)")
        }
        return nil
    }
}
