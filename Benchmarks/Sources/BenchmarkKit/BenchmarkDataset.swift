/// The `Person` rows of the benchmark dataset contract (`spec/bench-dataset.md`), generated
/// bit for bit, in plain column arrays: what a hand-written loop scans and what every engine
/// under test must load identically.
///
///     let people = BenchmarkDataset(rows: 1_000_000, seed: 42)
///     people.age[0], people.name.string(at: 0)
///
/// Drawing order per row is part of the contract: age, score, name (count, then each
/// syllable), city, active, nickname.
public struct BenchmarkDataset: Sendable {
    /// The 32 name syllables, in the contract's order.
    public static let syllables: [StaticString] = [
        "ma", "ri", "an", "jo", "el", "la", "se", "to", "ka", "mi", "no", "ra", "li", "de", "sa", "ne",
        "ko", "ta", "vi", "lo", "be", "na", "ha", "ru", "da", "mo", "si", "pe", "fa", "ge", "wi", "zu",
    ]

    public let rows: Int
    public let seed: UInt64
    /// `id` = row number, the primary key.
    public let id: [Int64]
    /// `age` in 0 ..< 100.
    public let age: [Int64]
    /// `score` in [0, 1), 53 random bits.
    public let score: [Double]
    /// `name`: 2 or 3 syllables, first letter upper-cased ("Mari", "Joelka").
    public let name: StringColumnBuffer
    /// `city`: "City0" … "City99".
    public let city: StringColumnBuffer
    /// `active`.
    public let active: [Bool]
    /// `nickname`, optional: null for 30 % of rows, else "nick0" … "nick999".
    public let nickname: StringColumnBuffer

    public init(rows: Int, seed: UInt64 = 42) {
        var random = SplitMix64(seed: seed)
        var id = [Int64]()
        var age = [Int64]()
        var score = [Double]()
        var active = [Bool]()
        id.reserveCapacity(rows)
        age.reserveCapacity(rows)
        score.reserveCapacity(rows)
        active.reserveCapacity(rows)
        var name = StringColumnBuffer(reservingRows: rows, bytesPerRow: 6)
        var city = StringColumnBuffer(reservingRows: rows, bytesPerRow: 6)
        var nickname = StringColumnBuffer(optional: true, reservingRows: rows, bytesPerRow: 6)
        let syllables = BenchmarkDataset.syllables
        for i in 0..<rows {
            id.append(Int64(i))
            age.append(Int64(random.next() % 100))
            score.append(Double(random.next() >> 11) * 0x1p-53)

            let syllableCount = 2 + random.next() % 2
            for s in 0..<syllableCount {
                syllables[Int(random.next() % 32)].withUTF8Buffer { syllable in
                    // Upper-case the first letter: every syllable is lower-case ASCII.
                    name.appendByte(s == 0 ? syllable[0] &- 0x20 : syllable[0])
                    name.appendByte(syllable[1])
                }
            }
            name.endRow()

            city.appendBytes("City")
            city.appendDecimal(random.next() % 100)
            city.endRow()

            active.append(random.next() & 1 == 1)

            let r = random.next()
            if r % 10 < 3 {
                nickname.appendNull()
            } else {
                nickname.appendBytes("nick")
                nickname.appendDecimal((r / 10) % 1000)
                nickname.endRow()
            }
        }
        self.rows = rows
        self.seed = seed
        self.id = id
        self.age = age
        self.score = score
        self.name = name
        self.city = city
        self.active = active
        self.nickname = nickname
    }
}
