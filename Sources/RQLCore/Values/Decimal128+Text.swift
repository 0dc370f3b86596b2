extension Decimal128 {
    init(parsing text: String) throws(ValueParseError) {
        let bytes = Array(text.utf8)
        var i = 0
        var negative = false
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        let word = String(decoding: bytes[i...], as: UTF8.self).lowercased()
        switch word {
        case "nan":
            self = .nan
            return
        case "inf", "infinity":
            self = negative ? .negativeInfinity : .infinity
            return
        default: break
        }
        // Significant digits are collected as text so that any length can be rounded exactly.
        var digits: [UInt8] = []
        var sawDigit = false
        var fractionDigits = 0
        var inFraction = false
        while i < bytes.count {
            let byte = bytes[i]
            if byte >= 0x30 && byte <= 0x39 {
                sawDigit = true
                if !(digits.isEmpty && byte == 0x30) { digits.append(byte - 0x30) }
                if inFraction { fractionDigits += 1 }
            } else if byte == UInt8(ascii: ".") && !inFraction {
                inFraction = true
            } else {
                break
            }
            i += 1
        }
        guard sawDigit else { throw .invalidDecimal(text) }
        var exponent = 0
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            var exponentNegative = false
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            var sawExponentDigit = false
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                sawExponentDigit = true
                // Clamp absurd exponents; anything this large overflows or underflows anyway.
                exponent = min(exponent * 10 + Int(bytes[i] - 0x30), 1_000_000)
                i += 1
            }
            guard sawExponentDigit else { throw .invalidDecimal(text) }
            if exponentNegative { exponent = -exponent }
        }
        guard i == bytes.count else { throw .invalidDecimal(text) }
        exponent -= fractionDigits
        // Keep 35 digits at most before handing over to the rounding initialiser: digit 35
        // decides the rounding, and a non-zero tail beyond it is folded into a sticky 1.
        if digits.count > 35 {
            let sticky = digits[35...].contains { $0 != 0 }
            exponent += digits.count - 35
            digits.removeLast(digits.count - 35)
            if sticky && digits[34] == 5 { digits[34] = 6 } else if sticky && digits[34] == 0 { digits[34] = 1 }
        }
        var coefficient: UInt128 = 0
        for digit in digits { coefficient = coefficient * 10 + UInt128(digit) }
        self.init(isNegative: negative, coefficient: coefficient, exponent: exponent)
    }

    /// The IEEE "to-scientific-string" form: plain notation when the exponent is ≤ 0 and the
    /// adjusted exponent ≥ -6 (`19.99`, `0.000001`, `100`), otherwise `d.dddE±n` (`1.5E+3`);
    /// `NaN`, `Infinity`, `-Infinity` for the special values.
    public var description: String {
        switch kind {
        case .nan: return "NaN"
        case .infinity: return isNegative ? "-Infinity" : "Infinity"
        case .finite: break
        }
        let digits = String(coefficient)
        let sign = isNegative ? "-" : ""
        let adjusted = Int(exponent) + digits.count - 1
        if exponent <= 0 && adjusted >= -6 {
            if exponent == 0 { return sign + digits }
            let pointPosition = digits.count + Int(exponent)
            if pointPosition > 0 {
                let index = digits.index(digits.startIndex, offsetBy: pointPosition)
                return sign + digits[..<index] + "." + digits[index...]
            }
            return sign + "0." + String(repeating: "0", count: -pointPosition) + digits
        }
        var mantissa = String(digits.first ?? "0")
        if digits.count > 1 { mantissa += "." + digits.dropFirst() }
        return sign + mantissa + "E" + (adjusted >= 0 ? "+" : "-") + String(abs(adjusted))
    }
}
