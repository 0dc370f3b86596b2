import RQLCore

/// The line being typed at `rqlc shell`'s prompt, with its history: a pure state machine fed the
/// terminal's bytes one at a time, so every key is testable without a terminal (`Terminal` does
/// the reading and writing).
///
/// Keys: printable text inserts at the cursor; Left/Right (and Ctrl-B/F) move, Home/End (and
/// Ctrl-A/E) jump; Backspace deletes before the cursor, Delete (and Ctrl-D on a line that is
/// not empty) at it; Ctrl-U deletes to the start, Ctrl-K to the end, Ctrl-W the word before the
/// cursor; Up/Down (and Ctrl-P/N) walk the history, keeping the line being typed; Enter submits;
/// Ctrl-C abandons the line; Ctrl-D on an empty line ends the input.
///
///     var editor = LineEditor()
///     for byte in Array("age > 2".utf8) { _ = editor.feed(byte) }
///     editor.feed(0x0D)   // .submitted("age > 2")
struct LineEditor {
    /// What a byte did.
    enum Event: Equatable {
        /// Nothing visible yet (the first bytes of a key or of a UTF-8 character).
        case pending
        /// The line or the cursor changed: draw it again.
        case changed
        /// A key that does nothing here (Left at the start, an unknown key): ring the bell.
        case refused
        /// Enter: the line, now in the history.
        case submitted(String)
        /// Ctrl-C: the line is abandoned and empty.
        case interrupted
        /// Ctrl-D on an empty line.
        case endOfInput
    }

    /// The longest line, in Unicode scalars; keys that would make it longer are refused.
    let maximumLength: Int
    /// The most lines the history keeps (the oldest go first).
    let historyLimit: Int
    /// The line, as scalars (the cursor moves over zero-width ones, such as combining marks).
    private(set) var line: [Unicode.Scalar] = []
    /// Where the next character goes: 0 before the first scalar, `line.count` at the end.
    private(set) var cursor = 0
    /// Earlier lines, oldest first.
    private(set) var history: [String]
    /// The history line shown, or `history.count` for the line being typed.
    private var historyPosition: Int
    /// The line being typed, kept while the history is shown.
    private var draft: [Unicode.Scalar] = []
    /// The bytes of an escape sequence or a UTF-8 character read so far.
    private var pending: [UInt8] = []

    init(history: [String] = [], maximumLength: Int = 1 << 16, historyLimit: Int = 1000) {
        self.maximumLength = maximumLength
        self.historyLimit = historyLimit
        self.history = Array(history.suffix(historyLimit))
        self.historyPosition = self.history.count
    }

    /// The line as text.
    var text: String {
        var text = ""
        text.unicodeScalars.append(contentsOf: line)
        return text
    }

    /// Applies one byte from the terminal.
    mutating func feed(_ byte: UInt8) -> Event {
        if let first = pending.first {
            if first == 0x1B { return escape(byte) }
            return character(byte)
        }
        switch byte {
        case 0x1B:
            pending = [byte]
            return .pending
        case 0x0D, 0x0A: return submit()
        case 0x01: return move(to: 0)  // Ctrl-A
        case 0x05: return move(to: line.count)  // Ctrl-E
        case 0x02: return move(to: previous(cursor))  // Ctrl-B
        case 0x06: return move(to: next(cursor))  // Ctrl-F
        case 0x08, 0x7F: return delete(previous(cursor)..<cursor)  // Backspace
        case 0x04:  // Ctrl-D
            return line.isEmpty ? .endOfInput : delete(cursor..<next(cursor))
        case 0x15: return delete(0..<cursor)  // Ctrl-U
        case 0x0B: return delete(cursor..<line.count)  // Ctrl-K
        case 0x17: return delete(wordStart()..<cursor)  // Ctrl-W
        case 0x03:  // Ctrl-C
            line = []
            cursor = 0
            historyPosition = history.count
            return .interrupted
        case 0x10: return showHistory(historyPosition - 1)  // Ctrl-P
        case 0x0E: return showHistory(historyPosition + 1)  // Ctrl-N
        case 0x00..<0x20: return .refused
        case 0x20..<0x80: return insert(Unicode.Scalar(byte))
        default: return character(byte)
        }
    }

