/// A region of the sphere for GEOWITHIN; coordinates are degrees, [longitude, latitude].
///
/// The binder checks every region with `validate()` (realm-core's rules and reasons); executors
/// then ask `contains(_:)`.
///
/// ```swift
/// let box = GeoRegion.box(bottomLeft: GeoPoint(longitude: 0, latitude: 0),
///                         topRight: GeoPoint(longitude: 1, latitude: 1))
/// box.contains(GeoPoint(longitude: 0.5, latitude: 0.5))  // true
/// ```
public enum GeoRegion: Hashable, Sendable {
    /// The box between two corners: realm-core's polygon of the four corners (see `ring`).
    case box(bottomLeft: GeoPoint, topRight: GeoPoint)
    /// The points within `radius` radians of `center` (great-circle distance).
    case circle(center: GeoPoint, radius: Double)
    /// An outer ring and holes; each ring is closed (first point == last point).
    case polygon([[GeoPoint]])
}

/// A longitude / latitude pair in degrees.
public struct GeoPoint: Hashable, Sendable {
    public var longitude: Double
    public var latitude: Double

    public init(longitude: Double, latitude: Double) {
        self.longitude = longitude
        self.latitude = latitude
    }

    /// Whether the point is on the globe: longitude in [-180, 180], latitude in [-90, 90] (NaN is
    /// neither). A stored point that is not is never within any region.
    public var isValid: Bool { abs(longitude) <= 180 && abs(latitude) <= 90 }
}

/// Why realm-core would refuse a region; `description` is its reason, word for word where
/// realm-core has one (geospatial.cpp, which follows MongoDB's geo parser).
public struct GeoRegionError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}

extension GeoRegion {
    /// The closed ring realm-core makes of a box (`GeoBox::to_polygon`): the corners in the order
    /// bottom-left, top-left, top-right, bottom-right, bottom-left. Its edges are great-circle
    /// arcs like any polygon's, and like any ring it stands for the smaller of the two regions
    /// it bounds (realm-core's `S2Loop::Normalize`), so a box whose corners are more than 180°
    /// of longitude apart is the box that crosses the antimeridian the short way:
    /// `geoBox([-170, 0], [170, 10])` holds longitude 175 and -175, not 0.
    public static func ring(bottomLeft: GeoPoint, topRight: GeoPoint) -> [GeoPoint] {
        [
            bottomLeft,
            GeoPoint(longitude: bottomLeft.longitude, latitude: topRight.latitude),
            topRight,
            GeoPoint(longitude: topRight.longitude, latitude: bottomLeft.latitude),
            bottomLeft,
        ]
    }

    /// Checks the region as realm-core does before it runs a query (geospatial.cpp):
    ///
    /// * every point has a longitude in [-180, 180] and a latitude in [-90, 90];
    /// * a circle's radius is a non-negative number (infinity covers the sphere);
    /// * a polygon (and a box, which is one) has at least one ring; every ring is closed, has at
    ///   least 3 different vertices once repeated neighbours are dropped, repeats no other vertex,
    ///   and has no two edges that cross; every further ring is a hole inside the first one, and
    ///   holes neither cross nor nest.
    ///
    /// ```swift
    /// try GeoRegion.polygon([[p(0, 0), p(1, 1), p(0, 0)]]).validate()
    /// // throws "Ring 0 must have at least 3 different vertices, 2 unique vertices were provided"
    /// ```
    public func validate() throws(GeoRegionError) {
        switch self {
        case .box(let bottomLeft, let topRight):
            try GeoRegion.polygon([GeoRegion.ring(bottomLeft: bottomLeft, topRight: topRight)]).validate()
        case .circle(let center, let radius):
            try Self.check(center)
            guard radius >= 0 else { throw GeoRegionError("The radius of a circle must be a non-negative number") }
        case .polygon(let rings):
            guard !rings.isEmpty else { throw GeoRegionError("Polygon has no rings.") }
            var loops: [[SpherePoint]] = []
            for (index, ring) in rings.enumerated() {
                for point in ring { try Self.check(point) }
                guard let first = ring.first, let last = ring.last else { throw GeoRegionError("Ring has no vertices") }
                guard first == last else {
                    throw GeoRegionError(
                        "Ring is not closed, first vertex '\(Self.text(first))' does not equal last vertex"
                            + " '\(Self.text(last))'"
                    )
                }
                let loop = GeoLoop.vertices(of: ring)
                guard loop.count >= 3 else {
                    throw GeoRegionError(
                        "Ring \(index) must have at least 3 different vertices, \(loop.count) unique vertices were"
                            + " provided"
                    )
                }
                if let problem = GeoLoop.validationProblem(loop) {
                    throw GeoRegionError("Ring \(index) is not valid: '\(problem)'")
                }
                if index > 0, !GeoLoop.contains(loops[0], loop) {
                    throw GeoRegionError(
                        "Secondary ring \(index) not contained by first exterior ring - secondary rings must be"
                            + " holes in the first ring"
                    )
                }
                loops.append(loop)
            }
            for i in loops.indices.dropFirst() {
                for j in loops.indices.dropFirst() where j > i {
                    if GeoLoop.edgesCross(loops[i], loops[j]) {
                        throw GeoRegionError("Polygon isn't valid: 'Loop \(i) crosses loop \(j)'")
                    }
                    if GeoLoop.contains(loops[i], loops[j]) || GeoLoop.contains(loops[j], loops[i]) {
                        throw GeoRegionError("Polygon interior rings cannot be nested: \(j)")
                    }
                }
            }
        }
    }

    private static func check(_ point: GeoPoint) throws(GeoRegionError) {
        guard point.isValid else {
            throw GeoRegionError(
                "Longitude/latitude is out of bounds, lng: \(text(point.longitude)) lat: \(text(point.latitude))"
            )
        }
    }

    static func text(_ point: GeoPoint) -> String { "[\(text(point.longitude)), \(text(point.latitude))]" }

    /// `1` rather than `1.0`, as realm-core prints coordinates.
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
