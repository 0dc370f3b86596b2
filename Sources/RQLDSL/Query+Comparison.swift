import RQLCore
import RQLIR

// MARK: Numbers, dates and mixed values

extension Query where T: _HasPersistedType, T.PersistedType: _QueryNumeric {
    /// `keyPath > value`.
    public static func > (_ lhs: Query, _ rhs: T) -> Query<Bool> {
        lhs.compare(.greater, QueryConstant.expression(rhs))
    }
    /// `keyPath > otherKeyPath`.
    public static func > (_ lhs: Query, _ rhs: Query) -> Query<Bool> { lhs.compare(.greater, rhs) }
    /// `keyPath >= value`.
    public static func >= (_ lhs: Query, _ rhs: T) -> Query<Bool> {
        lhs.compare(.greaterOrEqual, QueryConstant.expression(rhs))
    }
    /// `keyPath >= otherKeyPath`.
    public static func >= (_ lhs: Query, _ rhs: Query) -> Query<Bool> { lhs.compare(.greaterOrEqual, rhs) }
    /// `keyPath < value`.
    public static func < (_ lhs: Query, _ rhs: T) -> Query<Bool> { lhs.compare(.less, QueryConstant.expression(rhs)) }
    /// `keyPath < otherKeyPath`.
    public static func < (_ lhs: Query, _ rhs: Query) -> Query<Bool> { lhs.compare(.less, rhs) }
    /// `keyPath <= value`.
    public static func <= (_ lhs: Query, _ rhs: T) -> Query<Bool> {
        lhs.compare(.lessOrEqual, QueryConstant.expression(rhs))
    }
    /// `keyPath <= otherKeyPath`.
    public static func <= (_ lhs: Query, _ rhs: Query) -> Query<Bool> { lhs.compare(.lessOrEqual, rhs) }

    /// `@min` of the property over the collection the key path goes through: `dogs.@min.age`.
    ///
    /// ```swift
    /// people.where { $0.dogs.age.min > 5 }  // people whose dogs are all older than 5
    /// ```
    public var min: Query { aggregateThroughCollection(.min) }
    /// `@max` of the property over the collection the key path goes through: `dogs.@max.age`.
    ///
    /// ```swift
    /// people.where { $0.dogs.age.max > 10 }
    /// ```
    public var max: Query { aggregateThroughCollection(.max) }
    /// `@avg` of the property over the collection the key path goes through: `dogs.@avg.age`.
    ///
    /// ```swift
    /// people.where { $0.dogs.age.avg > 5 }
    /// ```
    public var avg: Query { aggregateThroughCollection(.avg) }
    /// `@sum` of the property over the collection the key path goes through: `dogs.@sum.age`.
    ///
    /// ```swift
    /// people.where { $0.dogs.age.sum > 20 }
    /// ```
    public var sum: Query { aggregateThroughCollection(.sum) }

    private func aggregateThroughCollection(_ function: AggregateFunction) -> Query {
        with(
            node.mapPath(for: "'.\(function.rawValue.dropFirst())'") { (path) throws(QueryBuildError) in
                guard let collection = path.collections.last, path.postfix == nil else {
                    throw QueryBuildError(
                        message: "'\(function.rawValue.dropFirst())' needs a property reached through a collection,"
                            + " as in $0.dogs.age.\(function.rawValue.dropFirst()); "
                            + "'\(UnboundKeyPath.describe(path.unbound))' is not one"
                    )
                }
                guard path.components.count == collection + 2,
                    case .property(let property) = path.components[collection + 1]
                else {
                    throw QueryBuildError(
                        message: "'\(function.rawValue.dropFirst())' can aggregate only a property of the collection's"
                            + " objects, not '\(UnboundKeyPath.describe(path.unbound))'"
                    )
                }
                path.components.removeLast()
                try path.end(with: .aggregate(function, property: property))
            }
        )
    }
}

// MARK: Strings and data

