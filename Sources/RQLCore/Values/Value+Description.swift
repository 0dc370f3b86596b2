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
        case .data(let d): return "B64\"" + Base64.encode(d) + "\""
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
