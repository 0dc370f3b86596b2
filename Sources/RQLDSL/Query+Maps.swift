import RQLCore
import RQLIR

extension Query where T: _QueryKeyedCollection {
    /// `map.@count`: the number of entries.
    ///
    /// ```swift
    /// dogs.where { $0.nicknames.count > 1 }
    /// ```
    public var count: Query<Int> {
        with(node.mapPath(for: "'.count'") { (path) throws(QueryBuildError) in try path.end(with: .count) })
    }

    /// `ANY map == value`: some entry holds the value.
    ///
    /// ```swift
    /// dogs.where { $0.nicknames.contains("Rexy") }
    /// ```
    public func contains(_ value: T.Value) -> Query<Bool> {
        Query<Bool>(
            .predicate(
                .comparison(UnboundComparison(.quantified(.any, wholeMap), .equal, QueryConstant.expression(value)))
            ),
            paths: allPaths
        )
    }

    /// `ANY map IN values`: some entry holds one of the values.
    ///
    /// ```swift
    /// dogs.where { $0.nicknames.containsAny(in: ["Rexy", "R."]) }
    /// ```
    public func containsAny<U: Sequence>(in collection: U) -> Query<Bool> where U.Element == T.Value {
        Query<Bool>(
            .predicate(
                .comparison(UnboundComparison(.quantified(.any, wholeMap), .in, QueryConstant.list(collection)))
            ),
            paths: allPaths
        )
    }

    /// `ALL values IN map`: the map's values include every one of the values.
    ///
    /// ```swift
    /// dogs.where { $0.nicknames.containsAll(in: ["Rexy", "R."]) }
    /// ```
    public func containsAll<U: Sequence>(in collection: U) -> Query<Bool> where U.Element == T.Value {
        Query<Bool>(
            .predicate(
                .comparison(UnboundComparison(.quantified(.all, QueryConstant.list(collection)), .in, wholeMap))
            ),
            paths: allPaths
        )
    }

    /// `map.@values`: every value of the map; comparing it means ANY.
    ///
    /// ```swift
    /// dogs.where { $0.favoriteParksByCity.values.contains("Park") }
    /// ```
    public var values: Query<T.Value> {
        with(node.mapPath(for: "'.values'") { (path) throws(QueryBuildError) in path.appendMapStep(.values) })
    }

    /// `map['key']`: the value for one key (null when the key is absent).
    ///
    /// ```swift
    /// dogs.where { $0.favoriteParksByCity["Chicago"] == "Millennium" }
    /// ```
    public subscript(member: T.Key) -> Query<T.Value> {
        with(
            node.mapPath(for: "a map subscript") { (path) throws(QueryBuildError) in
                guard let key = member as? String else {
                    throw QueryBuildError(message: "map keys are strings; '\(member)' is not one")
                }
                path.appendMapStep(.key(key))
            }
        )
    }

    var wholeMap: UnboundExpression {
        switch node.path(for: "a map operator") {
        case .success(let path): path.wholeCollection
        case .failure(let error): .invalid(error.message)
        }
    }
}

extension Query where T: _QueryKeyedCollection, T.Key == String {
    /// `map.@keys`: every key of the map; comparing it means ANY.
    ///
    /// ```swift
    /// dogs.where { $0.favoriteParksByCity.keys.starts(with: "New") }
    /// ```
    public var keys: Query<String> {
        with(node.mapPath(for: "'.keys'") { (path) throws(QueryBuildError) in path.appendMapStep(.keys) })
    }
}

