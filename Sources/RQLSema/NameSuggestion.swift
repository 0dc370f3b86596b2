/// "Did you mean …?": the closest known name to a misspelt one, by edit distance.
///
///     NameSuggestion.closest(to: "agee", among: ["name", "age", "owner"])  // "age"
///     NameSuggestion.closest(to: "colour", among: ["name", "age"])        // nil: nothing close
///
/// A suggestion is cheap whatever the input: only names within the allowed distance in length
/// are compared, each comparison stops as soon as the distance must exceed the limit, and a
/// name far longer than every candidate is dismissed from its byte count alone, so a
/// 100,000-character name against 1,000 properties costs microseconds.
enum NameSuggestion {
    /// The candidate with the smallest case-insensitive edit distance to `name`, if that
    /// distance is small for the name's length (at most 1 for names up to 4 characters, 2 up to
    /// 8, then 3); ties go to the earlier candidate, so declaration order decides.
    static func closest(to name: String, among candidates: [String]) -> String? {
        // Every Unicode scalar takes 1 to 4 bytes: a name with more than 4 × (longest
        // candidate + 3) bytes has more scalars than any candidate plus 3 edits can reach.
        let longest = candidates.reduce(0) { max($0, $1.utf8.count) }
        guard name.utf8.count <= 4 * (longest + maximumLimit) else { return nil }
        let target = Array(name.lowercased().unicodeScalars)
        let limit = target.count <= 4 ? 1 : (target.count <= 8 ? 2 : maximumLimit)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let scalars = Array(candidate.lowercased().unicodeScalars)
            // The distance is at least the difference in length.
            guard abs(scalars.count - target.count) <= limit else { continue }
            let bound = min(limit, (best?.distance ?? limit + 1) - 1)
            guard bound >= 0, let distance = editDistance(target, scalars, atMost: bound),
                distance < max(target.count, 1)
            else { continue }
            best = (candidate, distance)
        }
        return best?.name
    }

    /// The largest distance ever suggested.
    static let maximumLimit = 3

    /// Edit distance (optimal string alignment): insertions, deletions, substitutions and swaps of
    /// two neighbouring characters each cost 1, so `Dgo` is one edit from `Dog`. Nil as soon as
    /// it is certain to exceed `limit` (every entry of a row above the limit).
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost limit: Int) -> Int? {
        if a.isEmpty { return b.count <= limit ? b.count : nil }
        if b.isEmpty { return a.count <= limit ? a.count : nil }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
                rowMinimum = min(rowMinimum, current[j])
            }
            // A swap reaches back two rows, so stop only when two rows in a row are over.
            if rowMinimum > limit && previous.min().map({ $0 > limit }) == true { return nil }
            beforePrevious = previous
            previous = current
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}
