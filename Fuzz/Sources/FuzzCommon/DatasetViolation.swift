/// One broken dataset round-trip invariant, with everything needed to reproduce it.
public struct DatasetViolation: Error, Sendable, CustomStringConvertible {
    public enum Invariant: String, Sendable {
        /// The exported text of a loaded store does not load.
        case exportLoads = "export loads"
        /// Loading the export gives a store with a different schema or a different export.
        case exportFixpoint = "export fixpoint"
        /// The streaming loader loads what the loader refuses, refuses what it loads, or loads
        /// other objects.
        case streamingAgrees = "streaming agrees"
    }

    public var invariant: Invariant
    /// The input as the loader saw it (after UTF-8 decoding with replacement).
    public var input: String
    /// The first export, when there is one.
    public var exported: String?
    /// What differed.
    public var detail: String

    public init(invariant: Invariant, input: String, exported: String? = nil, detail: String) {
        self.invariant = invariant
        self.input = input
        self.exported = exported
        self.detail = detail
    }

    public var description: String {
        var lines = [
            "RQL dataset invariant violated: \(invariant.rawValue)",
            "input:    \(input.debugDescription)",
            "hex:      \(hexDump(input.utf8))",
        ]
        if let exported { lines.append("exported: \(exported.debugDescription)") }
        lines.append(detail)
        return lines.joined(separator: "\n")
    }
}
