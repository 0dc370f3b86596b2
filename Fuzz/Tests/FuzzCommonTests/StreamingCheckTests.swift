import FuzzCommon
import RQLCore
import RQLDatasets
import Testing

@Suite("DatasetCheck compares the streaming loader with the loader")
struct StreamingCheckTests {
    private static let small =
        #"{"schema": {"Dog": {"properties": {"name": "string"}}}, "objects": {"Dog": [{"name": "Rex"}]}}"#

    @Test("A streaming loader that refuses, accepts or changes what the loader does not is caught")
    func disagreements() {
        var refusing = DatasetCheck.standard
        refusing.streamedExport = { (_) throws(DatasetError) in throw .unknownClass("X") }
        #expect(refusing.violation(in: Self.small)?.invariant == .streamingAgrees)
        var accepting = DatasetCheck.standard
        accepting.streamedExport = { _ in "" }
        #expect(accepting.violation(in: "{")?.invariant == .streamingAgrees)
        var changing = DatasetCheck.standard
        changing.streamedExport = { (text) throws(DatasetError) in
            try DatasetCheck.realStreamedExport(text).replacingOccurrences(of: "Rex", with: "Rax")
        }
        #expect(changing.violation(in: Self.small)?.invariant == .streamingAgrees)
    }

    @Test("The real streaming loader agrees on forward links, embedded objects and bad documents")
    func agreements() {
        let texts = [
            Self.small, DemoDataset.json, "", "{", #"{"schema": {}}"#,
            #"{"objects": {"A": [{"x": 1}]}, "schema": {"A": {"properties": {"x": "int"}}}}"#,
            #"{"schema": {"A": {"primaryKey": "k", "properties": {"k": "int", "next": "A?"}}}, "objects": {"A": [{"k": 1, "next": 2}, {"k": 2, "next": 3}]}}"#,
            #"{"schema": {"A": {"primaryKey": "k", "properties": {"k": "int", "next": "A?"}}}, "objects": {"A": [{"k": 1, "next": 2}, {"k": 2, "next": 1}]}}"#,
        ]
        for text in texts {
            let violation = DatasetCheck.standard.violation(in: text)
            #expect(violation == nil, "\(text.prefix(40)): \(violation?.description ?? "")")
        }
    }
}
