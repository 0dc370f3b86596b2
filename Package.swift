// swift-tools-version:6.0
// RQL: a Realm Query Language compiler and virtual machine. No package dependencies, by design:
// the library, rqlc and the tests use only the Swift toolchain.
import PackageDescription

let package = Package(
    name: "RQL",
    products: [
        .library(name: "RQLCore", targets: ["RQLCore"]),
        .library(name: "RQLSyntax", targets: ["RQLSyntax"]),
        .library(name: "RQLStorage", targets: ["RQLStorage"]),
        .library(name: "RQLTools", targets: ["RQLTools"]),
        .executable(name: "rqlc", targets: ["rqlc"]),
    ],
    targets: [
        // Spans, diagnostics, values, schema, storage protocols. Imports nothing of ours.
        .target(name: "RQLCore"),
        // Tokens, lexer, recursive-descent parser, syntax tree, canonical printer.
        .target(name: "RQLSyntax", dependencies: ["RQLCore"]),
        // The in-memory column store and the JSON dataset format, behind RQLCore's storage protocols.
        .target(name: "RQLStorage", dependencies: ["RQLCore"]),
        // The rqlc commands as a testable library.
        .target(name: "RQLTools", dependencies: ["RQLCore", "RQLSyntax"]),
        .executableTarget(name: "rqlc", dependencies: ["RQLTools"]),

        .testTarget(name: "RQLCoreTests", dependencies: ["RQLCore"]),
        .testTarget(
            name: "RQLSyntaxTests",
            dependencies: ["RQLSyntax"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "RQLStorageTests", dependencies: ["RQLStorage"]),
        .testTarget(name: "RQLToolsTests", dependencies: ["RQLTools"]),
    ]
)
