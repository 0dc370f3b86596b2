import RQLCore

/// Primary key → row position. Integer keys get an `Int64` dictionary, and keys that equal
/// their position plus a constant (ids 0, 1, 2, … in insertion order, the common case) need no
/// table at all.
enum PrimaryKeyIndex: Sendable {
    /// Row `p` has key `p + offset`.
    case dense(offset: Int64, count: Int)
    /// Integer keys (a null key, for an optional key, is in `null`).
    case int([Int64: Int], null: Int?)
    /// Any other key type, by Realm equality.
    case general([EqualityKey: Int])

    init(column: Column, rowCount: Int) {
        if case .int(let ints) = column {
            let offset = ints.values.first ?? 0
            var dense = true
            for row in 0..<rowCount where ints.isNull(row) || ints.values[row] != offset &+ Int64(row) {
                dense = false
                break
            }
            if dense {
                self = .dense(offset: offset, count: rowCount)
                return
            }
            var map: [Int64: Int] = [:]
            map.reserveCapacity(rowCount)
            var null: Int?
            for row in 0..<rowCount {
                if ints.isNull(row) { null = row } else { map[ints.values[row]] = row }
            }
            self = .int(map, null: null)
            return
        }
        var map: [EqualityKey: Int] = [:]
        map.reserveCapacity(rowCount)
        for row in 0..<rowCount { map[EqualityKey(column.value(at: row))] = row }
        self = .general(map)
    }

    /// The position of the row whose key equals `key` (numbers by value), or `nil`.
    func position(of key: Value) -> Int? {
        switch self {
        case .dense(let offset, let count):
            guard case .int(let i) = EqualityKey(key).value else { return nil }
            let (position, overflow) = i.subtractingReportingOverflow(offset)
            return !overflow && position >= 0 && position < Int64(count) ? Int(position) : nil
        case .int(let map, let null):
            switch EqualityKey(key).value {
            case .int(let i): return map[i]
            case .null: return null
            default: return nil
            }
        case .general(let map):
            return map[EqualityKey(key)]
        }
    }
}
