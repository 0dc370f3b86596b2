import Foundation
import RQLCore
import RQLEngine
import RQLStorage

/// A lazy, live view of the objects a query selects: `realm.objects(_:)` and every `filter`,
/// `where`, `sorted`, `distinct` and `prefix` on it. Nothing runs until the results are read;
/// chained calls build one plan that compiles once; reading again after the realm's version
/// moved (a write, a refresh) runs it again. Frozen results never change. Queries over a
/// collection of plain values give results of the values (`Results<Int>`), with `self` the value.
///
/// ```swift
/// let puppies = realm.objects(Dog.self).filter("age < %@", 2).sorted(byKeyPath: "name")
/// puppies.count                               // runs the query
/// try realm.write { realm.add(Dog(value: ["name": "Ace", "age": 1])) }
/// puppies.first?.name                         // "Ace": the results are live
/// let highScores = rex.scores.filter("self > 5").sorted(ascending: false)  // Results<Int>
/// ```
public struct Results<Element: RealmCollectionValue> {
    let context: RealmContext
    let source: ResultsSource
    /// The operators chained so far (bound); compiled on first read.
    let plan: LogicalPlan
    let state: ResultsState
    /// The element for a managed object of the source class (the object itself, a projection of it).
    let make: (ObjectBase) -> Element

    init(
        context: RealmContext,
        source: ResultsSource,
        plan: LogicalPlan? = nil,
        make: @escaping (ObjectBase) -> Element
    ) {
        self.context = context
        self.source = source
        self.plan = plan ?? LogicalPlan(className: source.className, operators: [])
        self.state = ResultsState()
        self.make = make
        // Frozen results may be read by several threads at once: they run now, and their
        // version never moving, their state is never written again.
        if context.isFrozen { _ = evaluate() }
    }

    /// The same source with `plan`.
    func with(_ plan: LogicalPlan) -> Results {
        Results(context: context, source: source, plan: plan, make: make)
    }

    /// The same results with one more operator.
    func appending(_ op: LogicalPlan.Operator) -> Results {
        with(plan.appending(op))
    }

    var classInfo: ClassInfo { source.classInfo }

    // MARK: Evaluation

    /// The compiled plan (compiled once per results value) of results of objects.
    var compiled: QueryExecution.CompiledPlan {
        if let compiled = state.compiled { return compiled }
        let compiled = QueryExecution.compile(plan, on: context.current)
        state.compiled = compiled
        return compiled
    }

    /// The result keys in the realm's current version (run again only when it moved). For plain
    /// values, the keys are positions in `state.elements`, the elements read at that version.
    func evaluate() -> (version: StoreVersion, keys: [RowKey]) {
        let version = context.current
        if state.version === version { return (version, state.keys) }
        let keys: [RowKey]
        switch source {
        case .table:
            keys = QueryExecution.run(compiled, on: version)
        case .collection(_, let owner, let ordinal):
            keys =
                owner.isInvalidated
                ? []
                : QueryExecution.run(compiled, on: version, restrictedTo: Self.elementKeys(owner.storedValue(ordinal)))
        case .values(let table, let owner, let ordinal):
            let elements = PlainValueTable.elements(of: owner, ordinal)
            let store = table.store(elements)
            let compiled = state.compiled ?? QueryExecution.compile(plan, onElements: store)
            state.compiled = compiled
            keys = QueryExecution.run(compiled, onElements: store)
            state.elements = elements
            state.version = version
            state.keys = keys
            return (version, keys)
        }
        state.version = version
        state.keys = keys
        state.classIndex = version.classIndex(named: classInfo.className) ?? 0
        return (version, keys)
    }

    /// The keys of the objects a stored collection holds, in its order (null map values skipped).
    static func elementKeys(_ stored: RQLCore.Value) -> [RowKey] {
        let values: [RQLCore.Value]
        switch stored {
        case .list(let list): values = list
        case .map(let map): values = map.values
        default: values = []
        }
        return values.compactMap { value in
            if case .link(let link) = value { return link.key }
            return nil
        }
    }

