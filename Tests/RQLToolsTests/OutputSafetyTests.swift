import Testing

@testable import RQLTools

#if canImport(Glibc)
import Glibc
#endif

/// Runs `rqlc` with standard output and error on real file descriptors.
private func run(_ arguments: [String], output: Int32, errors: Int32) -> Int32 {
    RQLCommand.run(
        arguments.map { CommandArgument($0) },
        environment: CommandEnvironment(),
        output: .descriptor(output, name: "standard output"),
        errors: .descriptor(errors, name: "standard error")
    )
}

/// A pipe whose read end is returned open or already closed.
private func pipeDescriptors() -> (read: Int32, write: Int32) {
    var descriptors: [Int32] = [0, 0]
    _ = pipe(&descriptors)
    return (descriptors[0], descriptors[1])
}

private func readAll(_ descriptor: Int32) -> String {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = read(descriptor, &chunk, chunk.count)
        if count <= 0 { break }
        bytes += chunk[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

@Suite("rqlc never traps on output", .serialized)
struct OutputSafetyTests {
    init() {
        signal(SIGPIPE, SIG_IGN)
    }

    @Test("a full device is an error exit with one line on standard error")
    func fullDevice() {
        let full = open("/dev/full", O_WRONLY)
        defer { close(full) }
        let errors = pipeDescriptors()
        let code = run(["run", "--class", "Dog", "age > 2"], output: full, errors: errors.write)
        close(errors.write)
        // The command line was right; the run failed (2 is for usage only).
        #expect(code == 1)
        #expect(readAll(errors.read) == "rqlc: cannot write to standard output: no space left on the device\n")
        close(errors.read)
    }

    @Test("a closed standard output (--version >&-) is an error exit")
    func closedOutput() {
        // A descriptor number nothing has open (a closed pipe's number could be reused at once).
        let closed: Int32 = 9_999
        #expect(fcntl(closed, F_GETFD) == -1)
        let errors = pipeDescriptors()
        let code = run(["--version"], output: closed, errors: errors.write)
        close(errors.write)
        #expect(code == 1)
        #expect(readAll(errors.read).hasPrefix("rqlc: cannot write to standard output"))
        close(errors.read)
    }

    @Test("a pipe closed by its reader (| head) ends quietly, with exit 0")
    func closedPipe() {
        let output = pipeDescriptors()
        close(output.read)
        let errors = pipeDescriptors()
        let code = run(["run", "--class", "Dog", "TRUEPREDICATE"], output: output.write, errors: errors.write)
        close(output.write)
        close(errors.write)
        #expect(code == 0)
        #expect(readAll(errors.read).isEmpty)
        close(errors.read)
    }

    @Test("when standard error fails too, the exit code still tells")
    func bothFail() {
        let full = open("/dev/full", O_WRONLY)
        defer { close(full) }
        #expect(run(["run", "--class", "Dog", "age > 2"], output: full, errors: full) == 1)
        #expect(run(["check", "--class", "Dog", "agee > 2"], output: full, errors: full) == 1)
    }

    @Test("large output is written in pieces and stops at the first failure")
    func memoryOutput() throws {
        let output = CommandOutput.memory()
        for _ in 0..<10_000 { try output.write(String(repeating: "x", count: 99) + "\n") }
        try output.flush()
        #expect(output.text.utf8.count == 1_000_000)
    }
}
