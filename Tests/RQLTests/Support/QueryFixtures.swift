import RQL

// Models for queries beyond the reading guide's: every property type, and a GeoJSON point.

final class CustomGeoPoint: EmbeddedObject {
    @Persisted private var type: String = "Point"
    @Persisted private var coordinates: List<Double>

    var latitude: Double { coordinates[1] }
    var longitude: Double { coordinates[0] }

    convenience init(_ latitude: Double, _ longitude: Double) {
        self.init()
        // Longitude comes first in the coordinates of a GeoJSON document.
        coordinates.append(objectsIn: [longitude, latitude])
    }
}

final class Geospatial_Company: Object {
    @Persisted var location: CustomGeoPoint?
    @Persisted var offices: List<CustomGeoPoint>

    convenience init(_ location: CustomGeoPoint?) {
        self.init()
        self.location = location
    }
}

final class ToyBox: Object {
    @Persisted var label = ""
    @Persisted var toysByRoom: Map<String, DogToy?>
    @Persisted var birthdays: List<Date>
    @Persisted var spot: Address?
}
