/// The shape a `GEOWITHIN` tests against.
public enum GeoShapeKind: Hashable, Sendable {
    /// `geoBox(bottomLeft, topRight)`.
    case box(GeoPoint, GeoPoint)
    /// `geoCircle(center, radiusInRadians)`.
    case circle(center: GeoPoint, radius: Expression)
    /// `geoPolygon({outer ring}, {hole}, …)`; each ring is a list of points.
    case polygon([[GeoPoint]])
    /// A shape supplied as an argument.
    case argument(Argument)
}

/// `[longitude, latitude]` or `[longitude, latitude, altitude]`; each coordinate is a number
/// literal or an argument.
public struct GeoPoint: Hashable, Sendable {
    public var longitude: Expression
    public var latitude: Expression
    public var altitude: Expression?

    public init(longitude: Expression, latitude: Expression, altitude: Expression? = nil) {
        self.longitude = longitude
        self.latitude = latitude
        self.altitude = altitude
    }
}
