// swift-tools-version:6.0
// rql-bench: timings for RQL's pipeline stages and the hand-written baselines they are measured
// against. A separate package so the root package stays free of benchmark code; like the root,
// it has no third-party dependencies.
import PackageDescription

let package = Package(
    name: "RQLBenchmarks",
    products: [
        .executable(name: "rql-bench", targets: ["rql-bench"]),
        .executable(name: "realm-file-helper", targets: ["realm-file-helper"]),
        .executable(name: "store-crash-helper", targets: ["store-crash-helper"]),
    ],
    dependencies: [
        .package(name: "RQL", path: "..")
    ],
    targets: [
        // Clock, black hole, sampling, statistics, reports, options, and the benchmark dataset.
        // Of RQL it uses only RQLCore's JSON writer (for the reports); a module apart from the
        // suites, so its black hole's body is opaque to them.
        .target(name: "BenchmarkKit", dependencies: [.product(name: "RQLEngine", package: "RQL")]),
        // One file per suite; each registers itself with `Registry` (`registerParseBenchmarks()`).
        // The suites time each stage, so they import the engine's internal modules (RQLSyntax,
        // RQLVM, …): the root package's products are only RQL, RQLEngine and rqlc, and SwiftPM
        // counts the modules a product is built from as declared dependencies.
        .target(
            name: "Suites",
            dependencies: [
                "BenchmarkKit",
                .product(name: "RQL", package: "RQL"),
                .product(name: "RQLEngine", package: "RQL"),
            ]
        ),
        .executableTarget(name: "rql-bench", dependencies: ["BenchmarkKit", "Suites"]),
        // Single-object commit latencies on the block store, each commit timed alone (median, p99).
        .executableTarget(name: "rql-storage-latency", dependencies: ["BenchmarkKit", "Suites"]),
        // A fixed-iteration parse loop for `valgrind --tool=callgrind`: no calibration, no timing.
        // The same for compiling (parse, bind, optimize, codegen), without the query cache.
        .executableTarget(
            name: "rql-compile-profile",
            dependencies: ["BenchmarkKit", "Suites", .product(name: "RQLEngine", package: "RQL")]
        ),
        .executableTarget(
            name: "rql-parse-profile",
            dependencies: ["BenchmarkKit", "Suites", .product(name: "RQLEngine", package: "RQL")]
        ),
        // The root package's test helpers (`Tests/RealmFileHelper`, `Tests/StoreCrashHelper`,
        // symbolic links), built optimized here: the root package's tests run them as processes
        // of their own (`RQLTestSupport.HelperExecutable`). Here rather than in the root package,
        // whose executable targets would all be products, and optimized, as a crash and Realm's
        // stops must be tested.
        .executableTarget(name: "realm-file-helper", dependencies: [.product(name: "RQL", package: "RQL")]),
        .executableTarget(name: "store-crash-helper", dependencies: [.product(name: "RQLEngine", package: "RQL")]),
        // One collection benchmark's work run once (list appends, map and set inserts, a
        // MixedMap load), for callgrind.
        .executableTarget(
            name: "rql-collections-profile",
            dependencies: ["Suites", .product(name: "RQL", package: "RQL")]
        ),
        // The same for the VM: one query's program run a fixed number of times.
        .executableTarget(
            name: "rql-vm-profile",
            dependencies: ["BenchmarkKit", "Suites", .product(name: "RQLEngine", package: "RQL")]
        ),
    ]
)
