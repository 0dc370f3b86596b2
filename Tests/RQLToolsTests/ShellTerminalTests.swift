import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `rqlc shell` on a real terminal (a pseudo-terminal): raw mode while a line is typed, keys
/// edited as `LineEditorTests` says, the history file written, and the terminal's settings put
/// back however the process ends, a signal included.
@Suite("rqlc shell on a terminal", .serialized)
struct ShellTerminalTests {
    /// The `rqlc` built next to this test binary.
    static var rqlc: URL {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("rqlc")
    }

    /// A pseudo-terminal pair: what the test types and reads (`master`), what rqlc gets (`slave`).
    final class PseudoTerminal {
        let master: Int32
        let slave: Int32
        var output = ""

        /// Linux's `TIOCSPTLCK` and `TIOCGPTN` (function-like macros, which Swift does not import;
        /// `posix_openpt` and friends are hidden behind `_XOPEN_SOURCE` in the Glibc module).
        private static let unlock: UInt = 0x4004_5431
        private static let number: UInt = 0x8004_5430

        init() throws {
            master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            var locked: Int32 = 0
            var index: UInt32 = 0
            guard master >= 0, ioctl(master, Self.unlock, &locked) == 0, ioctl(master, Self.number, &index) == 0 else {
                throw POSIXError(.ENODEV)
            }
            slave = open("/dev/pts/\(index)", O_RDWR | O_NOCTTY)
            guard slave >= 0 else { throw POSIXError(.ENODEV) }
        }

        deinit {
            close(master)
            close(slave)
        }

        func type(_ text: String) {
            _ = Array(text.utf8).withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        }

        /// Reads until the output holds `text` (true) or 20 s pass (false).
        func wait(for text: String) -> Bool {
            let deadline = Date().addingTimeInterval(20)
            while !output.contains(text) && Date() < deadline {
                var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptor, 1, 100) > 0 else { continue }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = read(master, &chunk, chunk.count)
                if count <= 0 { break }
                output += String(decoding: chunk[..<count], as: UTF8.self)
            }
            return output.contains(text)
        }

        /// The terminal's settings, as the three flag words that raw mode changes.
        var settings: [UInt] {
            var settings = termios()
            tcgetattr(slave, &settings)
            return [UInt(settings.c_iflag), UInt(settings.c_oflag), UInt(settings.c_lflag)]
        }

        var isRaw: Bool {
            var settings = termios()
            tcgetattr(slave, &settings)
            return settings.c_lflag & tcflag_t(ICANON | ECHO) == 0
        }
    }

    /// A started `rqlc shell`.
    struct Child {
        let pid: pid_t

        /// Waits for the end: the exit code, or the signal that ended it. A child still running
        /// after 30 s is killed (SIGKILL), so a test fails rather than hangs.
        func wait() -> (exit: Int32?, signal: Int32?) {
            var status: Int32 = 0
            let deadline = Date().addingTimeInterval(30)
            while waitpid(pid, &status, WNOHANG) == 0 {
                if Date() > deadline {
                    kill(pid, SIGKILL)
                    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                    break
                }
                usleep(10_000)
            }
            let signal = status & 0x7F
            return signal == 0 ? ((status >> 8) & 0xFF, nil) : (nil, signal)
        }
    }

    /// Starts `rqlc shell` on the terminal with `home` as its home directory, with no signal
    /// blocked or ignored (the test runner's threads block some, and a child inherits that).
    static func start(_ terminal: PseudoTerminal, home: URL) throws -> Child {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in Int32(0)...2 { posix_spawn_file_actions_adddup2(&actions, terminal.slave, descriptor) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let arguments = [rqlc.path, "shell"]
        let environment = ["HOME=\(home.path)", "TERM=xterm"]
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = environment.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, rqlc.path, &actions, &attributes, &argv, &envp)
        guard code == 0 else { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .ENOEXEC) }
        return Child(pid: pid)
    }

    static func temporaryHome() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rqlc-home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("a session: prompt, an edited query, a table, the history, Ctrl-D; the terminal as it was")
    func session() throws {
        let home = try Self.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = try PseudoTerminal()
        let before = terminal.settings
        let process = try Self.start(terminal, home: home)
        #expect(terminal.wait(for: "rqlc> "))
        #expect(terminal.isRaw)
        terminal.type(".class Dog\r")
        #expect(terminal.wait(for: "Dog> "))
        // "agx", Backspace, "e > 1", Left, "1": "age > 11"; the answer is a table (a terminal).
        terminal.type("agx\u{7F}e > 1\u{1B}[D1\r")
        // The answer, then the prompt again.
        #expect(terminal.wait(for: "(1 objects)\r\n\rDog> "))
        #expect(terminal.output.contains("Zoe"))
        #expect(!terminal.output.contains("Rex"))
        // Up brings the query back; Ctrl-C abandons it, shown as ^C.
        terminal.type("\u{1B}[A\u{03}")
        #expect(terminal.wait(for: "^C"))
        terminal.type("agee > 1\r")
        // Each key is typed at a prompt: the terminal is raw only while a line is read (a Ctrl-D
        // typed ahead in its own mode is the line discipline's end of file, not a key).
        #expect(terminal.wait(for: "did you mean 'age'?\r\n  agee > 1\r\n  ^~~~\r\n\rDog> "))
        terminal.type("\u{04}")
        let end = process.wait()
        #expect(end.exit == 0)
        #expect(terminal.settings == before)
        let history = try String(contentsOf: home.appendingPathComponent(".rqlc_history"), encoding: .utf8)
        #expect(history == ".class Dog\nage > 11\nagee > 1\n")
    }

    @Test("a signal while a line is typed ends rqlc with the terminal put back", arguments: [SIGTERM, SIGHUP, SIGINT])
    func signal(number: Int32) throws {
        let home = try Self.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = try PseudoTerminal()
        let before = terminal.settings
        let process = try Self.start(terminal, home: home)
        #expect(terminal.wait(for: "rqlc> "))
        terminal.type("age")
        #expect(terminal.wait(for: "rqlc> age"))
        #expect(terminal.isRaw)
        kill(process.pid, number)
        #expect(process.wait().signal == number)
        #expect(terminal.settings == before)
    }
}
