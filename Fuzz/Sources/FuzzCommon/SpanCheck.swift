import RQLCore

/// What is wrong with an error's span over `source`, or nil when it is well-formed: inside the
/// input, 1-based line and column that agree with the offset, starting and ending on character
/// boundaries. Shared by every harness that checks a `LocatedError`'s span.
///
///     spanProblem(SourceSpan(offset: 9, length: 1, line: 1, column: 10), in: "age > 2")
///     // "span is not inside the input of 7 UTF-8 bytes"
func spanProblem(_ span: SourceSpan, in source: String) -> String? {
    let bytes = Array(source.utf8)
    guard span.offset >= 0, span.length >= 0, span.offset + span.length <= bytes.count else {
        return "span is not inside the input of \(bytes.count) UTF-8 bytes"
    }
    guard span.line >= 1, span.column >= 1 else {
        return "line and column must be 1-based"
    }
    guard span.offset == bytes.count || !isContinuationByte(bytes[span.offset]) else {
        return "span starts inside a multi-byte character"
    }
    guard span.end == bytes.count || !isContinuationByte(bytes[span.end]) else {
        return "span ends inside a multi-byte character"
    }
    let prefix = bytes[0..<span.offset]
    let lineStart = prefix.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
    let expectedLine = 1 + prefix.lazy.filter { $0 == UInt8(ascii: "\n") }.count
    let expectedColumn = 1 + String(decoding: bytes[lineStart..<span.offset], as: UTF8.self).unicodeScalars.count
    guard span.line == expectedLine, span.column == expectedColumn else {
        return "offset \(span.offset) is at line \(expectedLine) column \(expectedColumn)"
    }
    return nil
}

/// The span as a report line.
func spanDescription(_ span: SourceSpan) -> String {
    "span: offset \(span.offset) length \(span.length) line \(span.line) column \(span.column)"
}

private func isContinuationByte(_ byte: UInt8) -> Bool { byte & 0b1100_0000 == 0b1000_0000 }

/// Two lowercase hex digits per byte, separated by spaces.
func hexDump(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef")
    return bytes.map { String([digits[Int($0 >> 4)], digits[Int($0 & 0xF)]]) }.joined(separator: " ")
}
