import RQLCore
import RQLIR

/// A value supplied with a query for `$0`, `%@` or `$name`.
///
///     try binder.bind(query, className: "Dog", arguments: [.value(.int(2)), .list([.string("a")])])
public enum QueryArgument: Hashable, Sendable {
    /// One value (a link is `.link`, null is `.null`).
    case value(Value)
    /// A list of values, for `IN $0`, `ANY $0`, `BETWEEN $0`.
    case list([Value])
    /// A region, for `GEOWITHIN $0`.
    case geo(GeoRegion)
}
