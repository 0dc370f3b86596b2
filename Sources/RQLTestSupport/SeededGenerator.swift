import RQLCore
import RQLDatasets
import RQLStorage

/// A small, reproducible pseudo-random source (SplitMix64): the same seed gives the same
/// datasets and queries on every machine, so a failing seed is a fixed test.
///
///     var random = SeededRandom(seed: 42)
///     random.int(below: 10)   // the same number every run
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0 ..< bound` (0 when `bound` is not positive).
    public mutating func int(below bound: Int) -> Int {
        bound > 0 ? Int(next() % UInt64(bound)) : 0
    }

    /// One of `choices`.
    public mutating func pick<T>(_ choices: [T]) -> T {
        choices[int(below: choices.count)]
    }

    public mutating func chance(_ percent: Int) -> Bool {
        int(below: 100) < percent
    }
}

/// Seeded datasets and queries for differential tests: a `Person` class with a primary key,
/// hash- and sorted-indexed properties (so the optimizer picks every access path), nulls, NaN,
/// ±0, empty and non-Latin strings, lists and links; and queries over them in RQL with every
/// comparison, AND/OR/NOT, IN, BETWEEN, SORT, DISTINCT and LIMIT.
///
/// ```swift
/// let store = try SeededGenerator.people(count: 300, seed: 7)
/// var random = SeededRandom(seed: 7)
/// let query = SeededGenerator.query(&random)   // "age BETWEEN {12, 40} AND city == 'Oslo' SORT(score DESC) LIMIT(5)"
/// ```
public enum SeededGenerator {
    static let cities = ["Oslo", "Lima", "Tōkyō", "Zürich", "", "Москва", "東京", "Lima "]
    static let names = ["Ann", "ann", "Bo", "Émile", "Zoë", "", "李", "Ada Lovelace", "x"]

