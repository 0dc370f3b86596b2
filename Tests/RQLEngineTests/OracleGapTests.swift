import RQLCore
import RQLDatasets
import RQLEngine
import RQLIR
import RQLSema
import RQLStorage
import RQLTestSupport
import Testing

/// The areas where the reference evaluator and binder differed from realm-core on its own
/// query tests (issue 7, "close the oracle's gaps"), each in more than one spelling.
@Suite("Oracle gaps closed")
struct OracleGapTests {
    static let dataset = """
        {"schema": {
           "Item": {"primaryKey": "id", "properties": {
             "id": "int", "int": "int", "dbl": "double", "mixed": "mixed", "mixes": "list<mixed>",
             "mixset": "set<mixed>", "dec": "decimal128?", "bin": "data?", "when": "date?",
             "self": "Item?", "others": "list<Item>"}}},
         "objects": {"Item": [
           {"id": 1, "int": 1, "dbl": 1.5, "mixed": 7, "mixes": [1, 2, 3], "mixset": [1, 2.5, "x", true],
            "dec": "3.141592653589793238", "bin": "YWJj", "when": "1969-12-31T23:59:59Z",
            "self": 1, "others": [2, 3]},
           {"id": 2, "int": 2, "dbl": 2.5, "mixed": "seven", "mixes": [1, "two"], "mixset": [0.1, 0.2],
            "dec": "3.141592653589793", "bin": null, "when": "1969-12-31T23:59:58.999999999Z",
            "self": null, "others": []},
           {"id": 3, "int": 3, "dbl": 3.5, "mixed": 7.5, "mixes": [], "mixset": [{"$float": 1.1}, 2.2, "y"],
            "dec": null, "bin": "", "when": null,
            "self": 2, "others": [1]}
         ]}}
        """

    static let store: BlockSnapshot? = try? DatasetLoader.load(json: dataset)

    /// The `id`s of the items that match, in table order.
    func ids(_ query: String, _ arguments: [QueryArgument] = []) throws -> [Int64] {
        let store = try #require(Self.store)
        let compiled = try QueryEngine.reference.compile(query, className: "Item", store: store, arguments: arguments)
        let table = try #require(store.table(named: "Item"))
        return QueryEngine.reference.run(compiled, on: store).compactMap { key in
            guard let position = table.position(of: key), case .int(let id) = table.value(at: position, property: 0)
            else { return nil }
            return id
        }
    }