extension Query where T: _HasPersistedType, T.PersistedType: _QueryBinary {
    /// `keyPath CONTAINS[options] value`.
    ///
    /// ```swift
    /// dogs.where { $0.name.contains("ex", options: .caseInsensitive) }
    /// ```
    public func contains(_ value: T, options: StringOptions = []) -> Query<Bool> {
        compare(.contains, QueryConstant.expression(value), options: options)
    }
    /// `keyPath CONTAINS[options] otherKeyPath`.
    ///
    /// ```swift
    /// dogs.where { $0.name.contains($0.nickname, options: .caseInsensitive) }
    /// ```
    public func contains<U>(_ column: Query<U>, options: StringOptions = []) -> Query<Bool>
    where U: _HasPersistedType, U.PersistedType: _QueryBinary {
        compare(.contains, column, options: options)
    }
    /// `keyPath BEGINSWITH[options] value`.
    ///
    /// ```swift
    /// dogs.where { $0.name.starts(with: "R", options: [.caseInsensitive]) }
    /// ```
    public func starts(with value: T, options: StringOptions = []) -> Query<Bool> {
        compare(.beginsWith, QueryConstant.expression(value), options: options)
    }
    /// `keyPath BEGINSWITH[options] otherKeyPath`.
    ///
    /// ```swift
    /// dogs.where { $0.name.starts(with: $0.nickname) }
    /// ```
    public func starts<U>(with column: Query<U>, options: StringOptions = []) -> Query<Bool> {
        compare(.beginsWith, column, options: options)
    }
    /// `keyPath ENDSWITH[options] value`.
    ///
    /// ```swift
    /// dogs.where { $0.name.ends(with: "x") }
    /// ```
    public func ends(with value: T, options: StringOptions = []) -> Query<Bool> {
        compare(.endsWith, QueryConstant.expression(value), options: options)
    }
    /// `keyPath ENDSWITH[options] otherKeyPath`.
    ///
    /// ```swift
    /// dogs.where { $0.name.ends(with: $0.nickname) }
    /// ```
    public func ends<U>(with column: Query<U>, options: StringOptions = []) -> Query<Bool> {
        compare(.endsWith, column, options: options)
    }
    /// `keyPath ==[options] value`.
    ///
    /// ```swift
    /// dogs.where { $0.name.equals("rex", options: [.caseInsensitive, .diacriticInsensitive]) }
    /// ```
    public func equals(_ value: T, options: StringOptions = []) -> Query<Bool> {
        compare(.equal, QueryConstant.expression(value), options: options)
    }
    /// `keyPath ==[options] otherKeyPath`.
    ///
    /// ```swift
    /// dogs.where { $0.name.equals($0.nickname, options: .caseInsensitive) }
    /// ```
    public func equals<U>(_ column: Query<U>, options: StringOptions = []) -> Query<Bool> {
        compare(.equal, column, options: options)
    }
    /// `keyPath !=[options] value`.
    ///
    /// ```swift
    /// dogs.where { $0.name.notEquals("rex", options: .caseInsensitive) }
    /// ```
    public func notEquals(_ value: T, options: StringOptions = []) -> Query<Bool> {
        compare(.notEqual, QueryConstant.expression(value), options: options)
    }
    /// `keyPath !=[options] otherKeyPath`.
    ///
    /// ```swift
    /// dogs.where { $0.name.notEquals($0.nickname) }
    /// ```
    public func notEquals<U>(_ column: Query<U>, options: StringOptions = []) -> Query<Bool> {
        compare(.notEqual, column, options: options)
    }
}

extension Query where T: _HasPersistedType, T.PersistedType: _QueryString {
    /// `keyPath LIKE[c] pattern`: `?` matches one character, `*` any run of them.
    ///
    /// ```swift
    /// dogs.where { $0.name.like("R?x*") }
    /// ```
    public func like(_ value: T, caseInsensitive: Bool = false) -> Query<Bool> {
        compare(.like, QueryConstant.expression(value), options: caseInsensitive ? .caseInsensitive : [])
    }
    /// `keyPath LIKE[c] otherKeyPath`.
    ///
    /// ```swift
    /// dogs.where { $0.name.like($0.pattern, caseInsensitive: true) }
    /// ```
    public func like<U>(_ column: Query<U>, caseInsensitive: Bool = false) -> Query<Bool> {
        compare(.like, column, options: caseInsensitive ? .caseInsensitive : [])
    }

    /// `keyPath MATCHES pattern`: the whole string matches the regular expression (compiled once
    /// per query). Realm Swift has no such operator; write `(?i)` in the pattern to ignore case.
    ///
    /// ```swift
    /// dogs.where { $0.name.matches("R[a-z]+") }
    /// ```
    public func matches(_ pattern: String) -> Query<Bool> {
        compare(.matches, .constant(.string(pattern)))
    }

