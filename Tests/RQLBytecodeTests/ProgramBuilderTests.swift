import RQLCore
import Testing

@testable import RQLBytecode

@Suite("Program builder and verifier")
struct ProgramBuilderTests {
    /// The smallest complete scan: open, scan, loop, emit, halt.
    static func scanProgram() throws -> Program {
        var b = ProgramBuilder(className: "Person")
        b.emit(.explain, p1: 1, p4: b.constant(.text("SCAN Person")))
        b.emit(.openTable, p4: b.constant(.text("Person")))
        b.emit(.scanTable)
        let r = b.makeRegister()
        let done = b.makeLabel()
        let loop = b.here
        b.emit(.nextBatch, p1: r, jump: done)
        b.emit(.filterInt, p1: r, p2: 1, p3: ComparisonOperator.greater.code, p4: b.constant(.value(.int(30))))
        b.emit(.emit, p1: r)
        b.emit(.goto, jump: b.label(at: loop))
        b.place(done)
        b.emit(.halt)
        return try b.finish()
    }

    @Test("labels are patched: forward to the end of the loop, backward to its head")
    func labels() throws {
        let program = try Self.scanProgram()
        #expect(program.instructions[3].opcode == .nextBatch)
        #expect(program.instructions[3].p2 == 7)
        #expect(program.instructions[6].p2 == 3)
        #expect(ProgramVerifier.verify(program).isEmpty)
    }

    @Test("comments are spelled only when the builder records them (programs that only run have none)")
    func comments() {
        var spelled = 0
        func comment() -> String {
            spelled += 1
            return "age > 30"
        }
        var b = ProgramBuilder(className: "Person")
        b.recordsComments = false
        b.emit(.halt, comment: comment())
        #expect(spelled == 0 && b.instructions[0].comment.isEmpty)
        b.recordsComments = true
        b.emit(.halt, comment: comment())
        #expect(spelled == 1 && b.instructions[1].comment == "age > 30")
    }

    @Test("the constant pool keeps each plain value once, whether short (searched) or long (hashed)")
    func constantPool() {
        var pool = ConstantPool()
        var indices: [Int32] = []
        for i in 0..<40 {
            if i % 5 == 0 { _ = pool.add(.text("t\(i)")) }
            indices.append(pool.add(.value(.int(Int64(i)))))
        }
        for i in 0..<40 { #expect(pool.add(.value(.int(Int64(i)))) == indices[i]) }
        #expect(pool.add(.value(.double(1))) != indices[1])  // another type is another constant
        #expect(pool.count == 40 + 8 + 1)
    }

    @Test("an unplaced label is an error")
    func unplaced() {
        var b = ProgramBuilder(className: "Person")
        let nowhere = b.makeLabel()
        b.emit(.goto, jump: nowhere)
        #expect(throws: ProgramBuilder.UnplacedLabel.self) { try b.finish() }
    }

    @Test("the verifier rejects broken programs")
    func rejects() throws {
        let good = try Self.scanProgram()
        var noHalt = good
        noHalt.instructions.removeLast()
        #expect(!ProgramVerifier.verify(noHalt).isEmpty)
        var badJump = good
        badJump.instructions[6].p2 = 99
        let jumpProblems = ProgramVerifier.verify(badJump).map(\.description)
        #expect(jumpProblems.contains { $0.hasPrefix("6: ") && $0.hasSuffix("P2 jumps outside the program") })
        var badRegister = good
        badRegister.instructions[4].p1 = 5
        let registerProblems = ProgramVerifier.verify(badRegister).map(\.description)
        #expect(registerProblems.contains { $0.hasSuffix("P1 names no register") })
        var badConstant = good
        badConstant.instructions[4].p4 = 0  // a text, not an int
        #expect(!ProgramVerifier.verify(badConstant).isEmpty)
        var badOperator = good
        badOperator.instructions[4].p3 = 77
        #expect(!ProgramVerifier.verify(badOperator).isEmpty)
        // IN, TEXT and MATCHES are operators, but the binder lowers them: no instruction holds one.
        for op in ComparisonOperator.allCases where op.isLowered {
            var lowered = good
            lowered.instructions[4].p3 = op.code
            let problems = ProgramVerifier.verify(lowered).map(\.description)
            #expect(problems.contains { $0.hasSuffix("P3 is \(op.rawValue), which the binder lowers") }, "\(problems)")
        }
        var twoAccessPaths = good
        twoAccessPaths.instructions.insert(Instruction(.scanNothing), at: 3)
        #expect(!ProgramVerifier.verify(twoAccessPaths).isEmpty)
        var unusedSet = good
        unusedSet.instructions[2].p1 = 3
        #expect(!ProgramVerifier.verify(unusedSet).isEmpty)
    }

    @Test("EXPLAIN lists addr opcode p1 p2 p3 p4 p5 comment and the plan tree")
    func explain() throws {
        let program = try Self.scanProgram()
        let listing = ExplainFormatter.listing(program)
        let lines = listing.split(separator: "\n")
        #expect(
            lines.first?.split(separator: " ").map(String.init) == [
                "addr", "opcode", "p1", "p2", "p3", "p4", "p5", "comment",
            ]
        )
        #expect(lines.count == program.instructions.count + 1)
        #expect(lines[5].contains("FilterInt") && lines[5].contains("30"))
        #expect(ExplainFormatter.planTree(program) == "QUERY PLAN\n`--SCAN Person")
        #expect(ExplainFormatter.planRows(program) == ["SCAN Person"])
    }
}
