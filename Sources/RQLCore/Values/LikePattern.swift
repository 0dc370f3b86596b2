/// A compiled `LIKE` pattern: `*` matches any run of characters (possibly empty), `?` exactly
/// one Unicode code point, every other byte itself; the pattern must match the **whole**
/// string. There is no escape character (realm-core's `StringData::matchlike`).
///
/// Matching walks UTF-8 bytes and backtracks only to the most recent `*`, so it runs in
/// O(pattern × text) at worst and linearly in the usual case, without allocating.
///
/// ```swift
/// let p = LikePattern("R?x*")
/// p.matches("Rex the dog")  // true
/// p.matches("Rx")           // false
/// LikePattern("?").matches("é")  // true: one code point, two bytes
/// ```
public struct LikePattern: Hashable, Sendable {
    /// The pattern's UTF-8 bytes (already folded when the comparison is `[c]`/`[d]`).
    public let bytes: [UInt8]

    public init(_ pattern: String) {
        bytes = Array(pattern.utf8)
    }

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether the whole of `text` matches.
    public func matches(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { matches($0, foldASCII: false) }
    }

    /// Whether the whole of `text` matches; with `foldASCII`, text bytes `A`–`Z` are lowered
    /// first (the pattern must then already be lower-case).
    @inlinable
    public func matches(_ text: UnsafeBufferPointer<UInt8>, foldASCII: Bool) -> Bool {
        bytes.withUnsafeBufferPointer { pattern in
            LikePattern.match(pattern, text, foldASCII: foldASCII)
        }
    }

    @usableFromInline
    static func match(
        _ pattern: UnsafeBufferPointer<UInt8>,
        _ text: UnsafeBufferPointer<UInt8>,
        foldASCII: Bool
    ) -> Bool {
        let star = UInt8(ascii: "*")
        let question = UInt8(ascii: "?")
        var p = 0
        var t = 0
        var starAt = -1
        var starText = 0
        while t < text.count {
            if p < pattern.count {
                let c = pattern[p]
                if c == star {
                    starAt = p
                    starText = t
                    p &+= 1
                    continue
                }
                if c == question {
                    t &+= codePointLength(text, at: t)
                    p &+= 1
                    continue
                }
                let byte = foldASCII ? StringFolding.lowerASCII(text[t]) : text[t]
                if byte == c {
                    t &+= 1
                    p &+= 1
                    continue
                }
            }
            guard starAt >= 0 else { return false }
            // Let the last `*` swallow one more code point and retry from there.
            starText &+= codePointLength(text, at: starText)
            t = starText
            p = starAt &+ 1
        }
        while p < pattern.count && pattern[p] == star { p &+= 1 }
        return p == pattern.count
    }

    /// The byte length of the UTF-8 sequence starting at `index`, clamped to the text (a stray
    /// continuation byte counts as one code point).
    @usableFromInline @inline(__always)
    static func codePointLength(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let lead = text[index]
        let length = lead < 0xC0 ? 1 : (lead < 0xE0 ? 2 : (lead < 0xF0 ? 3 : 4))
        return min(length, text.count &- index)
    }
}
