/// Extra properties `x0` … `x5` on `Person`, whose types one seed byte chooses, and a backlink
/// `owners` on `Dog`: the random schema of `FuzzCompile`, `FuzzDifferential` and the VM's
/// generated-schema differential test. The fixed properties stay as they are, so
/// every seed query keeps binding, while the fuzzer reaches any scalar type, optional or not,
/// indexed or not, in a list, set or map, and links to `Dog` in each of those shapes, by
/// mutating one byte and writing `x0` … `x5` (in `Dicts/generated-schema.dict`).
///
///     SchemaExtension(seed: 7).properties.map(\.syntax)   // ["set<uuid?>", "Dog?", "int", …]
public struct SchemaExtension: Sendable {
    /// One generated property: its name, its type in the dataset format, and whether it is indexed.
    public struct GeneratedProperty: Sendable {
        public let name: String
        public let element: ElementType
        public let container: Container
        public let isOptional: Bool
        public let isIndexed: Bool

        public var syntax: String {
            let element = element.keyword + (isOptional && element != .mixed ? "?" : "")
            switch container {
            case .single: return element
            case .list: return "list<\(element)>"
            case .set: return "set<\(element)>"
            case .map: return "map<\(element)>"
            }
        }
    }

    public enum Container: CaseIterable, Sendable { case single, list, set, map }

    /// Every element type a property can have; `dog` is a link to `Dog`.
    public enum ElementType: CaseIterable, Sendable {
        case bool, int, float, double, string, data, date, decimal128, objectId, uuid, mixed, dog

        public var keyword: String { self == .dog ? "Dog" : "\(self)" }

        /// The types a hash index may cover.
        public var isIndexable: Bool { [.bool, .int, .string, .date, .objectId, .uuid].contains(self) }

        /// JSON spellings of distinct values (no two equal under Realm's rules, so a set can take
        /// any of them together); links are drawn separately.
        public var samples: [String] {
            switch self {
            case .bool: ["true", "false"]
            case .int: ["-2", "0", "1", "5"]
            case .float, .double: ["0", "1.5", "-3.25", "\"NaN\"", "\"Infinity\""]
            case .string: [#""""#, #""a""#, #""Oslo""#, #""Zoë""#, #""李""#]
            case .data: [#""""#, #""AA==""#, #""YWJj""#]
            case .date: ["0", "86400", "-3600", #""2020-02-29T12:00:00.5Z""#]
            case .decimal128: [#""1.5""#, #""-7""#, #""1E+3""#, #""0""#]
            case .objectId: [#""000000000000000000000001""#, #""5f1b2c3d4e5f60718293a4b5""#]
            case .uuid: [#""00000000-0000-0000-0000-000000000001""#, #""3b241101-e2bb-4255-8caf-4136c566a962""#]
            case .mixed: ["1", "2.5", #""a""#, "true", #"{"$date": 0}"#, #"{"$decimal": "3"}"#]
            case .dog: []
            }
        }
    }

    public static let propertyCount = 6

    public let properties: [GeneratedProperty]

    public init(seed: UInt8) {
        var random = SeededRandom(seed: 0x5EED_0000 + UInt64(seed))
        properties = (0..<Self.propertyCount).map { index in
            let element = random.pick(ElementType.allCases)
            let container = random.pick(Container.allCases)
            // Realm's rules: a to-one link and a map of links are nullable, a list or set of links is not.
            let isOptional: Bool =
                switch (element, container) {
                case (.dog, .single), (.dog, .map): true
                case (.dog, _): false
                default: random.chance(50)
                }
            let isIndexed = container == .single && element.isIndexable && random.chance(50)
            return GeneratedProperty(
                name: "x\(index)",
                element: element,
                container: container,
                isOptional: isOptional,
                isIndexed: isIndexed
            )
        }
    }

    /// The properties as `SeededGenerator.peopleJSON` adds them; each person's values come from a
    /// generator seeded by its row, apart from the one that draws the fixed properties.
    public var datasetExtension: SeededGenerator.Extension {
        let properties = properties
        return SeededGenerator.Extension(
            personProperties: properties.map { #", "\#($0.name)": "\#($0.syntax)""# }.joined(),
            personIndexed: properties.filter(\.isIndexed).map { #", "\#($0.name)""# }.joined(),
            dogProperties: #", "owners": "linkingObjects<Person.dog>""#,
            personValues: { row, dogCount in
                var random = SeededRandom(seed: 0xE17A_0000 + UInt64(row))
                return properties.map { property in
                    #", "\#(property.name)": \#(Self.value(of: property, &random, dogCount: dogCount))"#
                }.joined()
            }
        )
    }

    private static func value(of property: GeneratedProperty, _ random: inout SeededRandom, dogCount: Int) -> String {
        func element() -> String {
            if property.isOptional && random.chance(20) { return "null" }
            if property.element == .dog { return String(random.int(below: dogCount)) }
            return random.pick(property.element.samples)
        }
        switch property.container {
        case .single:
            return element()
        case .list:
            return "[" + (0..<random.int(below: 4)).map { _ in element() }.joined(separator: ", ") + "]"
        case .set:
            // Distinct elements: the samples are pairwise unequal, and links are distinct positions.
            var chosen: [String] = []
            for _ in 0..<random.int(below: 4) {
                let candidate = element()
                if !chosen.contains(candidate) { chosen.append(candidate) }
            }
            return "[" + chosen.joined(separator: ", ") + "]"
        case .map:
            let entries = (0..<random.int(below: 3)).map { #""k\#($0)": \#(element())"# }
            return "{" + entries.joined(separator: ", ") + "}"
        }
    }
}
