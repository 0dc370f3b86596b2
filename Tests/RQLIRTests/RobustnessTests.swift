import RQLCore
import RQLDatasets
import RQLIR
import RQLStorage
import Testing

/// The oracle must never trap on data: every property of every demo class, every operator,
/// every quantifier, and deliberately broken IR.
@Suite("Reference evaluator: robustness")
struct RobustnessTests {
    static let constants: [Value] = [
        .null, .bool(true), .int(3), .double(2.5), .string("Chicago"), .data([1, 2]), .list([.int(1)]),
    ]

    @Test("Every property × operator × quantifier evaluates, and the verifier accepts every path")
    func everything() throws {
        let store = try DemoDataset.load()
        let verifier = IRVerifier(schema: store.schema)
        for objectSchema in store.schema.classes where !objectSchema.isEmbedded {
            let h = Harness(store: store, className: objectSchema.name)
            for property in objectSchema.properties {
                let path = h.path(property.name)
                for op in ComparisonOperator.allCases where !op.isLowered {
                    for constant in Self.constants {
                        let quantifiers: [Quantifier?] =
                            path.isMultiValued ? [nil, .any, .all, Quantifier.none] : [nil]
                        for quantifier in quantifiers {
                            let operand = BoundOperand(
                                .path(path),
                                quantifier: quantifier,
                                isMultiValued: path.isMultiValued
                            )
                            let query = h.query(h.cmp(operand, op, h.const(constant), [.caseInsensitive]))
                            #expect(verifier.verify(query) == [])
                            _ = h.evaluator.run(query)
                        }
                    }
                }
                let clauses: [BoundClause] =
                    path.isMultiValued ? [] : [.sort([BoundSortKey(path: path, ascending: false)]), .distinct([path])]
                _ = h.evaluator.run(h.query(.constant(true), clauses))
                _ = h.evaluator.run(h.query(h.cmp(h.operand(.count(path)), .greater, h.const(.int(1)))))
                _ = h.evaluator.run(h.query(h.cmp(h.operand(.aggregate(.max, path)), .greater, h.const(.int(1)))))
            }
        }
    }

    @Test("Broken IR reaches nothing instead of trapping")
    func brokenIR() throws {
        let h = Harness(store: try DemoDataset.load(), className: "Dog")
        let broken = BoundPath(
            root: .element(depth: 3),
            steps: [.property(className: "Dog", index: 999, name: "nope"), .index(-1), .key("k"), .keys],
            isMultiValued: false,
            rootClassName: "Dog",
            valueType: .int
        )
        #expect(h.count(h.cmp(h.operand(.path(broken)), .equal, h.const(.null))) == 0)
        let wrongIndex = BoundPath(
            steps: [.property(className: "Dog", index: 999, name: "nope")],
            isMultiValued: false,
            rootClassName: "Dog",
            valueType: .int
        )
        #expect(h.count(h.cmp(h.operand(.path(wrongIndex)), .equal, h.const(.null))) == 0)
        #expect(h.evaluator.run(BoundQuery(className: "Nope", predicate: .constant(true))) == [])
        #expect(!h.evaluator.matches(h.query(.constant(true)), position: -1))
        let negativeIndex = h.path("citiesVisited")
        let p = BoundPath(
            steps: negativeIndex.steps + [.index(-2)],
            isMultiValued: false,
            rootClassName: "Dog",
            valueType: .string
        )
        #expect(h.count(h.cmp(h.operand(.path(p)), .equal, h.const(.string("x")))) == 0)
    }

    @Test("IN, TEXT and MATCHES left in a bound comparison are reported by the verifier and hold for nothing")
    func loweredOperators() throws {
        let store = try DemoDataset.load()
        let h = Harness(store: store, className: "Dog")
        let verifier = IRVerifier(schema: store.schema)
        for op in ComparisonOperator.allCases where op.isLowered {
            let query = h.query(h.cmp("name", op, .string("Rex")))
            #expect(verifier.verify(query) == ["\(op.rawValue) in a bound comparison (the binder lowers it)"])
            #expect(h.evaluator.run(query) == [])
        }
        // The same comparison with `==` does hold for some dog, so the empty answers above are the
        // operator's doing.
        #expect(h.evaluator.run(h.query(h.cmp("name", .equal, .string("Rex")))) != [])
    }
}
