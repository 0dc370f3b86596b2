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

extension QueryArgument {
    /// Reads a decoded argument value (`ArgumentDecoder`): a `.list` is a list argument, a map
    /// `{"$geoBox": [[lon, lat], [lon, lat]]}`, `{"$geoCircle": {"center": [lon, lat], "radius": r}}`
    /// or `{"$geoPolygon": [[[lon, lat], …], …]}` is a region, anything else one value.
    ///
    ///     QueryArgument(decoding: .list([.int(1)]))  // .list([.int(1)])
    public init(decoding value: Value) {
        switch value {
        case .list(let values):
            self = .list(values)
        case .map(let map):
            if let region = QueryArgument.region(map) {
                self = .geo(region)
            } else {
                self = .value(value)
            }
        default:
            self = .value(value)
        }
    }

    /// The region, for a `.geo` argument.
    var geoRegion: GeoRegion? {
        if case .geo(let region) = self { return region }
        return nil
    }

    private static func region(_ map: MixedMap) -> GeoRegion? {
        guard map.count == 1, let key = map.keys.first, let payload = map.values.first else { return nil }
        switch key {
        case "$geoBox":
            guard case .list(let corners) = payload, corners.count == 2, let a = point(corners[0]),
                let b = point(corners[1])
            else { return nil }
            return .box(bottomLeft: a, topRight: b)
        case "$geoCircle":
            guard case .map(let circle) = payload else { return nil }
            var center: GeoPoint?
            var radius: Double?
            for (name, value) in zip(circle.keys, circle.values) {
                if name == "center" { center = point(value) }
                if name == "radius" { radius = number(value) }
            }
            guard let center, let radius else { return nil }
            return .circle(center: center, radius: radius)
        case "$geoPolygon":
            guard case .list(let rings) = payload else { return nil }
            var result: [[GeoPoint]] = []
            for ring in rings {
                guard case .list(let points) = ring else { return nil }
                var bound: [GeoPoint] = []
                for p in points {
                    guard let p = point(p) else { return nil }
                    bound.append(p)
                }
                result.append(bound)
            }
            return .polygon(result)
        default:
            return nil
        }
    }

    private static func point(_ value: Value) -> GeoPoint? {
        guard case .list(let coordinates) = value, coordinates.count >= 2, let longitude = number(coordinates[0]),
            let latitude = number(coordinates[1])
        else { return nil }
        return GeoPoint(longitude: longitude, latitude: latitude)
    }

    private static func number(_ value: Value) -> Double? {
        switch value {
        case .int(let v): Double(v)
        case .double(let v): v
        case .float(let v): Double(v)
        case .decimal(let v): v.doubleValue
        default: nil
        }
    }
}