    /// The element for a key found in `version`.
    func element(for key: RowKey, in version: StoreVersion) -> Element {
        if case .values(_, let owner, _) = source {
            let elements = state.version === version ? state.elements : []
            return PlainValueTable.element(elements[Int(key.rawValue)], as: Element.self, owner: owner)
        }
        let classIndex =
            state.version === version ? state.classIndex : (version.classIndex(named: classInfo.className) ?? 0)
        let row = version.row(of: key, classIndex: classIndex)
        return make(
            classInfo.makeManaged(context: context, key: key, classIndex: classIndex, version: version, row: row)
        )
    }

    // MARK: Basics

    /// The realm the results belong to.
    ///
    /// ```swift
    /// dogs.realm?.isInWriteTransaction  // false
    /// ```
    public var realm: Realm? { Realm(context: context) }

    /// Whether the results can no longer be read: the object whose collection they filter was deleted.
    ///
    /// ```swift
    /// let hisDogs = ann.dogs.filter("age > 2")
    /// try realm.write { realm.delete(ann) }
    /// hisDogs.isInvalidated  // true
    /// ```
    public var isInvalidated: Bool {
        switch source {
        case .table: false
        case .collection(_, let owner, _), .values(_, let owner, _): owner.isInvalidated
        }
    }

    /// The number of results. Without DISTINCT or LIMIT it is counted without materializing.
    ///
    /// ```swift
    /// realm.objects(Dog.self).filter("age > 2").count  // 2
    /// ```
    public var count: Int {
        let version = context.current
        if state.version === version { return state.keys.count }
        if case .table = source { return QueryExecution.count(compiled, on: version) }
        return evaluate().keys.count
    }

    /// Whether there are no results.
    ///
    /// ```swift
    /// realm.objects(Dog.self).filter("age > 100").isEmpty  // true
    /// ```
    public var isEmpty: Bool { count == 0 }

    /// The first result.
    ///
    /// ```swift
    /// let youngest = realm.objects(Dog.self).sorted(byKeyPath: "age").first
    /// ```
    public var first: Element? {
        let (version, keys) = evaluate()
        return keys.first.map { element(for: $0, in: version) }
    }

    /// The last result.
    ///
    /// ```swift
    /// let oldest = realm.objects(Dog.self).sorted(byKeyPath: "age").last
    /// ```
    public var last: Element? {
        let (version, keys) = evaluate()
        return keys.last.map { element(for: $0, in: version) }
    }

    /// The results at `indexes`, as an array.
    ///
    /// ```swift
    /// let firstTwo = dogs.objects(at: IndexSet(0..<2))
    /// ```
    public func objects(at indexes: IndexSet) -> [Element] {
        let (version, keys) = evaluate()
        return indexes.map { index in
            realmPrecondition(
                index >= 0 && index < keys.count,
                "Index \(index) is out of bounds (must be less than \(keys.count))"
            )
            return element(for: keys[index], in: version)
        }
    }

    /// How the engine runs these results: every stage, as `rqlc explain` prints it for the same
    /// query on the same data (without the syntax-tree section: a chain is not text): the bound
    /// IR of the whole chain, the optimizer's passes, the `QUERY PLAN` tree with its estimates,
    /// and the bytecode.
    ///
    /// ```swift
    /// print(realm.objects(Dog.self).filter("age > 2").sorted(byKeyPath: "name").explain())
    /// // == bound IR ==
    /// // (query Dog (> Dog.age 2) (sort Dog.name ASC))
    /// // …
    /// ```
    public func explain() -> String {
        if case .values(let table, let owner, let ordinal) = source {
            let elements = PlainValueTable.elements(of: owner, ordinal)
            return QueryExecution.explain(plan, onElements: table.store(elements))
        }
        return QueryExecution.explain(plan, on: context.current)
    }

