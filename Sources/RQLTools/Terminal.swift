import RQLCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal of an interactive `rqlc shell`: raw mode while a line is typed (each key read as
/// it comes, nothing echoed by the terminal), the line drawn by `LineEditor`, and the terminal's
/// own settings put back before anything else runs, on every way out: a returned line, the end
/// of input, a read that fails, and the signals that end the process.
enum Terminal {
    /// The settings the terminal had before raw mode, for the signal handler to put back.
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var isRaw: sig_atomic_t = 0
    nonisolated(unsafe) private static var handlersInstalled = false

    /// What reading a line ended with.
    enum Line {
        case text(String)
        case endOfInput
    }

    /// Reads one line at `prompt` with `editor` on standard input and output, both terminals.
    static func readLine(prompt: String, editor: inout LineEditor) -> Line {
        guard enterRawMode() else { return plainLine(prompt: prompt) }
        defer { leaveRawMode() }
        write(editor.rendered(prompt: prompt, columns: columns()))
        while true {
            var byte: UInt8 = 0
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                write("\r\n")
                return .endOfInput
            }
            switch editor.feed(byte) {
            case .pending: break
            // The width is asked each time: the window may have been resized.
            case .changed: write(editor.rendered(prompt: prompt, columns: columns()))
            case .refused: write("\u{07}")
            case .submitted(let line):
                write("\r\n")
                return .text(line)
            case .interrupted:
                // As shells do: the abandoned line stays on screen marked ^C, and a new prompt.
                write("^C\r\n" + editor.rendered(prompt: prompt, columns: columns()))
            case .endOfInput:
                write("\r\n")
                return .endOfInput
            }
        }
    }

    /// A line read in the terminal's own mode, when raw mode cannot be set (a terminal that
    /// refuses it): the terminal edits the line itself.
    private static func plainLine(prompt: String) -> Line {
        write(prompt)
        var bytes: [UInt8] = []
        while bytes.count <= ShellCommand.maximumLineLength {
            var byte: UInt8 = 0
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return bytes.isEmpty ? .endOfInput : .text(String(decoding: bytes, as: UTF8.self)) }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        return .text(String(decoding: bytes, as: UTF8.self))
    }

    /// Switches standard input to raw mode, saving its settings; false when it cannot be.
    private static func enterRawMode() -> Bool {
        installHandlers()
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return false }
        saved = settings
        settings.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        settings.c_oflag &= ~tcflag_t(OPOST)
        settings.c_cflag |= tcflag_t(CS8)
        // No ISIG: Ctrl-C and Ctrl-Z arrive as bytes, for the editor to handle.
        settings.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        // TCSANOW: keys typed ahead while a query ran are kept (TCSAFLUSH would discard them), and
        // nothing waits for a terminal that does not read its output (TCSADRAIN would).
        guard tcsetattr(STDIN_FILENO, TCSANOW, &settings) == 0 else { return false }
        isRaw = 1
        return true
    }

    /// Puts the saved settings back.
    private static func leaveRawMode() {
        guard isRaw != 0 else { return }
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &saved)
        isRaw = 0
    }

    /// Handlers for the signals that end a process (SIGINT from `kill`, SIGTERM, SIGHUP,
    /// SIGQUIT): they put the terminal back if it is raw, then let the signal do what it would
    /// have done. Only async-signal-safe calls (`tcsetattr`, `signal`, `raise`).
    private static func installHandlers() {
        guard !handlersInstalled else { return }
        handlersInstalled = true
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            signal(signalNumber) { signalNumber in
                if Terminal.isRaw != 0 {
                    _ = tcsetattr(STDIN_FILENO, TCSANOW, &Terminal.saved)
                    Terminal.isRaw = 0
                }
                signal(signalNumber, SIG_DFL)
                raise(signalNumber)
            }
        }
    }

    /// The terminal's width in columns (80 when it does not say).
    private static func columns() -> Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// Writes straight to the terminal (the prompt and the line are not the command's output).
    static func write(_ text: String) {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.write(STDOUT_FILENO, $0.baseAddress! + written, $0.count - written)
            }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
            written += count
        }
    }
}

/// The shell's history file, `~/.rqlc_history`: one line a line, the newest last, at most
/// `limit` kept. It is a convenience: a file that cannot be read or written is a warning, never
/// a failure.
struct ShellHistory {
    /// The file, or nil when there is no home directory.
    let path: String?
    /// The most lines kept.
    var limit = 1000
    /// Lines longer than this are used in the session but not saved, so the file stays small.
    var longestSaved = 4096

    /// The history file in `$HOME`.
    static func inHome() -> ShellHistory {
        guard let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty else {
            return ShellHistory(path: nil)
        }
        return ShellHistory(path: home + (home.hasSuffix("/") ? "" : "/") + ".rqlc_history")
    }

    /// The saved lines (the newest `limit`), and a warning when the file exists but cannot be
    /// read. A file longer than `limit` lines is cut back to them.
    func load() -> (lines: [String], warning: String?) {
        guard let path else { return ([], nil) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            return code == ENOENT ? ([], nil) : ([], warning("read", path, code, "starting without history"))
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        // More than `limit` saved lines can hold is not a history file; its end is read.
        let bound = limit * (longestSaved + 1)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return ([], warning("read", path, errno, "starting without history")) }
            if count == 0 { break }
            bytes += chunk[..<count]
            if bytes.count > 2 * bound { bytes.removeFirst(bytes.count - bound) }
        }
        let lines = bytes.split(separator: UInt8(ascii: "\n")).compactMap { line -> String? in
            // A line that is not UTF-8 or holds control characters was not written by the shell.
            guard let text = String(validating: line, as: UTF8.self),
                !text.unicodeScalars.contains(where: { TerminalText.escape($0) != nil })
            else { return nil }
            return text
        }
        let kept = Array(lines.suffix(limit))
        if lines.count > limit { _ = rewrite(kept) }
        return (kept, nil)
    }

    /// Appends a line; a warning when it cannot be written.
    func save(_ line: String) -> String? {
        guard let path, !line.allSatisfy(\.isWhitespace), line.utf8.count <= longestSaved, !line.contains("\n") else {
            return nil
        }
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return warning("write", path, errno, "history is not saved") }
        defer { close(descriptor) }
        let written = writeAll(descriptor, Array((line + "\n").utf8))
        return written ? nil : warning("write", path, errno, "history is not saved")
    }

    private func rewrite(_ lines: [String]) -> Bool {
        guard let path else { return false }
        let descriptor = open(path, O_WRONLY | O_TRUNC | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return writeAll(descriptor, Array(lines.map { $0 + "\n" }.joined().utf8))
    }

    private func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return false }
            written += count
        }
        return true
    }

    private func warning(_ verb: String, _ path: String, _ code: Int32, _ consequence: String) -> String {
        let reason = String(cString: strerror(code)).lowercased()
        return "warning: cannot \(verb) the history file \(TerminalText.escaped(path)): \(reason); \(consequence)\n"
    }
}
