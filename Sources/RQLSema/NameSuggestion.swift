/// "Did you mean …?": the closest known name to a misspelt one, by edit distance.
///
///     NameSuggestion.closest(to: "agee", among: ["name", "age", "owner"])  // "age"
///     NameSuggestion.closest(to: "colour", among: ["name", "age"])        // nil: nothing close
enum NameSuggestion {
    /// The candidate with the smallest case-insensitive edit distance to `name`, if that
    /// distance is small for the name's length (at most 1 for names up to 4 characters, 2 up to
    /// 8, then 3); ties go to the earlier candidate, so declaration order decides.
    static func closest(to name: String, among candidates: [String]) -> String? {
        let target = Array(name.lowercased())
        let limit = target.count <= 4 ? 1 : (target.count <= 8 ? 2 : 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(target, Array(candidate.lowercased()))
            guard distance <= limit, distance < max(target.count, 1) else { continue }
            if best == nil || distance < best?.distance ?? Int.max {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// Edit distance (optimal string alignment): insertions, deletions, substitutions and swaps of
    /// two neighbouring characters each cost 1, so `Dgo` is one edit from `Dog`.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            beforePrevious = previous
            previous = current
        }
        return previous[b.count]
    }
}
