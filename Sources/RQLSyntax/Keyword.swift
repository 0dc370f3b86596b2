/// The words with a meaning of their own, and the `@` words.
///
/// The raw value is the canonical spelling the printer writes. Which spellings of a word count as
/// the keyword depends on the dialect: see `Keyword.lookUp(_:dialect:)` and the keyword rules of
/// `Grammar/RQL.ebnf`.
enum Keyword: String, Sendable, CaseIterable {
    case and = "AND"
    case or = "OR"
    case not = "NOT"
    case any = "ANY"
    case someQuantifier = "SOME"
    case all = "ALL"
    case noneQuantifier = "NONE"
    case `in` = "IN"
    case between = "BETWEEN"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    case like = "LIKE"
    case text = "TEXT"
    case matches = "MATCHES"
    case geoWithin = "GEOWITHIN"
    case truePredicate = "TRUEPREDICATE"
    case falsePredicate = "FALSEPREDICATE"
    case `true` = "true"
    case `false` = "false"
    case yes = "YES"
    case no = "NO"
    case null = "null"
    case nilLiteral = "nil"
    case selfKeyword = "SELF"
    case subquery = "SUBQUERY"
    case sort = "SORT"
    case distinct = "DISTINCT"
    case limit = "LIMIT"
    case asc = "ASC"
    case ascending = "ASCENDING"
    case desc = "DESC"
    case descending = "DESCENDING"
    case bin = "bin"
    case binary = "binary"
    case obj = "obj"
    case geoBox = "geoBox"
    case geoCircle = "geoCircle"
    case geoPolygon = "geoPolygon"
    case first = "FIRST"
    case last = "LAST"
    case size = "SIZE"
    // The '@' words, matched case-sensitively.
    case atCount = "@count"
    case atSize = "@size"
    case atType = "@type"
    case atMin = "@min"
    case atMax = "@max"
    case atSum = "@sum"
    case atAvg = "@avg"
    case atKeys = "@keys"
    case atValues = "@values"
    case atAllKeys = "@allKeys"
    case atAllValues = "@allValues"
    case atLinks = "@links"

    /// Which spellings of a keyword realm-core's lexer accepts.
    private enum CaseRule {
        /// Any mix of cases: `And`, `bEgInSwItH`.
        case anyCase
        /// All lower or all upper case: `not`, `NOT`, but `Not` is a name.
        case lowerOrUpper
        /// Not a keyword in this dialect.
        case absent
    }

    private var rqlRule: CaseRule {
        switch self {
        case .not, .any, .someQuantifier, .all, .noneQuantifier, .in, .true, .false, .first, .last, .size: .lowerOrUpper
        case .yes, .no, .selfKeyword: .absent
        default: .anyCase
        }
    }

    private var nsPredicateRule: CaseRule {
        switch self {
        case .text, .geoWithin, .sort, .distinct, .limit, .asc, .ascending, .desc, .descending, .bin, .binary, .obj,
            .geoBox, .geoCircle, .geoPolygon:
            .absent
        default: .anyCase
        }
    }

    /// Whether the keyword can be the last token of an operand (`true`, `nil`, `SELF`), so that a
    /// sign after it is an operator, as after a name; after `AND` or `IN` a sign starts a number.
    var endsOperand: Bool {
        switch self {
        case .true, .false, .yes, .no, .null, .nilLiteral, .selfKeyword: true
        default: false
        }
    }

    /// Whether a name that spells this keyword can still be used as a property name in RQL, where
    /// the parser expects a name (realm-core's `id` rule). NSPredicate escapes keywords with `#`.
    var isContextual: Bool {
        switch self {
        case .beginsWith, .endsWith, .contains, .like, .matches, .between, .in, .text, .sort, .distinct, .limit, .asc,
            .ascending, .desc, .descending, .bin, .binary, .obj, .first, .last, .size:
            true
        default: false
        }
    }

    /// The keyword that `bytes` spells in `dialect`, or nil for a plain name.
    ///
    /// Words are packed, lower-cased, into two machine words and looked up in a small
    /// open-addressing table with a multiplicative hash: every name in a query goes through here,
    /// so it must cost a few instructions, not a string comparison per keyword or a SipHash.
    static func lookUp(_ bytes: UnsafeBufferPointer<UInt8>, dialect: Dialect) -> Keyword? {
        guard bytes.count >= 2, bytes.count <= 16, let key = PackedWord(bytes), let keyword = table.find(key) else {
            return nil
        }
        if keyword.rawValue.utf8.first == UInt8(ascii: "@") {
            return keyword.rawValue.utf8.elementsEqual(bytes) ? keyword : nil
        }
        switch dialect == .rql ? keyword.rqlRule : keyword.nsPredicateRule {
        case .absent: return nil
        case .anyCase: return keyword
        case .lowerOrUpper:
            // Every byte is an ASCII letter here (these keywords are letters only).
            let allLower = bytes.allSatisfy { $0 >= UInt8(ascii: "a") }
            let allUpper = bytes.allSatisfy { $0 <= UInt8(ascii: "Z") }
            return allLower || allUpper ? keyword : nil
        }
    }

    private static let table = KeywordTable()
}

/// Every keyword's packed spelling, in 128 slots probed linearly from the word's hash.
private struct KeywordTable {
    private static let slotCount = 128
    private var slots: [(key: PackedWord, keyword: Keyword)?]

    init() {
        slots = Array(repeating: nil, count: Self.slotCount)
        for keyword in Keyword.allCases {
            let spelling = Array(keyword.rawValue.utf8)
            guard let key = spelling.withUnsafeBufferPointer(PackedWord.init) else { continue }
            var index = key.slot(in: Self.slotCount)
            while slots[index] != nil { index = (index + 1) % Self.slotCount }
            slots[index] = (key, keyword)
        }
    }

    func find(_ key: PackedWord) -> Keyword? {
        var index = key.slot(in: Self.slotCount)
        while let slot = slots[index] {
            if slot.key == key { return slot.keyword }
            index = (index + 1) % Self.slotCount
        }
        return nil
    }
}

/// Up to 16 ASCII bytes, lower-cased (an `@` word is then compared exactly, since its case matters),
/// packed little-endian into two words.
private struct PackedWord: Equatable {
    var low: UInt64 = 0
    var high: UInt64 = 0
    var count: UInt8

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        count = UInt8(truncatingIfNeeded: bytes.count)
        for (index, byte) in bytes.enumerated() {
            guard byte < 0x80 else { return nil }
            let folded = UInt64(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
            if index < 8 { low |= folded << (8 * UInt64(index)) } else { high |= folded << (8 * UInt64(index - 8)) }
        }
    }

    /// A slot index from a multiplicative hash of both words.
    func slot(in slotCount: Int) -> Int {
        let mixed = (low ^ high &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(count)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> 32) % slotCount
    }
}
