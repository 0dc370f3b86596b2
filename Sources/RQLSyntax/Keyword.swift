/// The words with a meaning of their own, and the `@` words.
///
/// The raw value is the canonical spelling the printer writes. Which spellings of a word count as
/// the keyword depends on the dialect: see `Keyword.lookUp(_:dialect:)` and the keyword rules of
/// `Grammar/RQL.ebnf`.
enum Keyword: String, Sendable, CaseIterable {
    case and = "AND", or = "OR", not = "NOT"
    case any = "ANY", someQuantifier = "SOME", all = "ALL", noneQuantifier = "NONE"
    case `in` = "IN", between = "BETWEEN"
    case beginsWith = "BEGINSWITH", endsWith = "ENDSWITH", contains = "CONTAINS", like = "LIKE"
    case text = "TEXT", matches = "MATCHES", geoWithin = "GEOWITHIN"
    case truePredicate = "TRUEPREDICATE", falsePredicate = "FALSEPREDICATE"
    case `true` = "true", `false` = "false", yes = "YES", no = "NO", null = "null", nilLiteral = "nil"
    case selfKeyword = "SELF", subquery = "SUBQUERY"
    case sort = "SORT", distinct = "DISTINCT", limit = "LIMIT"
    case asc = "ASC", ascending = "ASCENDING", desc = "DESC", descending = "DESCENDING"
    case bin = "bin", binary = "binary", obj = "obj"
    case geoBox = "geoBox", geoCircle = "geoCircle", geoPolygon = "geoPolygon"
    case first = "FIRST", last = "LAST", size = "SIZE"
    // The '@' words, matched case-sensitively.
    case atCount = "@count", atSize = "@size", atType = "@type"
    case atMin = "@min", atMax = "@max", atSum = "@sum", atAvg = "@avg"
    case atKeys = "@keys", atValues = "@values", atAllKeys = "@allKeys", atAllValues = "@allValues"
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
        case .matches, .yes, .no, .selfKeyword: .absent
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

    /// Whether a name that spells this keyword can still be used as a property name in RQL, where
    /// the parser expects a name (realm-core's `id` rule). NSPredicate escapes keywords with `#`.
    var isContextual: Bool {
        switch self {
        case .beginsWith, .endsWith, .contains, .like, .between, .in, .text, .sort, .distinct, .limit, .asc, .ascending,
            .desc, .descending, .bin, .binary, .obj, .first, .last, .size:
            true
        default: false
        }
    }

    /// The keyword that `bytes` spells in `dialect`, or nil for a plain name.
    ///
    /// Words are packed, lower-cased, into two machine words and looked up in one table, so a name
    /// costs a hash lookup rather than a string comparison per keyword.
    static func lookUp(_ bytes: UnsafeBufferPointer<UInt8>, dialect: Dialect) -> Keyword? {
        guard bytes.count >= 2, bytes.count <= 16, let key = PackedWord(bytes), let keyword = table[key] else {
            return nil
        }
        if keyword.rawValue.utf8.first == UInt8(ascii: "@") {
            return keyword.rawValue.utf8.elementsEqual(bytes) ? keyword : nil
        }
        switch dialect == .rql ? keyword.rqlRule : keyword.nsPredicateRule {
        case .absent: return nil
        case .anyCase: return keyword
        case .lowerOrUpper:
            let letters = bytes.filter { $0 >= UInt8(ascii: "A") }
            let allLower = letters.allSatisfy { $0 >= UInt8(ascii: "a") }
            let allUpper = letters.allSatisfy { $0 <= UInt8(ascii: "Z") }
            return allLower || allUpper ? keyword : nil
        }
    }

    private static let table: [PackedWord: Keyword] = {
        var table: [PackedWord: Keyword] = [:]
        for keyword in Keyword.allCases {
            var spelling = Array(keyword.rawValue.utf8)
            spelling.withUnsafeMutableBufferPointer { buffer in
                if let key = PackedWord(UnsafeBufferPointer(buffer)) { table[key] = keyword }
            }
        }
        return table
    }()
}

/// Up to 16 ASCII bytes, lower-cased (except after an '@', where case matters and is checked
/// separately), packed little-endian into two words.
private struct PackedWord: Hashable {
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
}
