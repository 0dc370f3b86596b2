import RQLCore

/// Writes measurements as a table for people or as JSON lines for tools.
///
///     suite     benchmark  median     min        p90        batch    samples  text
///     parse     Q1         812 ns     790 ns     840 ns     12315    31       age > 90
///
///     {"suite": "parse", "query": "Q1", "text": "age > 90", "median_ns": 812, "min_ns": 790, …}
public struct Report {
    public let json: Bool
    private var headerPrinted = false

    public init(json: Bool) {
        self.json = json
    }

    /// Prints one benchmark's line as soon as it is measured, so a long run shows progress.
    public mutating func add(_ benchmark: Benchmark, _ measurement: Measurement) {
        if json {
            print(Report.jsonLine(benchmark, measurement).spacedLine)
            return
        }
        if !headerPrinted {
            print(Report.row(["suite", "benchmark", "median", "min", "p90", "batch", "samples", "text"]))
            headerPrinted = true
        }
        let stats = measurement.statistics
        var text = benchmark.text ?? ""
        for field in benchmark.fields {
            if case .number(let value) = field.value, value.isInteger {
                text += (text.isEmpty ? "" : "  ") + "\(field.key)=\(value.text)"
            }
            if case .bool(true) = field.value { text += (text.isEmpty ? "" : "  ") + field.key }
        }
        print(
            Report.row([
                benchmark.suite, benchmark.name,
                Report.duration(stats.median), Report.duration(stats.min), Report.duration(stats.p90),
                String(measurement.batch), String(stats.count), text,
            ])
        )
    }

    /// The JSON object of one measurement: identity, extra fields, then the timings; written
    /// as RQLCore's `spacedLine` (`", "` and `": "` separators, as in the benchmark contract).
    public static func jsonLine(_ benchmark: Benchmark, _ measurement: Measurement) -> JSONValue {
        let stats = measurement.statistics
        var fields: [(key: String, value: JSONValue)] = [
            ("suite", .string(benchmark.suite)),
            ("query", .string(benchmark.query)),
        ]
        if let text = benchmark.text { fields.append(("text", .string(text))) }
        fields += benchmark.fields
        if let alias = benchmark.medianAlias { fields.append((alias, nanoseconds(stats.median))) }
        fields += [
            ("median_ns", nanoseconds(stats.median)),
            ("min_ns", nanoseconds(stats.min)),
            ("p90_ns", nanoseconds(stats.p90)),
            ("samples", .int(stats.count)),
            ("batch", .int(measurement.batch)),
        ]
        return .object(fields.map { JSONMember($0.key, $0.value) })
    }

    /// Whole nanoseconds, except below 100 ns where a tenth still means something.
    private static func nanoseconds(_ ns: Double) -> JSONValue {
        ns >= 100 ? .int(Int(ns.rounded())) : .double((ns * 10).rounded() / 10)
    }

    /// "812 ns", "4.62 µs", "12.3 ms": three significant digits.
    static func duration(_ ns: Double) -> String {
        let (value, unit): (Double, String) =
            ns < 1_000
            ? (ns, "ns")
            : ns < 1_000_000
                ? (ns / 1_000, "µs") : ns < 1_000_000_000 ? (ns / 1_000_000, "ms") : (ns / 1_000_000_000, "s")
        let digits = value < 10 ? 2 : value < 100 ? 1 : 0
        return format(value, fractionDigits: digits) + " " + unit
    }

    /// `value` rounded to `fractionDigits` decimals, without Foundation's `String(format:)`.
    static func format(_ value: Double, fractionDigits: Int) -> String {
        var scale = 1.0
        for _ in 0..<fractionDigits { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        guard fractionDigits > 0 else { return String(scaled) }
        let whole = scaled / Int(scale)
        let fraction = String(scaled % Int(scale))
        return "\(whole)." + String(repeating: "0", count: fractionDigits - fraction.count) + fraction
    }

    private static let widths = [9, 11, 10, 10, 10, 9, 8]

    private static func row(_ cells: [String]) -> String {
        var line = ""
        for (i, cell) in cells.enumerated() {
            if i < widths.count {
                line += cell + String(repeating: " ", count: Swift.max(1, widths[i] - cell.count))
            } else {
                line += cell
            }
        }
        return line
    }
}
