/// Text that is safe to send to a terminal: what diagnostics echo of a query and what `rqlc`'s
/// tables print of the data.
///
/// A query or a value can hold any character, and some of them act on a terminal instead of
/// being drawn: a carriage return rewrites the line, ESC starts a control sequence, bidirectional
/// overrides reorder what follows. Those are shown escaped in Swift's notation, so the echo is
/// visible, unambiguous and one line long.
///
///     TerminalText.escaped("a\rb")          // "a\\rb"
///     TerminalText.escaped("\u{1B}[31m")    // "\\u{1B}[31m"
public enum TerminalText {
    /// `text` with every character that is not drawn as itself escaped (see `escape(_:)`).
    /// With `keepingTabs`, tabs stay raw (diagnostics copy them into the caret line so it aligns).
    public static func escaped(_ text: some StringProtocol, keepingTabs: Bool = false) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 >= 0xC2 }) else { return String(text) }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if keepingTabs && scalar == "\t" {
                out.unicodeScalars.append(scalar)
            } else if let escape = escape(scalar) {
                out += escape
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The escape for a scalar a terminal would act on rather than draw, or nil to print it as it
    /// is: C0 controls (`\0`, `\t`, `\n`, `\r`, else `\u{1B}`), DEL and the C1 controls, and the
    /// bidirectional formatting characters (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069).
    public static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x00: return "\\0"
        case 0x09: return "\\t"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x01...0x1F, 0x7F...0x9F, 0x061C, 0x200E...0x200F, 0x202A...0x202E, 0x2066...0x2069:
            return "\\u{" + hex(scalar.value) + "}"
        default: return nil
        }
    }

    /// The escape for a byte that is not part of valid UTF-8: `\x{FF}`.
    public static func escape(invalidByte byte: UInt8) -> String { "\\x{" + hex(UInt32(byte)) + "}" }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
}
