/// Which string syntax a query is written in.
///
///     try Parser.parse("name BEGINSWITH[c] $0")                               // .rql
///     try Parser.parse("name BEGINSWITH[cd] %@", dialect: .nsPredicate)
public enum Dialect: String, Sendable, CaseIterable {
    /// realm-core's Realm Query Language: `$0` arguments, SORT / DISTINCT / LIMIT, TEXT, GEOWITHIN.
    case rql
    /// NSPredicate's format syntax as Realm Swift's `filter(_:_:)` takes it: `%@`, `%K`, `$name`.
    case nsPredicate = "nspredicate"
}
