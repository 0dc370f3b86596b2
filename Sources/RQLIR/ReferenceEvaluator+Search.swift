import RQLCore

/// TEXT and GEOWITHIN: the two predicates that are not comparisons.
extension ReferenceEvaluator {
    /// `path TEXT 'terms'`: some string reached (ANY over a to-many path) has, among its
    /// `FullTextTokenizer` tokens, every included term (a prefix term: a token starting with
    /// it) and no excluded term. The value is tokenized directly rather than looked up in the
    /// full-text index, by the rule the VM applies too (`TextSearch.matches`). A null string has
    /// no tokens.
    func fullTextHolds(path: BoundPath, query: TextSearch, in context: Context) -> Bool {
        let search = TextSearch(normalizing: query)
        return values(of: path, in: context).contains { value in
            switch value {
            case .string(let string): search.matches(string)
            case .null: search.matches("")
            default: false
            }
        }
    }

    /// `path GEOWITHIN region`: each object reached is a GeoJSON point (or not one, which is
    /// never within); ANY / NONE as usual, but ALL is false when there are no objects, and a
    /// null link is a point that is not within.
    func geoWithinHolds(path: BoundPath, quantifier: Quantifier, region: GeoRegion, in context: Context) -> Bool {
        var within: [Bool] = []
        for item in reach(path, in: context) {
            for element in elements(of: item) {
                switch element {
                case .object(let object):
                    within.append(point(of: object).map { region.contains($0) } ?? false)
                case .nullLink, .value, .collection:
                    within.append(false)
                }
            }
        }
        switch quantifier {
        case .any: return within.contains(true)
        case .all: return !within.isEmpty && !within.contains(false)
        case .none: return !within.contains(true)
        }
    }

    /// The point an embedded GeoJSON object holds (`GeoPoint(geoJSONType:coordinates:)`).
    func point(of object: ObjectRef) -> GeoPoint? {
        let schema = object.table.objectSchema
        guard let typeColumn = schema.propertyIndex(named: "type"),
            let coordinatesColumn = schema.propertyIndex(named: "coordinates"),
            case .list(let coordinates) = object.table.value(at: object.position, property: coordinatesColumn)
        else { return nil }
        return GeoPoint(
            geoJSONType: object.table.value(at: object.position, property: typeColumn),
            coordinates: coordinates
        )
    }
}