    // MARK: Freezing

    /// Whether the results are a frozen snapshot.
    ///
    /// ```swift
    /// dogs.freeze().isFrozen  // true
    /// ```
    public var isFrozen: Bool { context.isFrozen }

    /// A frozen snapshot of the results: it, and the objects read from it, never change.
    ///
    /// ```swift
    /// let snapshot = realm.objects(Dog.self).freeze()
    /// try realm.write { realm.add(Dog()) }
    /// snapshot.count  // still the count before the write
    /// ```
    public func freeze() -> Results {
        guard !context.isFrozen else { return self }
        let frozen = context.frozen()
        return Results(context: frozen, source: source.rebound(to: frozen), plan: plan, make: make)
    }

    /// The live results of frozen ones (read in this thread's live realm).
    ///
    /// ```swift
    /// let live = snapshot.thaw()  // reads the newest version again
    /// ```
    public func thaw() -> Results? {
        guard context.isFrozen else { return self }
        guard let live = try? RealmContext.thawTarget(context.configuration) else { return nil }
        guard let source = source.thawed(in: live) else { return nil }
        return Results(context: live, source: source, plan: plan, make: make)
    }
}

/// Where results' candidate objects come from.
enum ResultsSource {
    /// Every object of the class.
    case table(ClassInfo)
    /// The objects that a collection property of `owner` holds, in its order: a list, a set,
    /// a map's values, linking objects.
    case collection(ClassInfo, owner: ObjectAccessor, ordinal: Int)
    /// The plain values a collection property of `owner` holds, in its order (a list, a set, a
    /// map's values), queried as the rows of `PlainValueTable`.
    case values(PlainValueTable, owner: ObjectAccessor, ordinal: Int)

    /// The class of results of objects (plain values have none: every use is behind a check).
    var classInfo: ClassInfo {
        switch self {
        case .table(let info), .collection(let info, _, _): info
        case .values: realmStop("Results of plain values have no object class")
        }
    }

    /// The class the results' plan runs on: the objects' class, or the plain values' table.
    var className: String {
        switch self {
        case .table(let info), .collection(let info, _, _): info.className
        case .values(let table, _, _): table.className
        }
    }

    /// The same source read through a frozen `context`.
    func rebound(to context: RealmContext) -> ResultsSource {
        switch self {
        case .table: return self
        case .collection(let info, let owner, let ordinal):
            return .collection(info, owner: owner.rebound(to: context), ordinal: ordinal)
        case .values(let table, let owner, let ordinal):
            return .values(table, owner: owner.rebound(to: context), ordinal: ordinal)
        }
    }

    /// The same source in a live `context`, or nil when its owner no longer exists there.
    func thawed(in context: RealmContext) -> ResultsSource? {
        switch self {
        case .table: return self
        case .collection(let info, let owner, let ordinal):
            let live = owner.rebound(to: context)
            guard !live.isInvalidated else { return nil }
            return .collection(info, owner: live, ordinal: ordinal)
        case .values(let table, let owner, let ordinal):
            let live = owner.rebound(to: context)
            guard !live.isInvalidated else { return nil }
            return .values(table, owner: live, ordinal: ordinal)
        }
    }
}

extension ObjectAccessor {
    /// An accessor to the same object read through `context` (a frozen or a live realm).
    fileprivate func rebound(to context: RealmContext) -> ObjectAccessor {
        ObjectAccessor(context: context, classInfo: classInfo, key: key, classIndex: classIndex)
    }
}

/// What a `Results` value (and its copies) caches: the compiled plan, and the keys it found in
/// one version.
final class ResultsState {
    var compiled: QueryExecution.CompiledPlan?
    var version: StoreVersion?
    var keys: [RowKey] = []
    var classIndex = 0
    /// For plain values: the collection's elements at `version`, which `keys` index.
    var elements: [RQLCore.Value] = []
}

// MARK: Collection

