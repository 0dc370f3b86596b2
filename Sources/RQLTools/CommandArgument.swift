/// One command-line argument as the operating system passed it: bytes, which need not be UTF-8.
///
/// Options and names are read as `text`; a query, a `--arg` value and a file name are read as
/// `bytes`, so that bytes that are not UTF-8 are reported (a query) or used as they are (a file
/// name), never silently replaced by U+FFFD.
///
///     let argument = CommandArgument(bytes: [0x61, 0xFF])
///     argument.text   // "a\u{FFFD}"
public struct CommandArgument: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The bytes as given.
    public let bytes: [UInt8]
    /// The bytes as text, invalid sequences replaced by U+FFFD: for option names, class names and
    /// messages.
    public let text: String

    public init(_ text: String) {
        self.text = text
        self.bytes = Array(text.utf8)
    }

    public init(bytes: [UInt8]) {
        self.bytes = bytes
        self.text = String(decoding: bytes, as: UTF8.self)
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public var description: String { text }
}
