// rql-collections-profile: one collection benchmark's work run once, for a profiler (no
// calibration, no timing). Collect only the work, not the set-up:
//
//   valgrind --tool=callgrind --toggle-collect='*runOnce*' \
//       Benchmarks/.build/release/rql-collections-profile list-append 100000
//   rql-collections-profile list-append|map-insert|map-insert-scattered|set-insert-scattered|mixedmap-load [N]
import RQL
import RQLCore
import Suites

let arguments = CommandLine.arguments
let kind = arguments.count > 1 ? arguments[1] : "list-append"
let count = arguments.count > 2 ? Int(arguments[2]) ?? 100_000 : 100_000
let state = CollectionState()
if kind == "mixedmap-load" { try state.checkLoad(count) }

@inline(never)
func runOnce(_ kind: String, _ count: Int, _ state: CollectionState) -> Int {
    switch kind {
    case "list-append": return state.appendToList(count).numbers.count
    case "map-insert": return state.insertIntoMap(count, scattered: false).counts.count
    case "map-insert-scattered": return state.insertIntoMap(count, scattered: true).counts.count
    case "set-insert-scattered": return state.insertIntoSet(count).names.count
    case "mixedmap-load": return MixedMap(state.pairs).count
    default: fatalError("no benchmark \(kind)")
    }
}

print("\(kind): \(runOnce(kind, count, state)) elements")
