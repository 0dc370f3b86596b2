/// How many terminal columns text takes: what places and sizes a caret under a query, and pads
/// `rqlc`'s tables.
///
/// Widths are per grapheme (a user-perceived character, Swift's `Character`): combining marks,
/// other zero-width characters and format controls add nothing to the character they follow; East
/// Asian wide and fullwidth characters and emoji in emoji presentation take two columns; the rest
/// take one. This is what terminals that follow Unicode's East Asian Width (UAX #11) and emoji
/// presentation (UTS #51) draw; a few older terminals draw some emoji one column wide.
///
///     DisplayWidth.of("名前")      // 4
///     DisplayWidth.of("e\u{301}")  // 1: e and a combining acute accent
///     DisplayWidth.of("🐶")        // 2
///     DisplayWidth.of("❤\u{FE0F}") // 2: the variation selector asks for emoji presentation
public enum DisplayWidth {
    /// The columns of a string: the sum of its characters' widths. Control characters count one
    /// column each here; callers that print text escape them first (`TerminalText.escaped`).
    public static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// The columns of one character: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        // Fast path: ASCII (a CR-LF pair is one Character of two ASCII scalars).
        if first.value < 0x80 { return character == "\r\n" ? 2 : 1 }
        var width = of(first)
        // U+FE0F asks for the emoji presentation of the character it follows.
        if width == 1, scalars.contains("\u{FE0F}"), first.properties.isEmoji { width = 2 }
        // A grapheme led by a zero-width scalar (a lone combining mark, a joiner) takes the width of
        // the first scalar that has one, such as the emoji after a ZWJ.
        if width == 0 {
            for scalar in scalars.dropFirst() where of(scalar) > 0 { return of(scalar) }
        }
        return width
    }

    /// The columns of one scalar on its own: 0, 1 or 2.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return 1 }
        if isZeroWidth(scalar) { return 0 }
        if isWide(value) || scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        // Hangul medial vowels and final consonants join the preceding initial into one syllable.
        if (0x1160...0x11FF).contains(scalar.value) || (0xD7B0...0xD7FF).contains(scalar.value) { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return false
        }
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges of UAX #11, other than the emoji that
    /// `isEmojiPresentation` already covers, merged across unassigned gaps; planes 2 and 3 are
    /// wide as a whole (their default).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x2FFB, 0x3000...0x303E, 0x3041...0x31E3,
        0x31F0...0x3247, 0x3250...0x4DBF, 0x4E00...0xA4C6, 0xA960...0xA97C, 0xAC00...0xD7A3,
        0xF900...0xFAD9, 0xFE10...0xFE19, 0xFE30...0xFE6B, 0xFF01...0xFF60, 0xFFE0...0xFFE6,
        0x16FE0...0x16FF1, 0x17000...0x187F7, 0x18800...0x18CD5, 0x18D00...0x18D08, 0x1AFF0...0x1B122,
        0x1B150...0x1B152, 0x1B164...0x1B2FB, 0x1F200...0x1F265, 0x20000...0x3FFFD,
    ]

    private static func isWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        var low = 0
        var high = wideRanges.count
        while low < high {
            let mid = (low + high) / 2
            if wideRanges[mid].upperBound < value { low = mid + 1 } else { high = mid }
        }
        return low < wideRanges.count && wideRanges[low].contains(value)
    }
}
