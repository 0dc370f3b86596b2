import Foundation
import RQLCore
@_spi(RQL) import RQLDSL
import RQLEngine

// Filtering, sorting, distinct and limits: each returns new results whose plan is this one's
// plan with one more operator, bound now (so a bad query fails at the call) and compiled once
// when the results are first read.

extension Results {
    /// The results that also match `predicateFormat`, in NSPredicate format (`%@`, `%K`) or RQL
    /// (`$0`). A query that does not parse or fit the schema stops the program with the
    /// diagnostic, as in Realm Swift; use `query(_:_:)` for text from outside the program.
    ///
    /// ```swift
    /// let tanDogs = dogs.filter("color = 'tan' AND name BEGINSWITH %@", "B")
    /// let older = dogs.filter("age > $0", 5)
    /// let high = rex.scores.filter("self > 5").filter("self < 9")  // Results<Int>: self is the value
    /// ```
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        do {
            return try query(predicateFormat, arguments: args)
        } catch {
            realmStop("Invalid query:\n\(error.description)")
        }
    }

    /// The checked twin of `filter(_:_:)`: parses and binds the query now and throws
    /// `Realm.QueryError` (with a caret under the problem) instead of stopping. Recommended for
    /// query text that comes from outside the program.
    ///
    /// ```swift
    /// do {
    ///     let matches = try dogs.query(userText)
    /// } catch let error as Realm.QueryError {
    ///     print(error)
    /// }
    /// ```
    public func query(_ predicateFormat: String, _ args: Any...) throws -> Results<Element> {
        try query(predicateFormat, arguments: args)
    }

    func query(_ text: String, arguments: [Any]) throws(Realm.QueryError) -> Results<Element> {
        let bound = try QueryText.bind(text, arguments: arguments, target: queryTarget)
        var plan = self.plan.appending(.filter(bound.predicate))
        for clause in bound.clauses { plan = plan.appending(.clause(clause)) }
        return with(plan)
    }

    /// The results that also match a type-safe query, built from key paths and operators and
    /// bound by the same binder as query text.
    ///
    /// ```swift
    /// let puppies = dogs.where { $0.age < 2 && $0.favoriteToy.name == "Tennis ball" }
    /// let high = rex.scores.sorted().where { $0 > 5 }  // Results<Int>: $0 is the value
    /// ```
    public func `where`(_ isIncluded: (Query<Element>) -> Query<Bool>) -> Results<Element> {
        let predicate = isIncluded(Query<Element>(isPrimitive: false))._rqlPredicate
        do {
            let bound = try QueryText.bind(predicate, target: queryTarget)
            return appending(.filter(bound.predicate))
        } catch {
            realmStop("Invalid query:\n\(error.description)")
        }
    }

    /// The results sorted by `keyPath` (through to-one links only), after any earlier sort.
    ///
    /// ```swift
    /// dogs.sorted(byKeyPath: "favoriteToy.name", ascending: false)
    /// ```
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        sorted(by: [SortDescriptor(keyPath: keyPath, ascending: ascending)])
    }

    /// The results sorted by each descriptor in turn.
    ///
    /// ```swift
    /// dogs.sorted(by: [SortDescriptor(keyPath: "age", ascending: false), "name"])
    /// ```
    public func sorted<S: Sequence>(by sortDescriptors: S) -> Results<Element> where S.Element == SortDescriptor {
        let descriptors = Array(sortDescriptors)
        guard !descriptors.isEmpty else { return self }
        let keys = descriptors.map { UnboundSortKey(QueryText.keyPath($0.keyPath), ascending: $0.ascending) }
        var bound = bindClauses([.sort(keys)])
        if case .sort(var sortKeys) = bound.first {
            for (index, descriptor) in descriptors.enumerated() where descriptor.caseInsensitive {
                sortKeys[index].caseInsensitive = true
            }
            bound[0] = .sort(sortKeys)
        }
        return bound.reduce(self) { $0.appending(.clause($1)) }
    }

    /// The first object of each distinct combination of the key paths' values.
    ///
    /// ```swift
    /// dogs.distinct(by: ["color"])
    /// ```
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == String {
        let paths = keyPaths.map(QueryText.keyPath)
        guard !paths.isEmpty else { return self }
        return bindClauses([.distinct(paths)]).reduce(self) { $0.appending(.clause($1)) }
    }

    /// At most the first `maxLength` results, live (a LIMIT in the plan): beyond Realm Swift,
    /// whose users slice instead.
    ///
    /// ```swift
    /// let topThree = dogs.sorted(byKeyPath: "age", ascending: false).prefix(3)
    /// ```
    public func prefix(_ maxLength: Int) -> Results<Element> {
        realmPrecondition(maxLength >= 0, "Can't take a prefix of negative length from a collection")
        return appending(.clause(.limit(maxLength)))
    }

    /// What the results' queries bind against: their objects' class, or their plain values.
    var queryTarget: QueryTarget {
        if case .values(let table, _, _) = source { return .elements(table) }
        return .objects(className: classInfo.className, schema: context.current.schema)
    }

    private func bindClauses(_ clauses: [UnboundClause]) -> [BoundClause] {
        do {
            return try QueryText.bind(clauses, target: queryTarget)
        } catch {
            realmStop("Invalid key path:\n\(error.description)")
        }
    }

    // MARK: Positions

    /// The position of `object` in the results, or nil.
    ///
    /// ```swift
    /// let position = dogs.sorted(byKeyPath: "name").index(of: rex)  // 1
    /// ```
    public func index(of object: Element) -> Int? {
        if case .values = source {
            let (version, keys) = evaluate()
            return keys.indices.first { element(for: keys[$0], in: version) == object }
        }
        guard let objectBase = object as? ObjectBase ?? (object as? any ProjectionRootAccess)?.rootAny,
            let accessor = objectBase._rqlAccessor, accessor.context.coordinator === context.coordinator
        else { return nil }
        return evaluate().keys.firstIndex(of: accessor.key)
    }

    /// The position of the first result that matches the query, or nil.
    ///
    /// ```swift
    /// dogs.sorted(byKeyPath: "age").index(matching: "name == %@", "Rex")
    /// ```
    public func index(matching predicateFormat: String, _ args: Any...) -> Int? {
        let matching: Results<Element>
        do {
            matching = try query(predicateFormat, arguments: args)
        } catch {
            realmStop("Invalid query:\n\(error.description)")
        }
        return firstIndex(in: matching)
    }

    /// The position of the first result that matches a type-safe query, or nil.
    ///
    /// ```swift
    /// dogs.sorted(byKeyPath: "age").index(matching: { $0.name == "Rex" })
    /// ```
    public func index(matching isIncluded: (Query<Element>) -> Query<Bool>) -> Int? {
        firstIndex(in: self.where(isIncluded))
    }

    private func firstIndex(in matching: Results<Element>) -> Int? {
        let keys = evaluate().keys
        let found = Set(matching.evaluate().keys)
        return keys.firstIndex { found.contains($0) }
    }
}

extension Results where Element: ObjectBase {
    /// The results sorted by a typed key path.
    ///
    /// ```swift
    /// let dogsSorted = dogs.sorted(by: \.name)
    /// ```
    public func sorted<T>(by keyPath: KeyPath<Element, T>, ascending: Bool = true) -> Results<Element> {
        sorted(byKeyPath: _name(for: keyPath), ascending: ascending)
    }

    /// The first object of each distinct combination of typed key paths' values.
    ///
    /// ```swift
    /// let oneDogPerAge = dogs.distinct(by: [\Dog.age])
    /// ```
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == PartialKeyPath<Element> {
        distinct(by: keyPaths.map { _name(for: $0) })
    }
}
