extension Diagnostic {
    /// The most terminal columns of a source line a rendered diagnostic shows; a longer line is
    /// cut to a window around the span, with `…` where it was cut.
    public static let excerptWidth = 100

    /// Renders the message, the line of `source` that holds the span, and a caret line under it.
    ///
    /// A single-line query is shown indented by two spaces; a multi-line query shows only the
    /// line the span starts on, behind its line number, so the caret lands on the right line.
    /// Carets are placed and sized by terminal display width (`DisplayWidth`), so they stay under
    /// the span after wide (CJK, emoji) and zero-width (combining) characters. Characters a
    /// terminal would act on (CR, ESC, DEL, NUL, bidirectional overrides) are shown escaped
    /// (`\r`, `\u{1B}`); tabs are copied into the caret line, so it stays aligned. A line wider
    /// than `excerptWidth` columns is shown as a window around the span.
    ///
    ///     error: unknown property 'agee' on class 'Dog'; did you mean 'age'?
    ///       agee > 2
    ///       ^~~~
    public func rendered(in source: String) -> String {
        var source = source
        return source.withUTF8 { rendered(inUTF8: $0) }
    }

    /// `rendered(in:)` for source text given as bytes, which may hold invalid UTF-8 (shown as
    /// `\x{FF}`): how an error about a query that is not UTF-8 shows where the bad byte is.
    public func rendered(inUTF8 bytes: UnsafeBufferPointer<UInt8>) -> String {
        let newline = UInt8(ascii: "\n")
        let offset = min(max(span.offset, 0), bytes.count)
        var lineStart = offset
        while lineStart > 0 && bytes[lineStart - 1] != newline { lineStart -= 1 }
        var lineEnd = offset
        while lineEnd < bytes.count && bytes[lineEnd] != newline { lineEnd += 1 }
        var lineNumber = 1
        for index in 0..<lineStart where bytes[index] == newline { lineNumber += 1 }
        let isMultiLine = bytes.contains(newline)
        // A CR before the newline belongs to the line break, not to the text.
        var textEnd = lineEnd
        if textEnd > lineStart && bytes[textEnd - 1] == UInt8(ascii: "\r") && lineEnd < bytes.count { textEnd -= 1 }

        let line = SourceLine(bytes, lineStart..<textEnd)
        let spanEnd = min(max(span.end, offset), textEnd)
        let (markStart, markEnd) = line.columns(from: offset, to: spanEnd)
        let window = line.window(around: markStart, width: Diagnostic.excerptWidth)

        var text = window.cutBefore ? "…" : ""
        var pad = window.cutBefore ? " " : ""
        for cell in line.cells[window.cells] {
            text += line.display(cell)
            if cell.column < markStart { pad += cell.isTab ? "\t" : String(repeating: " ", count: cell.width) }
        }
        if window.cutAfter { text += "…" }
        let shownEnd = min(markEnd, window.endColumn)
        let marks = "^" + String(repeating: "~", count: max(shownEnd - markStart - 1, 0))

        let gutter = isMultiLine ? "\(lineNumber) | " : ""
        let blankGutter = isMultiLine ? String(repeating: " ", count: gutter.count - 2) + "| " : ""
        return
            "\(severity.rawValue): \(Diagnostic.displayed(message))\n  \(gutter)\(text)\n  \(blankGutter)\(pad)\(marks)"
    }

    /// A message as printed: escaped like the source, and with any word longer than 80 columns
    /// (a name or literal quoted from a huge query) cut in the middle.
    static func displayed(_ message: String) -> String {
        let escaped = TerminalText.escaped(message)
        guard escaped.utf8.count > 80 else { return escaped }
        return escaped.split(separator: " ", omittingEmptySubsequences: false).map { word in
            guard word.count > 80 else { return String(word) }
            return String(word.prefix(50)) + "…" + String(word.suffix(25))
        }.joined(separator: " ")
    }
}

