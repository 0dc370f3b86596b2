import RQLCore
import RQLDatasets
import RQLIR
import RQLSema
import RQLStorage

/// Reads a query argument written as JSON, as `rqlc run --arg` and the conformance vectors give
/// them: a JSON array is a list argument, `{"$geoBox": …}`, `{"$geoCircle": …}` and
/// `{"$geoPolygon": …}` are regions (see `../shared/spec/rqlc.md`), anything else is one value
/// in the dataset format's mixed-value form.
///
///     try ArgumentReader.read("[1, 2]", store: store)                                   // .list
///     try ArgumentReader.read(#"{"$geoBox": [[0, 0], [1, 1]]}"#, store: store)          // .geo
public enum ArgumentReader {
    public static func read(_ text: String, store: some StoreReader) throws(ArgumentError) -> QueryArgument {
        try read(ArgumentDecoder.parse(Array(text.utf8)), store: store)
    }

    /// Reads an argument given as bytes (as a command line hands it over), which must be UTF-8:
    /// an invalid byte is an error with its offset, never replaced by U+FFFD.
    public static func read(utf8 bytes: [UInt8], store: some StoreReader) throws(ArgumentError) -> QueryArgument {
        try read(ArgumentDecoder.parse(bytes), store: store)
    }

    public static func read(_ json: JSONValue, store: some StoreReader) throws(ArgumentError) -> QueryArgument {
        switch json {
        case .array(let elements):
            var values: [Value] = []
            for element in elements { values.append(try ArgumentDecoder.decode(element, store: store)) }
            return .list(values)
        case .object(let members) where members.count == 1 && members[0].key.hasPrefix("$geo"):
            return .geo(try region(members[0].key, members[0].value))
        default:
            return .value(try ArgumentDecoder.decode(json, store: store))
        }
    }

    private static func region(_ tag: String, _ body: JSONValue) throws(ArgumentError) -> GeoRegion {
        func invalid(_ reason: String) -> ArgumentError { .invalid(path: tag, reason: reason) }
        switch tag {
        case "$geoBox":
            guard case .array(let corners) = body, corners.count == 2 else {
                throw invalid("expected [[lon, lat], [lon, lat]] (bottom-left, top-right)")
            }
            return .box(bottomLeft: try point(corners[0], invalid), topRight: try point(corners[1], invalid))
        case "$geoCircle":
            guard let center = body["center"], case .number(let radius)? = body["radius"]
            else {
                throw invalid("expected {\"center\": [lon, lat], \"radius\": RADIANS}")
            }
            guard let radians = radius.finiteDoubleValue else { throw invalid("radius \(radius.text) is out of range") }
            return .circle(center: try point(center, invalid), radius: radians)
        case "$geoPolygon":
            guard case .array(let rings) = body, !rings.isEmpty else {
                throw invalid("expected [[[lon, lat], …], …] (outer ring, then holes)")
            }
            var result: [[GeoPoint]] = []
            for ring in rings {
                guard case .array(let points) = ring else { throw invalid("each ring is an array of points") }
                var ringPoints: [GeoPoint] = []
                for item in points { ringPoints.append(try point(item, invalid)) }
                result.append(ringPoints)
            }
            return .polygon(result)
        default:
            throw invalid("unknown geospatial tag; use $geoBox, $geoCircle or $geoPolygon")
        }
    }

    private static func point(
        _ json: JSONValue,
        _ invalid: (String) -> ArgumentError
    ) throws(ArgumentError) -> GeoPoint {
        guard case .array(let coordinates) = json, coordinates.count >= 2,
            case .number(let longitude) = coordinates[0], case .number(let latitude) = coordinates[1]
        else { throw invalid("a point is [longitude, latitude]") }
        guard let lon = longitude.finiteDoubleValue, let lat = latitude.finiteDoubleValue else {
            throw invalid("a coordinate is out of range for a double")
        }
        return GeoPoint(longitude: lon, latitude: lat)
    }
}
