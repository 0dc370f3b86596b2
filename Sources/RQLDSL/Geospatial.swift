import RQLCore
import RQLIR

/// A shape a `geoWithin` query tests points against: `GeoBox`, `GeoCircle`, `GeoPolygon`.
public protocol RLMGeospatial: Sendable {
    /// The region in the IR's terms (degrees, longitude first).
    var _rqlRegion: GeoRegion { get }
}

/// A point on the sphere: latitude and longitude in degrees. Not storable itself (store points
/// as GeoJSON-shaped embedded objects); used to build shapes.
///
/// ```swift
/// let seattle = GeoPoint(latitude: 47.6, longitude: -122.3)!
/// ```
public struct GeoPoint: Hashable, Sendable {
    /// Degrees north, -90...90.
    public let latitude: Double
    /// Degrees east, -180...180.
    public let longitude: Double
    /// Kept for the caller; queries ignore it.
    public let altitude: Double

    /// `nil` when latitude or longitude is out of range or the altitude is negative.
    public init?(latitude: Double, longitude: Double, altitude: Double = 0) {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude), altitude >= 0 else { return nil }
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// `GeoPoint(latitude, longitude)`.
    public init?(_ latitude: Double, _ longitude: Double, _ altitude: Double = 0) {
        self.init(latitude: latitude, longitude: longitude, altitude: altitude)
    }

    var ir: RQLCore.GeoPoint { RQLCore.GeoPoint(longitude: longitude, latitude: latitude) }
}

/// The rectangle between two corners.
///
/// ```swift
/// let box = GeoBox(bottomLeft: (47.3, -122.7), topRight: (48.1, -122.1))!
/// ```
public struct GeoBox: RLMGeospatial, Hashable {
    /// The south-west corner.
    public let bottomLeft: GeoPoint
    /// The north-east corner.
    public let topRight: GeoPoint

    /// The box between two points.
    ///
    /// ```swift
    /// GeoBox(bottomLeft: GeoPoint(47.3, -122.7)!, topRight: GeoPoint(48.1, -122.1)!)
    /// ```
    public init(bottomLeft: GeoPoint, topRight: GeoPoint) {
        self.bottomLeft = bottomLeft
        self.topRight = topRight
    }

    /// Corners as `(latitude, longitude)`; `nil` when either is out of range.
    public init?(bottomLeft: (Double, Double), topRight: (Double, Double)) {
        guard let low = GeoPoint(bottomLeft.0, bottomLeft.1), let high = GeoPoint(topRight.0, topRight.1) else {
            return nil
        }
        self.init(bottomLeft: low, topRight: high)
    }

    public var _rqlRegion: GeoRegion { .box(bottomLeft: bottomLeft.ir, topRight: topRight.ir) }
}

/// The points within a distance of a center.
///
/// ```swift
/// let circle = GeoCircle(center: GeoPoint(latitude: 47.8, longitude: -122.6)!, radius: .kilometers(44.4)!)!
/// ```
public struct GeoCircle: RLMGeospatial, Hashable {
    /// The center.
    public let center: GeoPoint
    /// The radius as an angle in radians.
    public let radians: Double

    /// `nil` for a negative or non-finite radius.
    public init?(center: GeoPoint, radiusInRadians: Double) {
        guard radiusInRadians.isFinite, radiusInRadians >= 0 else { return nil }
        self.center = center
        self.radians = radiusInRadians
    }

    /// A circle of `radius`; `nil` for an invalid one.
    ///
    /// ```swift
    /// GeoCircle(center: GeoPoint(47.8, -122.6)!, radius: .miles(10)!)
    /// ```
    public init?(center: GeoPoint, radius: Distance) {
        self.init(center: center, radiusInRadians: radius.radians)
    }

    /// Center as `(latitude, longitude)`.
    public init?(center: (Double, Double), radiusInRadians: Double) {
        guard let point = GeoPoint(center.0, center.1) else { return nil }
        self.init(center: point, radiusInRadians: radiusInRadians)
    }

    /// Center as `(latitude, longitude)`.
    public init?(center: (Double, Double), radius: Distance) {
        guard let point = GeoPoint(center.0, center.1) else { return nil }
        self.init(center: point, radius: radius)
    }

