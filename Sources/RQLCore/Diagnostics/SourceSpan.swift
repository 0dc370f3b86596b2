/// A contiguous range of a query's source text.
///
/// Offsets count UTF-8 bytes from the start of the query, so a span can slice the source without
/// walking it. `line` and `column` are 1-based and describe where the span starts as a person reads
/// it: a column counts Unicode scalars, not bytes, so `姓名 == 1` puts `==` at column 4.
///
///     let span = SourceSpan(offset: 4, length: 1, line: 1, column: 5)  // the `>` of `age > 2`
public struct SourceSpan: Hashable, Sendable, CustomStringConvertible {
    /// UTF-8 offset of the first byte.
    public var offset: Int
    /// Length in UTF-8 bytes; zero for a position such as the end of the input.
    public var length: Int
    /// 1-based line of the first byte.
    public var line: Int
    /// 1-based column of the first byte, in Unicode scalars from the start of its line.
    public var column: Int

    public init(offset: Int, length: Int, line: Int, column: Int) {
        self.offset = offset
        self.length = length
        self.line = line
        self.column = column
    }

    /// The UTF-8 offset just past the last byte.
    public var end: Int { offset + length }

    /// The span that starts where `self` starts and ends where `other` ends.
    ///
    /// Used to give a composite node (a comparison, a key path) the span of its first and last token.
    public func through(_ other: SourceSpan) -> SourceSpan {
        SourceSpan(offset: offset, length: max(other.end, end) - offset, line: line, column: column)
    }

    public var description: String { "\(line):\(column)+\(length)" }
}
