import RQLCore
import RQLIR

// MARK: Lists, sets, linking objects

extension Query where T: _QueryCollection {
    /// `collection.@count`: the number of elements.
    ///
    /// ```swift
    /// people.where { $0.dogs.count > 2 }
    /// ```
    public var count: Query<Int> {
        with(node.mapPath(for: "'.count'") { (path) throws(QueryBuildError) in try path.end(with: .count) })
    }

    /// `ANY collection == value`: the collection holds the value.
    ///
    /// ```swift
    /// dogs.where { $0.citiesVisited.contains("New York") }
    /// ```
    public func contains(_ value: T.Element) -> Query<Bool> {
        Query<Bool>(
            .predicate(
                .comparison(
                    UnboundComparison(.quantified(.any, wholeCollection), .equal, QueryConstant.expression(value))
                )
            ),
            paths: allPaths
        )
    }

    /// `ANY collection IN values`: the collection holds at least one of the values.
    ///
    /// ```swift
    /// dogs.where { $0.citiesVisited.containsAny(in: ["Paris", "Rome"]) }
    /// ```
    public func containsAny<U: Sequence>(in collection: U) -> Query<Bool> where U.Element == T.Element {
        Query<Bool>(
            .predicate(
                .comparison(UnboundComparison(.quantified(.any, wholeCollection), .in, QueryConstant.list(collection)))
            ),
            paths: allPaths
        )
    }

    /// `ALL values IN collection`: the collection holds every one of the values (true for none).
    /// Realm Swift has no such operator; its users write one `contains` per value.
    ///
    /// ```swift
    /// dogs.where { $0.citiesVisited.containsAll(in: ["Paris", "Rome"]) }
    /// ```
    public func containsAll<U: Sequence>(in collection: U) -> Query<Bool> where U.Element == T.Element {
        Query<Bool>(
            .predicate(
                .comparison(UnboundComparison(.quantified(.all, QueryConstant.list(collection)), .in, wholeCollection))
            ),
            paths: allPaths
        )
    }

    /// `ANY collection == value`.
    public static func == (_ lhs: Query<T>, _ rhs: T.Element) -> Query<Bool> {
        lhs.compare(.equal, QueryConstant.expression(rhs))
    }

    /// `ANY collection != value`.
    public static func != (_ lhs: Query<T>, _ rhs: T.Element) -> Query<Bool> {
        lhs.compare(.notEqual, QueryConstant.expression(rhs))
    }

    /// The key path without its owed ANY, as an operand over the whole collection.
    var wholeCollection: UnboundExpression {
        switch node.path(for: "a collection operator") {
        case .success(let path): path.wholeCollection
        case .failure(let error): .invalid(error.message)
        }
    }
}

extension Query where T: _QueryCollection, T.Element: _HasPersistedType, T.Element.PersistedType: _QueryNumeric {
    /// `ANY collection > value`.
    public static func > (_ lhs: Query<T>, _ rhs: T.Element) -> Query<Bool> {
        lhs.compare(.greater, QueryConstant.expression(rhs))
    }
    /// `ANY collection >= value`.
    public static func >= (_ lhs: Query<T>, _ rhs: T.Element) -> Query<Bool> {
        lhs.compare(.greaterOrEqual, QueryConstant.expression(rhs))
    }
    /// `ANY collection < value`.
    public static func < (_ lhs: Query<T>, _ rhs: T.Element) -> Query<Bool> {
        lhs.compare(.less, QueryConstant.expression(rhs))
    }
    /// `ANY collection <= value`.
    public static func <= (_ lhs: Query<T>, _ rhs: T.Element) -> Query<Bool> {
        lhs.compare(.lessOrEqual, QueryConstant.expression(rhs))
    }

    /// `collection.@min`.
    ///
    /// ```swift
    /// people.where { $0.dogs.age.min > 2 }
    /// ```
    public var min: Query<T.Element> { aggregate(.min) }
    /// `collection.@max`.
    ///
    /// ```swift
    /// people.where { $0.dogs.age.max < 10 }
    /// ```
    public var max: Query<T.Element> { aggregate(.max) }
    /// `collection.@avg`.
    ///
    /// ```swift
    /// people.where { $0.dogs.age.avg >= 5 }
    /// ```
    public var avg: Query<T.Element> { aggregate(.avg) }
    /// `collection.@sum`.
    ///
    /// ```swift
    /// people.where { $0.dogs.age.sum > 20 }
    /// ```
    public var sum: Query<T.Element> { aggregate(.sum) }
}

extension Query where T: _QueryCollection, T.Element: Comparable {
    /// Every element lies in the range: `collection.@min >= lower AND collection.@max < upper`.
    ///
    /// ```swift
    /// dogs.where { $0.scores.contains(5..<10) }  // some score in 5..<10
    /// ```
    public func contains(_ range: Range<T.Element>) -> Query<Bool> {
        elementsIn(lower: range.lowerBound, upper: range.upperBound, closed: false)
    }

    /// Every element lies in the range: `collection.@min >= lower AND collection.@max <= upper`.
    ///
    /// ```swift
    /// dogs.where { $0.scores.contains(5...10) }
    /// ```
    public func contains(_ range: ClosedRange<T.Element>) -> Query<Bool> {
        elementsIn(lower: range.lowerBound, upper: range.upperBound, closed: true)
    }
}

extension Query where T: _QueryCollection, T.Element: OptionalProtocol, T.Element.Wrapped: Comparable {
    /// Every element lies in the range: `collection.@min >= lower AND collection.@max < upper`.
    ///
    /// ```swift
    /// dogs.where { $0.optionalScores.contains(5..<10) }
    /// ```
    public func contains(_ range: Range<T.Element.Wrapped>) -> Query<Bool> {
        elementsIn(lower: range.lowerBound, upper: range.upperBound, closed: false)
    }

    /// Every element lies in the range: `collection.@min >= lower AND collection.@max <= upper`.
    ///
    /// ```swift
    /// dogs.where { $0.optionalScores.contains(5...10) }
    /// ```
    public func contains(_ range: ClosedRange<T.Element.Wrapped>) -> Query<Bool> {
        elementsIn(lower: range.lowerBound, upper: range.upperBound, closed: true)
    }
}

extension Query {
    /// `self.@min >= lower AND self.@max <(=) upper`, realm-swift's range test on a collection.
    func elementsIn(lower: Any, upper: Any, closed: Bool) -> Query<Bool> {
        let minimum: Query<Any> = aggregate(.min)
        let maximum: Query<Any> = aggregate(.max)
        return minimum.compare(.greaterOrEqual, QueryConstant.expression(lower))
            && maximum.compare(closed ? .lessOrEqual : .less, QueryConstant.expression(upper))
    }

    /// `self.@function` over the collection (or map) the key path ends in.
    func aggregate<U>(_ function: AggregateFunction) -> Query<U> {
        with(
            node.mapPath(for: "'.\(function.rawValue.dropFirst())'") { (path) throws(QueryBuildError) in
                try path.end(with: .aggregate(function, property: nil))
            }
        )
    }
}
