/// A string as a set member or dictionary key, equal only to the same UTF-8 bytes, as realm-core
/// compares names, map keys and JSON member names. Swift's `String` equality is canonical
/// equivalence instead: "café" written with a precomposed "é" (NFC) and with "e" and a combining
/// accent (NFD) are one `String` but two names here, as they are in a Realm file.
///
/// ```swift
/// UTF8Key("caf\u{E9}") == UTF8Key("cafe\u{301}")   // false
/// "caf\u{E9}" == "cafe\u{301}"                     // true
/// ```
public struct UTF8Key: Hashable, Sendable {
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    public static func == (lhs: UTF8Key, rhs: UTF8Key) -> Bool {
        // Native strings compare their buffers; the generic byte-by-byte walk over two UTF-8
        // views was a tenth of every managed collection write, which looks up its class by name.
        let compared = lhs.text.utf8.withContiguousStorageIfAvailable { a in
            rhs.text.utf8.withContiguousStorageIfAvailable { b in a.count == b.count && compareBytes(a, b) == 0 }
        }
        if let compared, let equal = compared { return equal }
        return lhs.text.utf8.elementsEqual(rhs.text.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        let hashed = text.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil {
            for byte in text.utf8 { hasher.combine(byte) }
        }
    }
}
