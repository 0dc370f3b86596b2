import RQLCore
import RQLIR
import RQLOptimizer
import RQLStorage
import RQLSyntax

/// Every stage of a compiled query, as `rqlc explain` prints it and `Results.explain()` returns
/// it: the parsed syntax tree (for text), the bound IR, the optimizer's passes (which fired,
/// with the plan after each), the `QUERY PLAN` tree of the physical plan with its estimates,
/// and the bytecode listing.
///
/// ```swift
/// let engine = try QueryEngine(options: EngineOptions(recordsTrace: true))
/// let compiled = try engine.compile("age > 2", className: "Dog", store: store)
/// print(engine.explain(compiled).text)
/// // == syntax tree ==
/// // (> age 2)
/// //
/// // == bound IR ==
/// // (query Dog (> Dog.age 2))
/// // …
/// ```
public struct QueryExplanation: Sendable {
    public let compiled: CompiledQuery

    public init(_ compiled: CompiledQuery) {
        self.compiled = compiled
    }

    /// The `QUERY PLAN` rows: from the program's Explain instructions on the VM backend.
    public var queryPlanRows: [QueryPlanRow] {
        compiled.executable.queryPlanRows(compiled.physical)
    }

    /// The program's instructions, or nil on the reference backend.
    public var bytecode: [BytecodeRow]? {
        compiled.executable.bytecode
    }

    // MARK: Text

    /// Every section, separated by blank lines, ending with a line break. The syntax-tree section
    /// is there when the query was compiled from text.
    public var text: String {
        var sections: [String] = []
        if let syntax = compiled.syntax { sections.append(Self.section("syntax tree", SyntaxTreeDump.dump(syntax))) }
        sections.append(Self.section("bound IR", IRPrinter.print(compiled.bound)))
        sections.append(Self.section("optimizer passes", passesText))
        sections.append(Self.section("physical plan", planText))
        sections.append(Self.section("bytecode", bytecodeText))
        return sections.joined(separator: "\n\n") + "\n"
    }

    static func section(_ title: String, _ body: String) -> String {
        "== \(title) ==\n" + body
    }

    /// One line per pass in pipeline order (`+` fired, `-` did not, `x` disabled) and, under
    /// each pass that fired, the plan after it.
    var passesText: String {
        let steps = compiled.trace.steps
        guard compiled.options.optimizes else { return "(the optimizer is off: --no-optimize)" }
        guard !steps.isEmpty else { return "(no trace recorded)" }
        var lines: [String] = []
        for step in steps {
            let mark = step.disabled ? "x" : (step.fired ? "+" : "-")
            let state = step.disabled ? "disabled" : (step.fired ? "fired" : "did not fire")
            lines.append("\(mark) \(step.name) (\(state)): \(step.reason)")
            if step.fired && !step.planAfter.isEmpty { lines.append("    " + step.planAfter) }
        }
        if let failure = compiled.optimizerFailure {
            lines.append("! \(failure.description); the unoptimized plan runs")
        }
        return lines.joined(separator: "\n")
    }

    /// The `QUERY PLAN` tree, its estimates and which executor runs it.
    var planText: String {
        let physical = compiled.physical
        var heading = "QUERY PLAN"
        if let candidates = physical.estimatedCandidates, let matches = physical.estimatedMatches {
            heading +=
                " (estimated candidates=\(QueryPlanRow.number(candidates)) matches=\(QueryPlanRow.number(matches)))"
        }
        return QueryPlanRow.tree(queryPlanRows, heading: heading) + "\nexecutor: " + compiled.executable.executorName
    }

    /// The listing in SQLite's EXPLAIN columns, or why there is none.
    var bytecodeText: String {
        guard let rows = bytecode else {
            return compiled.options.backend == .reference
                ? "(none: the reference evaluator runs the bound IR)"
                : "(none: codegen refused the plan; the physical plan above runs)"
        }
        let header = ["addr", "opcode", "p1", "p2", "p3", "p4", "p5", "comment"]
        let table =
            [header]
            + rows.map {
                [
                    String($0.address), $0.opcode, String($0.p1), String($0.p2), String($0.p3), $0.p4, String($0.p5),
                    $0.comment,
                ]
            }
        let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        return table.map { row in
            var line = zip(row, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(
                separator: "  "
            )
            while line.last == " " { line.removeLast() }
            return line
        }
        .joined(separator: "\n")
    }

    // MARK: JSON

    /// The same stages as one JSON object, for tools.
    public var json: JSONValue {
        let physical = compiled.physical
        var members: [JSONMember] = []
        if let source = compiled.source {
            members.append(JSONMember("query", .string(source.text)))
            members.append(JSONMember("dialect", .string(source.dialect.rawValue)))
        }
        members.append(JSONMember("class", .string(compiled.className)))
        members.append(JSONMember("syntaxTree", compiled.syntax.map { .string(SyntaxTreeDump.dump($0)) } ?? .null))
        members.append(JSONMember("boundIR", .string(IRPrinter.print(compiled.bound))))
        members.append(JSONMember("optimizer", .bool(compiled.options.optimizes)))
        members.append(
            JSONMember(
                "passes",
                .array(
                    compiled.trace.steps.map { step in
                        .object([
                            JSONMember("name", .string(step.name)),
                            JSONMember("reason", .string(step.reason)),
                            JSONMember("fired", .bool(step.fired)),
                            JSONMember("disabled", .bool(step.disabled)),
                            JSONMember("planAfter", step.planAfter.isEmpty ? .null : .string(step.planAfter)),
                        ])
                    }
                )
            )
        )
        members.append(JSONMember("physicalPlan", .string(PlanPrinter.print(physical))))
        members.append(JSONMember("estimatedCandidates", Self.number(physical.estimatedCandidates)))
        members.append(JSONMember("estimatedMatches", Self.number(physical.estimatedMatches)))
        members.append(
            JSONMember(
                "residual",
                .array(
                    physical.residual.map { condition in
                        .object([
                            JSONMember("predicate", .string(IRPrinter.print(condition.predicate))),
                            JSONMember("cost", Self.number(condition.cost)),
                            JSONMember("selectivity", Self.number(condition.selectivity)),
                        ])
                    }
                )
            )
        )
        members.append(
            JSONMember(
                "queryPlan",
                .array(
                    queryPlanRows.map { row in
                        .object([
                            JSONMember("id", .int(row.id)),
                            JSONMember("parent", .int(row.parent)),
                            JSONMember("detail", .string(row.detail)),
                        ])
                    }
                )
            )
        )
        members.append(JSONMember("executor", .string(compiled.executable.executorName)))
        members.append(JSONMember("bytecode", bytecode.map { .array($0.map(Self.json)) } ?? .null))
        if let failure = compiled.optimizerFailure {
            members.append(JSONMember("optimizerFailure", .string(failure.description)))
        }
        return .object(members)
    }

    private static func json(_ row: BytecodeRow) -> JSONValue {
        .object([
            JSONMember("addr", .int(row.address)), JSONMember("opcode", .string(row.opcode)),
            JSONMember("p1", .int(row.p1)), JSONMember("p2", .int(row.p2)), JSONMember("p3", .int(row.p3)),
            JSONMember("p4", .string(row.p4)), JSONMember("p5", .int(row.p5)),
            JSONMember("comment", .string(row.comment)),
        ])
    }

    /// A finite estimate as a JSON number (shortest round-trip text), anything else as null.
    private static func number(_ value: Double?) -> JSONValue {
        value.map(JSONValue.double) ?? .null
    }
}
