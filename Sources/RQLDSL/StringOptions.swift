import RQLCore

/// Options of the string operators: `[c]` and `[d]` in query text.
///
/// ```swift
/// dogs.where { $0.name.contains("rex", options: [.caseInsensitive, .diacriticInsensitive]) }
/// ```
public struct StringOptions: OptionSet, Hashable, Sendable {
    public let rawValue: Int8

    public init(rawValue: Int8) {
        self.rawValue = rawValue
    }

    /// Letters match regardless of case (`[c]`), in every script.
    ///
    /// ```swift
    /// dogs.where { $0.name.equals("REX", options: .caseInsensitive) }
    /// ```
    public static let caseInsensitive = StringOptions(rawValue: 1)
    /// Letters match regardless of diacritics, `é` as `e` (`[d]`).
    ///
    /// ```swift
    /// dogs.where { $0.name.equals("Zoë", options: .diacriticInsensitive) }  // matches "Zoe"
    /// ```
    public static let diacriticInsensitive = StringOptions(rawValue: 2)

    /// The same options as the value rules spell them.
    var core: RQLCore.StringOptions {
        var options: RQLCore.StringOptions = []
        if contains(.caseInsensitive) { options.insert(.caseInsensitive) }
        if contains(.diacriticInsensitive) { options.insert(.diacriticInsensitive) }
        return options
    }
}
