import RQLCore

/// The values of one property for every row of a table, for building a store column by column
/// (benchmarks, generators, plain-value queries) without going through JSON or per-row `Value`s.
public enum ColumnValues: Sendable {
    /// `bool` values; `nulls[i]` marks row `i` null (optional properties only).
    case bool([Bool], nulls: [Bool]? = nil)
    /// `int` values; `nulls[i]` marks row `i` null.
    case int([Int64], nulls: [Bool]? = nil)
    /// `float` values; `nulls[i]` marks row `i` null.
    case float([Float], nulls: [Bool]? = nil)
    /// `double` values; `nulls[i]` marks row `i` null.
    case double([Double], nulls: [Bool]? = nil)
    /// `string` values; `nil` is null.
    case string([String?])
    /// Any property, one `Value` per row (links as `.link` with the targets' row keys).
    case values([Value])

    var count: Int {
        switch self {
        case .bool(let v, _): v.count
        case .int(let v, _): v.count
        case .float(let v, _): v.count
        case .double(let v, _): v.count
        case .string(let v): v.count
        case .values(let v): v.count
        }
    }

    /// Row `row` as a `Value`.
    func value(at row: Int) -> Value {
        func fixed<T>(_ values: [T], _ nulls: [Bool]?, _ make: (T) -> Value) -> Value {
            nulls?[row] == true ? .null : make(values[row])
        }
        switch self {
        case .bool(let v, let nulls): return fixed(v, nulls) { .bool($0) }
        case .int(let v, let nulls): return fixed(v, nulls) { .int($0) }
        case .float(let v, let nulls): return fixed(v, nulls) { .float($0) }
        case .double(let v, let nulls): return fixed(v, nulls) { .double($0) }
        case .string(let v): return v[row].map { .string($0) } ?? .null
        case .values(let v): return v[row]
        }
    }
}
