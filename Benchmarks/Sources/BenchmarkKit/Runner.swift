/// What one benchmark measured.
public struct Measurement: Sendable {
    /// Per-iteration nanoseconds of each timed sample.
    public let statistics: Statistics
    /// Iterations per sample.
    public let batch: Int
}

/// Times benchmarks: calibrate a batch size, warm up, then take the samples.
///
///     let runner = Runner(options: options)
///     let measurement = try runner.measure(benchmark)
///     print(measurement.statistics.median)   // ns per iteration
///
/// Each sample times a batch of iterations sized to last about `sampleNanoseconds`, so a
/// 1 µs parse is timed over ~10,000 calls and clock overhead and resolution vanish, while a
/// 5 ms scan is timed one call at a time.
public struct Runner: Sendable {
    public let options: Options

    public init(options: Options) {
        self.options = options
    }

    /// Runs `benchmark`'s set-up, then measures it.
    public func measure(_ benchmark: Benchmark) throws -> Measurement {
        try benchmark.setUp?()
        let batch = calibrate(benchmark)
        for _ in 0..<options.warmUpBatches { _ = time(benchmark, batch) }
        var samples: [Double] = []
        samples.reserveCapacity(options.samples)
        for _ in 0..<options.samples {
            samples.append(Double(time(benchmark, batch)) / Double(batch))
        }
        return Measurement(statistics: Statistics(samples), batch: batch)
    }

    /// Nanoseconds for `iterations` runs of the body.
    @inline(never)
    private func time(_ benchmark: Benchmark, _ iterations: Int) -> UInt64 {
        let start = MonotonicClock.now()
        benchmark.body(iterations)
        return MonotonicClock.now() &- start
    }

    /// The batch size that makes a sample last about `sampleNanoseconds`: grow the batch until
    /// one lasts a tenth of the target, then scale it by the measured rate. The first calls
    /// double as warm-up (first-touch page faults, lazy initialisation).
    private func calibrate(_ benchmark: Benchmark) -> Int {
        let target = options.sampleNanoseconds
        let probeTarget = target / 10
        var batch = 1
        while true {
            let elapsed = Swift.max(time(benchmark, batch), 1)
            if elapsed >= probeTarget || batch >= 1 << 40 {
                // The fastest of a few probes: a probe that was preempted (another process, a
                // page fault) would otherwise shrink every sample of this benchmark.
                var fastest = elapsed
                if elapsed < target {
                    for _ in 0..<4 { fastest = Swift.min(fastest, Swift.max(time(benchmark, batch), 1)) }
                }
                let scaled = Double(batch) * Double(target) / Double(fastest)
                return Swift.max(1, Int(scaled.rounded()))
            }
            // Jump straight near the probe target when far below it, but never more than 100×
            // at once, so a cold first call does not inflate the estimate.
            let factor = Swift.min(100, Swift.max(2, probeTarget / elapsed))
            batch *= Int(factor)
        }
    }
}