    /// The start of a UTF-8 character, or its next byte: inserts it once whole; an invalid
    /// sequence is refused and dropped.
    private mutating func character(_ byte: UInt8) -> Event {
        pending.append(byte)
        var decoder = UTF8()
        var iterator = pending.makeIterator()
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar):
            // A lead byte alone decodes as an error, never early; a whole character is the bytes.
            let whole = pending.count == UTF8.width(scalar)
            pending = []
            return whole ? insert(scalar) : .refused
        case .emptyInput:
            return .pending
        case .error:
            let expected = leadLength(pending[0])
            if expected > pending.count && pending.dropFirst().allSatisfy({ $0 & 0xC0 == 0x80 }) { return .pending }
            pending = []
            return .refused
        }
    }

    /// How many bytes a UTF-8 sequence starting with `lead` has (1 for a byte no sequence starts
    /// with, which then fails to decode).
    private func leadLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 1
        }
    }

    /// A byte of an escape sequence: `ESC [ …final` (CSI) or `ESC O x` (SS3), the forms terminals
    /// send for arrows, Home, End and Delete. Unknown sequences are read to their end and refused.
    private mutating func escape(_ byte: UInt8) -> Event {
        pending.append(byte)
        if pending.count == 2 {
            guard byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O") else {
                pending = []
                return .refused
            }
            return .pending
        }
        let isFinal = (0x40...0x7E).contains(byte)
        if !isFinal {
            // Parameter and intermediate bytes; a sequence longer than any key is not one.
            guard (0x20...0x3F).contains(byte), pending.count < 16, pending[1] == UInt8(ascii: "[") else {
                pending = []
                return .refused
            }
            return .pending
        }
        let parameters = String(decoding: pending[2..<(pending.count - 1)], as: UTF8.self)
        pending = []
        switch (Unicode.Scalar(byte), parameters) {
        case ("A", _): return showHistory(historyPosition - 1)
        case ("B", _): return showHistory(historyPosition + 1)
        case ("C", "1;5"), ("C", "1;3"): return move(to: wordEnd())  // Ctrl- or Alt-Right
        case ("D", "1;5"), ("D", "1;3"): return move(to: wordStart())
        case ("C", _): return move(to: next(cursor))
        case ("D", _): return move(to: previous(cursor))
        case ("H", _), ("~", "1"), ("~", "7"): return move(to: 0)
        case ("F", _), ("~", "4"), ("~", "8"): return move(to: line.count)
        case ("~", "3"): return delete(cursor..<next(cursor))
        default: return .refused
        }
    }

    private mutating func insert(_ scalar: Unicode.Scalar) -> Event {
        // A control character would act on the terminal rather than be drawn.
        guard line.count < maximumLength, TerminalText.escape(scalar) == nil else { return .refused }
        line.insert(scalar, at: cursor)
        cursor += 1
        return .changed
    }

    private mutating func move(to position: Int) -> Event {
        guard position != cursor else { return .refused }
        cursor = position
        return .changed
    }

    private mutating func delete(_ range: Range<Int>) -> Event {
        guard !range.isEmpty else { return .refused }
        line.removeSubrange(range)
        cursor = range.lowerBound
        return .changed
    }

    /// The cursor position one visible character back: over zero-width scalars (combining marks)
    /// too, so the cursor never seems to stand still.
    private func previous(_ position: Int) -> Int {
        var position = max(0, position - 1)
        while position > 0 && DisplayWidth.of(line[position]) == 0 { position -= 1 }
        return position
    }

    private func next(_ position: Int) -> Int {
        var position = min(line.count, position + 1)
        while position < line.count && DisplayWidth.of(line[position]) == 0 { position += 1 }
        return position
    }

    /// The start of the word before the cursor (spaces before it skipped), as shells do for
    /// Ctrl-W.
    private func wordStart() -> Int {
        var position = cursor
        while position > 0 && line[position - 1] == " " { position -= 1 }
        while position > 0 && line[position - 1] != " " { position -= 1 }
        return position
    }

    private func wordEnd() -> Int {
        var position = cursor
        while position < line.count && line[position] == " " { position += 1 }
        while position < line.count && line[position] != " " { position += 1 }
        return position
    }

    /// Shows history line `position` (`history.count`: the line being typed).
    private mutating func showHistory(_ position: Int) -> Event {
        guard position >= 0, position <= history.count, position != historyPosition else { return .refused }
        if historyPosition == history.count { draft = line }
        historyPosition = position
        line = position == history.count ? draft : Array(history[position].unicodeScalars)
        cursor = line.count
        return .changed
    }

    private mutating func submit() -> Event {
        let submitted = text
        if !submitted.allSatisfy(\.isWhitespace) && history.last != submitted {
            history.append(submitted)
            if history.count > historyLimit { history.removeFirst(history.count - historyLimit) }
        }
        line = []
        draft = []
        cursor = 0
        historyPosition = history.count
        return .submitted(submitted)
    }

    /// What redraws the line on a terminal `columns` wide: back to the first column, the prompt
    /// and as much of the line as fits around the cursor (a long line scrolls sideways), erase to
    /// the end, and the cursor put back. A character a terminal would act on (one from the
    /// history file) is drawn escaped, as `TerminalText` shows it.
    func rendered(prompt: String, columns: Int) -> String {
        let promptWidth = DisplayWidth.of(prompt)
        let room = max(1, columns - promptWidth - 1)
        let cells = line.map { scalar in
            let text = TerminalText.escape(scalar) ?? String(Character(scalar))
            return (text: text, width: DisplayWidth.of(text))
        }
        // The window starts where the cursor still fits, and ends where the room does.
        var start = 0
        var beforeCursor = cells[0..<cursor].reduce(0) { $0 + $1.width }
        while beforeCursor > room && start < cursor {
            beforeCursor -= cells[start].width
            start += 1
        }
        var end = start
        var shown = 0
        while end < cells.count && shown + cells[end].width <= room {
            shown += cells[end].width
            end += 1
        }
        let visible = cells[start..<end].map(\.text).joined()
        let column = promptWidth + beforeCursor
        return "\r" + prompt + visible + "\u{1B}[0K\r" + (column > 0 ? "\u{1B}[\(column)C" : "")
    }
}
