extension Timestamp {
    /// Reads an ISO-8601 date: `YYYY-MM-DD`, optionally followed by `T` (or a space) and
    /// `HH:MM[:SS[.fffffffff]]`, optionally followed by `Z` or an offset `±HH:MM` / `±HHMM`.
    /// Without an offset the time is UTC. Up to nine fractional digits are kept exactly.
    ///
    /// ```swift
    /// try Timestamp(iso8601: "1969-12-31T23:59:59.5Z")  // seconds 0, nanoseconds -500000000
    /// ```
    public init(iso8601 text: String) throws(ValueParseError) {
        var reader = ISO8601Reader(bytes: Array(text.utf8), text: text)
        self = try reader.read()
    }

    /// The instant in ISO-8601 UTC, with as many fractional digits as needed (none for whole seconds).
    ///
    /// ```swift
    /// Timestamp(seconds: 0, nanoseconds: 1_000)!.iso8601  // "1970-01-01T00:00:00.000001Z"
    /// ```
    /// The UTC calendar date (proleptic Gregorian) the instant falls on.
    public var civilDate: (year: Int64, month: Int64, day: Int64) {
        let secs = floored.seconds
        let days = secs >= 0 ? secs / 86_400 : -((-(secs + 1)) / 86_400) - 1
        return CivilCalendar.civil(days: days)
    }

    public var iso8601: String {
        let (secs, nanos) = floored
        // Floor division and remainder that cannot overflow, even for Int64.min seconds.
        let secondOfDay = (secs % 86_400 + 86_400) % 86_400
        let (year, month, day) = civilDate
        var out = ""
        if year < 0 {
            out += "-" + pad(-year, 4)
        } else {
            out += pad(year, 4)
        }
        out += "-" + pad(month, 2) + "-" + pad(day, 2)
        out += "T" + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if nanos != 0 {
            var fraction = pad(Int64(nanos), 9)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            out += "." + fraction
        }
        return out + "Z"
    }
}

private func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// A cursor over the bytes of an ISO-8601 date; each `read…` consumes what it recognises.
private struct ISO8601Reader {
    let bytes: [UInt8]
    let text: String
    var index = 0

    init(bytes: [UInt8], text: String) {
        self.bytes = bytes
        self.text = text
    }

    func fail(_ reason: String) -> ValueParseError { .invalidTimestamp(text, reason: reason) }

    mutating func read() throws(ValueParseError) -> Timestamp {
        var negativeYear = false
        if peek == UInt8(ascii: "-") || peek == UInt8(ascii: "+") {
            negativeYear = peek == UInt8(ascii: "-")
            index += 1
        }
        let yearDigits = digitRun()
        guard yearDigits.count >= 4, yearDigits.count <= 9 else { throw fail("expected a year of 4 to 9 digits") }
        var year = value(of: yearDigits)
        if negativeYear { year = -year }
        try expect("-")
        let month = try fixedNumber(2, "month")
        try expect("-")
        let day = try fixedNumber(2, "day")
        guard (1...12).contains(month) else { throw fail("month out of range") }
        guard day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month) else {
            throw fail("day out of range")
        }
        var hour: Int64 = 0
        var minute: Int64 = 0
        var second: Int64 = 0
        var nanos: Int64 = 0
        var offsetSeconds: Int64 = 0
        if peek == UInt8(ascii: "T") || peek == UInt8(ascii: "t") || peek == UInt8(ascii: " ") {
            index += 1
            hour = try fixedNumber(2, "hour")
            try expect(":")
            minute = try fixedNumber(2, "minute")
            if peek == UInt8(ascii: ":") {
                index += 1
                second = try fixedNumber(2, "second")
                if peek == UInt8(ascii: ".") || peek == UInt8(ascii: ",") {
                    index += 1
                    let fraction = digitRun()
                    guard !fraction.isEmpty else { throw fail("expected fractional digits") }
                    guard fraction.count <= 9 else { throw fail("more than nine fractional digits") }
                    nanos = value(of: fraction)
                    for _ in fraction.count..<9 { nanos *= 10 }
                }
            }
            guard hour < 24, minute < 60, second < 60 else { throw fail("time out of range") }
            if peek == UInt8(ascii: "Z") || peek == UInt8(ascii: "z") {
                index += 1
            } else if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") {
                let sign: Int64 = peek == UInt8(ascii: "-") ? -1 : 1
                index += 1
                let offsetHours = try fixedNumber(2, "offset hours")
                if peek == UInt8(ascii: ":") { index += 1 }
                let offsetMinutes = try fixedNumber(2, "offset minutes")
                guard offsetHours < 24, offsetMinutes < 60 else { throw fail("offset out of range") }
                offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
            }
        }
        guard index == bytes.count else { throw fail("unexpected text after the date") }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Timestamp(flooredSeconds: seconds, nonNegativeNanoseconds: Int32(nanos))
    }

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func expect(_ character: Unicode.Scalar) throws(ValueParseError) {
        guard peek == UInt8(ascii: character) else { throw fail("expected '\(character)'") }
        index += 1
    }

    mutating func digitRun() -> ArraySlice<UInt8> {
        let start = index
        while let byte = peek, byte >= 0x30, byte <= 0x39 { index += 1 }
        return bytes[start..<index]
    }

    mutating func fixedNumber(_ width: Int, _ what: String) throws(ValueParseError) -> Int64 {
        let start = index
        while index < start + width, let byte = peek, byte >= 0x30, byte <= 0x39 { index += 1 }
        guard index == start + width else { throw fail("expected \(width) digits for the \(what)") }
        return value(of: bytes[start..<index])
    }

    func value(of digits: ArraySlice<UInt8>) -> Int64 {
        digits.reduce(0) { $0 * 10 + Int64($1 - 0x30) }
    }
}
