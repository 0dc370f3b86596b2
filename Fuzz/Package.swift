// swift-tools-version:6.0
// Fuzz harnesses for RQL. A separate package so that the root's `swift build` never produces a
// harness binary without fuzzing instrumentation; build it only with the recipe in run.sh.
import PackageDescription

let package = Package(
    name: "RQLFuzz",
    dependencies: [
        .package(name: "RQL", path: "..")
    ],
    targets: [
        // The harness bodies: plain functions from bytes to checked invariants, reusable from tests.
        .target(
            name: "FuzzCommon",
            dependencies: [
                .product(name: "RQLCore", package: "RQL"), .product(name: "RQLSyntax", package: "RQL"),
                .product(name: "RQLIR", package: "RQL"), .product(name: "RQLSema", package: "RQL"),
                .product(name: "RQLEngine", package: "RQL"), .product(name: "RQLStorage", package: "RQL"),
                .product(name: "RQLOptimizer", package: "RQL"), .product(name: "RQLBytecode", package: "RQL"),
                .product(name: "RQLCodegen", package: "RQL"), .product(name: "RQLTestSupport", package: "RQL"),
                .product(name: "RQLDatasets", package: "RQL"),
            ]
        ),
        // libFuzzer entry point for the parser; a thin shim over FuzzCommon.ParseCheck.
        .executableTarget(name: "FuzzParse", dependencies: ["FuzzCommon"]),
        // libFuzzer entry point for compile + run against the demo dataset; a shim over QueryCheck.
        .executableTarget(name: "FuzzQuery", dependencies: ["FuzzCommon"]),
        // libFuzzer entry point for the dataset loader and exporter; a shim over DatasetCheck.
        .executableTarget(name: "FuzzDataset", dependencies: ["FuzzCommon"]),
        // libFuzzer entry point for store files: open + read + verify; a shim over StoreFileCheck.
        .executableTarget(name: "FuzzStoreFile", dependencies: ["FuzzCommon"]),
        // libFuzzer entry point for bind + optimize + codegen on generated schemas; a shim over CompileCheck.
        .executableTarget(name: "FuzzCompile", dependencies: ["FuzzCommon"]),
        // libFuzzer entry point for VM (all passes, none) vs reference on generated data; a shim over DifferentialCheck.
        .executableTarget(name: "FuzzDifferential", dependencies: ["FuzzCommon"]),

        // Replays Regressions/ and Corpus/ through the same checks, without sanitizers.
        .testTarget(
            name: "FuzzCommonTests",
            dependencies: [
                "FuzzCommon", .product(name: "RQLCore", package: "RQL"), .product(name: "RQLSyntax", package: "RQL"),
                .product(name: "RQLIR", package: "RQL"), .product(name: "RQLEngine", package: "RQL"),
                .product(name: "RQLStorage", package: "RQL"), .product(name: "RQLTestSupport", package: "RQL"),
                .product(name: "RQLDatasets", package: "RQL"),
            ]
        ),
    ]
)
