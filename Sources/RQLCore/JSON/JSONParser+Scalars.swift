/// Strings and numbers: the byte loops that most of a dataset's time is spent in.
extension JSONParser {
    /// Reads the string whose opening quote is at `index`, escapes decoded.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        // Fast path: printable ASCII up to the closing quote, all in the buffer.
        var end = index + 1
        while end < buffer.count {
            let byte = buffer[end]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: buffer[(index + 1)..<end], as: UTF8.self)
                index = end + 1
                return text
            }
            guard byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\\") else { break }
            end += 1
        }
        var out: [UInt8] = []
        try scanString(into: &out, building: true)
        return String(decoding: out, as: UTF8.self)
    }

    /// Reads past the string at `index`, checking it, and with `building` appends its decoded
    /// bytes to `out`. The bytes are checked to be UTF-8, so `out` always is.
    mutating func scanString(into out: inout [UInt8], building: Bool) throws(JSONSyntaxError) {
        index += 1
        var segment = index
        func flush(_ parser: inout JSONParser) {
            if building { out.append(contentsOf: parser.buffer[segment..<parser.index]) }
        }
        while true {
            if index == buffer.count {
                flush(&self)
                guard ensure(1) else { throw error("unterminated string") }
                segment = index
            }
            let byte = buffer[index]
            if byte == UInt8(ascii: "\"") {
                flush(&self)
                index += 1
                return
            }
            if byte < 0x20 {
                throw error(
                    "unescaped control character U+00\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16, uppercase: true)) in a string"
                )
            }
            if byte == UInt8(ascii: "\\") {
                flush(&self)
                try scanEscape(into: &out, building: building)
                segment = index
                continue
            }
            if byte >= 0x80 {
                if index + 4 > buffer.count {
                    flush(&self)
                    _ = ensure(4)
                    segment = index
                }
                guard let length = utf8Length() else { throw invalidUTF8() }
                index += length
                continue
            }
            index += 1
        }
    }

    /// Reads the escape whose backslash is at `index`.
    private mutating func scanEscape(into out: inout [UInt8], building: Bool) throws(JSONSyntaxError) {
        guard ensure(2) else {
            index = buffer.count
            throw error("unterminated escape")
        }
        let escape = buffer[index + 1]
        var decoded: UInt8
        switch escape {
        case UInt8(ascii: "\""): decoded = 0x22
        case UInt8(ascii: "\\"): decoded = 0x5C
        case UInt8(ascii: "/"): decoded = 0x2F
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            index += 2
            var scalar = try parseHex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard ensure(2), buffer[index] == UInt8(ascii: "\\"), buffer[index + 1] == UInt8(ascii: "u") else {
                    throw error("unpaired surrogate")
                }
                index += 2
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
                scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw error("unpaired surrogate")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid code point") }
            if building { out.append(contentsOf: UTF8.encode(unicode)!) }
            return
        default:
            index += 2
            throw error("invalid escape")
        }
        if building { out.append(decoded) }
        index += 2
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        _ = ensure(4)
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < buffer.count, let digit = hexDigitValue(buffer[index]) else {
                throw error("expected four hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Reads the number at `index`, keeping its text.
    mutating func parseNumber() throws(JSONSyntaxError) -> JSONNumber {
        let startOffset = base + index
        mark = startOffset
        defer { mark = nil }
        try scanNumber()
        let start = startOffset - base
        return JSONNumber(text: String(decoding: buffer[start..<index], as: UTF8.self))
    }

    /// Reads past the number at `index`, checking its syntax.
    mutating func scanNumber() throws(JSONSyntaxError) {
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard isDigit(peek()) else { throw error("expected a digit") }
        if peek() == UInt8(ascii: "0") {
            index += 1
        } else {
            while isDigit(peek()) { index += 1 }
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard isDigit(peek()) else { throw error("expected a digit after '.'") }
            while isDigit(peek()) { index += 1 }
        }
        if let byte = peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            index += 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
            guard isDigit(peek()) else { throw error("expected a digit in the exponent") }
            while isDigit(peek()) { index += 1 }
        }
    }
}
