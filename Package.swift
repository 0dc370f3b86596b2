// swift-tools-version:6.0
// RQL: a Realm Query Language compiler and virtual machine. No package dependencies, by design:
// the library, rqlc and the tests use only the Swift toolchain.
import PackageDescription

let package = Package(
    name: "RQL",
    // Three products: the object model, the engine for embedding the compiler without it, and
    // the command-line tool. The other modules are internal to the package. Fuzz/ and Benchmarks/
    // are packages of their own that depend on the RQLEngine and RQL products and import the
    // modules those are built from, which SwiftPM counts as declared (a product's targets'
    // dependencies); Fuzz compiles RQLTestSupport itself, through a symbolic link. The test
    // helpers that run as processes of their own (Tests/StoreCrashHelper, Tests/RealmFileHelper)
    // are targets of the Benchmarks package: an executable target here would be a product too.
    products: [
        .library(name: "RQL", targets: ["RQL"]),
        .library(name: "RQLEngine", targets: ["RQLEngine"]),
        .executable(name: "rqlc", targets: ["rqlc"]),
    ],
    targets: [
        // Spans, diagnostics, values, schema, storage protocols, and JSON (the notation of
        // datasets, arguments and the store file's schema record). Imports nothing of ours.
        .target(name: "RQLCore"),
        // Tokens, lexer, recursive-descent parser, syntax tree, canonical printer.
        .target(name: "RQLSyntax", dependencies: ["RQLCore"]),
        // Bound expressions and plans, their printer and verifier, and the reference evaluator.
        .target(name: "RQLIR", dependencies: ["RQLCore"]),
        // The binder: syntax trees to bound IR, with Realm's name resolution, types and coercions.
        .target(name: "RQLSema", dependencies: ["RQLCore", "RQLSyntax", "RQLIR"]),
        // The optimizer: named, ordered passes from a logical plan to a physical plan, with
        // statistics and a cost model. Never sees storage implementations or bytecode.
        .target(name: "RQLOptimizer", dependencies: ["RQLCore", "RQLIR"]),
        // Opcodes (the one table), instruction encoding, constant pool, programs, their builder,
        // verifier and EXPLAIN formatter.
        .target(name: "RQLBytecode", dependencies: ["RQLCore"]),
        // Physical plan → program.
        .target(name: "RQLCodegen", dependencies: ["RQLCore", "RQLIR", "RQLBytecode"]),
        // The vectorized interpreter: runs a program over a store block by block. Never sees IR.
        .target(name: "RQLVM", dependencies: ["RQLCore", "RQLBytecode", "RQLStorage"]),
        // The facade: query text (or the DSL) → bound query → optimized plan → program, run
        // against a store; explain; the compiled-query cache.
        .target(
            name: "RQLEngine",
            dependencies: [
                "RQLCore", "RQLSyntax", "RQLIR", "RQLSema", "RQLOptimizer", "RQLBytecode", "RQLCodegen", "RQLVM",
                "RQLStorage", "RQLDatasets",
            ]
        ),
        // The storage engine: the block store in memory and in a file, and the in-memory column
        // store, behind RQLCore's storage protocols.
        .target(name: "RQLStorage", dependencies: ["RQLCore"]),
        // The JSON dataset format: loading and exporting datasets, the demo database, files and
        // pipes read as input, and query arguments given as JSON.
        .target(name: "RQLDatasets", dependencies: ["RQLCore", "RQLStorage"]),
        // The rqlc commands as a testable library.
        .target(
            name: "RQLTools",
            dependencies: ["RQLCore", "RQLEngine", "RQLStorage", "RQLDatasets", "RQLBytecode"]
        ),
        .executableTarget(name: "rqlc", dependencies: ["RQLTools"]),
        // What tests (and later Fuzz) share: realm-core's conformance cases, checked through any
        // executor passed in.
        .target(
            name: "RQLTestSupport",
            dependencies: ["RQLCore", "RQLSema", "RQLOptimizer", "RQLEngine", "RQLStorage", "RQLDatasets"]
        ),
        // The type-safe query DSL: `Query<T>` builds unbound IR from key paths and operators.
        .target(name: "RQLDSL", dependencies: ["RQLCore", "RQLIR"]),
        // The Realm-compatible object model: objects, @Persisted, collections, values, schema discovery.
        .target(
            name: "RQL",
            dependencies: ["RQLDSL", "RQLCore", "RQLEngine", "RQLStorage"]
        ),

        .testTarget(name: "RQLCoreTests", dependencies: ["RQLCore"]),
        .testTarget(name: "RQLSyntaxTests", dependencies: ["RQLSyntax", "RQLCore"]),
        .testTarget(
            name: "RQLStorageTests",
            dependencies: ["RQLStorage", "RQLCore", "RQLDatasets", "RQLEngine", "RQLTestSupport"]
        ),
        .testTarget(name: "RQLIRTests", dependencies: ["RQLIR", "RQLCore", "RQLStorage", "RQLDatasets"]),
        .testTarget(
            name: "RQLSemaTests",
            dependencies: ["RQLSema", "RQLSyntax", "RQLIR", "RQLCore", "RQLStorage", "RQLDatasets"]
        ),
        .testTarget(
            name: "RQLEngineTests",
            dependencies: [
                "RQLEngine", "RQLCore", "RQLSyntax", "RQLIR", "RQLSema", "RQLOptimizer", "RQLStorage", "RQLDatasets",
                "RQLTestSupport",
            ]
        ),
        .testTarget(
            name: "RQLOptimizerTests",
            dependencies: [
                "RQLOptimizer", "RQLCore", "RQLIR", "RQLSema", "RQLSyntax", "RQLStorage", "RQLDatasets",
                "RQLTestSupport",
            ]
        ),
        .testTarget(
            name: "RQLToolsTests",
            dependencies: [
                "RQLTools", "RQLTestSupport", "RQLCore", "RQLEngine", "RQLOptimizer", "RQLBytecode", "RQLStorage",
                "RQLDatasets",
            ]
        ),
        .testTarget(name: "RQLBytecodeTests", dependencies: ["RQLBytecode", "RQLCore"]),
        .testTarget(
            name: "RQLVMTests",
            dependencies: [
                "RQLVM", "RQLCodegen", "RQLBytecode", "RQLOptimizer", "RQLIR", "RQLSema", "RQLSyntax", "RQLStorage",
                "RQLDatasets", "RQLEngine", "RQLCore", "RQLTestSupport",
            ]
        ),
        .testTarget(name: "RQLDSLTests", dependencies: ["RQLDSL", "RQLCore", "RQLIR"]),
        .testTarget(
            name: "RQLTests",
            dependencies: [
                "RQL", "RQLCore", "RQLIR", "RQLSema", "RQLSyntax", "RQLStorage", "RQLDatasets", "RQLEngine",
                "RQLTools", "RQLTestSupport",
            ]
        ),
    ]
)
