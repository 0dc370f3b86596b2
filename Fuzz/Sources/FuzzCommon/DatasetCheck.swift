import RQLCore
import RQLDatasets
import RQLStorage

/// The dataset loader's and exporter's invariants, checked on one JSON text.
///
/// For any bytes, decoded as UTF-8 with replacement:
/// 1. loading returns or throws a `DatasetError` (no trap, no hang; the type is the signature's);
/// 2. a loaded store's export `e` loads again, to a store with the same schema;
/// 3. that store exports to `e` again: the export is a fixpoint;
/// 4. the streaming loader (`DatasetLoader.load(from:into:)`) loads exactly the texts the loader
///    loads, to the same export (`DatasetCheck+Streaming.swift`).
///
///     DatasetCheck.standard.run(Array(DemoDataset.json.utf8))       // traps on a violation
///     DatasetCheck.standard.violation(in: "{\"schema\": {}}")        // nil when all is right
///
/// The load and export functions are stored so a test can plant a bug and see that the check
/// notices. Texts longer than `maximumLength` UTF-8 bytes are skipped to bound the work.
public struct DatasetCheck: Sendable {
    public typealias LoadFunction = @Sendable (String) throws(DatasetError) -> BlockSnapshot
    public typealias ExportFunction = @Sendable (BlockSnapshot) throws(DatasetError) -> String

    public var load: LoadFunction
    public var export: ExportFunction
    public var maximumLength = 16_384
    /// The streaming load, as the export of what it loaded (invariant 4).
    public var streamedExport: StreamedExportFunction = DatasetCheck.realStreamedExport

    public init(load: @escaping LoadFunction, export: @escaping ExportFunction) {
        self.load = load
        self.export = export
    }

    /// The real loader and (pretty-printing) exporter.
    public static let standard = DatasetCheck(
        load: { (text) throws(DatasetError) in try DatasetLoader.load(json: text) },
        export: { (store) throws(DatasetError) in try DatasetExporter.export(store) }
    )

    /// Checks `bytes` and traps with a readable report on a violation, so that libFuzzer records
    /// the input as a crash.
    public func run(_ bytes: UnsafeRawBufferPointer) {
        if let violation = violation(in: String(decoding: bytes, as: UTF8.self)) {
            fatalError("\n" + violation.description)
        }
    }

    public func run(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { run($0) }
    }

    /// The first violated invariant for `text`, or nil.
    public func violation(in text: String) -> DatasetViolation? {
        guard text.utf8.count <= maximumLength else { return nil }
        let store: BlockSnapshot
        do {
            store = try load(text)
        } catch {
            // Invariant 1 holds by the typed throw: any error is a DatasetError.
            _ = error.description
            return streamingViolation(in: text, loaded: nil)
        }
        let exported: String
        do {
            exported = try export(store)
        } catch {
            return DatasetViolation(
                invariant: .exportLoads,
                input: text,
                exported: nil,
                detail: "the loaded store does not export: \(error)"
            )
        }
        func violated(_ invariant: DatasetViolation.Invariant, _ what: String) -> DatasetViolation {
            DatasetViolation(invariant: invariant, input: text, exported: exported, detail: what)
        }
        let reloaded: BlockSnapshot
        do {
            reloaded = try load(exported)
        } catch {
            return violated(.exportLoads, "the export does not load: \(error)")
        }
        guard reloaded.schema == store.schema else {
            return violated(.exportFixpoint, "the export loads with a different schema")
        }
        let reexported: String
        do {
            reexported = try export(reloaded)
        } catch {
            return violated(.exportFixpoint, "the reloaded store does not export: \(error)")
        }
        guard reexported == exported else {
            return violated(
                .exportFixpoint,
                "the export of the reloaded store differs\n" + firstDifference(exported, reexported)
            )
        }
        do {
            return streamingViolation(in: text, loaded: try DatasetExporter.export(store))
        } catch {
            return violated(.exportLoads, "the loaded store does not export: \(error)")
        }
    }

    /// The first line where `a` and `b` differ, both ways, for the report.
    func firstDifference(_ a: String, _ b: String) -> String {
        let first = a.split(separator: "\n", omittingEmptySubsequences: false)
        let second = b.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(first.count, second.count) {
            let left = index < first.count ? String(first[index]) : "<end>"
            let right = index < second.count ? String(second[index]) : "<end>"
            if left != right {
                return "line \(index + 1):\nfirst:  \(left.debugDescription)\nsecond: \(right.debugDescription)"
            }
        }
        return "(no line differs)"
    }
}
