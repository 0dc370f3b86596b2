import RQLCore
import RQLIR

extension Query where T: OptionalProtocol, T.Wrapped: _QueryEmbeddedObjectBase {
    /// `location GEOWITHIN shape`: the GeoJSON point stored in the embedded object lies inside
    /// the box, circle or polygon.
    ///
    /// ```swift
    /// companies.where { $0.location.geoWithin(GeoBox(bottomLeft: (47.3, -122.7), topRight: (48.1, -122.1))!) }
    /// ```
    public func geoWithin<U: RLMGeospatial>(_ value: U) -> Query<Bool> {
        switch node.path(for: "geoWithin") {
        case .success(let path):
            // Through a collection the binder tests ANY point, GEOWITHIN's default quantifier.
            return Query<Bool>(.predicate(.geoWithin(path.unbound, value._rqlRegion)), paths: allPaths)
        case .failure(let error):
            return compare(.equal, .invalid(error.message))
        }
    }
}
