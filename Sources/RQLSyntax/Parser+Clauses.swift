import RQLCore

/// The result clauses after the predicate, and geospatial shapes.
extension QueryParser {
    /// post_query = ( sort_clause | distinct_clause | limit_clause )* ;
    mutating func parsePostQuery() throws(SyntaxError) -> [PostQueryClause] {
        var clauses: [PostQueryClause] = []
        while current.kind == .word {
            switch current.keyword {
            case .sort: clauses.append(try parseSortClause())
            case .distinct: clauses.append(try parseDistinctClause())
            case .limit: clauses.append(try parseLimitClause())
            default: return clauses
            }
        }
        return clauses
    }

    /// sort_clause = SORT '(' sort_key ( ',' sort_key )* ')' ;
    mutating func parseSortClause() throws(SyntaxError) -> PostQueryClause {
        let keyword = try advance()
        try expect(.leftParen, "'(' and the sort keys")
        var keys = [try parseSortKey()]
        while current.kind == .comma {
            try advance()
            keys.append(try parseSortKey())
        }
        let close = try expect(.rightParen, "',' or ')'")
        return PostQueryClause(.sort(keys), span: keyword.span.through(close.span))
    }

    /// sort_key = key_path DIRECTION ;
    ///
    /// DIRECTION = ASC | ASCENDING | DESC | DESCENDING ;
    mutating func parseSortKey() throws(SyntaxError) -> SortKey {
        let (path, _) = try parseKeyPath()
        guard current.kind == .word else { throw unexpected(expected: "ASC or DESC") }
        switch current.keyword {
        case .asc, .ascending:
            try advance()
            return SortKey(path, ascending: true)
        case .desc, .descending:
            try advance()
            return SortKey(path, ascending: false)
        default:
            throw unexpected(expected: "ASC or DESC")
        }
    }

    /// distinct_clause = DISTINCT '(' key_path ( ',' key_path )* ')' ;
    mutating func parseDistinctClause() throws(SyntaxError) -> PostQueryClause {
        let keyword = try advance()
        try expect(.leftParen, "'(' and the key paths")
        var paths = [try parseKeyPath().path]
        while current.kind == .comma {
            try advance()
            paths.append(try parseKeyPath().path)
        }
        let close = try expect(.rightParen, "',' or ')'")
        return PostQueryClause(.distinct(paths), span: keyword.span.through(close.span))
    }

    /// limit_clause = LIMIT '(' NATURAL ')' ;
    mutating func parseLimitClause() throws(SyntaxError) -> PostQueryClause {
        let keyword = try advance()
        try expect(.leftParen, "'(' and a count")
        let count = try parseNatural(what: "the number of results")
        let close = try expect(.rightParen, "')'")
        return PostQueryClause(.limit(count), span: keyword.span.through(close.span))
    }

    // MARK: - Geospatial shapes

    /// geo_shape = geo_box | geo_circle | geo_polygon | argument ;
    mutating func parseGeoShape() throws(SyntaxError) -> GeoShape {
        switch current.kind {
        case .argument, .formatArgument, .variable:
            let (argument, span) = try parseArgument()
            return GeoShape(.argument(argument), span: span)
        case .word where current.keyword == .geoBox:
            return try parseGeoBox()
        case .word where current.keyword == .geoCircle:
            return try parseGeoCircle()
        case .word where current.keyword == .geoPolygon:
            return try parseGeoPolygon()
        default:
            throw unexpected(expected: "geoBox(…), geoCircle(…), geoPolygon(…) or an argument")
        }
    }

    /// geo_box = GEOBOX '(' geo_point ',' geo_point ')' ;
    mutating func parseGeoBox() throws(SyntaxError) -> GeoShape {
        let keyword = try advance()
        try expect(.leftParen, "'('")
        let bottomLeft = try parseGeoPoint()
        try expect(.comma, "',' and the top-right corner")
        let topRight = try parseGeoPoint()
        let close = try expect(.rightParen, "')'")
        return GeoShape(.box(bottomLeft, topRight), span: keyword.span.through(close.span))
    }

    /// geo_circle = GEOCIRCLE '(' geo_point ',' coordinate ')' ;
    mutating func parseGeoCircle() throws(SyntaxError) -> GeoShape {
        let keyword = try advance()
        try expect(.leftParen, "'('")
        let center = try parseGeoPoint()
        try expect(.comma, "',' and the radius in radians")
        let radius = try parseCoordinate()
        let close = try expect(.rightParen, "')'")
        return GeoShape(.circle(center: center, radius: radius), span: keyword.span.through(close.span))
    }

    /// geo_polygon = GEOPOLYGON '(' geo_loop ( ',' geo_loop )* ')' ;
    mutating func parseGeoPolygon() throws(SyntaxError) -> GeoShape {
        let keyword = try advance()
        try expect(.leftParen, "'('")
        var loops = [try parseGeoLoop()]
        while current.kind == .comma {
            try advance()
            loops.append(try parseGeoLoop())
        }
        let close = try expect(.rightParen, "',' or ')'")
        return GeoShape(.polygon(loops), span: keyword.span.through(close.span))
    }

    /// geo_loop = '{' geo_point ( ',' geo_point )* '}' ;
    mutating func parseGeoLoop() throws(SyntaxError) -> [GeoPoint] {
        try expect(.leftBrace, "'{' and the points of a ring")
        var points = [try parseGeoPoint()]
        while current.kind == .comma {
            try advance()
            points.append(try parseGeoPoint())
        }
        try expect(.rightBrace, "',' or '}'")
        return points
    }

    /// geo_point = '[' coordinate ',' coordinate ( ',' coordinate )? ']' ;
    mutating func parseGeoPoint() throws(SyntaxError) -> GeoPoint {
        // `[` may have been lexed as the start of a modifier only if followed by c] or d], which no
        // coordinate is, so a point always starts with a plain bracket.
        try expect(.leftBracket, "'[' and a point's longitude and latitude")
        let longitude = try parseCoordinate()
        try expect(.comma, "',' and the latitude")
        let latitude = try parseCoordinate()
        var altitude: Expression?
        if current.kind == .comma {
            try advance()
            altitude = try parseCoordinate()
        }
        try expect(.rightBracket, "']'")
        return GeoPoint(longitude: longitude, latitude: latitude, altitude: altitude)
    }

    /// coordinate = NUMBER | argument ;
    mutating func parseCoordinate() throws(SyntaxError) -> Expression {
        switch current.kind {
        case .integer, .floatingPoint: return try parseLiteral()
        case .argument, .formatArgument, .variable: return try parseArgumentExpression()
        default: throw unexpected(expected: "a number or an argument")
        }
    }
}
