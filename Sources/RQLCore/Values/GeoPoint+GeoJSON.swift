/// Reading a point out of an embedded GeoJSON object, as every executor does.
extension GeoPoint {
    /// The point a GeoJSON object holds: `type` is "Point" (any case) and `coordinates` has at
    /// least two numbers, longitude then latitude; nil for anything else.
    ///
    ///     GeoPoint(geoJSONType: .string("Point"), coordinates: [.double(2.3), .int(48)])
    ///     // GeoPoint(longitude: 2.3, latitude: 48)
    public init?(geoJSONType type: Value, coordinates: some Collection<Value>) {
        guard case .string(let name) = type, name.lowercased() == "point", coordinates.count >= 2,
            let longitude = Self.number(coordinates[coordinates.startIndex]),
            let latitude = Self.number(coordinates[coordinates.index(after: coordinates.startIndex)])
        else { return nil }
        self.init(longitude: longitude, latitude: latitude)
    }

    private static func number(_ value: Value) -> Double? {
        switch value {
        case .double(let d): d
        case .float(let f): Double(f)
        case .int(let i): Double(i)
        case .decimal(let d): d.doubleValue
        default: nil
        }
    }
}