/// One line of source text cut into display cells (a character, an escape, or an invalid byte),
/// each with the terminal columns it takes.
private struct SourceLine {
    struct Cell {
        /// The cell's bytes in the source.
        var bytes: Range<Int>
        /// The column where the cell starts, from 0 at the start of the line.
        var column: Int
        var width: Int
        var kind: Kind
        var isTab: Bool { kind == .tab }
    }

    enum Kind {
        /// Printed as its bytes.
        case text
        /// A tab, printed raw and copied into the caret line.
        case tab
        /// Printed escaped (`\r`, `\u{1B}`).
        case escaped
        /// A byte that is not UTF-8, printed as `\x{FF}`.
        case invalid
    }

    let source: UnsafeBufferPointer<UInt8>
    private(set) var cells: [Cell] = []
    private(set) var width = 0

    init(_ source: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        self.source = source
        var index = range.lowerBound
        while index < range.upperBound {
            // The longest valid UTF-8 run from here, cut into characters.
            var runEnd = index
            while runEnd < range.upperBound, let length = UTF8Validation.sequenceLength(in: source, at: runEnd),
                runEnd + length <= range.upperBound
            {
                runEnd += length
            }
            if runEnd > index {
                var offset = index
                for character in String(decoding: UnsafeBufferPointer(rebasing: source[index..<runEnd]), as: UTF8.self)
                {
                    let length = character.utf8.count
                    if character == "\t" {
                        append(offset..<offset + length, width: 1, kind: .tab)
                    } else if character.unicodeScalars.contains(where: { TerminalText.escape($0) != nil }) {
                        let shown = TerminalText.escaped(String(character))
                        append(offset..<offset + length, width: DisplayWidth.of(shown), kind: .escaped)
                    } else {
                        append(offset..<offset + length, width: DisplayWidth.of(character), kind: .text)
                    }
                    offset += length
                }
                index = runEnd
            } else {
                append(index..<index + 1, width: 6, kind: .invalid)
                index += 1
            }
        }
    }

    private mutating func append(_ bytes: Range<Int>, width: Int, kind: Kind) {
        cells.append(Cell(bytes: bytes, column: self.width, width: width, kind: kind))
        self.width += width
    }

    /// The columns where the bytes `from..<to` start and end: from the start of the cell holding
    /// `from` to the end of the last cell that starts before `to`, at least one column.
    func columns(from start: Int, to end: Int) -> (start: Int, end: Int) {
        guard let first = cells.firstIndex(where: { $0.bytes.upperBound > start }) else { return (width, width + 1) }
        let startColumn = cells[first].column
        var endColumn = startColumn
        var index = first
        while index < cells.count && cells[index].bytes.lowerBound < end {
            endColumn = cells[index].column + cells[index].width
            index += 1
        }
        return (startColumn, max(endColumn, startColumn + 1))
    }

    /// The cells to show so that the line fits `width` columns with the column `focus` inside:
    /// about a third of the window before it, and the window moved left at the end of the line.
    func window(
        around focus: Int,
        width limit: Int
    ) -> (cells: Range<Int>, cutBefore: Bool, cutAfter: Bool, endColumn: Int) {
        guard width > limit else { return (0..<cells.count, false, false, Int.max) }
        var start = max(0, focus - limit / 3)
        if start + limit > width { start = max(0, width - limit) }
        let end = start + limit
        let lower = cells.firstIndex { $0.column >= start } ?? cells.count
        let upper = cells.firstIndex { $0.column + $0.width > end } ?? cells.count
        let shown = lower..<max(lower, upper)
        let endColumn = shown.isEmpty ? start : cells[shown.upperBound - 1].column + cells[shown.upperBound - 1].width
        return (shown, lower > 0, upper < cells.count, endColumn)
    }

    func display(_ cell: Cell) -> String {
        let bytes = UnsafeBufferPointer(rebasing: source[cell.bytes])
        switch cell.kind {
        case .text, .tab: return String(decoding: bytes, as: UTF8.self)
        case .escaped: return TerminalText.escaped(String(decoding: bytes, as: UTF8.self))
        case .invalid: return TerminalText.escape(invalidByte: bytes[0])
        }
    }
}
