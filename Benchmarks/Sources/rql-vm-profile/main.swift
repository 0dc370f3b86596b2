// rql-vm-profile: runs one benchmark query's compiled program on the VM in a fixed loop, for a
// profiler (no calibration, no timing). Only `runQueries` is worth collecting:
//
//   valgrind --tool=callgrind --toggle-collect='*runQueries*' \
//       Benchmarks/.build/release/rql-vm-profile 20 Q4 100000 [indexed]
//   rql-vm-profile [ITERATIONS] [Q1 … Q12] [ROWS] [indexed]
import BenchmarkKit
import RQLBytecode
import RQLOptimizer
import RQLStorage
import RQLVM
import Suites

let arguments = CommandLine.arguments
let iterations = arguments.count > 1 ? Int(arguments[1]) ?? 10 : 10
let which = arguments.count > 2 ? arguments[2] : "Q1"
let rows = arguments.count > 3 ? Int(arguments[3]) ?? 100_000 : 100_000
let indexed = arguments.count > 4 && arguments[4] == "indexed"
guard let query = BenchmarkQuery.all.first(where: { $0.id == which }) else {
    fatalError("no query \(which)")
}
let state = VMState(rows: rows, seed: 42)
let store = try state.store(indexed: indexed)
let program = try VMState.compile(query.text, store: store, cache: StatisticsCache())

@inline(never)
func runQueries(_ program: Program, _ store: BlockSnapshot, _ iterations: Int, count: Bool) -> Int {
    let vm = VirtualMachine()
    var total = 0
    for _ in 0..<iterations {
        total &+= (count ? try? vm.count(program, on: store) : try? vm.run(program, on: store).count) ?? -1
    }
    return total
}

let total = runQueries(program, store, iterations, count: query.id == "Q9")
print("\(which): \(total / max(iterations, 1)) rows a run, \(iterations) runs")
