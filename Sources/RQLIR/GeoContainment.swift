import Foundation

/// Point-in-region on the sphere, for GEOWITHIN (realm-core uses S2; this is the plain
/// geometry behind it).
///
/// * A circle holds the points whose great-circle distance from the centre is at most the
///   radius (radians).
/// * A polygon's edges are great-circle arcs. A point is inside when it is strictly inside the
///   outer ring and neither inside nor on any hole: points on an edge are not inside. A box is
///   the polygon of its four corners.
///
/// Polygons are tested in the gnomonic projection centred on the outer ring's vertex centroid,
/// which maps great circles to straight lines, so the planar even-odd test is exact for
/// geodesic edges. That requires every vertex within 90° of the centroid — true of any region
/// smaller than a hemisphere, which is what S2 normalizes loops to; a ring that is not is
/// treated as containing nothing.
///
///     let square = GeoRegion.polygon([[p(0, 0), p(1, 0), p(1, 1), p(0, 1), p(0, 0)]])
///     square.contains(GeoPoint(longitude: 0.5, latitude: 0.5))  // true
///     square.contains(GeoPoint(longitude: 1, latitude: 1))      // false: on the boundary
extension GeoRegion {
    /// Whether `point` lies in the region.
    public func contains(_ point: GeoPoint) -> Bool {
        switch self {
        case .circle(let center, let radius):
            return SpherePoint(center).distance(to: SpherePoint(point)) <= radius
        case .box(let bottomLeft, let topRight):
            let ring = [
                bottomLeft,
                GeoPoint(longitude: topRight.longitude, latitude: bottomLeft.latitude),
                topRight,
                GeoPoint(longitude: bottomLeft.longitude, latitude: topRight.latitude),
                bottomLeft,
            ]
            return GeoRegion.polygon([ring]).contains(point)
        case .polygon(let rings):
            guard let outer = rings.first, let projection = GnomonicProjection(ring: outer) else { return false }
            guard let target = projection.project(point) else { return false }
            guard projection.locate(target, in: outer) == .inside else { return false }
            for hole in rings.dropFirst() where projection.locate(target, in: hole) != .outside {
                return false
            }
            return true
        }
    }
}

/// A unit vector on the sphere.
private struct SpherePoint {
    var x: Double
    var y: Double
    var z: Double

    init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    init(_ point: GeoPoint) {
        let lon = point.longitude * .pi / 180
        let lat = point.latitude * .pi / 180
        self.init(x: cos(lat) * cos(lon), y: cos(lat) * sin(lon), z: sin(lat))
    }

    func dot(_ other: SpherePoint) -> Double { x * other.x + y * other.y + z * other.z }

    func cross(_ o: SpherePoint) -> SpherePoint {
        SpherePoint(x: y * o.z - z * o.y, y: z * o.x - x * o.z, z: x * o.y - y * o.x)
    }

    var length: Double { dot(self).squareRoot() }

    func scaled(_ factor: Double) -> SpherePoint { SpherePoint(x: x * factor, y: y * factor, z: z * factor) }

    /// The great-circle distance in radians (atan2 form: accurate for tiny and large angles).
    func distance(to other: SpherePoint) -> Double {
        atan2(cross(other).length, dot(other))
    }
}

/// The gnomonic projection onto the plane tangent at a ring's centroid.
private struct GnomonicProjection {
    enum Location { case inside, boundary, outside }

    let center: SpherePoint
    let east: SpherePoint
    let north: SpherePoint

    /// Nil when the ring has no usable centroid or a vertex lies 90° or more from it.
    init?(ring: [GeoPoint]) {
        let vertices = ring.map(SpherePoint.init)
        var sum = SpherePoint(x: 0, y: 0, z: 0)
        // A closed ring repeats its first point; count it once.
        for vertex in vertices.dropLast(ring.count > 1 && ring.first == ring.last ? 1 : 0) {
            sum = SpherePoint(x: sum.x + vertex.x, y: sum.y + vertex.y, z: sum.z + vertex.z)
        }
        guard sum.length > 1e-12 else { return nil }
        center = sum.scaled(1 / sum.length)
        let axis = abs(center.z) < 0.9 ? SpherePoint(x: 0, y: 0, z: 1) : SpherePoint(x: 1, y: 0, z: 0)
        let e = axis.cross(center)
        east = e.scaled(1 / e.length)
        north = center.cross(east)
        guard vertices.allSatisfy({ $0.dot(center) > 1e-9 }) else { return nil }
    }

    /// Plane coordinates, or nil for a point 90° or more from the centre (never inside).
    func project(_ point: GeoPoint) -> (Double, Double)? {
        let v = SpherePoint(point)
        let depth = v.dot(center)
        guard depth > 1e-9 else { return nil }
        return (v.dot(east) / depth, v.dot(north) / depth)
    }

    /// Even-odd test with an explicit boundary check (tolerance about 1e-12 radians).
    func locate(_ p: (Double, Double), in ring: [GeoPoint]) -> Location {
        let points = ring.compactMap(project)
        guard points.count == ring.count, points.count >= 3 else { return .outside }
        var inside = false
        for i in points.indices {
            let a = points[i]
            let b = points[(i + 1) % points.count]
            if Self.isOnSegment(p, a, b) { return .boundary }
            if (a.1 > p.1) != (b.1 > p.1) {
                let crossingX = a.0 + (p.1 - a.1) * (b.0 - a.0) / (b.1 - a.1)
                if p.0 < crossingX { inside.toggle() }
            }
        }
        return inside ? .inside : .outside
    }

    private static func isOnSegment(_ p: (Double, Double), _ a: (Double, Double), _ b: (Double, Double)) -> Bool {
        let dx = b.0 - a.0
        let dy = b.1 - a.1
        let lengthSquared = dx * dx + dy * dy
        let tolerance = 1e-12
        if lengthSquared == 0 {
            return abs(p.0 - a.0) <= tolerance && abs(p.1 - a.1) <= tolerance
        }
        let cross = dx * (p.1 - a.1) - dy * (p.0 - a.0)
        guard abs(cross) <= tolerance * lengthSquared.squareRoot() else { return false }
        let along = dx * (p.0 - a.0) + dy * (p.1 - a.1)
        return along >= -tolerance && along <= lengthSquared + tolerance
    }
}
