/// A parsed `TEXT` search: every included term must occur; no excluded term may.
///
/// The binder makes it as written (the IR prints it so); code generation normalizes it
/// (`init(normalizing:)`) for the VM.
public struct TextSearch: Hashable, Sendable {
    /// One search word, lower-cased as the tokenizer lower-cases text.
    public struct Term: Hashable, Sendable {
        public var token: String
        /// `word*`: any token that starts with `token`.
        public var isPrefix: Bool
        /// `-word`: objects containing it are excluded.
        public var isExcluded: Bool

        public init(token: String, isPrefix: Bool = false, isExcluded: Bool = false) {
            self.token = token
            self.isPrefix = isPrefix
            self.isExcluded = isExcluded
        }
    }

    public var terms: [Term]

    public init(terms: [Term]) { self.terms = terms }
}
