import Foundation

/// Case and diacritic folding for `[c]`, `[d]` and `[cd]`.
///
/// realm-core folds only ASCII and Latin-1 (`'σ' ==[c] 'Σ'` is false there). We fold **every
/// script** on purpose: `[c]` is full case folding (`ß` folds to `ss`, final `ς` to `σ`), and
/// `[d]` strips diacritics with Foundation's Unicode folding (`é` → `e`, `Ё` → `Е`). Pure ASCII
/// text, the common case, is folded byte by byte.
///
/// ```swift
/// StringFolding.fold("ΣΊΣΥΦΟΣ", options: .caseInsensitive)             // "σίσυφοσ"
/// StringFolding.fold("Crème Brûlée", options: [.caseInsensitive, .diacriticInsensitive])  // "creme brulee"
/// ```
public enum StringFolding {
    /// The folded form of `text`; `text` itself when `options` is empty.
    public static func fold(_ text: String, options: StringOptions) -> String {
        var text = text
        return text.withUTF8 { String(decoding: foldedBytes($0, options: options), as: UTF8.self) }
    }

    /// The UTF-8 bytes of the folded form of the UTF-8 text in `bytes`.
    public static func foldedBytes(_ bytes: UnsafeBufferPointer<UInt8>, options: StringOptions) -> [UInt8] {
        if options.isEmpty { return Array(bytes) }
        if isASCII(bytes) {
            // ASCII has no diacritics; only case folding changes it.
            guard options.contains(.caseInsensitive) else { return Array(bytes) }
            return bytes.map(lowerASCII)
        }
        if !options.contains(.diacriticInsensitive) { return caseFolded(String(decoding: bytes, as: UTF8.self)) }
        var compareOptions: String.CompareOptions = []
        if options.contains(.caseInsensitive) { compareOptions.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { compareOptions.insert(.diacriticInsensitive) }
        let folded = String(decoding: bytes, as: UTF8.self).folding(options: compareOptions, locale: nil)
        return Array(folded.utf8)
    }

    /// Full case folding without Foundation (about twice as fast): each scalar that changes
    /// under case folding is upper-cased, then lower-cased, which maps `ß` and `ẞ` to `ss`, `ς`
    /// and `Σ` to `σ`, `K` (Kelvin) to `k`. Needle and haystack go through the same function, so
    /// they always agree.
    static func caseFolded(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                out.append(lowerASCII(UInt8(truncatingIfNeeded: scalar.value)))
            } else if !scalar.properties.changesWhenCaseFolded {
                if let encoded = UTF8.encode(scalar) { out.append(contentsOf: encoded) }
            } else {
                let mapped = scalar.properties.uppercaseMapping.lowercased()
                // `ẞ` upper-cases to itself and lower-cases to `ß`, which still folds further.
                if mapped.unicodeScalars.contains(where: { $0.properties.changesWhenCaseFolded }) {
                    out.append(
                        contentsOf: mapped.unicodeScalars.flatMap { $0.properties.uppercaseMapping.lowercased().utf8 }
                    )
                } else {
                    out.append(contentsOf: mapped.utf8)
                }
            }
        }
        return out
    }

    /// ASCII-only folding for binary values: bytes are not text, so only `A`–`Z` fold.
    public static func foldedBinary(_ bytes: UnsafeBufferPointer<UInt8>, options: StringOptions) -> [UInt8] {
        options.contains(.caseInsensitive) ? bytes.map(lowerASCII) : Array(bytes)
    }

    /// Whether every byte is below 0x80, checked eight bytes at a time.
    @inlinable
    public static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var i = 0
        var high: UInt64 = 0
        while i &+ 8 <= bytes.count {
            high |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i &+= 8
        }
        while i < bytes.count {
            high |= UInt64(bytes[i])
            i &+= 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// `A`–`Z` to `a`–`z`; every other byte unchanged.
    @inlinable @inline(__always)
    public static func lowerASCII(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }
}
