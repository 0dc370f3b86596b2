#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command's output goes: a file descriptor (standard output or error) or memory, for
/// tests. Writes are buffered and any failure is reported as a `CommandFailure` instead of
/// trapping: a closed pipe (the reader of `rqlc run … | head` has what it wanted) ends the
/// command quietly, any other failure (`> /dev/full`, `>&-`) is an error exit.
///
///     let output = CommandOutput.memory()
///     try output.write("ok\n")
///     output.text   // "ok\n"
public final class CommandOutput {
    private let descriptor: Int32?
    /// What the stream is called in messages.
    let name: String
    private var buffer: [UInt8] = []
    private var captured: [UInt8] = []
    /// The first failure; once set, later writes fail the same way without trying.
    private var failure: CommandFailure?

    private init(descriptor: Int32?, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    /// Output kept in memory, read back with `text`.
    public static func memory(name: String = "standard output") -> CommandOutput {
        CommandOutput(descriptor: nil, name: name)
    }

    /// Output to an open file descriptor.
    public static func descriptor(_ descriptor: Int32, name: String) -> CommandOutput {
        CommandOutput(descriptor: descriptor, name: name)
    }

    /// Everything written so far to a memory output.
    public var text: String {
        String(decoding: captured + buffer, as: UTF8.self)
    }

    /// Appends `text`, writing the buffer out when it passes 64 KB.
    func write(_ text: String) throws(CommandFailure) {
        if let failure { throw failure }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Appends `bytes`, writing the buffer out when it passes 64 KB.
    func write(_ bytes: [UInt8]) throws(CommandFailure) {
        if let failure { throw failure }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Writes out everything buffered.
    func flush() throws(CommandFailure) {
        if let failure { throw failure }
        guard let descriptor else {
            captured.append(contentsOf: buffer)
            buffer.removeAll(keepingCapacity: true)
            return
        }
        var written = 0
        while written < buffer.count {
            let count = buffer.withUnsafeBytes { raw in
                Glibc.write(descriptor, raw.baseAddress! + written, raw.count - written)
            }
            if count > 0 {
                written += count
                continue
            }
            if count < 0 && errno == EINTR { continue }
            let code = count < 0 ? errno : ENOSPC
            buffer.removeAll()
            let failure: CommandFailure =
                code == EPIPE ? .outputClosed : .failed("cannot write to \(name): \(CommandOutput.reason(code))")
            self.failure = failure
            throw failure
        }
        buffer.removeAll(keepingCapacity: true)
    }

    private static func reason(_ code: Int32) -> String {
        switch code {
        case EBADF: "it is closed"
        case ENOSPC: "no space left on the device"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}