    /// The dataset's JSON (schema and objects). A caller may add properties: `extra` gives
    /// their schema entries and each `Person`'s values (drawn from a generator of its own, so
    /// the fixed properties hold the same values with and without them).
    public static func peopleJSON(count: Int, seed: UInt64, extra: Extension? = nil) -> String {
        var random = SeededRandom(seed: seed)
        var people: [String] = []
        let dogCount = max(1, count / 10)
        for i in 0..<count {
            let age = random.chance(10) ? "null" : String(random.int(below: 100))
            let scores = ["0.5", "-0.0", "0.0", "1e300", "-3.25", "0.125", "99.5", "2.75"]
            let score = random.pick(scores)
            let name = random.pick(names)
            let city = random.chance(10) ? "null" : "\"\(random.pick(cities))\""
            let active = random.chance(50)
            let tags = (0..<random.int(below: 4)).map { _ in String(random.int(below: 6)) }.joined(separator: ", ")
            let dog = random.chance(30) ? "null" : String(random.int(below: dogCount))
            let nickname = random.chance(40) ? "null" : "\"\(random.pick(names))\""
            let mixed = random.pick(["null", "1", "1.0", "-0.0", "\"1\"", "true", "\"Oslo\"", "2.5", "{\"$date\": 0}"])
            people.append(
                #"{"id": \#(i * 3 + 1), "age": \#(age), "score": \#(score), "name": "\#(name)", "city": \#(city), "active": \#(active), "tags": [\#(tags)], "dog": \#(dog), "nickname": \#(nickname), "mixed": \#(mixed)\#(extra?.personValues(i, dogCount) ?? "")}"#
            )
        }
        let dogs = (0..<dogCount).map { i in #"{"name": "Dog\#(i % 7)", "age": \#(i % 15)}"# }
        return #"""
            {"schema": {
              "Person": {"primaryKey": "id", "indexed": ["age", "city", "score"\#(extra?.personIndexed ?? "")],
                "properties": {"id": "int", "age": "int?", "score": "double", "name": "string", "city": "string?",
                               "active": "bool", "tags": "list<int>", "dog": "Dog?",
                               "nickname": "string?", "mixed": "mixed"\#(extra?.personProperties ?? "")}},
              "Dog": {"properties": {"name": "string", "age": "int"\#(extra?.dogProperties ?? "")}}
            },
            "objects": {"Person": [\#(people.joined(separator: ",\n"))], "Dog": [\#(dogs.joined(separator: ",\n"))]}}
            """#
    }

    /// Properties a caller adds to `peopleJSON`'s classes, as dataset-format JSON fragments.
    public struct Extension {
        /// `, "x0": "int?", …`: entries for `Person`'s `properties`.
        public var personProperties: String
        /// `, "x0", …`: names for `Person`'s `indexed`.
        public var personIndexed: String
        /// `, "owners": "linkingObjects<Person.dog>"`: entries for `Dog`'s `properties`.
        public var dogProperties: String
        /// `, "x0": 5, …`: the values of `Person` number `row`, when `dogCount` dogs exist.
        public var personValues: (_ row: Int, _ dogCount: Int) -> String

        public init(
            personProperties: String,
            personIndexed: String,
            dogProperties: String,
            personValues: @escaping (_ row: Int, _ dogCount: Int) -> String
        ) {
            self.personProperties = personProperties
            self.personIndexed = personIndexed
            self.dogProperties = dogProperties
            self.personValues = personValues
        }
    }

    /// The dataset loaded.
    public static func people(count: Int, seed: UInt64) throws -> BlockSnapshot {
        try DatasetLoader.load(json: peopleJSON(count: count, seed: seed))
    }

    /// One query on `Person`, drawn from `random`.
    public static func query(_ random: inout SeededRandom) -> String {
        var text = predicate(&random, depth: 0)
        if random.chance(30) {
            let keys = (0..<(1 + random.int(below: 2))).map { _ in
                random.pick(["age", "score", "name", "city", "id", "dog.age"]) + random.pick([" ASC", " DESC"])
            }
            text += " SORT(\(keys.joined(separator: ", ")))"
        }
        if random.chance(10) { text += " DISTINCT(\(random.pick(["city", "age", "name"])))" }
        if random.chance(30) { text += " LIMIT(\(random.int(below: 12)))" }
        return text
    }

    private static func predicate(_ random: inout SeededRandom, depth: Int) -> String {
        if depth < 2 && random.chance(45) {
            let count = 2 + random.int(below: 2)
            let joiner = random.pick([" AND ", " OR ", " && ", " || "])
            let parts = (0..<count).map { _ in predicate(&random, depth: depth + 1) }
            let text = "(" + parts.joined(separator: joiner) + ")"
            return random.chance(15) ? "NOT " + text : text
        }
        return comparison(&random)
    }

    private static func comparison(_ random: inout SeededRandom) -> String {
        let ops = ["==", "!=", "<", "<=", ">", ">="]
        switch random.int(below: 16) {
        case 0, 1: return "age \(random.pick(ops)) \(random.pick(["0", "17", "50", "99", "null", "-1"]))"
        case 2: return "age BETWEEN {\(random.int(below: 60)), \(random.int(below: 100))}"
        case 3:
            return
                "age IN {\((0..<(1 + random.int(below: 5))).map { _ in String(random.int(below: 100)) }.joined(separator: ", "))}"
        case 4: return "score \(random.pick(ops)) \(random.pick(["0", "-0.0", "0.5", "2.75", "1e300", "-3.25"]))"
        case 5:
            return "city \(random.pick(["==", "!=", "==[c]", "BEGINSWITH", "CONTAINS[c]", "LIKE"])) "
                + random.pick(["'Oslo'", "'lima'", "'Tōkyō'", "''", "null", "'Lim*'", "'東京'"])
        case 6: return "city IN {'Oslo', 'Lima', \(random.pick(["'Zürich'", "null", "'x'"]))}"
        case 7:
            return
                "name \(random.pick(["==", "==[c]", "!=", "BEGINSWITH[c]", "ENDSWITH", ">", "<"])) \(random.pick(["'ann'", "'Ann'", "'É'", "''", "'Zoë'"]))"
        case 8:
            if random.chance(40) { return "id IN {1, 4, 7, \(random.int(below: 400)), 1000}" }
            return "id \(random.pick(["==", "==", "<", ">="])) \(random.int(below: 400))"
        case 9: return "active == \(random.pick(["true", "false"]))"
        case 10: return "\(random.pick(["ANY", "ALL", "NONE"])) tags \(random.pick(ops)) \(random.int(below: 6))"
        case 11: return "dog.age \(random.pick(ops)) \(random.int(below: 15))"
        case 12:
            return "nickname \(random.pick(["==", "!=", "==[c]", "BEGINSWITH[c]"])) "
                + random.pick(["null", "'ann'", "'Zoë'", "''"])
        case 13:
            return
                "mixed \(random.pick(["==", "!=", ">", "<="])) \(random.pick(["1", "'1'", "null", "true", "0", "2.5"]))"
        case 14:
            return "tags.@\(random.pick(["count", "sum", "max", "avg"])) \(random.pick(ops)) \(random.int(below: 6))"
        default:
            return random.pick(["dog == null", "dog != null", "dog.name BEGINSWITH 'Dog1'", "mixed.@type == 'string'"])
        }
    }
}
