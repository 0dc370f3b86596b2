import RQLCore
import RQLIR
import RQLSyntax

/// Subscripts and dictionary steps of key paths: `[n]`, `[FIRST]`, `[LAST]`, `[*]`, `['key']`,
/// `@keys`, `@values`.
extension BindingSession {
    /// `[n]`, `[FIRST]`, `[LAST]`: one element of a list, or of a list nested in a mixed value.
    func stepSubscript(
        _ path: inout ResolvedPath,
        _ step: PathStep,
        label: String,
        span: SourceSpan
    ) throws(BindError) {
        switch path.end {
        case .collection(let elementType, let kind, let name):
            switch kind {
            case .list:
                path.steps.append(step)
                path.end = try end(ofElement: elementType, span: span)
            case .set:
                throw BindError(
                    .indexOnNonCollection,
                    "Property '\(path.lastOwner).\(name)' does not support index '\(label)': a set has no positions",
                    at: span
                )
            case .map, .single:
                throw BindError(
                    .dictionaryNotOrdered,
                    "Property '\(path.lastOwner).\(name)' does not support index '\(label)':"
                        + " a dictionary is not ordered; use a key such as ['key']",
                    at: span
                )
            }
        case .mixed:
            path.steps.append(step)
        case .objects, .value, .allBacklinks, .elementLengths:
            throw BindError(
                .indexOnNonCollection,
                "[\(label)] not expected: '\(path.lastName)' is not a list",
                at: span
            )
        }
    }

    /// `[*]`: every element of a collection or mixed collection.
    func stepAll(_ path: inout ResolvedPath, span: SourceSpan) throws(BindError) {
        switch path.end {
        case .collection(let elementType, _, _):
            path.steps.append(.all)
            path.crossedToMany = true
            path.end = try end(ofElement: elementType, span: span)
        case .mixed:
            path.steps.append(.all)
            path.crossedToMany = true
        case .objects, .value, .allBacklinks, .elementLengths:
            throw BindError(.indexOnNonCollection, "[*] not expected: '\(path.lastName)' is not a collection", at: span)
        }
    }

    /// `['key']`: the value for a key of a dictionary, or of a dictionary nested in a mixed value.
    func stepKey(_ path: inout ResolvedPath, key: String, span: SourceSpan) throws(BindError) {
        switch path.end {
        case .collection(let elementType, .map, _):
            path.steps.append(.key(key))
            path.end = try end(ofElement: elementType, span: span)
        case .mixed:
            path.steps.append(.key(key))
        case .collection(_, _, let name):
            throw BindError(
                .indexOnNonCollection,
                "Property '\(path.lastOwner).\(name)' does not support key '\(key)': it is not a dictionary",
                at: span
            )
        case .objects, .value, .allBacklinks, .elementLengths:
            throw BindError(
                .indexOnNonCollection,
                "['\(key)'] not expected: '\(path.lastName)' is not a dictionary",
                at: span
            )
        }
    }

    /// `@keys` / `@values` of a dictionary (or of a mixed value holding one).
    func stepKeysOrValues(_ path: inout ResolvedPath, keys: Bool, span: SourceSpan) throws(BindError) {
        let label = keys ? "@keys" : "@values"
        switch path.end {
        case .collection(let elementType, .map, _):
            path.steps.append(keys ? .keys : .values)
            path.crossedToMany = true
            path.end = keys ? .value(.string) : try end(ofElement: elementType, span: span)
        case .mixed:
            path.steps.append(keys ? .keys : .values)
            path.crossedToMany = true
            if keys { path.end = .value(.string) }
        case .collection(_, _, let name):
            throw BindError(
                .indexOnNonCollection,
                "'\(label)' applies only to dictionaries, and '\(path.lastOwner).\(name)' is not one",
                at: span
            )
        case .objects, .value, .allBacklinks, .elementLengths:
            throw BindError(
                .indexOnNonCollection,
                "'\(label)' applies only to dictionaries, and '\(path.lastName)' is not one",
                at: span
            )
        }
    }
}
