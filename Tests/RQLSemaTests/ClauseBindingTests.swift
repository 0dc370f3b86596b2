import RQLCore
import RQLIR
import RQLSema
import RQLSyntax
import Testing

@Suite("Binder: SORT, DISTINCT, LIMIT")
struct ClauseBindingTests {
    typealias T = TestSchema

    func path(_ steps: [PathStep], _ type: PropertyType) -> BoundPath {
        BoundPath(steps: steps, isMultiValued: false, rootClassName: "Dog", valueType: type)
    }

    @Test("clauses keep their order; consecutive SORTs merge with the later one first")
    func order() throws {
        let query = try T.bind("TRUEPREDICATE SORT(age ASC) SORT(owner.name DESC) DISTINCT(name) LIMIT(3)")
        #expect(
            query.clauses == [
                .sort([
                    BoundSortKey(
                        path: path([T.step("Dog", "owner"), T.step("Person", "name")], .string),
                        ascending: false
                    ),
                    BoundSortKey(path: path([T.step("Dog", "age")], .int), ascending: true),
                ]),
                .distinct([path([T.step("Dog", "name")], .string)]),
                .limit(3),
            ]
        )
    }

    @Test("a dictionary value by key is a valid sort key")
    func dictionaryKey() throws {
        let query = try T.bind("TRUEPREDICATE SORT(meta['a'] ASC)")
        #expect(
            query.clauses == [
                .sort([BoundSortKey(path: path([T.step("Dog", "meta"), .key("a")], .int), ascending: true)])
            ]
        )
    }

    @Test(
        "bad keys",
        arguments: [
            ("TRUEPREDICATE SORT(toys.name ASC)", BindError.Kind.invalidSortKey),
            ("TRUEPREDICATE SORT(scores ASC)", .invalidSortKey),
            ("TRUEPREDICATE DISTINCT(owner)", .invalidSortKey),
            ("TRUEPREDICATE DISTINCT(balance)", .unknownProperty),
            ("TRUEPREDICATE SORT(owner.balance ASC)", .unknownProperty),
        ]
    )
    func badKeys(query: String, kind: BindError.Kind) throws {
        #expect(try T.bindError(query)?.kind == kind)
    }
}
