import RQLCore
import RQLDatasets
import RQLStorage

/// Invariant 4 of `DatasetCheck`: the streaming loader agrees with the loader.
extension DatasetCheck {
    public typealias StreamedExportFunction = @Sendable (String) throws(DatasetError) -> String

    /// Streams `text` into a new in-memory store and exports what it committed.
    public static let realStreamedExport: StreamedExportFunction = { (text) throws(DatasetError) in
        let store: BlockStore
        do {
            store = BlockStore(schema: try Schema([]))
        } catch {
            fatalError("an empty schema is valid: \(error)")
        }
        let transaction = store.beginWrite()
        try DatasetLoader.load(from: MemoryInput(Array(text.utf8)), into: transaction)
        let snapshot: BlockSnapshot
        do {
            snapshot = try transaction.commit().snapshot
        } catch {
            fatalError("an in-memory commit failed: \(error)")
        }
        return try DatasetExporter.export(snapshot)
    }

    /// Whether streaming `text` loads exactly when the loader did (`loaded` is the export of
    /// what it loaded, nil when it refused the text), to the same export. Which error each
    /// reports may differ: the streaming loader stops at the first one in document order.
    func streamingViolation(in text: String, loaded: String?) -> DatasetViolation? {
        let streamed = Result { () throws(DatasetError) in try streamedExport(text) }
        func violated(_ what: String) -> DatasetViolation {
            DatasetViolation(invariant: .streamingAgrees, input: text, exported: loaded, detail: what)
        }
        switch (loaded, streamed) {
        case (nil, .failure):
            return nil
        case (nil, .success):
            return violated("the loader refuses the text, the streaming loader loads it")
        case (_?, .failure(let error)):
            return violated("the loader loads the text, the streaming loader refuses it: \(error)")
        case (let exported?, .success(let export)):
            guard export == exported else {
                return violated("the streaming loader loads other objects\n" + firstDifference(exported, export))
            }
            return nil
        }
    }
}
