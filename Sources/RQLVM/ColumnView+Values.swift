import RQLCore

extension ColumnView {
    /// The value of row `i` of a scalar column, as `TableReader.value(at:property:)` reads it;
    /// nil for links and collections, which other instructions read.
    func scalarValue(at i: Int) -> Value? {
        switch self {
        case .bool(let v): v.nulls.isNull(i) ? .null : .bool(v.values[i])
        case .int(let v): v.nulls.isNull(i) ? .null : .int(v.values[i])
        case .float(let v): v.nulls.isNull(i) ? .null : .float(v.values[i])
        case .double(let v): v.nulls.isNull(i) ? .null : .double(v.values[i])
        case .decimal(let v): v.nulls.isNull(i) ? .null : .decimal(v.values[i])
        case .date(let v): v.nulls.isNull(i) ? .null : .date(v.values[i])
        case .objectId(let v): v.nulls.isNull(i) ? .null : .objectId(v.values[i])
        case .uuid(let v): v.nulls.isNull(i) ? .null : .uuid(v.values[i])
        case .string(let v): v.nulls.isNull(i) ? .null : .string(String(decoding: v.bytes(at: i), as: UTF8.self))
        case .data(let v): v.nulls.isNull(i) ? .null : .data(Array(v.bytes(at: i)))
        case .mixed(let v): v.values[i]
        case .link, .collection: nil
        }
    }
}
