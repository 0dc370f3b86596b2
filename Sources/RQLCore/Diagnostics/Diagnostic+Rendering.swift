extension Diagnostic {
    /// Renders the message, the line of `source` that holds the span, and a caret line under it.
    ///
    /// A single-line query is shown indented by two spaces; a multi-line query shows only the
    /// line the span starts on, behind its line number, so the caret lands on the right line.
    /// The caret line copies the tabs of the source line, so it stays aligned in a terminal.
    ///
    ///     error: unknown property 'agee' on class 'Dog'; did you mean 'age'?
    ///       agee > 2
    ///       ^~~~
    public func rendered(in source: String) -> String {
        let bytes = Array(source.utf8)
        let offset = min(max(span.offset, 0), bytes.count)
        var lineStart = offset
        while lineStart > 0 && bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
        var lineEnd = offset
        while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
        var lineNumber = 1
        for byte in bytes[0..<lineStart] where byte == UInt8(ascii: "\n") { lineNumber += 1 }
        let isMultiLine = bytes.contains(UInt8(ascii: "\n"))

        var lineText = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)
        if lineText.hasSuffix("\r") { lineText.removeLast() }
        // Marks cover the span's scalars on this line, at least one (an empty span marks a position).
        var pad = ""
        for scalar in String(decoding: bytes[lineStart..<offset], as: UTF8.self).unicodeScalars {
            pad.append(scalar == "\t" ? "\t" : " ")
        }
        let markedEnd = min(max(span.end, offset), lineEnd)
        let markedWidth = String(decoding: bytes[offset..<markedEnd], as: UTF8.self).unicodeScalars.count
        let marks = "^" + String(repeating: "~", count: max(markedWidth - 1, 0))

        let gutter = isMultiLine ? "\(lineNumber) | " : ""
        let blankGutter = isMultiLine ? String(repeating: " ", count: gutter.count - 2) + "| " : ""
        return "\(severity.rawValue): \(message)\n  \(gutter)\(lineText)\n  \(blankGutter)\(pad)\(marks)"
    }
}
