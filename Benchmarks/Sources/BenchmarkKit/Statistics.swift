/// Order statistics of per-iteration times, in nanoseconds.
///
///     let stats = Statistics([812, 790, 815, 1_020])   // median 813.5, min 790
///
/// The median is what reports compare: on a shared machine the mean is dragged by outliers
/// (a neighbour's build, a page fault) and the min alone hides steady-state costs.
public struct Statistics: Sendable {
    /// Per-iteration times, ascending.
    public let sorted: [Double]

    public init(_ samples: [Double]) {
        precondition(!samples.isEmpty, "statistics of no samples")
        sorted = samples.sorted()
    }

    public var count: Int { sorted.count }
    public var min: Double { sorted[0] }
    public var max: Double { sorted[sorted.count - 1] }

    /// The middle sample, or the mean of the two middle ones.
    public var median: Double {
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// The nearest-rank percentile: the smallest sample with at least `p` percent at or below it.
    public func percentile(_ p: Double) -> Double {
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
    }

    public var p90: Double { percentile(90) }
}
