import RQLSyntax

/// How FuzzQuery reads its bytes: a header byte, one byte per argument, then the query text.
///
/// | bytes | meaning |
/// |---|---|
/// | `0` | bit 0: the dialect (`Dialect.allCases`); bits 1–2: the class (`classNames`); bits 3–4: how many arguments (0–3) |
/// | `1 ..< 1 + n` | argument `i` is `argumentTexts[byte % argumentTexts.count]` |
/// | the rest | the query, decoded as UTF-8 with replacement |
///
/// Headers `0x40…0x5f` (`@`…`_`) cover every combination and keep seeds readable; the encoder
/// writes argument bytes the same way (`@` is argument 0, `A` argument 1, …).
///
///     QueryInput(bytes: Array("BAage > $0".utf8))
///     // Person, rql, arguments [argumentTexts[1]] ("B" = 0x42: class 1, one argument), "age > $0"
public struct QueryInput: Hashable, Sendable, CustomStringConvertible {
    public var dialect: Dialect
    public var className: String
    /// Indexes into `argumentTexts`, one per `$n`.
    public var argumentIndices: [Int]
    public var text: String

    /// The demo dataset's top-level classes (Address is embedded and cannot be queried).
    public static let classNames = ["Dog", "Person", "DogToy", "DogClub"]

    /// The arguments a query may use, as `ArgumentReader` reads them against the demo dataset: one
    /// of each value type, lists, a link per class with a primary key and a geo region.
    public static let argumentTexts = [
        "2",
        #""Rex""#,
        "null",
        "[1, 2, 3]",
        #"["Chicago", "Boston"]"#,
        "true",
        "2.5",
        #"{"$date": "2020-05-01T12:00:00Z"}"#,
        #"{"$oid": "11223344556677889900aabb"}"#,
        #"{"$decimal": "4.99"}"#,
        #"{"$link": {"class": "DogToy", "key": "11223344556677889900aabb"}}"#,
        #"{"$link": {"class": "Person", "key": 12346}}"#,
        #"{"$geoBox": [[0, 0], [1, 1]]}"#,
        #"{"$uuid": "3b241101-e2bb-4255-8caf-4136c566a962"}"#,
        #"{"$binary": "aGVsbG8="}"#,
        "[]",
    ]

    public init(dialect: Dialect = .rql, className: String = "Dog", argumentIndices: [Int] = [], text: String) {
        self.dialect = dialect
        self.className = className
        self.argumentIndices = argumentIndices
        self.text = text
    }

    /// Reads fuzzer bytes; an empty input is an empty RQL query on Dog.
    public init(bytes: UnsafeRawBufferPointer) {
        guard let header = bytes.first else {
            self.init(text: "")
            return
        }
        let dialects = Dialect.allCases
        let dialect = dialects[Int(header & 1) % dialects.count]
        let className = Self.classNames[Int((header >> 1) & 3)]
        let wanted = Int((header >> 3) & 3)
        let available = min(wanted, bytes.count - 1)
        let indices = (0..<available).map { Int(bytes[1 + $0]) % Self.argumentTexts.count }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(1 + available)...]), as: UTF8.self)
        self.init(dialect: dialect, className: className, argumentIndices: indices, text: text)
    }

    public init(bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { QueryInput(bytes: $0) }
    }

    /// The bytes that read back as this input (for writing seeds); printable ASCII before the text.
    public var bytes: [UInt8] {
        let dialect = Dialect.allCases.firstIndex(of: self.dialect) ?? 0
        let classIndex = Self.classNames.firstIndex(of: className) ?? 0
        precondition(argumentIndices.count <= 3, "at most three arguments")
        let header = UInt8(0x40 | dialect | classIndex << 1 | argumentIndices.count << 3)
        let count = Self.argumentTexts.count
        let arguments = argumentIndices.map { UInt8(0x40 + ((($0 - 0x40) % count) + count) % count) }
        return [header] + arguments + Array(text.utf8)
    }

    public var description: String {
        let arguments = argumentIndices.map { Self.argumentTexts[$0] }
        return "\(dialect.rawValue) \(className) [\(arguments.joined(separator: ", "))] \(text.debugDescription)"
    }
}
