import BenchmarkKit
import RQLBytecode
import RQLCodegen
import RQLCore
import RQLIR
import RQLOptimizer
import RQLSema
import RQLStorage
import RQLSyntax
import RQLVM

/// Q1–Q12 on the VM over an in-memory block store (`BlockSnapshot`, bulk-loaded): `compile` (text → program: parse, bind,
/// optimize, codegen; no cache) and `execute` (the program run to row keys; Q9 counts), on
/// a store without indexes and on one with a hash index on `city` and a sorted index on
/// `age` (`+index`). Compare `execute` with `baseline/` (the hand-written loops) in the same run.
///
///     rql-bench --filter vm/
///
/// Every query's count is checked against the contract's before it is timed.
extension Registry {
    public mutating func registerVMBenchmarks(rows: Int, seed: UInt64) {
        let state = VMState(rows: rows, seed: seed)
        for query in BenchmarkQuery.all {
            for indexed in [false, true] {
                add(state.execute(query, indexed: indexed))
            }
            add(state.compile(query))
        }
    }
}

/// The two stores (with and without indexes), built once on first use.
public final class VMState {
    let rows: Int
    let seed: UInt64
    private var plain: BlockSnapshot?
    private var withIndexes: BlockSnapshot?

    public init(rows: Int, seed: UInt64) {
        self.rows = rows
        self.seed = seed
    }

    static func schema(indexed: Bool) throws -> Schema {
        try Schema([
            ObjectSchema(
                name: "Person",
                properties: [
                    Property(name: "id", type: .int), Property(name: "age", type: .int, isIndexed: indexed),
                    Property(name: "score", type: .double), Property(name: "name", type: .string),
                    Property(name: "city", type: .string, isIndexed: indexed), Property(name: "active", type: .bool),
                    Property(name: "nickname", type: .string, isOptional: true),
                ],
                primaryKey: "id"
            )
        ])
    }

    public func store(indexed: Bool) throws -> BlockSnapshot {
        if plain == nil {
            let data = BenchmarkDataset(rows: rows, seed: seed)
            let columns: [String: ColumnValues] = [
                "id": .int(data.id), "age": .int(data.age), "score": .double(data.score),
                "name": .string((0..<rows).map { data.name.string(at: $0) }),
                "city": .string((0..<rows).map { data.city.string(at: $0) }), "active": .bool(data.active),
                "nickname": .string((0..<rows).map { data.nickname.string(at: $0) }),
            ]
            plain = try BlockSnapshot(schema: Self.schema(indexed: false), columns: ["Person": columns])
            withIndexes = try BlockSnapshot(schema: Self.schema(indexed: true), columns: ["Person": columns])
        }
        return indexed ? withIndexes! : plain!
    }

    public static func compile(_ text: String, store: BlockSnapshot, cache: StatisticsCache) throws -> Program {
        let bound = try Binder(schema: store.schema).bind(try Parser.parse(text), className: "Person")
        let options = OptimizerOptions(verifiesEachPass: false, recordsPlans: false, statisticsCache: cache)
        let (plan, _) = try Optimizer.optimize(LogicalPlan(bound), store: store, options: options)
        return try Codegen.generate(plan, schema: store.schema)
    }

    func execute(_ query: BenchmarkQuery, indexed: Bool) -> Benchmark {
        var program: Program?
        var store: BlockSnapshot?
        var fields: [(key: String, value: JSONValue)] = [("n", .int(rows)), ("indexed", .bool(indexed))]
        let isContract = rows == 1_000_000 && seed == 42
        if isContract, let count = BaselineState.expectedCounts[query.id] { fields.append(("count", .int(count))) }
        let vm = VirtualMachine()
        let counts = query.id == "Q9"
        return Benchmark(
            suite: "vm",
            name: indexed ? "\(query.id)+index" : query.id,
            query: query.id,
            text: query.text,
            fields: fields,
            medianAlias: "execute_ns",
            setUp: { [self] in
                let chosen = try self.store(indexed: indexed)
                store = chosen
                let compiled = try Self.compile(query.text, store: chosen, cache: StatisticsCache())
                program = compiled
                let count = counts ? try vm.count(compiled, on: chosen) : try vm.run(compiled, on: chosen).count
                if isContract, let expected = BaselineState.expectedCounts[query.id], count != expected {
                    throw SuiteError("\(query.id): the VM found \(count), the contract says \(expected)")
                }
            },
            body: { iterations in
                guard let program, let store else { return }
                for _ in 0..<iterations {
                    if counts {
                        // The set-up ran the program: the VM does not refuse it.
                        blackHole((try? vm.count(program, on: store)) ?? -1)
                    } else {
                        blackHole((try? vm.run(program, on: store).count) ?? -1)
                    }
                }
            }
        )
    }

    func compile(_ query: BenchmarkQuery) -> Benchmark {
        var store: BlockSnapshot?
        let cache = StatisticsCache()
        return Benchmark(
            suite: "vm-compile",
            name: query.id,
            query: query.id,
            text: query.text,
            fields: [("n", .int(rows))],
            medianAlias: "compile_ns",
            setUp: { [self] in
                store = try self.store(indexed: false)
                _ = try Self.compile(query.text, store: store!, cache: cache)  // statistics cached, as in use
            },
            body: { iterations in
                guard let store else { return }
                for _ in 0..<iterations {
                    blackHole((try? Self.compile(query.text, store: store, cache: cache)) != nil)
                }
            }
        )
    }
}
