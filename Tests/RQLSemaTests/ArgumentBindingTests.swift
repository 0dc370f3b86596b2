import RQLCore
import RQLIR
import RQLSema
import RQLSyntax
import Testing

@Suite("Binder: arguments and dialects")
struct ArgumentBindingTests {
    typealias T = TestSchema

    @Test("$n arguments are substituted and converted like literals")
    func positional() throws {
        #expect(try T.comparison("age > $0", [.value(.double(2))])?.rhs.expression == .constant(.int(2)))
        #expect(
            try T.comparison("age > $1", [.value(.null), .value(.string("3"))])?.rhs.expression == .constant(.int(3))
        )
    }

    @Test("a null argument is the NULL constant")
    func nullArgument() throws {
        #expect(try T.comparison("name == $0", [.value(.null)])?.rhs.expression == .constant(.null))
    }

    @Test("a list argument is a multi-valued constant")
    func listArgument() throws {
        let comparison = try #require(try T.comparison("age IN $0", [.list([.int(1), .string("2")])]))
        #expect(comparison.rhs == BoundOperand(.constantList([.int(1), .int(2)]), isMultiValued: true))
        #expect(try T.comparison("age > $0", [.list([.int(1)])])?.rhs.isMultiValued == true)
    }

    @Test("NSPredicate placeholders are numbered in order of appearance")
    func placeholders() throws {
        let query = try T.bind(
            "age > %@ AND name BEGINSWITH[cd] %@",
            [.value(.int(1)), .value(.string("r"))],
            dialect: .nsPredicate
        )
        guard case .and(let parts) = query.predicate, case .comparison(let age) = parts[0],
            case .comparison(let name) = parts[1]
        else {
            Issue.record("expected two comparisons")
            return
        }
        #expect(age.rhs.expression == .constant(.int(1)))
        #expect(name.rhs.expression == .constant(.string("r")))
        #expect(name.options == [.caseInsensitive, .diacriticInsensitive])
    }

    @Test("%K substitutes a key path given as a string")
    func keyPathArgument() throws {
        let query = try T.bind(
            "%K == %@",
            [.value(.string("owner.name")), .value(.string("x"))],
            dialect: .nsPredicate
        )
        guard case .comparison(let comparison) = query.predicate, case .path(let path) = comparison.lhs.expression
        else {
            Issue.record("expected a path")
            return
        }
        #expect(path.steps == [T.step("Dog", "owner"), T.step("Person", "name")])
        #expect(try T.bindError("%K == 1", [.value(.int(3))], dialect: .nsPredicate)?.kind == .argumentTypeMismatch)
        #expect(try T.bindError("%K == 1", [.value(.null)], dialect: .nsPredicate)?.kind == .argumentTypeMismatch)
    }

    @Test("$name variables come from the variables table")
    func variables() throws {
        let query = try T.bind("age > $minimum", dialect: .nsPredicate, variables: ["minimum": .value(.int(3))])
        guard case .comparison(let comparison) = query.predicate else {
            Issue.record("expected a comparison")
            return
        }
        #expect(comparison.rhs.expression == .constant(.int(3)))
        #expect(try T.bindError("age > $minimum", dialect: .nsPredicate)?.kind == .missingArgument)
    }

    @Test("a subscript argument is a position or a key")
    func subscriptArguments() throws {
        let position = try #require(try T.comparison("scores[$0] == 1", [.value(.int(1))]))
        guard case .path(let path) = position.lhs.expression else {
            Issue.record("expected a path")
            return
        }
        #expect(path.steps == [T.step("Dog", "scores"), .index(1)])
        let key = try #require(try T.comparison("meta[$0] == 1", [.value(.string("k"))]))
        guard case .path(let keyPath) = key.lhs.expression else {
            Issue.record("expected a path")
            return
        }
        #expect(keyPath.steps == [T.step("Dog", "meta"), .key("k")])
        #expect(try T.bindError("meta[$0] == 1", [.value(.bool(true))])?.kind == .argumentTypeMismatch)
    }

    @Test("decoded arguments: arrays are lists, $geo objects are regions")
    func decoding() {
        #expect(QueryArgument(decoding: .list([.int(1)])) == .list([.int(1)]))
        let box = Value.map(MixedMap(["$geoBox": .list([.list([.int(0), .int(0)]), .list([.double(1), .int(1)])])]))
        #expect(
            QueryArgument(decoding: box)
                == .geo(
                    .box(bottomLeft: GeoPoint(longitude: 0, latitude: 0), topRight: GeoPoint(longitude: 1, latitude: 1))
                )
        )
        #expect(QueryArgument(decoding: .int(3)) == .value(.int(3)))
    }
}