    func error(_ query: String, _ arguments: [QueryArgument] = []) throws -> QueryError? {
        let store = try #require(Self.store)
        do {
            _ = try QueryEngine.reference.compile(query, className: "Item", store: store, arguments: arguments)
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "@type compares with another @type, through links and lists, with ANY/ALL/NONE",
        arguments: [
            ("mixed.@type == int.@type", [1]),
            ("int.@type == mixed.@type", [1]),
            ("mixed.@type != int.@type", [2, 3]),
            ("mixed.@type == dbl.@type", [3]),
            ("mixed.@type == self.mixed.@type", [1]),
            ("ANY mixes.@type == int.@type", [1, 2]),
            ("ALL mixes.@type == int.@type", [1, 3]),
            ("NONE mixes.@type == int.@type", [3]),
            ("ANY mixes.@type == mixed.@type", [1, 2]),
            ("ANY others.mixed.@type == dbl.@type", [1]),
            ("mixed.@type IN {'int', 'double'}", [1, 3]),
        ] as [(String, [Int64])]
    )
    func typeAgainstType(query: String, expected: [Int64]) throws {
        #expect(try ids(query) == expected)
    }

    @Test("the @type of a property that is not mixed is a constant: comparing it with a name explains why")
    func staticTypeAgainstName() throws {
        let failure = try #require(try error("int.@type == 'int'"))
        #expect(failure.category == "two_constants")
        #expect(!failure.description.contains("Cannot compare two constants"))
        #expect(failure.description.contains("'int.@type' is always 'int'"))
    }

    @Test(
        "@count / @size of a to-one link and of `self` is 0 or 1 (a null link counts 0)",
        arguments: [
            ("self.@count == 1", [1, 3]),
            ("self.@size == 0", [2]),
            ("self[SIZE] == 1", [1, 3]),
            ("self.self.@count == 1", [1]),
            ("int == self.@count", [1]),
            ("others.@count == 2", [1]),
            // Through a to-many link: one total per object (realm-core's `LinkCount`).
            ("others.self.@count == 1", [1, 3]),
            ("others.self.@count == 0", [2]),
        ] as [(String, [Int64])]
    )
    func objectCounts(query: String, expected: [Int64]) throws {
        #expect(try ids(query) == expected)
    }

    @Test("@count of links through a to-many link is one total per object, as realm-core's LinkCount")
    func linkCountsThroughToMany() throws {
        // Item 1: others [2, 3] whose others are [] and [1]: one link in all. Item 3: others [1],
        // whose others are [2, 3]: two.
        #expect(try ids("others.others.@count == 1") == [1])
        #expect(try ids("others.others.@count == 2") == [3])
        #expect(try ids("others.others.@count == 0") == [2])
        // A list of primitives through a to-many link is still counted per owner.
        #expect(try ids("ANY others.mixes.@count == 0") == [1])
        #expect(try ids("ALL others.mixes.@count == 3") == [2, 3])
    }

    @Test(
        "decimal128 literals with more digits than a double compare exactly",
        arguments: [
            ("dec == 3.141592653589793238", [1]),
            ("dec == 3.141592653589793", [2]),
            ("dec > 3.141592653589793", [1]),
            ("dec IN {3.141592653589793238}", [1]),
            ("dec BETWEEN {3.141592653589793238, 4}", [1]),
            ("dec == '3.141592653589793238'", [1]),
            ("dec == 3141592653589793238e-18", [1]),
            ("dec < 99999999999999999999", [1, 2]),
            ("dec > -99999999999999999999.000000000001", [1, 2]),
        ] as [(String, [Int64])]
    )
    func preciseDecimals(query: String, expected: [Int64]) throws {
        #expect(try ids(query) == expected)
    }

    @Test("a long literal is still the nearest double against a double property")
    func preciseLiteralAgainstDouble() throws {
        #expect(try ids("dbl == 1.5000000000000000000001") == [1])
    }

    @Test(
        "dates before 1970 with a fraction: seconds and nanoseconds carry the same sign, in both forms",
        arguments: [
            ("when == 1969-12-31@23:59:59:0", [1]),
            ("when == 1969-12-31T23:59:59", [1]),
            ("when == T-1:-1", [2]),
            ("when == 1969-12-31@23:59:59:1", [2]),
            ("when == 1969-12-31T23:59:59:1", [2]),
            ("when < 1969-12-31@23:59:59:0", [2]),
        ] as [(String, [Int64])]
    )
    func datesBefore1970(query: String, expected: [Int64]) throws {
        #expect(try ids(query) == expected)
    }

    @Test(
        "@sum / @avg over sets and lists of mixed values add numbers of every type; non-numbers are ignored",
        arguments: [
            ("mixset.@sum == 3.5", [1]),
            ("mixset.@sum == 0.3", [2]),
            ("mixset.@sum == 3.3", [3]),
            ("mixset.@avg == 1.75", [1]),
            ("mixes.@sum == 6", [1]),
            ("mixes.@sum == 1", [2]),
            ("mixes.@sum == 0", [3]),
            ("mixes.@avg == 2", [1]),
            ("mixes.@avg == NULL", [3]),
            ("others.mixes.@sum == 6", [3]),
        ] as [(String, [Int64])]
    )
    func mixedAggregates(query: String, expected: [Int64]) throws {
        #expect(try ids(query) == expected)
    }

    @Test("an argument whose type cannot be compared with a binary property is a type error")
    func binaryArgument() throws {
        for argument in [Value.int(5), .double(1.5), .bool(true), .date(Timestamp.epoch)] {
            let failure = try #require(try error("bin == $0", [.value(argument)]))
            #expect(failure.category == "type_mismatch", "\(argument)")
        }
        for argument in [Value.string("abc"), .data([0x61, 0x62, 0x63])] {
            #expect(try ids("bin == $0", [.value(argument)]) == [1])
        }
        #expect(try ids("bin == $0", [.value(.null)]) == [2])
    }

    @Test("realm-core: a list argument holding a value that cannot be compared with a binary property is a type error")
    func binaryListArgument() throws {
        for query in ["bin == $0", "bin IN $0", "others.bin == $0"] {
            let failure = try #require(try error(query, [.list([.data([0x61, 0x62, 0x63]), .int(5)])]), "\(query)")
            #expect(failure.category == "type_mismatch", "\(query)")
        }
        #expect(try ids("bin IN $0", [.list([.string("abc"), .data([])])]) == [1, 3])
        #expect(try ids("bin IN $0", [.list([.null])]) == [2])
    }

    @Test("obj('class_Name', key) names the class Name, as realm-core's table names do")
    func classPrefixedObjectLiteral() throws {
        #expect(try ids("self == obj('class_Item', 1)") == [1])
        #expect(try ids("self == obj('Item', 2)") == [3])
        #expect(try ids("ANY others == obj(\"class_Item\", 3)") == [1])
        #expect(try error("self == obj('class_Nope', 1)")?.category == "unknown_class")
        // In a list too; a key no object has is a null link, which matches the null `self` of 2.
        #expect(try ids("self IN {obj('class_Item', 1), obj('Item', 2)}") == [1, 3])
        #expect(try ids("self IN {obj('Item', 1), obj('Item', 99)}") == [1, 2])
    }
}
