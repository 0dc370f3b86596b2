import BenchmarkKit
import RQLCore

/// Hand-written Swift loops over the benchmark dataset's columns (`BaselineKernels.swift`):
/// what the VM's execute times will be compared against, as `baseline_ns`.
///
///     rql-bench --filter baseline/
///
/// The dataset is generated once, on the first baseline benchmark's set-up, and every query's
/// result is checked against the contract's counts (for 1,000,000 rows and seed 42) before it
/// is timed: a wrong count means the generator or the kernel is wrong, and the run fails.
extension Registry {
    public mutating func registerBaselineBenchmarks(rows: Int, seed: UInt64) {
        let state = BaselineState(rows: rows, seed: seed)
        for query in BenchmarkQuery.all {
            guard let kernel = BaselineState.kernel(for: query.id) else { continue }
            add(state.benchmark(query, kernel: kernel, indexed: false))
            if query.id == "Q5" {
                add(state.benchmark(query, kernel: { $0.runQ5Indexed() }, indexed: true))
            }
        }
    }
}

/// The dataset as raw column buffers, the result buffer, and the contract's expected results.
/// Built lazily: listing or filtering benchmarks does not generate a million rows.
final class BaselineState {
    let rows: Int
    let seed: UInt64
    private var columns: Columns?
    private var cityIndex: [String: [Int32]]?

    init(rows: Int, seed: UInt64) {
        self.rows = rows
        self.seed = seed
    }

    /// The contract's counts for 1,000,000 rows, seed 42.
    static let expectedCounts: [String: Int] = [
        "Q1": 89805, "Q2": 49951, "Q3": 31126, "Q4": 118825, "Q5": 9927, "Q6": 1, "Q7": 63310,
        "Q8": 299652, "Q9": 89805, "Q10": 10, "Q11": 5299, "Q12": 8578,
    ]
    /// The contract's Q10 rows, in order.
    static let expectedQ10: [Int32] = [441557, 118116, 78730, 542009, 307139, 208463, 968356, 94483, 763123, 810053]

    /// Whether the contract's expected results apply to this dataset.
    var isContractDataset: Bool { rows == 1_000_000 && seed == 42 }

    /// The kernel of a query; nil for Q6, which the contract gives no baseline (a key lookup).
    static func kernel(for id: String) -> ((BaselineState) -> Int)? {
        switch id {
        case "Q1": return { $0.columns!.q1() }
        case "Q2": return { $0.columns!.q2() }
        case "Q3": return { $0.columns!.q3() }
        case "Q4": return { $0.columns!.q4() }
        case "Q5": return { $0.columns!.q5() }
        case "Q7": return { $0.columns!.q7() }
        case "Q8": return { $0.columns!.q8() }
        case "Q9": return { $0.columns!.q9() }
        case "Q10": return { $0.columns!.q10() }
        case "Q11": return { $0.columns!.q11() }
        case "Q12": return { $0.columns!.q12() }
        default: return nil
        }
    }

    func runQ5Indexed() -> Int {
        baselineQ5Indexed(cityIndex!, "City42", columns!.out.baseAddress!)
    }

    func benchmark(_ query: BenchmarkQuery, kernel: @escaping (BaselineState) -> Int, indexed: Bool) -> Benchmark {
        var fields: [(key: String, value: JSONValue)] = [("n", .int(rows)), ("indexed", .bool(indexed))]
        if isContractDataset, let count = BaselineState.expectedCounts[query.id] {
            fields.append(("count", .int(count)))
        }
        return Benchmark(
            suite: "baseline",
            name: indexed ? "\(query.id)+index" : query.id,
            query: query.id,
            text: query.text,
            fields: fields,
            medianAlias: "baseline_ns",
            setUp: { [self] in
                prepare(indexed: indexed)
                try check(query.id, count: kernel(self))
            },
            body: { [self] iterations in
                for _ in 0..<iterations { blackHole(kernel(self)) }
            }
        )
    }

