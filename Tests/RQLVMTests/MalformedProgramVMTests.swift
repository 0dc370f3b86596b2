import RQLBytecode
import RQLCore
import RQLEngine
import RQLStorage
import Testing

@testable import RQLVM

/// Hand-built programs that break a rule of the instruction set: the verifier refuses each,
/// naming the instruction, and the VM, given one unverified, throws `InvalidProgram` naming the
/// same instruction. Before, the VM ended such a run early and returned what it had (an empty
/// or one-block answer), repeated rows until a step cap stopped it, or never ended.
@Suite("Malformed programs: refused by the verifier and by the VM")
struct MalformedProgramVMTests {
    /// 9,000 rows over three blocks, `k` = position mod 7 (column 1).
    static var store: BlockSnapshot { RunSetupVMTests.store }

    /// `OpenTable Row; ScanTable`, then `body` (given the builder and a selection register),
    /// then `Halt`.
    static func program(_ body: (inout ProgramBuilder, Int32) -> Void) throws -> Program {
        var b = ProgramBuilder(className: "Row")
        b.emit(.openTable, p4: b.constant(.text("Row")))
        b.emit(.scanTable)
        let r = b.makeRegister()
        body(&b, r)
        b.emit(.halt)
        return try b.finish()
    }

    /// `k > 3`, the filter the programs below misplace.
    static func filter(_ b: inout ProgramBuilder, _ r: Int32) {
        b.emit(.filterInt, p1: r, p2: 1, p3: ComparisonOperator.greater.code, p4: b.constant(.value(.int(3))))
    }

    /// The batch loop as codegen makes it: `NextBatch`, `inside`, `Emit`, `Goto` to the head.
    static func loop(_ b: inout ProgramBuilder, _ r: Int32, inside: (inout ProgramBuilder, Int32) -> Void) {
        let done = b.makeLabel()
        let head = b.here
        b.emit(.nextBatch, p1: r, jump: done)
        inside(&b, r)
        b.emit(.emit, p1: r)
        b.emit(.goto, jump: b.label(at: head))
        b.place(done)
    }

    /// The problem the verifier reports at `address`, if any.
    static func verifierProblem(_ program: Program, at address: Int) -> ProgramVerifier.Problem? {
        do {
            try ProgramVerifier.checkControlFlow(program)
        } catch {
            return error.problems.first { $0.address == address }
        }
        return nil
    }

    /// The problem the VM stopped at, if it refused the program.
    static func vmProblem(_ program: Program) -> ProgramVerifier.Problem? {
        do {
            _ = try VirtualMachine().run(program, on: store)
        } catch {
            #expect(error.className == "Row")
            return error.problems.first
        }
        return nil
    }

    @Test("the well-formed loop passes both checks and runs")
    func wellFormed() throws {
        let program = try Self.program { b, r in Self.loop(&b, r, inside: Self.filter) }
        #expect(ProgramVerifier.verify(program).isEmpty)
        #expect(try VirtualMachine().run(program, on: Self.store).count == (0..<9_000).filter { $0 % 7 > 3 }.count)
    }

    @Test("a filter outside the batch loop: refused at the filter (it used to halt: an empty answer)")
    func filterOutsideLoop() throws {
        let program = try Self.program { b, r in
            Self.filter(&b, r)  // address 2
            Self.loop(&b, r) { _, _ in }
        }
        let expected = "FilterInt: runs on a batch, outside the batch loop"
        #expect(Self.verifierProblem(program, at: 2)?.message == expected)
        #expect(throws: InvalidProgram.self) { try ProgramVerifier.check(program) }
        let problem = Self.vmProblem(program)
        #expect(problem?.address == 2 && problem?.opcode == .filterInt && problem?.message == expected)
    }

    @Test("a jump back outside the loop: refused (it used to run until a step cap, repeating rows)")
    func jumpBackOutsideLoop() throws {
        let program = try Self.program { b, r in
            Self.loop(&b, r) { _, _ in }  // 2 NextBatch … 4 Goto 2
            b.emit(.goto, jump: b.label(at: 0))  // address 5
        }
        #expect(Self.verifierProblem(program, at: 5)?.message == "Goto: jumps back to 0")
        let problem = Self.vmProblem(program)
        #expect(problem?.address == 5 && problem?.opcode == .goto && problem?.message == "Goto: jumps back to 0")
    }

    @Test("a jump back inside the loop's body, not to its head: refused (it used to never end)")
    func jumpBackInsideBody() throws {
        let program = try Self.program { b, r in
            Self.loop(&b, r) { b, r in
                let back = b.label(at: b.here)  // address 3
                Self.filter(&b, r)
                b.emit(.goto, jump: back)  // address 4
            }
        }
        #expect(Self.verifierProblem(program, at: 4)?.message == "Goto: jumps back to 3")
        let problem = Self.vmProblem(program)
        #expect(problem?.address == 4 && problem?.opcode == .goto && problem?.message == "Goto: jumps back to 3")
    }

    @Test("a loop body without its Goto: refused (it used to halt after the first block: a shortened answer)")
    func bodyFallsThrough() throws {
        let program = try Self.program { b, r in
            let done = b.makeLabel()
            b.emit(.nextBatch, p1: r, jump: done)  // address 2
            b.emit(.emit, p1: r)  // address 3
            b.place(done)
        }
        let expected = "Emit: the batch loop's body does not end in Goto 2"
        #expect(Self.verifierProblem(program, at: 3)?.message == expected)
        let problem = Self.vmProblem(program)
        #expect(problem?.address == 3 && problem?.opcode == .emit && problem?.message == expected)
    }

    @Test("a result step inside the loop and Halt inside it are refused by the verifier")
    func resultStepInsideLoop() throws {
        let program = try Self.program { b, r in
            Self.loop(&b, r) { b, _ in
                b.emit(.limit, p1: 2)  // address 3
                b.emit(.halt)  // address 4
            }
        }
        #expect(Self.verifierProblem(program, at: 3)?.message == "Limit: runs inside the batch loop")
        #expect(Self.verifierProblem(program, at: 4)?.message == "Halt: runs inside the batch loop")
        let problem = Self.vmProblem(program)
        #expect(problem?.address == 4 && problem?.opcode == .halt)
    }

    @Test("a SUBQUERY's malformed program is refused at the CountSubquery that holds it")
    func nestedProgram() throws {
        let nested = try Self.program { b, r in
            Self.filter(&b, r)
            Self.loop(&b, r) { _, _ in }
        }
        var b = ProgramBuilder(className: "Row")
        b.emit(.openTable, p4: b.constant(.text("Row")))
        b.emit(.scanTable)
        let r = b.makeRegister()
        let v = b.makeValueRegister()
        Self.loop(&b, r) { b, r in
            b.emit(.countSubquery, p1: r, p3: v, p4: b.constant(.program(nested, backlinkProperty: nil)))  // 3
        }
        b.emit(.halt)
        let program = try b.finish()
        let problem = try #require(Self.verifierProblem(program, at: 3))
        #expect(problem.opcode == .countSubquery && problem.message.contains("FilterInt: runs on a batch"))
    }
}
