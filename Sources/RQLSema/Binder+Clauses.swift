import RQLCore
import RQLIR
import RQLSyntax

/// SORT, DISTINCT and LIMIT (rql-semantics.md §10).
extension BindingSession {
    func bindClauses(_ clauses: [PostQueryClause]) throws(BindError) -> [BoundClause] {
        var result: [BoundClause] = []
        for clause in clauses {
            switch clause.kind {
            case .sort(let keys):
                var bound: [BoundSortKey] = []
                for key in keys {
                    let path = try clausePath(key.keyPath, clause: "sort", span: clause.span)
                    bound.append(BoundSortKey(path: path, ascending: key.ascending))
                }
                // Consecutive SORTs merge, the later one's keys first (realm-core's MergeMode::prepend).
                if case .sort(let previous)? = result.last {
                    result[result.count - 1] = .sort(bound + previous)
                } else {
                    result.append(.sort(bound))
                }
            case .distinct(let keyPaths):
                var paths: [BoundPath] = []
                for keyPath in keyPaths {
                    paths.append(try clausePath(keyPath, clause: "distinct", span: clause.span))
                }
                result.append(.distinct(paths))
            case .limit(let count):
                guard count >= 0 else {
                    throw BindError(.invalidSortKey, "LIMIT needs a count of zero or more", at: clause.span)
                }
                result.append(.limit(count))
            }
        }
        return result
    }

    /// A SORT or DISTINCT key: a single-valued path through to-one links only.
    private func clausePath(_ keyPath: KeyPath, clause: String, span: SourceSpan) throws(BindError) -> BoundPath {
        let keySpan =
            keyPath.elements.first.map { first in
                first.span.through(keyPath.elements.last?.span ?? first.span)
            } ?? span
        let text = SyntaxPrinter.print(Expression(.keyPath(keyPath), span: keySpan))
        if keyPath.postfix != nil {
            throw BindError(.invalidSortKey, "Cannot \(clause) on '\(text)': only properties can be keys", at: keySpan)
        }
        let resolved: ResolvedPath
        do {
            resolved = try resolvePath(keyPath, span: keySpan)
        } catch {
            throw BindError(error.kind, error.message + " (specified in the '\(clause)' clause)", at: error.span)
        }
        if resolved.crossedToMany {
            throw BindError(
                .invalidSortKey,
                "Cannot \(clause) on '\(text)': all but the last property must be to-one links",
                at: keySpan
            )
        }
        switch resolved.end {
        case .value, .mixed:
            return resolved.bound
        case .collection, .elementLengths, .allBacklinks:
            throw BindError(.invalidSortKey, "Cannot \(clause) on a collection property ('\(text)')", at: keySpan)
        case .objects:
            throw BindError(
                .invalidSortKey,
                "Cannot \(clause) on a link ('\(text)'): name one of its properties",
                at: keySpan
            )
        }
    }
}
