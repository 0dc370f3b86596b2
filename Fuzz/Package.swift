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
            dependencies: [.product(name: "RQLSyntax", package: "RQL"), .product(name: "RQLCore", package: "RQL")]
        ),
        // libFuzzer entry point for the parser; a thin shim over FuzzCommon.ParseCheck.
        .executableTarget(name: "FuzzParse", dependencies: ["FuzzCommon"]),

        // Replays Regressions/ and Corpus/ through the same checks, without sanitizers.
        .testTarget(
            name: "FuzzCommonTests",
            dependencies: [
                "FuzzCommon", .product(name: "RQLSyntax", package: "RQL"), .product(name: "RQLCore", package: "RQL"),
            ]
        ),
    ]
)