    /// Generates the dataset (and the city index) once, and checks the query without a
    /// baseline (Q6) so every count of the contract is verified.
    private func prepare(indexed: Bool) {
        if columns == nil {
            let columns = Columns(BenchmarkDataset(rows: rows, seed: seed))
            self.columns = columns
            if isContractDataset {
                precondition(columns.q6() == 1 && columns.out[0] == 123_456, "Q6: the dataset has no id 123456")
            }
        }
        if indexed && cityIndex == nil {
            var index: [String: [Int32]] = [:]
            let city = columns!.city
            for i in 0..<rows {
                let key = String(
                    decoding: UnsafeBufferPointer(
                        start: city.bytes + city.start(i),
                        count: city.end(i) - city.start(i)
                    ),
                    as: UTF8.self
                )
                index[key, default: []].append(Int32(i))
            }
            cityIndex = index
        }
    }

    /// Throws unless `count` (and for Q10 the rows in `out`) are the contract's.
    private func check(_ id: String, count: Int) throws {
        guard isContractDataset else { return }
        if let expected = BaselineState.expectedCounts[id], count != expected {
            throw SuiteError("\(id): \(count) matches, the contract says \(expected)")
        }
        if id == "Q10" {
            let got = Array(UnsafeBufferPointer(start: columns!.out.baseAddress!, count: count))
            guard got == BaselineState.expectedQ10 else {
                throw SuiteError("Q10: rows \(got), the contract says \(BaselineState.expectedQ10)")
            }
        }
    }
}

/// The dataset copied into buffers that live as long as the benchmarks, so the kernels get
/// raw pointers without a `withUnsafeBufferPointer` per call.
final class Columns {
    let id: UnsafeBufferPointer<Int64>
    let age: UnsafeBufferPointer<Int64>
    let score: UnsafeBufferPointer<Double>
    let active: UnsafeBufferPointer<Bool>
    let name: StringColumnView
    let city: StringColumnView
    let nickname: StringColumnView
    /// Room for every row number: the kernels' output.
    let out: UnsafeMutableBufferPointer<Int32>
    private var allocations: [UnsafeMutableRawPointer] = []
    private let ma = ShortConstant("Ma")
    private let city42 = ShortConstant("City42")
    private let city1 = ShortConstant("City1")
    private let city2 = ShortConstant("City2")
    private let city3 = ShortConstant("City3")
    private let nick1 = ShortConstant("nick1")

    init(_ dataset: BenchmarkDataset) {
        var allocations: [UnsafeMutableRawPointer] = []
        func copy<T>(_ array: [T]) -> UnsafeBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(array.count, 1))
            _ = buffer.initialize(from: array)
            allocations.append(UnsafeMutableRawPointer(buffer.baseAddress!))
            return UnsafeBufferPointer(buffer)
        }
        func view(_ column: StringColumnBuffer) -> StringColumnView {
            // Eight zero bytes after the last row, for the kernels' word loads (`load64`).
            let bytes = copy(column.bytes + [UInt8](repeating: 0, count: 8))
            return StringColumnView(
                bytes: bytes.baseAddress!,
                offsets: copy(column.offsets),
                isNull: column.isNull.isEmpty ? nil : copy(column.isNull)
            )
        }
        id = copy(dataset.id)
        age = copy(dataset.age)
        score = copy(dataset.score)
        active = copy(dataset.active)
        name = view(dataset.name)
        city = view(dataset.city)
        nickname = view(dataset.nickname)
        out = .allocate(capacity: max(dataset.rows, 1))
        out.initialize(repeating: 0)
        self.allocations = allocations
    }

    deinit {
        for pointer in allocations { pointer.deallocate() }
        out.deallocate()
    }

    private var o: UnsafeMutablePointer<Int32> { out.baseAddress! }
    func q1() -> Int { baselineQ1(age, o) }
    func q2() -> Int { baselineQ2(age, active, o) }
    func q3() -> Int { baselineQ3(name, ma, o) }
    func q4() -> Int { baselineQ4(name, o) }
    func q5() -> Int { baselineQ5(city, city42, o) }
    func q6() -> Int { baselineQ6(id, o) }
    func q7() -> Int { baselineQ7(score, age, city, city1, city2, city3, o) }
    func q8() -> Int { baselineQ8(nickname.isNull!, o) }
    func q9() -> Int { baselineQ9(age) }
    func q10() -> Int { baselineQ10(age, score, o) }
    func q11() -> Int { baselineQ11(name, o) }
    func q12() -> Int { baselineQ12(age, nickname, nick1, o) }
}
