#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One string (or binary) predicate with its needle prepared once: `==`, `BEGINSWITH`,
/// `ENDSWITH`, `CONTAINS` or `LIKE`, optionally `[c]`/`[d]`. Build it once per query constant,
/// then call `matches` per row.
///
/// Case-sensitive matching compares UTF-8 bytes in place (`memcmp`/`memchr`) and allocates
/// nothing. Folded matching lowers ASCII text on the fly; only text with non-ASCII bytes is
/// folded into a temporary buffer through `StringFolding`.
///
/// Empty needles: `CONTAINS ''`, `BEGINSWITH ''`, `ENDSWITH ''` match every string; `LIKE ''` and
/// `== ''` match only the empty string. Null handling is the caller's (`ValueComparison`).
///
/// ```swift
/// let m = StringMatcher(.contains, needle: "ПРИВ", options: .caseInsensitive)
/// m.matches("привет")  // true
/// StringMatcher(.like, needle: "B*y").matches("Buddy")  // true
/// ```
public struct StringMatcher: Hashable, Sendable {
    /// What the needle must be to the haystack.
    public enum Operation: Hashable, Sendable {
        /// The whole haystack equals the needle.
        case equal
        /// The haystack starts with the needle.
        case beginsWith
        /// The haystack ends with the needle.
        case endsWith
        /// The needle occurs in the haystack.
        case contains
        /// The haystack matches the needle as a `LIKE` pattern.
        case like

        /// The operation of a string operator (`BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`);
        /// nil for every other operator.
        public init?(_ op: ComparisonOperator) {
            switch op {
            case .beginsWith: self = .beginsWith
            case .endsWith: self = .endsWith
            case .contains: self = .contains
            case .like: self = .like
            case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .in, .text, .matches: return nil
            }
        }
    }

    public let operation: Operation
    public let options: StringOptions
    /// The needle's bytes, folded by `options`.
    public let needle: [UInt8]
    /// Binary values fold ASCII only and never go through Unicode folding.
    public let isBinary: Bool

    /// A matcher for a string needle.
    public init(_ operation: Operation, needle: String, options: StringOptions = []) {
        self.operation = operation
        self.options = options
        self.isBinary = false
        var needle = needle
        self.needle = needle.withUTF8 { StringFolding.foldedBytes($0, options: options) }
    }

    /// A matcher for a binary needle (`data CONTAINS bin(…)`).
    public init(_ operation: Operation, binaryNeedle: [UInt8], options: StringOptions = []) {
        self.operation = operation
        self.options = options
        self.isBinary = true
        self.needle = binaryNeedle.withUnsafeBufferPointer { StringFolding.foldedBinary($0, options: options) }
    }

    public func matches(_ haystack: String) -> Bool {
        var haystack = haystack
        return haystack.withUTF8 { matches($0) }
    }

    public func matches(bytes haystack: [UInt8]) -> Bool {
        haystack.withUnsafeBufferPointer { matches($0) }
    }

    /// Whether the UTF-8 (or binary) bytes of one haystack satisfy the predicate.
    public func matches(_ haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        if options.isEmpty { return match(haystack, foldASCII: false) }
        if isBinary || StringFolding.isASCII(haystack) {
            return match(haystack, foldASCII: options.contains(.caseInsensitive))
        }
        let folded = StringFolding.foldedBytes(haystack, options: options)
        return folded.withUnsafeBufferPointer { match($0, foldASCII: false) }
    }

    private func match(_ haystack: UnsafeBufferPointer<UInt8>, foldASCII: Bool) -> Bool {
        needle.withUnsafeBufferPointer { needle in
            switch operation {
            case .equal:
                return haystack.count == needle.count && StringMatcher.equalBytes(haystack, 0, needle, foldASCII)
            case .beginsWith:
                return haystack.count >= needle.count && StringMatcher.equalBytes(haystack, 0, needle, foldASCII)
            case .endsWith:
                return haystack.count >= needle.count
                    && StringMatcher.equalBytes(haystack, haystack.count - needle.count, needle, foldASCII)
            case .contains:
                return StringMatcher.find(needle, in: haystack, foldASCII: foldASCII)
            case .like:
                return LikePattern.match(needle, haystack, foldASCII: foldASCII)
            }
        }
    }

    /// Whether `haystack[offset ..< offset + needle.count]` equals `needle` (lowering haystack
    /// bytes first with `foldASCII`). The caller guarantees the range is inside the haystack.
    @inline(__always)
    static func equalBytes(
        _ haystack: UnsafeBufferPointer<UInt8>,
        _ offset: Int,
        _ needle: UnsafeBufferPointer<UInt8>,
        _ foldASCII: Bool
    ) -> Bool {
        let n = needle.count
        if n == 0 { return true }
        guard let h = haystack.baseAddress, let k = needle.baseAddress else { return false }
        if !foldASCII { return memcmp(h + offset, k, n) == 0 }
        var i = 0
        while i < n {
            if StringFolding.lowerASCII(h[offset &+ i]) != k[i] { return false }
            i &+= 1
        }
        return true
    }

    static func find(
        _ needle: UnsafeBufferPointer<UInt8>,
        in haystack: UnsafeBufferPointer<UInt8>,
        foldASCII: Bool
    )
        -> Bool
    {
        let n = needle.count
        if n == 0 { return true }
        guard haystack.count >= n, let base = haystack.baseAddress else { return false }
        let last = haystack.count - n
        if !foldASCII {
            // memchr jumps to candidate first bytes; memcmp confirms.
            var start = 0
            let first = Int32(needle[0])
            while start <= last {
                guard let hit = memchr(base + start, first, last - start + 1) else { return false }
                let position = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if equalBytes(haystack, position, needle, false) { return true }
                start = position + 1
            }
            return false
        }
        for position in 0...last where equalBytes(haystack, position, needle, true) { return true }
        return false
    }
}
