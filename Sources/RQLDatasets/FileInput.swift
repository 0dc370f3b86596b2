import RQLCore
import RQLStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file, pipe, FIFO or terminal read through its file descriptor with `read(2)`, so whatever a
/// shell hands over can be read: `--data <(gunzip -c d.json.gz)`, `--data /dev/stdin`, a FIFO.
/// Failures are plain sentences (`cannot read 'd': it is a directory`), never an `NSError`.
///
///     let input = try FileInput(path: "dogs.json")
///     let bytes = try input.readAll()
public final class FileInput: ByteInput {
    private let descriptor: Int32
    private let closesDescriptor: Bool
    /// The name used in messages.
    public let name: String
    public private(set) var failure: InputFailure?
    /// A regular file's size when opened; nil for pipes, terminals and descriptors given.
    private var size: Int?
    private var consumed = 0

    public var sizeHint: Int? { size.map { max($0 - consumed, 0) } }

    /// Opens the file at `path` (bytes, as the operating system takes them) for reading.
    public init(path: [UInt8]) throws(InputFailure) {
        let display = TerminalText.escaped(String(decoding: path, as: UTF8.self))
        name = display
        let fd = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        }
        guard fd >= 0 else { throw InputFailure("cannot read '\(display)': \(FileInput.reason(errno))") }
        var status = stat()
        if fstat(fd, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR {
            close(fd)
            throw InputFailure("cannot read '\(display)': it is a directory")
        }
        descriptor = fd
        closesDescriptor = true
        if status.st_mode & S_IFMT == S_IFREG { size = Int(status.st_size) }
    }

    /// Opens the file at `path`.
    public convenience init(path: String) throws(InputFailure) {
        try self.init(path: Array(path.utf8))
    }

    /// Reads an open descriptor (such as 0, standard input), which stays open afterwards.
    public init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
        closesDescriptor = false
    }

    deinit {
        if closesDescriptor { close(descriptor) }
    }

    public func read(appendingTo buffer: inout [UInt8], upTo count: Int) -> Int {
        guard failure == nil, count > 0 else { return 0 }
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: count))
        while true {
            let got = buffer.withUnsafeMutableBytes { raw in
                Glibc.read(descriptor, raw.baseAddress! + start, count)
            }
            if got >= 0 {
                buffer.removeLast(count - got)
                consumed += got
                return got
            }
            if errno == EINTR { continue }
            failure = InputFailure("cannot read '\(name)': \(FileInput.reason(errno))")
            buffer.removeLast(count)
            return 0
        }
    }

    /// A plain reason for an `errno` from `open` or `read`.
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file"
        case EACCES, EPERM: return "permission denied"
        case EISDIR: return "it is a directory"
        case ELOOP: return "too many levels of symbolic links (a symbolic link loop?)"
        case ENOTDIR: return "a component of the path is not a directory"
        case ENAMETOOLONG: return "the path is too long"
        default: return String(cString: strerror(code)).lowercased()
        }
    }
}
