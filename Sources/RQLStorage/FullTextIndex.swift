import RQLCore

/// Token → positions of the rows whose text contains it, for one `fulltext` string property.
/// Tokens come from `FullTextTokenizer`; postings are ascending without repeats.
struct FullTextIndex: Sendable {
    private var postings: [String: [Int]] = [:]
    /// All tokens in UTF-8 byte order, for prefix search.
    private var sortedTokens: [String] = []

    init(column: Column, rowCount: Int) {
        for row in 0..<rowCount {
            guard case .string(let text) = column.value(at: row) else { continue }
            for token in Set(FullTextTokenizer.tokens(in: text)) {
                postings[token, default: []].append(row)
            }
        }
        sortedTokens = postings.keys.sorted { compareUTF8($0, $1) < 0 }
    }

    /// Rows containing `token` exactly, or (with `prefix`) some token that starts with it.
    func lookup(_ token: String, prefix: Bool) -> [Int] {
        let folded = FullTextTokenizer.tokens(in: token).first ?? ""
        guard prefix else { return postings[folded] ?? [] }
        // Binary search for the first token ≥ the prefix, then walk while tokens share it.
        var low = 0
        var high = sortedTokens.count
        while low < high {
            let mid = (low + high) / 2
            if compareUTF8(sortedTokens[mid], folded) < 0 { low = mid + 1 } else { high = mid }
        }
        var rows = Set<Int>()
        while low < sortedTokens.count, sortedTokens[low].utf8.starts(with: folded.utf8) {
            rows.formUnion(postings[sortedTokens[low]] ?? [])
            low += 1
        }
        return rows.sorted()
    }
}
