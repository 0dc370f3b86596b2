/// How a `TEXT` search decides one string, for `FilterText` and the `LoadGroups` operands that search text.
///
///     let search = TextSearch(normalizing: TextSearch(terms: [.init(token: "Café")]))
///     search.matches("un café noir")   // true
extension TextSearch {
    /// `search` with each term folded exactly as the tokenizer folds text, so `Café` finds
    /// `cafe`. A term that does not fold to one token is kept as written (it then occurs nowhere).
    public init(normalizing search: TextSearch) {
        self.init(
            terms: search.terms.map { term in
                var result = term
                let tokens = FullTextTokenizer.tokens(in: term.token)
                if tokens.count == 1 { result.token = tokens[0] }
                return result
            }
        )
    }

    /// Whether a normalized search matches `text`: every included term occurs among its tokens
    /// (a prefix term: some token starts with it) and no excluded term does.
    public func matches(_ text: String) -> Bool {
        let tokens = FullTextTokenizer.tokens(in: text)
        for term in terms {
            let occurs = tokens.contains { token in
                term.isPrefix ? token.utf8.starts(with: term.token.utf8) : token.utf8.elementsEqual(term.token.utf8)
            }
            if occurs == term.isExcluded { return false }
        }
        return true
    }

    /// Whether a full-text index answers this normalized search exactly: each term is one token
    /// as the index folds it (the index looks up a term's first token).
    public var isIndexable: Bool {
        terms.allSatisfy { FullTextTokenizer.tokens(in: $0.token) == [$0.token] }
    }
}
