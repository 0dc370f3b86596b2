/// Splits text into the tokens of a full-text index and of a `TEXT` query: maximal runs of
/// letters and digits (any script), lower-cased and stripped of diacritics, so `"Café au
/// LAIT!"` has the tokens `cafe`, `au`, `lait`. (realm-core treats only ASCII and Latin-1 as
/// letters; we index every script.)
///
/// ```swift
/// FullTextTokenizer.tokens(in: "The quick, brown fox")  // ["the", "quick", "brown", "fox"]
/// ```
public enum FullTextTokenizer {
    /// Tokens in order of appearance, repeats included.
    public static func tokens(in text: String) -> [String] {
        var tokens: [String] = []
        var current = String.UnicodeScalarView()
        func flush() {
            if !current.isEmpty {
                tokens.append(StringFolding.fold(String(current), options: [.caseInsensitive, .diacriticInsensitive]))
                current.removeAll()
            }
        }
        for scalar in text.unicodeScalars {
            let properties = scalar.properties
            if properties.isAlphabetic || properties.numericType != nil || properties.generalCategory == .nonspacingMark
            {
                current.append(scalar)
            } else {
                flush()
            }
        }
        flush()
        return tokens
    }
}
