import Foundation

/// One value of any Realm type, as stored in a mixed (`AnyRealmValue`) property, read from a
/// column, or written as a query constant.
///
/// `==` and `hashValue` are *structural identity* (`.int(1) != .double(1)`, NaN equals NaN), fit
/// for dictionaries, sets and test expectations. Realm's comparison rules (numbers by value
/// across types, null rules, string operators) are in `ValueComparison`; the order used by
/// SORT and DISTINCT is `ValueOrdering`.
///
/// ```swift
/// let v: Value = .list([.int(1), .string("two"), .map(MixedMap(["k": .bool(true)]))])
/// ValueComparison.equals(.int(1), .double(1.0))  // true
/// v == .list([.int(1), .string("two"), .map(MixedMap(["k": .bool(true)]))])  // true
/// ```
public enum Value: Sendable {
    /// No value (Realm `null`/`nil`).
    case null
    /// A boolean.
    case bool(Bool)
    /// A 64-bit signed integer (`int`).
    case int(Int64)
    /// A 32-bit binary float (`float`).
    case float(Float)
    /// A 64-bit binary double (`double`).
    case double(Double)
    /// A UTF-8 string (`string`).
    case string(String)
    /// Raw bytes (`data` / binary).
    case data([UInt8])
    /// An instant with nanosecond precision (`date`).
    case date(Timestamp)
    /// An IEEE decimal128 number (`decimal128`).
    case decimal(Decimal128)
    /// A 12-byte ObjectId (`objectId`).
    case objectId(ObjectId)
    /// A UUID (`uuid`); ordered by its bytes.
    case uuid(UUID)
    /// A link to an object: class name and row key.
    case link(ObjectLink)
    /// A nested list inside a mixed value (also how collection properties read as one value).
    indirect case list([Value])
    /// A nested string-keyed map inside a mixed value, entries in key order.
    indirect case map(MixedMap)
}

/// The type of a `Value`, in the order of Realm's cross-type sorting rank where it matters.
public enum ValueKind: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// `Value.null`
    case null
    /// `Value.bool`
    case bool
    /// `Value.int`
    case int
    /// `Value.float`
    case float
    /// `Value.double`
    case double
    /// `Value.decimal`
    case decimal
    /// `Value.string`
    case string
    /// `Value.data`
    case data
    /// `Value.date`
    case date
    /// `Value.objectId`
    case objectId
    /// `Value.uuid`
    case uuid
    /// `Value.link`
    case link
    /// `Value.list`
    case list
    /// `Value.map`
    case map

    /// Realm's name for the type, as `@type` and error messages spell it.
    public var description: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .double: "double"
        case .decimal: "decimal"
        case .string: "string"
        case .data: "binary"
        case .date: "date"
        case .objectId: "objectId"
        case .uuid: "uuid"
        case .link: "link"
        case .list: "list"
        case .map: "dictionary"
        }
    }

    /// Whether values of this kind compare with each other by numeric value.
    public var isNumeric: Bool {
        switch self {
        case .int, .float, .double, .decimal: true
        default: false
        }
    }
}

extension Value {
    /// The value's type.
    public var kind: ValueKind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .int: .int
        case .float: .float
        case .double: .double
        case .string: .string
        case .data: .data
        case .date: .date
        case .decimal: .decimal
        case .objectId: .objectId
        case .uuid: .uuid
        case .link: .link
        case .list: .list
        case .map: .map
        }
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Reads a UUID in the canonical 36-character form (hex digits in either case).
    ///
    /// ```swift
    /// try Value.parseUUID("3b241101-e2bb-4255-8caf-4136c566a962")
    /// ```
    public static func parseUUID(_ text: String) throws(ValueParseError) -> UUID {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { throw .invalidUUID(text) }
        for (i, byte) in utf8.enumerated() {
            let isDash = i == 8 || i == 13 || i == 18 || i == 23
            guard isDash ? byte == UInt8(ascii: "-") : hexDigitValue(byte) != nil else { throw .invalidUUID(text) }
        }
        guard let uuid = UUID(uuidString: text) else { throw .invalidUUID(text) }
        return uuid
    }
}

extension UUID {
    /// The 16 bytes in order; UUIDs sort by these bytes.
    public var byteArray: [UInt8] {
        withUnsafeBytes(of: uuid) { Array($0) }
    }

    /// The canonical lower-case 36-character form (Foundation's `uuidString` is upper-case).
    public var canonicalString: String { uuidString.lowercased() }
}

extension Value: Hashable {
    public static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.float(let a), .float(let b)): a == b || (a.isNaN && b.isNaN)
        case (.double(let a), .double(let b)): a == b || (a.isNaN && b.isNaN)
        case (.string(let a), .string(let b)): sameBytes(a, b)
        case (.data(let a), .data(let b)): a == b
        case (.date(let a), .date(let b)): a == b
        case (.decimal(let a), .decimal(let b)): a == b
        case (.objectId(let a), .objectId(let b)): a == b
        case (.uuid(let a), .uuid(let b)): a == b
        case (.link(let a), .link(let b)): a == b
        case (.list(let a), .list(let b)): a == b
        case (.map(let a), .map(let b)): a == b
        default: false
        }
    }

    /// Whether two strings have the same UTF-8 bytes: lengths first, then one `memcmp`, rather
    /// than a walk of both UTF-8 views (set and dictionary look-ups compare strings this way).
    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                guard let p = x.baseAddress, let q = y.baseAddress, p != q else { return true }
                return memcmp(p, q, x.count) == 0
            }
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        switch self {
        case .null: break
        case .bool(let v): hasher.combine(v)
        case .int(let v): hasher.combine(v)
        case .float(let v): hasher.combine(v.isNaN ? Float.nan.bitPattern : (v == 0 ? 0 : v.bitPattern))
        case .double(let v): hasher.combine(v.isNaN ? Double.nan.bitPattern : (v == 0 ? 0 : v.bitPattern))
        // Swift's String == is canonical equivalence; Realm strings are bytes, so hash bytes,
        // in one call rather than one a byte (IN lists and `Set<Value>` hash every string);
        // the length ends the run so that a list's strings cannot run into each other.
        case .string(let v):
            var v = v
            v.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            hasher.combine(v.utf8.count)
        case .data(let v): hasher.combine(v)
        case .date(let v): hasher.combine(v)
        case .decimal(let v): hasher.combine(v)
        case .objectId(let v): hasher.combine(v)
        case .uuid(let v): hasher.combine(v)
        case .link(let v): hasher.combine(v)
        case .list(let v): hasher.combine(v)
        case .map(let v): hasher.combine(v)
        }
    }
}