    /// `keyPath > value` in Realm's string order (case-sensitive).
    public static func > (_ lhs: Query, _ rhs: T) -> Query<Bool> {
        lhs.compare(.greater, QueryConstant.expression(rhs))
    }
    /// `keyPath >= value` in Realm's string order.
    public static func >= (_ lhs: Query, _ rhs: T) -> Query<Bool> {
        lhs.compare(.greaterOrEqual, QueryConstant.expression(rhs))
    }
    /// `keyPath < value` in Realm's string order.
    public static func < (_ lhs: Query, _ rhs: T) -> Query<Bool> { lhs.compare(.less, QueryConstant.expression(rhs)) }
    /// `keyPath <= value` in Realm's string order.
    public static func <= (_ lhs: Query, _ rhs: T) -> Query<Bool> {
        lhs.compare(.lessOrEqual, QueryConstant.expression(rhs))
    }

    // Two string-valued key paths (optional or not, or an enum stored as a string) compare in
    // the same order, so the right side is any of them, not only the left side's exact type.

    /// `keyPath > otherKeyPath` in Realm's string order.
    ///
    /// ```swift
    /// people.where { $0.lastName > $0.firstName }
    /// ```
    public static func > <U: _HasPersistedType>(_ lhs: Query, _ rhs: Query<U>) -> Query<Bool>
    where U.PersistedType: _QueryString {
        lhs.compare(.greater, rhs)
    }
    /// `keyPath >= otherKeyPath` in Realm's string order.
    public static func >= <U: _HasPersistedType>(_ lhs: Query, _ rhs: Query<U>) -> Query<Bool>
    where U.PersistedType: _QueryString {
        lhs.compare(.greaterOrEqual, rhs)
    }
    /// `keyPath < otherKeyPath` in Realm's string order.
    public static func < <U: _HasPersistedType>(_ lhs: Query, _ rhs: Query<U>) -> Query<Bool>
    where U.PersistedType: _QueryString {
        lhs.compare(.less, rhs)
    }
    /// `keyPath <= otherKeyPath` in Realm's string order.
    public static func <= <U: _HasPersistedType>(_ lhs: Query, _ rhs: Query<U>) -> Query<Bool>
    where U.PersistedType: _QueryString {
        lhs.compare(.lessOrEqual, rhs)
    }
}

// MARK: Ranges

extension Query where T: Comparable {
    /// `lowerBound <= keyPath < upperBound`.
    ///
    /// ```swift
    /// dogs.where { $0.age.contains(2..<5) }  // age BETWEEN {2, 4}
    /// ```
    public func contains(_ range: Range<T>) -> Query<Bool> {
        halfOpen(lower: range.lowerBound, upper: range.upperBound)
    }

    /// `keyPath BETWEEN {lowerBound, upperBound}` (both ends included).
    ///
    /// ```swift
    /// dogs.where { $0.age.contains(1...5) }
    /// ```
    public func contains(_ range: ClosedRange<T>) -> Query<Bool> {
        between(lower: range.lowerBound, upper: range.upperBound)
    }
}

extension Query where T: OptionalProtocol, T.Wrapped: Comparable {
    /// `lowerBound <= keyPath < upperBound`.
    ///
    /// ```swift
    /// dogs.where { $0.weight.contains(2.0..<5.0) }  // an optional property
    /// ```
    public func contains(_ range: Range<T.Wrapped>) -> Query<Bool> {
        halfOpen(lower: range.lowerBound, upper: range.upperBound)
    }

    /// `keyPath BETWEEN {lowerBound, upperBound}` (both ends included).
    ///
    /// ```swift
    /// dogs.where { $0.weight.contains(2.0...5.0) }
    /// ```
    public func contains(_ range: ClosedRange<T.Wrapped>) -> Query<Bool> {
        between(lower: range.lowerBound, upper: range.upperBound)
    }
}

extension Query {
    func between(lower: Any, upper: Any) -> Query<Bool> {
        switch (QueryConstant.value(lower), QueryConstant.value(upper)) {
        case (.success(let low), .success(let high)):
            return Query<Bool>(.predicate(.between(node.expression, lower: low, upper: high)), paths: allPaths)
        case (.failure(let error), _), (_, .failure(let error)):
            return compare(.equal, .invalid(error.message))
        }
    }

    func halfOpen(lower: Any, upper: Any) -> Query<Bool> {
        let low = compare(.greaterOrEqual, QueryConstant.expression(lower))
        let high = compare(.less, QueryConstant.expression(upper))
        return low && high
    }
}
