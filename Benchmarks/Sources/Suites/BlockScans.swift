import RQLCore
import RQLStorage

/// The benchmark queries as plain scans over a table's blocks through the typed views
/// (`withBlock`): the access pattern of the VM, written by hand. Used to compare a store read
/// in place from a file with the same store in memory; each returns its match count (Q10: the
/// sum of its ten positions).
enum BlockScans {
    // Columns of the benchmark schema: id, age, score, name, city, active, nickname.
    static let id = 0, age = 1, score = 2, name = 3, city = 4, active = 5, nickname = 6

    static let all: [(String, @Sendable (BlockTable) -> Int)] = [
        ("Q1", { q1($0) }), ("Q2", { q2($0) }), ("Q3", { q3($0) }), ("Q4", { q4($0) }), ("Q5", { q5($0) }),
        ("Q6", { q6($0) }), ("Q7", { q7($0) }), ("Q8", { q8($0) }), ("Q9", { q1($0) }), ("Q10", { q10($0) }),
        ("Q11", { q11($0) }), ("Q12", { q12($0) }),
    ]

    @inline(__always)
    static func ints(_ view: ColumnView) -> UnsafeBufferPointer<Int64> {
        if case .int(let v) = view { return v.values }
        return UnsafeBufferPointer(start: nil, count: 0)
    }

    @inline(__always)
    static func strings(_ view: ColumnView) -> BytesColumnView? {
        if case .string(let v) = view { return v }
        return nil
    }

    static func count(_ table: BlockTable, _ body: (TableBlock) -> Int) -> Int {
        var total = 0
        for b in 0..<table.blockCount { total &+= table.withBlock(b, body) }
        return total
    }

    static func q1(_ table: BlockTable) -> Int {
        count(table) { block in
            var n = 0
            for a in ints(block.columns[age]) where a > 90 { n &+= 1 }
            return n
        }
    }

    static func q2(_ table: BlockTable) -> Int {
        count(table) { block in
            guard case .bool(let flags) = block.columns[active] else { return 0 }
            let ages = ints(block.columns[age])
            var n = 0
            for i in 0..<block.count where ages[i] >= 20 && ages[i] < 30 && flags.values[i] { n &+= 1 }
            return n
        }
    }

    static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: [UInt8]) -> Bool {
        guard bytes.count >= prefix.count else { return false }
        for k in 0..<prefix.count where bytes[k] != prefix[k] { return false }
        return true
    }

    static func q3(_ table: BlockTable) -> Int {
        let prefix = Array("Ma".utf8)
        return count(table) { block in
            guard let names = strings(block.columns[name]) else { return 0 }
            var n = 0
            for i in 0..<block.count where hasPrefix(names.bytes(at: i), prefix) { n &+= 1 }
            return n
        }
    }

    /// ASCII `[c]`: the dataset's names are ASCII.
    static func q4(_ table: BlockTable) -> Int {
        count(table) { block in
            guard let names = strings(block.columns[name]) else { return 0 }
            var n = 0
            for i in 0..<block.count {
                let s = names.bytes(at: i)
                guard s.count >= 2 else { continue }
                for k in 0..<(s.count - 1) where s[k] | 0x20 == 0x61 && s[k + 1] | 0x20 == 0x6E {
                    n &+= 1
                    break
                }
            }
            return n
        }
    }

    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ other: [UInt8]) -> Bool {
        bytes.count == other.count && hasPrefix(bytes, other)
    }

    static func q5(_ table: BlockTable) -> Int {
        let wanted = Array("City42".utf8)
        return count(table) { block in
            guard let cities = strings(block.columns[city]) else { return 0 }
            var n = 0
            for i in 0..<block.count where equals(cities.bytes(at: i), wanted) { n &+= 1 }
            return n
        }
    }

    /// A primary-key lookup, as the planner would run it.
    static func q6(_ table: BlockTable) -> Int {
        table.position(ofPrimaryKey: .int(123_456)) == nil ? 0 : 1
    }

    static func q7(_ table: BlockTable) -> Int {
        let set = ["City1", "City2", "City3"].map { Array($0.utf8) }
        return count(table) { block in
            guard case .double(let scores) = block.columns[score], let cities = strings(block.columns[city]) else {
                return 0
            }
            let ages = ints(block.columns[age])
            var n = 0
            for i in 0..<block.count where scores.values[i] > 0.5 {
                if ages[i] < 10 {
                    n &+= 1
                } else {
                    let c = cities.bytes(at: i)
                    if set.contains(where: { equals(c, $0) }) { n &+= 1 }
                }
            }
            return n
        }
    }

    static func q8(_ table: BlockTable) -> Int {
        count(table) { block in
            guard let nicknames = strings(block.columns[nickname]) else { return 0 }
            var n = 0
            for i in 0..<block.count where nicknames.nulls.isNull(i) { n &+= 1 }
            return n
        }
    }

    /// The ten positions with the highest score among age > 50, summed.
    static func q10(_ table: BlockTable) -> Int {
        var top: [(score: Double, position: Int)] = []
        for b in 0..<table.blockCount {
            table.withBlock(b) { block in
                guard case .double(let scores) = block.columns[score] else { return }
                let ages = ints(block.columns[age])
                for i in 0..<block.count where ages[i] > 50 {
                    let s = scores.values[i]
                    if top.count == 10, let last = top.last, s <= last.score { continue }
                    let at = top.firstIndex { $0.score < s } ?? top.count
                    top.insert((s, block.positions.lowerBound + i), at: at)
                    if top.count > 10 { top.removeLast() }
                }
            }
        }
        return top.reduce(0) { $0 &+ $1.position }
    }

    /// `LIKE '*an?a*'`: "an", any one byte (the names are ASCII), "a".
    static func q11(_ table: BlockTable) -> Int {
        count(table) { block in
            guard let names = strings(block.columns[name]) else { return 0 }
            var n = 0
            for i in 0..<block.count {
                let s = names.bytes(at: i)
                guard s.count >= 4 else { continue }
                for k in 0...(s.count - 4) where s[k] == 0x61 && s[k + 1] == 0x6E && s[k + 3] == 0x61 {
                    n &+= 1
                    break
                }
            }
            return n
        }
    }

    static func q12(_ table: BlockTable) -> Int {
        let prefix = Array("nick1".utf8)
        return count(table) { block in
            guard let nicknames = strings(block.columns[nickname]) else { return 0 }
            let ages = ints(block.columns[age])
            var n = 0
            for i in 0..<block.count where ages[i] >= 30 && ages[i] <= 40 && !nicknames.nulls.isNull(i) {
                if hasPrefix(nicknames.bytes(at: i), prefix) { n &+= 1 }
            }
            return n
        }
    }
}
