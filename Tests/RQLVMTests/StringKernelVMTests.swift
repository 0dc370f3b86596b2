import RQLCore
import RQLEngine
import RQLIR
import RQLStorage
import RQLVM
import Testing

/// The string kernels' fast paths (a word at a time, ASCII folding with a fallback to full
/// folding) against the reference evaluator, on the values where they could go wrong:
/// non-ASCII text and folding that changes lengths (ß, Turkish İ/ı, combining marks, ΐ),
/// rows shorter and longer than a word, needles longer than the row, empty strings and nulls,
/// rows on both sides of a block boundary and at the very end of the byte buffer.
@Suite("String kernels agree with the reference evaluator")
struct StringKernelVMTests {
    static let samples: [String?] = [
        nil, "", "a", "an", "An", "AN", "ana", "Anna", "banana", "BANANA", "Mariana", "joelka", "Marian",
        "an\u{301}a", "ana\u{301}", "añxa", "AñXa", "anña", "cafe\u{301}", "café", "CAFÉ", "Straße", "STRASSE",
        "strasse", "ß", "ss", "SS", "İstanbul", "istanbul", "ISTANBUL", "ıi", "Iİ", "ΐ", "ΐ", "Ǆ", "ǆ", "\u{212A}elvin",
        "kelvin", "exactly8", "EXACTLY8", "nine byte", "sixteen bytes!!!", "seventeen bytes!!",
        "a long row with an anxa in the middle",
        "ends with AN", "an at the start", "x\u{0}an", "日本語an", "an日本語", "Zzz", "@[`{", "a?a", "a*a",
    ]

    /// 4,161 rows (two blocks), cycling through the samples with a stride, so every sample
    /// sits at block boundaries and the last rows end the byte buffer.
    static func store() throws -> BlockSnapshot {
        let schema = try Schema([
            ObjectSchema(name: "Row", properties: [Property(name: "s", type: .string, isOptional: true)])
        ])
        let rows = 4_161
        let values: [String?] = (0..<rows).map { samples[($0 &* 7) % samples.count] }
        return try BlockSnapshot(schema: schema, columns: ["Row": ["s": .string(values)]])
    }

    static let queries: [String] = {
        // CONTAINS and LIKE run the word-at-a-time search; ==, !=, BEGINSWITH and ENDSWITH the
        // word compare at a known place; the ordered operators are covered by the conformance
        // and differential suites.
        let needles = [
            "an", "AN", "a", "ss", "SS", "ß", "é", "e", "i", "İ", "ı", "k", "xa", "exactly8", "nine byt", "ne byte",
            "an anxa", "a long row with an anxa in the middle and more", "", "\u{301}", "日本", "8",
        ]
        var queries: [String] = []
        for needle in needles {
            for op in ["CONTAINS"] {
                for options in ["", "[c]", "[d]", "[cd]"] {
                    queries.append("s \(op)\(options) '\(needle)'")
                }
            }
        }
        let patterns = [
            "*an?a*", "*AN?A*", "*?*", "**an**", "*a*", "*ss*", "*SS*", "*ß*", "*e?*", "*?\u{301}*", "*exactly8*",
            "*an anx?*", "an*", "*an", "?", "*", "", "a?a", "*a?a*", "*??????????????*", "*İ*", "*i*",
        ]
        for pattern in patterns {
            for options in ["", "[c]", "[d]", "[cd]"] {
                queries.append("s LIKE\(options) '\(pattern)'")
            }
        }
        // ==, !=, BEGINSWITH and ENDSWITH compare a word where the needle must sit: needles
        // shorter than, exactly and longer than a word, empty, non-ASCII, and equal to whole
        // rows that end the byte buffer.
        let placed = [
            "", "a", "an", "An", "ana", "exactly8", "exactly", "nine byte", "sixteen bytes!!!", "seventeen bytes!!",
            "a long row with an anxa in the middle", "ß", "Straße", "café", "cafe\u{301}", "日本語an", "AN",
            "an at the start", "ends with AN", "with AN", "bytes!!", "Zzz", "@[`{", "\u{301}",
        ]
        for needle in placed {
            for op in ["==", "!=", "BEGINSWITH", "ENDSWITH"] {
                for options in ["", "[c]"] {
                    queries.append("s \(op)\(options) '\(needle)'")
                }
            }
        }
        // After another filter the kernels read a sparse selection.
        queries += [
            "s BEGINSWITH 'a' AND s ENDSWITH 'a'", "s != 'ana' AND s == 'banana'", "s CONTAINS 'n' AND s == 'ana'",
            "s != nil AND s != ''", "s ENDSWITH 'AN' AND s BEGINSWITH 'ends with'",
        ]
        return queries
    }()

    @Test("string comparisons on the VM equal the reference, optimized and not")
    func agree() throws {
        let store = try Self.store()
        let reference = ReferenceEvaluator(store: store)
        for query in Self.queries {
            let bound = try QueryEngine().bind(query, className: "Row", schema: store.schema)
            let expected = reference.run(bound)
            for optimized in [true, false] {
                let program = try VMHarness.compile(bound, store: store, optimized: optimized)
                let keys = try VirtualMachine().run(program, on: store)
                #expect(
                    keys == expected,
                    "\(query) (optimized: \(optimized)): \(keys.count) rows, expected \(expected.count)"
                )
                #expect(try VirtualMachine().count(program, on: store) == expected.count, "\(query) count")
            }
        }
    }
}
