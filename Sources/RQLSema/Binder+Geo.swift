import RQLCore
import RQLIR
import RQLSyntax

/// `location GEOWITHIN shape` (rql-semantics.md §8).
extension BindingSession {
    mutating func bindGeoWithin(
        location: Expression,
        shape: GeoShape,
        span: SourceSpan
    ) throws(BindError)
        -> BoundPredicate
    {
        let operand = try bindOperand(location)
        guard operand.source == .keyPath, case .path(let path) = operand.expression,
            let type = operand.type, let target = type.targetClassName
        else {
            let typeName = operand.type.map(ValueCoercion.typeName) ?? "constant"
            throw BindError(
                .geoOnNonLink,
                "The left hand side of 'geoWithin' must be a link to geoJSON formatted data."
                    + " But the provided type is '\(typeName)'",
                at: location.span
            )
        }
        guard let targetSchema = schema[target], isGeoJSONPoint(targetSchema) else {
            throw BindError(
                .geoWrongTarget,
                "\(operand.quotedText) links to data in the wrong format for a geoWithin query: class '\(target)' must"
                    + " be embedded, with a string property 'type' and a list<double> property 'coordinates'",
                at: location.span
            )
        }
        let region = try geoRegion(shape)
        return .geoWithin(path: path, quantifier: operand.quantifier ?? .any, region: region)
    }

    private func isGeoJSONPoint(_ objectSchema: ObjectSchema) -> Bool {
        guard let type = objectSchema.property(named: "type"),
            let coordinates = objectSchema.property(named: "coordinates")
        else { return false }
        return objectSchema.isEmbedded && type.type == .string && type.collection == .single
            && coordinates.type == .double
            && coordinates.collection == .list
    }

    func geoRegion(_ shape: GeoShape) throws(BindError) -> GeoRegion {
        let region: GeoRegion
        switch shape.kind {
        case .box(let bottomLeft, let topRight):
            region = .box(bottomLeft: try geoPoint(bottomLeft), topRight: try geoPoint(topRight))
        case .circle(let center, let radius):
            region = .circle(center: try geoPoint(center), radius: try coordinate(radius))
        case .polygon(let rings):
            var points: [[RQLCore.GeoPoint]] = []
            for ring in rings {
                var bound: [RQLCore.GeoPoint] = []
                for point in ring { bound.append(try geoPoint(point)) }
                points.append(bound)
            }
            region = .polygon(points)
        case .argument(let argument):
            let (value, name) = try argumentValue(argument, span: shape.span)
            region = try geoRegion(argument: value, name: name, span: shape.span)
        }
        try validate(region, span: shape.span)
        return region
    }

    /// A geospatial argument: a region, or (as realm-core's C API allows) a string holding a shape.
    private func geoRegion(argument: QueryArgument, name: String, span: SourceSpan) throws(BindError) -> GeoRegion {
        switch argument {
        case .geo(let region):
            return region
        case .value(.string(let text)):
            guard let query = try? Parser.parse("location GEOWITHIN " + text),
                case .geoWithin(_, let shape) = query.predicate.kind, query.clauses.isEmpty
            else {
                throw BindError(
                    .geoBadArgument,
                    "Invalid syntax in serialized geospatial object at argument \(name): '\(text)'",
                    at: span
                )
            }
            if case .argument = shape.kind {
                throw BindError(.geoBadArgument, "argument \(name) cannot refer to another argument", at: span)
            }
            let inner = BindingSession(
                schema: schema,
                rootClass: rootClass,
                arguments: [],
                variables: [:],
                dialect: .rql
            )
            do {
                return try inner.geoRegion(shape)
            } catch {
                throw BindError(error.kind, error.message + " (in argument \(name))", at: span)
            }
        case .value(let value):
            if let region = QueryArgument(decoding: value).geoRegion { return region }
            throw BindError(
                .geoBadArgument,
                "The right hand side of 'geoWithin' must be a geospatial constant value."
                    + " But the provided type is '\(value.kind)'",
                at: span
            )
        case .list:
            throw BindError(
                .geoBadArgument,
                "The right hand side of 'geoWithin' must be a geospatial constant value. But \(name) is a list",
                at: span
            )
        }
    }

    private func geoPoint(_ point: RQLSyntax.GeoPoint) throws(BindError) -> RQLCore.GeoPoint {
        RQLCore.GeoPoint(longitude: try coordinate(point.longitude), latitude: try coordinate(point.latitude))
    }

    /// A coordinate or radius: a number literal or a numeric argument.
    private func coordinate(_ expression: Expression) throws(BindError) -> Double {
        switch expression.kind {
        case .literal(.integer(let value)): return Double(value)
        case .literal(.double(let value)), .literal(.preciseDouble(let value, _)): return value
        case .literal(.float(let value)): return Double(value)
        case .argument(let argument):
            let (value, name) = try argumentValue(argument, span: expression.span)
            switch value {
            case .value(.int(let v)): return Double(v)
            case .value(.double(let v)): return v
            case .value(.float(let v)): return Double(v)
            case .value(.decimal(let v)): return v.doubleValue
            case .value(.null):
                throw BindError(
                    .geoBadArgument,
                    "NULL cannot be used in coordinate at argument '\(name)'",
                    at: expression.span
                )
            case .value(let other):
                throw BindError(
                    .geoBadArgument,
                    "Invalid parameter '\(other.kind)' used in coordinate at argument '\(name)'",
                    at: expression.span
                )
            case .list, .geo:
                throw BindError(
                    .geoBadArgument,
                    "Invalid parameter used in coordinate at argument '\(name)': a number is needed",
                    at: expression.span
                )
            }
        default:
            throw BindError(.geoBadArgument, "a coordinate must be a number", at: expression.span)
        }
    }

    /// realm-core's checks of a region (`GeoRegion.validate`), with its reasons.
    private func validate(_ region: GeoRegion, span: SourceSpan) throws(BindError) {
        do {
            try region.validate()
        } catch {
            throw BindError(.geoBadArgument, "Invalid region in GEOWITHIN query: '\(error.description)'", at: span)
        }
    }
}
