/// Reading one scalar token without building a `JSONValue`: the streaming dataset loader's fast
/// path for plain property values. Each reads the next value only when it is of the kind asked
/// for and otherwise reads nothing, so the caller can read it with `parseValue` and report it.
extension JSONParser {
    /// A number token: an integer literal that fits in `Int64`, or any other number as written.
    package enum NumberToken {
        case integer(Int64)
        case other(JSONNumber)
    }

    /// The next value if it is a number; nil (nothing read) otherwise.
    package mutating func readNumber() throws(JSONSyntaxError) -> NumberToken? {
        skipWhitespace()
        guard let first = peek(), first == UInt8(ascii: "-") || (first >= 0x30 && first <= 0x39) else { return nil }
        let startOffset = base + index
        mark = startOffset
        defer { mark = nil }
        try scanNumber()
        let start = startOffset - base
        // Up to 18 digits always fit; longer literals and fractions keep their text.
        let negative = buffer[start] == UInt8(ascii: "-")
        let digitsStart = negative ? start + 1 : start
        if index - digitsStart <= 18 {
            var value: Int64 = 0
            var isInteger = true
            for i in digitsStart..<index {
                let digit = buffer[i] &- 0x30
                guard digit < 10 else {
                    isInteger = false
                    break
                }
                value = value &* 10 &+ Int64(digit)
            }
            if isInteger { return .integer(negative ? -value : value) }
        }
        let text = String(decoding: buffer[start..<index], as: UTF8.self)
        if let value = Int64(text) { return .integer(value) }
        return .other(JSONNumber(text: text))
    }

    /// The next value if it is a string, escapes decoded; nil (nothing read) otherwise.
    package mutating func readString() throws(JSONSyntaxError) -> String? {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { return nil }
        return try parseString()
    }

    /// The next value if it is `true` or `false`; nil (nothing read) otherwise.
    package mutating func readBool() throws(JSONSyntaxError) -> Bool? {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "t"):
            _ = try parseValue()
            return true
        case UInt8(ascii: "f"):
            _ = try parseValue()
            return false
        default:
            return nil
        }
    }

    /// Reads the next value if it is `null` and says whether it was.
    package mutating func readNull() throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard peek() == UInt8(ascii: "n") else { return false }
        _ = try parseValue()
        return true
    }

    /// The error `nextMember` reports for a key its object already has, here: for a reader that
    /// entered the object with `checkingKeys: false` and tells repeated keys apart itself.
    package func duplicateKeyError(_ key: String) -> JSONSyntaxError {
        var failure = error("duplicate key '\(TerminalText.escaped(key))'")
        failure.namesPath = true
        return failure
    }

    /// The document offset of the next byte to read: how far a stream has been read.
    package var offset: Int { base + index }
}