extension Query where T: _QueryKeyedCollection, T.Value: _HasPersistedType, T.Value.PersistedType: _QueryNumeric {
    /// `map.@min`.
    ///
    /// ```swift
    /// dogs.where { $0.scoresByGame.min > 2 }
    /// ```
    public var min: Query<T.Value> { aggregate(.min) }
    /// `map.@max`.
    ///
    /// ```swift
    /// dogs.where { $0.scoresByGame.max < 10 }
    /// ```
    public var max: Query<T.Value> { aggregate(.max) }
    /// `map.@avg`.
    ///
    /// ```swift
    /// dogs.where { $0.scoresByGame.avg >= 5 }
    /// ```
    public var avg: Query<T.Value> { aggregate(.avg) }
    /// `map.@sum`.
    ///
    /// ```swift
    /// dogs.where { $0.scoresByGame.sum > 20 }
    /// ```
    public var sum: Query<T.Value> { aggregate(.sum) }
}

extension Query where T: _QueryKeyedCollection, T.Value: Comparable {
    /// Every value lies in the range.
    ///
    /// ```swift
    /// dogs.where { $0.scoresByGame.contains(5..<10) }
    /// ```
    public func contains(_ range: Range<T.Value>) -> Query<Bool> {
        elementsIn(lower: range.lowerBound, upper: range.upperBound, closed: false)
    }

    /// Every value lies in the range.
    ///
    /// ```swift
    /// dogs.where { $0.scoresByGame.contains(5...10) }
    /// ```
    public func contains(_ range: ClosedRange<T.Value>) -> Query<Bool> {
        elementsIn(lower: range.lowerBound, upper: range.upperBound, closed: true)
    }
}

extension Query where T: _QueryKeyedCollection, T.Value: OptionalProtocol, T.Value.Wrapped: Comparable {
    /// Every value lies in the range.
    ///
    /// ```swift
    /// dogs.where { $0.optionalScoresByGame.contains(5..<10) }
    /// ```
    public func contains(_ range: Range<T.Value.Wrapped>) -> Query<Bool> {
        elementsIn(lower: range.lowerBound, upper: range.upperBound, closed: false)
    }

    /// Every value lies in the range.
    ///
    /// ```swift
    /// dogs.where { $0.optionalScoresByGame.contains(5...10) }
    /// ```
    public func contains(_ range: ClosedRange<T.Value.Wrapped>) -> Query<Bool> {
        elementsIn(lower: range.lowerBound, upper: range.upperBound, closed: true)
    }
}

// MARK: Mixed values

extension Query where T: _QueryMixedValue {
    /// `mixed[position]`: an element of a list stored in a mixed value.
    public subscript(position: Int) -> Query<T> {
        with(
            node.mapPath(for: "a subscript") { (path) throws(QueryBuildError) in path.appendMixedStep(.index(position))
            }
        )
    }

    /// `mixed['key']`: a value of a dictionary stored in a mixed value.
    ///
    /// ```swift
    /// dogs.where { $0.nicknames["home"] == "Rexy" }
    /// ```
    public subscript(key: String) -> Query<T> {
        with(node.mapPath(for: "a subscript") { (path) throws(QueryBuildError) in path.appendMixedStep(.key(key)) })
    }

    /// `mixed[*]`: every element or value of a collection stored in a mixed value.
    ///
    /// ```swift
    /// objects.where { $0.anyCol[0]["k"].any == .int(99) }
    /// ```
    public var any: Query<T> {
        with(node.mapPath(for: "'.any'") { (path) throws(QueryBuildError) in path.appendMixedStep(.all) })
    }
}

extension QueryKeyPath {
    /// `@values`, `@keys` or `[key]` after a map: `[key]` reads one value, so the map no longer
    /// owes an ANY (unless a collection before it does); `@keys` and `@values` stay multi-valued.
    mutating func appendMapStep(_ step: UnboundPathComponent) {
        components.append(step)
        requiresAny = !isKeyStep(step) || collections.count > 1
    }

    /// A subscript into a mixed value; `[*]` makes the path multi-valued but realm-swift writes
    /// no ANY for it, and neither do we.
    mutating func appendMixedStep(_ step: UnboundPathComponent) {
        components.append(step)
    }

    private func isKeyStep(_ step: UnboundPathComponent) -> Bool {
        if case .key = step { return true }
        return false
    }
}
