import RQLCore

/// TEXT and GEOWITHIN: the two predicates that are not comparisons.
extension ReferenceEvaluator {
    /// `path TEXT 'terms'`: some string reached (ANY over a to-many path) has, among its
    /// `FullTextTokenizer` tokens, every included term (a prefix term: a token starting with
    /// it) and no excluded term. The value is tokenized directly rather than looked up in the
    /// full-text index: the plainest correct reading. A null string has no tokens.
    func fullTextHolds(path: BoundPath, query: FullTextQuery, in context: Context) -> Bool {
        let terms = query.terms.map(Self.normalized)
        return values(of: path, in: context).contains { value in
            let text: String
            switch value {
            case .string(let string): text = string
            case .null: text = ""
            default: return false
            }
            let tokens = FullTextTokenizer.tokens(in: text)
            for term in terms {
                let occurs = tokens.contains { token in
                    term.isPrefix ? token.utf8.starts(with: term.token.utf8) : token.utf8.elementsEqual(term.token.utf8)
                }
                if occurs == term.isExcluded { return false }
            }
            return true
        }
    }

    /// A term folded exactly as the tokenizer folds text, so `Café` finds `cafe`.
    private static func normalized(_ term: FullTextQuery.Term) -> FullTextQuery.Term {
        var result = term
        let tokens = FullTextTokenizer.tokens(in: term.token)
        if tokens.count == 1 { result.token = tokens[0] }
        return result
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
