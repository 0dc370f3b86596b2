import RQLCore
import RQLStorage

/// Small deterministic datasets for the optimizer's tests.
enum Fixtures {
    /// 200 people: `id` is the primary key; `age` (0 ... 99, sorted and hash index), `score`
    /// (sorted and hash index) and `city` (hash index only) are indexed; `name` and `nickname`
    /// are not. Every tenth person has a dog, and most have pets among the 20 dogs; `nickname` is
    /// null for every third.
    static let peopleJSON: String = {
        var people: [String] = []
        var dogs: [String] = []
        for i in 0..<200 {
            let age = (i * 37) % 100
            let score = Double((i * 53) % 1000) / 1000
            let name = ["Mari", "Joel", "Anna", "Kato", "Lina"][i % 5] + ["", "an", "ka"][i % 3]
            let city = "City\(i % 20)"
            let nickname = i % 3 == 0 ? "null" : "\"nick\(i % 17)\""
            let tags = (0..<(i % 4)).map { String(($0 + i) % 5) }.joined(separator: ", ")
            var dog = "null"
            if i % 10 == 0 {
                dog = "\(dogs.count)"
                dogs.append(#"{"name": "Rex\#(i)", "age": \#(i % 15)}"#)
            }
            let pets = (0..<(i % 3)).map { String((i / 10 + $0 * 7) % 20) }.joined(separator: ", ")
            people.append(
                #"{"id": \#(i), "age": \#(age), "score": \#(score), "name": "\#(name)", "city": "\#(city)", "active": \#(i % 2 == 0), "nickname": \#(nickname), "tags": [\#(tags)], "dog": \#(dog), "pets": [\#(pets)], "mixed": \#(i % 4 == 0 ? "\"s\(i)\"" : String(i % 7))}"#
            )
        }
        return #"""
            {"schema": {
              "Person": {"primaryKey": "id", "indexed": ["age", "city", "score"],
                "properties": {"id": "int", "age": "int", "score": "double", "name": "string", "city": "string",
                               "active": "bool", "nickname": "string?", "tags": "list<int>", "dog": "Dog?", "pets": "list<Dog>",
                               "mixed": "mixed"}},
              "Dog": {"properties": {"name": "string", "age": "int"}}
            },
            "objects": {"Person": [\#(people.joined(separator: ",\n"))],
                        "Dog": [\#(dogs.joined(separator: ",\n"))]}}
            """#
    }()

    static func people() throws -> OptimizerHarness {
        try OptimizerHarness(json: peopleJSON, className: "Person")
    }
}
