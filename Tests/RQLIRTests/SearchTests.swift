import RQLCore
import RQLIR
import Testing

/// rql-semantics.md §8–9: TEXT and GEOWITHIN.
@Suite("Reference evaluator: TEXT and GEOWITHIN")
struct SearchTests {
    /// `Query_FullTextMulti` terms as the binder would parse them.
    static func terms(_ text: String) -> TextSearch {
        TextSearch(
            terms: text.split(separator: " ").map { word in
                var token = Substring(word)
                let excluded = token.hasPrefix("-")
                if excluded { token = token.dropFirst() }
                let prefix = token.hasSuffix("*")
                if prefix { token = token.dropLast() }
                return TextSearch.Term(token: token.lowercased(), isPrefix: prefix, isExcluded: excluded)
            }
        )
    }

    @Test(
        "TEXT: all included terms, no excluded term, prefixes",
        arguments: [
            ("ONE THREE", 2), ("three one", 2), ("1990s", 2), ("object gemstone", 2), ("depot emanant archive", 1),
            ("object data", 0), ("manage*", 3), ("manage* virtu*", 1), ("-three one", 1), ("one -three", 1),
            ("object -databases", 4), ("-databases object -duplicates", 3), ("object -objects", 3),
            ("-object objects", 1), ("databases -database", 0), ("database -databases", 3), ("-database", 6),
            ("-object", 5), ("-object -objects", 4), ("object database management brown", 1),
        ]
    )
    func fullText(search: String, expected: Int) throws {
        let h = try Harness(fixture: "fulltext", className: "table")
        #expect(h.count(.fullText(path: h.path("text"), query: Self.terms(search))) == expected)
    }

    @Test("TEXT through a link list is ANY: link.text TEXT 'object gemstone' is 2")
    func fullTextThroughLinks() throws {
        let h = try Harness(fixture: "fulltext", className: "origin")
        #expect(h.count(.fullText(path: h.path("link.text"), query: Self.terms("object gemstone"))) == 2)
    }

    static func point(_ longitude: Double, _ latitude: Double) -> GeoPoint {
        GeoPoint(longitude: longitude, latitude: latitude)
    }

    static let square = [point(0, 0), point(1, 0), point(1, 1), point(0, 1), point(0, 0)]
    static let hole = [point(0.25, 0.25), point(0.75, 0.25), point(0.75, 0.75), point(0.25, 0.75), point(0.25, 0.25)]

    @Test(
        "GEOWITHIN over embedded points (Restaurant fixture)",
        arguments: [
            (GeoRegion.box(bottomLeft: point(0.2, 0.2), topRight: point(0.7, 0.7)), 1),
            (.circle(center: point(0.3, 0.3), radius: 1), 4),
            (.polygon([square]), 1),
            (.polygon([square, hole]), 0),
        ]
    )
    func geoWithin(region: GeoRegion, expected: Int) throws {
        let h = try Harness(fixture: "geospatial", className: "Restaurant")
        #expect(h.count(.geoWithin(path: h.path("location"), quantifier: .any, region: region)) == expected)
    }

    @Test("GEOWITHIN over a link list: ANY 2, ALL 0 (false for empty lists), NONE 7")
    func geoQuantifiers() throws {
        let h = try Harness(fixture: "geospatial", className: "Restaurant")
        let circle = GeoRegion.circle(center: Self.point(-123.36197, 48.42626), radius: 0.000021950110534)
        let path = h.path("partners.location")
        #expect(h.count(.geoWithin(path: path, quantifier: .any, region: circle)) == 2)
        #expect(h.count(.geoWithin(path: path, quantifier: .all, region: circle)) == 0)
        #expect(h.count(.geoWithin(path: path, quantifier: .none, region: circle)) == 7)
    }

    @Test("Points on a polygon's edge or vertex are not inside; the interior is")
    func boundaries() {
        let square = GeoRegion.polygon([Self.square])
        #expect(square.contains(Self.point(0.5, 0.5)))
        #expect(!square.contains(Self.point(0, 0)))
        #expect(!square.contains(Self.point(1, 1)))
        #expect(!square.contains(Self.point(0.5, 0)))
        #expect(!square.contains(Self.point(1.5, 0.5)))
        let holed = GeoRegion.polygon([Self.square, Self.hole])
        #expect(!holed.contains(Self.point(0.5, 0.5)))
        #expect(!holed.contains(Self.point(0.25, 0.5)))
        #expect(holed.contains(Self.point(0.1, 0.5)))
    }

    @Test("Polygon edges are great-circle arcs: a box's upper edge bulges towards the pole")
    func geodesicEdges() {
        let box = GeoRegion.box(bottomLeft: Self.point(-40, 0), topRight: Self.point(40, 60))
        // On the meridian the arc from (-40, 60) to (40, 60) passes north of latitude 60.
        #expect(box.contains(Self.point(0, 62)))
        #expect(!box.contains(Self.point(0, 70)))
        #expect(box.contains(Self.point(179.9, 0)) == false)
    }

    @Test("A circle holds points within its great-circle radius, across the antimeridian too")
    func circles() {
        let circle = GeoRegion.circle(center: Self.point(179.5, 0), radius: 1.0 * .pi / 180)
        #expect(circle.contains(Self.point(-179.8, 0)))
        #expect(!circle.contains(Self.point(-178, 0)))
        #expect(circle.contains(Self.point(179.5, 0.99)))
    }
}
