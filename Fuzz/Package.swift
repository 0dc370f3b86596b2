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
        // The root package's Sources/RQLTestSupport (a symbolic link): the root keeps it out of its
        // products, which are only RQL, RQLEngine and rqlc.
        .target(name: "RQLTestSupport", dependencies: [.product(name: "RQLEngine", package: "RQL")]),
        // The harness bodies: plain functions from bytes to checked invariants, reusable from tests.
        // They import the engine's internal modules (RQLSyntax, RQLStorage, …), which the
        // RQLEngine product is built from; SwiftPM counts a product's dependencies as declared.
        .target(
            name: "FuzzCommon",
            dependencies: ["RQLTestSupport", .product(name: "RQLEngine", package: "RQL")]
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
            dependencies: ["FuzzCommon", "RQLTestSupport", .product(name: "RQLEngine", package: "RQL")]
        ),
    ]
)