    public var _rqlRegion: GeoRegion { .circle(center: center.ir, radius: radians) }
}

/// An outer ring with optional holes. Each ring is closed (its first and last points are the
/// same) and has at least four points.
///
/// ```swift
/// let triangle = GeoPolygon(outerRing: [(48.0, -122.8), (48.2, -121.8), (47.6, -121.6), (48.0, -122.8)])!
/// ```
public struct GeoPolygon: RLMGeospatial, Hashable {
    /// The outer boundary, closed.
    public let outerRing: [GeoPoint]
    /// Regions cut out of the polygon, each closed.
    public let holes: [[GeoPoint]]

    /// `nil` when a ring has fewer than four points or is not closed.
    public init?(outerRing: [GeoPoint], holes: [[GeoPoint]]? = nil) {
        let holes = holes ?? []
        for ring in [outerRing] + holes where ring.count < 4 || ring.first != ring.last {
            return nil
        }
        self.outerRing = outerRing
        self.holes = holes
    }

    /// Rings of `(latitude, longitude)` pairs.
    public init?(outerRing: [(Double, Double)], holes: [[(Double, Double)]]? = nil) {
        guard let outer = GeoPolygon.points(outerRing) else { return nil }
        var holePoints: [[GeoPoint]] = []
        for hole in holes ?? [] {
            guard let points = GeoPolygon.points(hole) else { return nil }
            holePoints.append(points)
        }
        self.init(outerRing: outer, holes: holePoints)
    }

    /// Rings of `(latitude, longitude)` pairs, holes as trailing arguments.
    public init?(outerRing: [(Double, Double)], holes: [(Double, Double)]...) {
        self.init(outerRing: outerRing, holes: holes)
    }

    private static func points(_ pairs: [(Double, Double)]) -> [GeoPoint]? {
        var points: [GeoPoint] = []
        for pair in pairs {
            guard let point = GeoPoint(pair.0, pair.1) else { return nil }
            points.append(point)
        }
        return points
    }

    public var _rqlRegion: GeoRegion { .polygon(([outerRing] + holes).map { $0.map(\.ir) }) }
}

/// A distance on the sphere, for a `GeoCircle`'s radius. Kilometers and miles convert with
/// realm-core's Earth radius (6378.1 km, 3963.2 mi).
///
/// ```swift
/// let radius = Distance.kilometers(44.4)!
/// radius.radians  // 0.00696…
/// ```
public struct Distance: Hashable, Sendable {
    /// The distance as an angle at the Earth's center.
    public let radians: Double

    static let earthRadiusKilometers = 6378.1
    static let earthRadiusMiles = 3963.2

    private init?(radians: Double) {
        guard radians.isFinite, radians >= 0 else { return nil }
        self.radians = radians
    }

    /// `nil` for a negative distance.
    public static func radians(_ value: Double) -> Distance? { Distance(radians: value) }
    /// An angle in degrees (`.degrees(1)` is about 111 km); `nil` for a negative one.
    public static func degrees(_ value: Double) -> Distance? { Distance(radians: value * .pi / 180) }
    /// Kilometers on the Earth's surface: `Distance.kilometers(44.4)`; `nil` for a negative one.
    public static func kilometers(_ value: Double) -> Distance? { Distance(radians: value / earthRadiusKilometers) }
    /// Miles on the Earth's surface: `Distance.miles(10)`; `nil` for a negative one.
    public static func miles(_ value: Double) -> Distance? { Distance(radians: value / earthRadiusMiles) }

    /// The distance in radians: `Distance.degrees(180)!.asRadians` is π.
    public var asRadians: Double { radians }
    /// The distance in degrees: `Distance.radians(.pi)!.asDegrees` is 180.
    public var asDegrees: Double { radians * 180 / .pi }
    /// The distance in kilometers: `Distance.miles(1)!.asKilometers` is about 1.609.
    public var asKilometers: Double { radians * Distance.earthRadiusKilometers }
    /// The distance in miles: `Distance.kilometers(1.609)!.asMiles` is about 1.
    public var asMiles: Double { radians * Distance.earthRadiusMiles }
}
