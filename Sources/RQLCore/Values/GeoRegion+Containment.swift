import Foundation

/// Point-in-region on the sphere, for GEOWITHIN (realm-core uses S2; this is the plain
/// geometry behind it).
///
/// * A point with impossible coordinates (`GeoPoint.isValid` false, NaN included) is in no
///   region. realm-core would wrap `[500, 500]` onto the sphere somewhere; a stored point like
///   that is a data error, and matching it by accident is worse than never matching it.
/// * A circle holds the points whose great-circle distance from the centre is at most the
///   radius (radians).
/// * A polygon's edges are great-circle arcs, and each ring stands for the smaller of the two
///   regions it bounds (S2 normalises loops that way), whichever way it is wound. A point is
///   inside when it is strictly inside the outer ring and neither inside nor on any hole: points
///   on an edge are not inside. A box is the polygon of its four corners (`GeoRegion.ring`).
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
        guard point.isValid else { return false }
        switch self {
        case .circle(let center, let radius):
            return SpherePoint(center).distance(to: SpherePoint(point)) <= radius
        case .box(let bottomLeft, let topRight):
            return GeoRegion.polygon([GeoRegion.ring(bottomLeft: bottomLeft, topRight: topRight)]).contains(point)
        case .polygon(let rings):
            guard let outerRing = rings.first else { return false }
            let outer = GeoLoop.vertices(of: outerRing)
            guard let projection = GnomonicProjection(loop: outer), let target = projection.project(SpherePoint(point))
            else { return false }
            guard projection.locate(target, in: outer) == .inside else { return false }
            for hole in rings.dropFirst() where projection.locate(target, in: GeoLoop.vertices(of: hole)) != .outside {
                return false
            }
            return true
        }
    }
}

/// A unit vector on the sphere.
struct SpherePoint: Equatable {
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

/// Rings as S2 loops: their distinct vertices in order, without the closing repeat.
enum GeoLoop {
    /// The ring's vertices on the sphere with neighbouring repeats removed and the closing vertex
    /// dropped (realm-core's `erase_duplicate_adjacent_points` then `resize(size - 1)`).
    static func vertices(of ring: [GeoPoint]) -> [SpherePoint] {
        var loop: [SpherePoint] = []
        for point in ring {
            let vertex = SpherePoint(point)
            if loop.last != vertex { loop.append(vertex) }
        }
        if loop.count > 1, loop.first == loop.last { loop.removeLast() }
        return loop
    }

    /// What S2's `S2Loop::IsValid` would object to: a vertex that appears twice, or two edges
    /// that cross; nil for a valid loop.
    static func validationProblem(_ loop: [SpherePoint]) -> String? {
        for i in loop.indices {
            for j in loop.indices where j > i && loop[i] == loop[j] {
                return "Duplicate vertices: \(i) and \(j)"
            }
        }
        let n = loop.count
        for i in 0..<n {
            for j in (i + 2)..<max(i + 2, n) where !(i == 0 && j == n - 1) {
                if crosses(loop[i], loop[(i + 1) % n], loop[j], loop[(j + 1) % n]) {
                    return "Edges \(i) and \(j) cross"
                }
            }
        }
        return nil
    }

    /// Whether some edge of `a` crosses some edge of `b`.
    static func edgesCross(_ a: [SpherePoint], _ b: [SpherePoint]) -> Bool {
        for i in a.indices {
            for j in b.indices
            where crosses(a[i], a[(i + 1) % a.count], b[j], b[(j + 1) % b.count]) {
                return true
            }
        }
        return false
    }

    /// Whether the region of `outer` holds the loop `inner`: no edges cross and every vertex of
    /// `inner` is inside `outer` or on its boundary.
    static func contains(_ outer: [SpherePoint], _ inner: [SpherePoint]) -> Bool {
        guard let projection = GnomonicProjection(loop: outer), !edgesCross(outer, inner) else { return false }
        for vertex in inner {
            guard let target = projection.project(vertex), projection.locate(target, in: outer) != .outside else {
                return false
            }
        }
        return true
    }

    /// Whether the great-circle arcs AB and CD cross at a point interior to both (S2's
    /// `SimpleCrossing`); arcs that share a vertex or only touch do not.
    static func crosses(_ a: SpherePoint, _ b: SpherePoint, _ c: SpherePoint, _ d: SpherePoint) -> Bool {
        let ab = a.cross(b)
        let acb = -ab.dot(c)
        let bda = ab.dot(d)
        guard acb * bda > 0 else { return false }
        let cd = c.cross(d)
        let cbd = -cd.dot(b)
        let dac = cd.dot(a)
        return acb * cbd > 0 && acb * dac > 0
    }
}

/// The gnomonic projection onto the plane tangent at a loop's centroid.
struct GnomonicProjection {
    enum Location { case inside, boundary, outside }

    let center: SpherePoint
    let east: SpherePoint
    let north: SpherePoint

    /// Nil when the loop has fewer than 3 vertices, no usable centroid, or a vertex 90° or more
    /// from it.
    init?(loop vertices: [SpherePoint]) {
        guard vertices.count >= 3 else { return nil }
        var sum = SpherePoint(x: 0, y: 0, z: 0)
        for vertex in vertices {
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
    func project(_ v: SpherePoint) -> (Double, Double)? {
        let depth = v.dot(center)
        guard depth > 1e-9 else { return nil }
        return (v.dot(east) / depth, v.dot(north) / depth)
    }

    /// Even-odd test with an explicit boundary check (tolerance about 1e-12 radians).
    func locate(_ p: (Double, Double), in loop: [SpherePoint]) -> Location {
        let points = loop.compactMap(project)
        guard points.count == loop.count, points.count >= 3 else { return .outside }
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
