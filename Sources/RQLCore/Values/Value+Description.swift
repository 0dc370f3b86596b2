/// Values print close to RQL literal syntax, for diagnostics, test failures and golden files:
/// `null`, `true`, `42`, `1.5`, `1.5f`, `'it\'s'`, `B64"AAE="`, `T1682944200:250000000`,
/// `decimal128(19.99)`, `oid(11223344556677889900aabb)`, `uuid(…)`, `Dog[O3]`, `{1, 'a'}`,
/// `{'k': 1}`.
extension Value: CustomStringConvertible {
    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .float(let f): return "\(f)f"
        case .double(let d): return "\(d)"
        case .string(let s):
            return "'" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        case .data(let d): return "B64\"" + base64(d) + "\""
        case .date(let t): return "T\(t.seconds):\(t.nanoseconds)"
        case .decimal(let d): return "decimal128(\(d))"
        case .objectId(let o): return "oid(\(o.hexString))"
        case .uuid(let u): return "uuid(\(u.canonicalString))"
        case .link(let link): return link.description
        case .list(let items): return "{" + items.map(\.description).joined(separator: ", ") + "}"
        case .map(let map):
            return "{"
                + map.map { Value.string($0.key).description + ": " + $0.value.description }.joined(separator: ", ")
                + "}"
        }
    }
}

private let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

/// Standard base64 with padding; kept here so RQLCore needs no Foundation for printing.
private func base64(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    var i = 0
    while i < bytes.count {
        let b0 = bytes[i]
        let b1 = i + 1 < bytes.count ? bytes[i + 1] : 0
        let b2 = i + 2 < bytes.count ? bytes[i + 2] : 0
        out.append(base64Alphabet[Int(b0 >> 2)])
        out.append(base64Alphabet[Int((b0 & 0x3) << 4 | b1 >> 4)])
        out.append(i + 1 < bytes.count ? base64Alphabet[Int((b1 & 0xF) << 2 | b2 >> 6)] : UInt8(ascii: "="))
        out.append(i + 2 < bytes.count ? base64Alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
        i += 3
    }
    return String(decoding: out, as: UTF8.self)
}