extension Results: RandomAccessCollection {
    public typealias Index = Int

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The result at `position` (the program stops outside `0 ..< count`, as in Realm Swift).
    public subscript(position: Int) -> Element {
        let (version, keys) = evaluate()
        realmPrecondition(
            position >= 0 && position < keys.count,
            "Index \(position) is out of bounds (must be less than \(keys.count))"
        )
        return element(for: keys[position], in: version)
    }

    /// Iterates the results as they are when iteration starts.
    public func makeIterator() -> RLMIterator<Element> {
        let (version, keys) = evaluate()
        return RLMIterator(results: self, version: version, keys: keys)
    }
}

/// Iterates `Results` (and the collections that forward to them) over the keys found when
/// iteration started, so changes made while iterating do not disturb it.
public struct RLMIterator<Element: RealmCollectionValue>: IteratorProtocol {
    private let context: RealmContext
    private let classInfo: ClassInfo
    private let make: (ObjectBase) -> Element
    private let version: StoreVersion
    private let keys: [RowKey]
    private var cursor: RowCursor?
    private let classIndex: Int
    private let elementsAreObjects: Bool
    /// For results of plain values: the elements the keys index, and their collection's owner.
    private let plainValues: (elements: [RQLCore.Value], owner: ObjectAccessor)?
    private var index = 0

    init(results: Results<Element>, version: StoreVersion, keys: [RowKey]) {
        if case .values(_, let owner, _) = results.source {
            plainValues = (results.state.version === version ? results.state.elements : [], owner)
            elementsAreObjects = false
            context = results.context
            classInfo = owner.classInfo
            make = results.make
            self.version = version
            self.keys = keys
            classIndex = 0
            cursor = nil
            return
        }
        plainValues = nil
        elementsAreObjects = (Element.self as? ObjectBase.Type).map { results.classInfo.type == $0 } ?? false
        context = results.context
        classInfo = results.classInfo
        make = results.make
        self.version = version
        self.keys = keys
        classIndex = version.classIndex(named: results.classInfo.className) ?? 0
        cursor = version.cursor(classIndex: classIndex)
    }

    public mutating func next() -> Element? {
        guard index < keys.count else { return nil }
        let key = keys[index]
        index &+= 1
        if let plainValues {
            return PlainValueTable.element(
                plainValues.elements[Int(key.rawValue)],
                as: Element.self,
                owner: plainValues.owner
            )
        }
        let row = cursor?.row(of: key)
        let object = classInfo.makeManaged(
            context: context,
            key: key,
            classIndex: classIndex,
            version: version,
            row: row
        )
        // Results of objects are the objects themselves (made from the element class's info):
        // no call through `make` per element.
        return elementsAreObjects ? unsafeBitCast(object, to: Element.self) : make(object)
    }
}

extension Results: CustomStringConvertible, DescribedCollection {
    /// The results' class and, for each result, its description (at most 100 shown), bounded
    /// as `Object.description` is.
    public var description: String { describe(depth: ObjectDescription.maximumDepth) }

    func describe(depth: Int) -> String { describeElements("Results<\(source.className)>", depth: depth) }
}

extension Results: Equatable {
    /// Results are equal when they are the same query over the same source in the same realm.
    public static func == (lhs: Results, rhs: Results) -> Bool {
        guard lhs.context === rhs.context, lhs.plan == rhs.plan else { return false }
        switch (lhs.source, rhs.source) {
        case (.table(let a), .table(let b)): return a === b
        case (.collection(_, let a, let p), .collection(_, let b, let q)): return a.isSameObject(as: b) && p == q
        case (.values(_, let a, let p), .values(_, let b, let q)): return a.isSameObject(as: b) && p == q
        default: return false
        }
    }
}

extension Results: Encodable where Element: Encodable {
    /// The results as an array of their elements.
    public func encode(to encoder: Encoder) throws {
        try encodeElements(to: encoder)
    }
}
