import RQLCore
import RQLIR
import RQLSyntax

/// `property TEXT 'terms'` (rql-semantics.md §9).
extension BindingSession {
    mutating func bindFullText(_ comparison: Comparison, span: SourceSpan) throws(BindError) -> BoundPredicate {
        guard case .keyPath(let keyPath) = comparison.lhs.kind, keyPath.postfix == nil else {
            throw BindError(
                .badFullTextTerm,
                "TEXT needs a string property with a full-text index on its left",
                at: comparison.lhs.span
            )
        }
        let resolved = try resolvePath(keyPath, span: comparison.lhs.span)
        guard case .value(.string) = resolved.end,
            case .property(let className, let index, _)? =
                resolved.steps.last, let owner = schema[className], owner.properties[index].isFullText
        else {
            throw BindError(
                .badFullTextTerm,
                "Column has no fulltext index: '\(SyntaxPrinter.print(comparison.lhs, dialect: dialect))'"
                    + " must be a string property with a full-text index",
                at: comparison.lhs.span
            )
        }
        let text: String
        switch comparison.rhs.kind {
        case .literal(.string(let value)):
            text = value
        case .argument(let argument):
            let (value, argumentName) = try argumentValue(argument, span: comparison.rhs.span)
            guard case .value(.string(let value)) = value else {
                throw BindError(
                    .argumentTypeMismatch,
                    "the search terms of TEXT must be a string, and argument \(argumentName) is not",
                    at: comparison.rhs.span
                )
            }
            text = value
        default:
            throw BindError(.typeMismatch, "the search terms of TEXT must be a string", at: comparison.rhs.span)
        }
        let query = try TextSearch.parse(text, span: comparison.rhs.span)
        return .fullText(path: resolved.bound, query: query)
    }
}

extension TextSearch {
    /// Reads search terms: whitespace-separated words, all of which must occur; `-word` excludes,
    /// `word*` matches as a prefix. Each word is tokenized as the indexed text is, so `C#` is `c`;
    /// a word that splits into several tokens (`object-oriented`) is an error.
    static func parse(_ text: String, span: SourceSpan) throws(BindError) -> TextSearch {
        var terms: [Term] = []
        for word in text.split(whereSeparator: { $0.isWhitespace }) {
            var body = Substring(word)
            let isExcluded = body.hasPrefix("-")
            if isExcluded { body = body.dropFirst() }
            let isPrefix = body.hasSuffix("*")
            if isPrefix { body = body.dropLast() }
            let tokens = FullTextTokenizer.tokens(in: String(body))
            if tokens.count > 1 {
                throw BindError(
                    .badFullTextTerm,
                    "Non alphanumeric characters not allowed inside search word '\(word)'",
                    at: span
                )
            }
            guard let token = tokens.first else { continue }
            if isExcluded && isPrefix {
                throw BindError(.badFullTextTerm, "a prefix ('\(word)') cannot be excluded", at: span)
            }
            terms.append(Term(token: token, isPrefix: isPrefix, isExcluded: isExcluded))
        }
        guard !terms.isEmpty else {
            throw BindError(.badFullTextTerm, "Missing search token: TEXT needs at least one word", at: span)
        }
        let included = Set(terms.filter { !$0.isExcluded && !$0.isPrefix }.map(\.token))
        if let token = terms.first(where: { $0.isExcluded && included.contains($0.token) })?.token {
            throw BindError(
                .badFullTextTerm,
                "You can't include and exclude the same token ('\(token)')",
                at: span
            )
        }
        return TextSearch(terms: terms)
    }
}
