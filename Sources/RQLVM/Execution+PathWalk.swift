import RQLBytecode
import RQLCore

/// `ReducePath`: key paths with several to-many hops or backlinks (`ANY dogs.toys.name ==
/// 'x'`, `@links.Dog.owner.age > 3`, `ALL owners.dogs.scores > 1`, `owners.dogs.@count`), walked
/// one hop at a time for every row of the batch, the way the reference evaluator walks them
/// (`ReferenceEvaluator.walk`, `weightedGroups`): an object reached along several paths is
/// folded into one entry with a weight, a null or dangling link is remembered (it makes an
/// empty group at the end), and the end is read from the objects left.
extension Execution {
    /// One object reached: its position in the current hop's table, and the number of paths that
    /// reached it.
    struct Reach {
        var position: Int
        var weight: Int
    }

    /// Collects the objects a hop reaches, folding repeats into their first occurrence (unless
    /// the order and repeats matter, for an aggregate).
    struct Folder {
        let folding: Bool
        var items: [Reach] = []
        private var index: [Int: Int] = [:]

        init(folding: Bool) { self.folding = folding }

        mutating func add(_ position: Int, weight: Int) {
            guard folding else {
                items.append(Reach(position: position, weight: weight))
                return
            }
            if let i = index[position] {
                items[i].weight = Self.sum(items[i].weight, weight)
                return
            }
            index[position] = items.count
            items.append(Reach(position: position, weight: weight))
        }

        static func sum(_ a: Int, _ b: Int) -> Int {
            let (result, overflow) = a.addingReportingOverflow(b)
            return overflow ? Int.max : result
        }

        static func product(_ a: Int, _ b: Int) -> Int {
            let (result, overflow) = a.multipliedReportingOverflow(by: b)
            return overflow ? Int.max : result
        }
    }

    /// `ReducePath`: v[P3] := the reduction of K[P4] over what its hops reach from each row of r[P1]
    /// (`ReducePathAgainst`: compared with the row's value in `comparands`).
    func reducePath(
        _ instruction: Op,
        _ walk: PathWalk,
        against comparands: UnsafeMutablePointer<Value>? = nil,
        block: TableBlock
    ) {
        let r = Int(instruction.p1)
        let out = gathers.values(Int(instruction.p3))
        let rows = registers.ready(r)
        let count = registers.counts[r]
        guard count > 0 else { return }
        guard var current = table else {
            for j in 0..<count { out[Int(rows[j])] = .null }
            return
        }
        // Aggregates and element-wise comparisons see every path, in order.
        var folding = true
        switch walk.reduction {
        case .aggregate, .elementwise: folding = false
        case .quantified, .linkCount, .backlinkCount, .quantifiedList, .quantifiedType, .quantifiedAgainst, .perOwner:
            break
        }
        let start = block.positions.lowerBound
        var levels = (0..<count).map { [Reach(position: start + Int(rows[$0]), weight: 1)] }
        // Whether a null or dangling link was met on the way (sticky, as in the reference walk).
        var nulls = [Bool](repeating: false, count: count)
        // `@count` of links: what the last hop's links number, repeats included.
        var linkCounts = [Int](repeating: 0, count: count)
        // Links compared as values (`ANY friends.friends == $0`): what the last hop reaches, as
        // the reference flattens it (a list's or set's raw elements; a to-one link or a
        // dictionary's `@values` resolved, a null value in a dictionary as null).
        var lastLinks = [[Value]](repeating: [], count: walk.end == .objects ? count : 0)
        for (h, hop) in walk.hops.enumerated() {
            let isLast = h == walk.hops.count - 1
            switch hop {
            case .link(let column, let targetName):
                guard let target = store.table(named: targetName),
                    column >= 0 && column < current.objectSchema.properties.count
                else {
                    for j in 0..<count { levels[j] = [] }
                    continue
                }
                current.withColumn(column) { view in
                    for j in 0..<count {
                        var next = Folder(folding: folding)
                        for reach in levels[j] {
                            let range: Range<Int>
                            let keys: UnsafeBufferPointer<Int64>
                            // A to-one link, or a dictionary's `@values`: its links count one by
                            // one as they resolve (a list's or set's size counts them all).
                            var countsResolved = true
                            var inCollection = false
                            switch view {
                            case .link(let links):
                                guard reach.position < links.keys.count else { continue }
                                range = reach.position..<(reach.position + 1)
                                keys = links.keys
                            case .collection(let collection):
                                guard case .link(let links) = collection.elements,
                                    reach.position < collection.offsets.count - 1
                                else { continue }
                                range = collection.range(of: reach.position)
                                keys = links.keys
                                inCollection = true
                                if collection.kind != .map {
                                    countsResolved = false
                                    if isLast && !lastLinks.isEmpty {
                                        for e in range {
                                            lastLinks[j].append(
                                                keys[e] < 0
                                                    ? .null
                                                    : .link(ObjectLink(className: targetName, key: RowKey(keys[e])))
                                            )
                                        }
                                    }
                                    if isLast {
                                        linkCounts[j] = Folder.sum(
                                            linkCounts[j],
                                            Folder.product(range.count, reach.weight)
                                        )
                                    }
                                }
                            default:
                                continue
                            }
                            for e in range {
                                if keys[e] >= 0, let position = target.position(of: RowKey(keys[e])) {
                                    next.add(position, weight: reach.weight)
                                    if isLast && countsResolved {
                                        linkCounts[j] = Folder.sum(linkCounts[j], reach.weight)
                                        if !lastLinks.isEmpty {
                                            lastLinks[j].append(
                                                .link(ObjectLink(className: targetName, key: RowKey(keys[e])))
                                            )
                                        }
                                    }
                                } else if keys[e] < 0 && inCollection && countsResolved && isLast && !lastLinks.isEmpty
                                {
                                    lastLinks[j].append(.null)  // a dictionary's null value
                                } else if keys[e] >= 0 || !inCollection {
                                    // A null to-one link, or a link to a deleted object, is a null
                                    // link; a null element of a collection is a null value, which
                                    // reaches nothing.
                                    nulls[j] = true
                                }
                            }
                        }
                        levels[j] = next.items
                    }
                }
                current = target
            case .backlinks(let className, let property):
                guard let target = store.table(named: className) else {
                    for j in 0..<count { levels[j] = [] }
                    continue
                }
                for j in 0..<count {
                    var next = Folder(folding: folding)
                    for reach in levels[j] {
                        let keys = current.backlinks(at: reach.position, fromClass: className, property: property)
                        if isLast {
                            linkCounts[j] = Folder.sum(linkCounts[j], Folder.product(keys.count, reach.weight))
                            if !lastLinks.isEmpty {
                                for key in keys {
                                    lastLinks[j].append(.link(ObjectLink(className: className, key: key)))
                                }
                            }
                        }
                        for key in keys {
                            if let position = target.position(of: key) {
                                next.add(position, weight: reach.weight)
                            } else {
                                nulls[j] = true
                            }
                        }
                    }
                    levels[j] = next.items
                }
                current = target
            }
        }
        switch walk.end {
        case .objects:
            for j in 0..<count {
                switch walk.reduction {
                case .linkCount:
                    out[Int(rows[j])] = .int(Int64(linkCounts[j]))
                case .backlinkCount:
                    var total = 0
                    for reach in levels[j] {
                        total = Folder.sum(
                            total,
                            Folder.product(current.backlinkCount(at: reach.position), reach.weight)
                        )
                    }
                    out[Int(rows[j])] = .int(Int64(total))
                case .quantified, .quantifiedList, .elementwise, .quantifiedType, .quantifiedAgainst:
                    // The links flatten: one group.
                    let comparand = comparands?[Int(rows[j])] ?? .null
                    out[Int(rows[j])] = Self.reduce(walk.reduction, groups: [lastLinks[j]], against: comparand)
                case .aggregate, .perOwner:
                    out[Int(rows[j])] = .null
                }
            }
        case .column(let column):
            guard column >= 0 && column < current.objectSchema.properties.count else {
                for j in 0..<count { out[Int(rows[j])] = .null }
                return
            }
            current.withColumn(column) { view in
                for j in 0..<count {
                    // Links flatten: every value reached is one group.
                    gathers.scratch.removeAll(keepingCapacity: true)
                    // (Weights are 1 unless folding, and folding only counts care about.)
                    for reach in levels[j] { gathers.scratch.append(view.scalarValue(at: reach.position) ?? .null) }
                    let comparand = comparands?[Int(rows[j])] ?? .null
                    out[Int(rows[j])] = Self.reduce(walk.reduction, groups: [gathers.scratch], against: comparand)
                }
            }
        case .sizes(let column), .element(let column, _):
            guard column >= 0 && column < current.objectSchema.properties.count else {
                for j in 0..<count { out[Int(rows[j])] = .null }
                return
            }
            current.withColumn(column) { view in
                for j in 0..<count {
                    var groups: [[Value]] = []
                    switch walk.end {
                    case .element(_, let selectors):
                        // One group per object: the element, or nothing.
                        for reach in levels[j] {
                            var reached = Subscripted.nothing
                            if let first = selectors.first {
                                reached = element(first, of: view, at: reach.position)
                                for selector in selectors.dropFirst() { reached = subscripted(reached, selector) }
                            }
                            if case .value(let value) = reached { groups.append([value]) } else { groups.append([]) }
                        }
                        if nulls[j] || levels[j].isEmpty { groups.append([]) }
                    default:
                        // One group of sizes, a null link counting one 0.
                        var sizes: [Value] = []
                        if case .collection(let collection) = view {
                            for reach in levels[j] where reach.position < collection.offsets.count - 1 {
                                for e in collection.range(of: reach.position) {
                                    let value = collection.elements.scalarValue(at: e) ?? .null
                                    if let size = ValueAggregation.reachedSize(of: value) {
                                        sizes.append(.int(Int64(size)))
                                    }
                                }
                            }
                        }
                        if nulls[j] { sizes.append(.int(0)) }
                        groups = [sizes]
                    }
                    let comparand = comparands?[Int(rows[j])] ?? .null
                    out[Int(rows[j])] = Self.reduce(walk.reduction, groups: groups, against: comparand)
                }
            }
        case .elements(let column), .keys(let column):
            guard column >= 0 && column < current.objectSchema.properties.count else {
                for j in 0..<count { out[Int(rows[j])] = .null }
                return
            }
            var readsKeys = false
            if case .keys = walk.end { readsKeys = true }
            // Aggregates per owner have none when nothing was reached (quantifiers see one empty group).
            var perOwner = false
            if case .perOwner = walk.reduction { perOwner = true }
            current.withColumn(column) { view in
                guard case .collection(let collection) = view else {
                    for j in 0..<count { out[Int(rows[j])] = .null }
                    return
                }
                for j in 0..<count {
                    // One group per object reached; a null link met, or nothing reached at all,
                    // is one empty group.
                    var groups: [[Value]] = []
                    for reach in levels[j] where reach.position < collection.offsets.count - 1 {
                        let range = collection.range(of: reach.position)
                        if readsKeys {
                            guard let keys = collection.keys else { continue }
                            groups.append(range.map { .string(String(decoding: keys.bytes(at: $0), as: UTF8.self)) })
                        } else {
                            groups.append(range.map { collection.elements.scalarValue(at: $0) ?? .null })
                        }
                    }
                    if nulls[j] || (levels[j].isEmpty && !perOwner) { groups.append([]) }
                    let comparand = comparands?[Int(rows[j])] ?? .null
                    out[Int(rows[j])] = Self.reduce(walk.reduction, groups: groups, against: comparand)
                }
            }
        }
    }

    /// The reduction of the groups: how many the quantifier holds in, or the aggregate of the
    /// (only) group.
    private static func reduce(_ reduction: PathWalk.Reduction, groups: [[Value]], against comparand: Value) -> Value {
        switch reduction {
        case .perOwner(let function, let overMixed, let quantifier, let test):
            // The null link's group (the last, when there is one) is empty: its aggregate is
            // that of nothing.
            let reduced = groups.map { group -> Value in
                function.map { $0.apply(to: group, overMixed: overMixed) } ?? .int(Int64(group.count))
            }
            return .int(quantifier.holds(over: reduced, test.passes) ? 1 : 0)
        case .quantifiedType(let quantifier, let name, let equal):
            let attribute = TypeAttribute(naming: name)
            var holding: Int64 = 0
            for group in groups where quantifier.holds(over: group, { (attribute?.matches($0) ?? false) == equal }) {
                holding += 1
            }
            return .int(holding)
        case .quantifiedAgainst(let quantifier, let op, let options, let pathFirst):
            let test = { (value: Value) in
                pathFirst
                    ? ValueComparison.evaluate(value, op, comparand, options: options)
                    : ValueComparison.evaluate(comparand, op, value, options: options)
            }
            var holding: Int64 = 0
            for group in groups where quantifier.holds(over: group, test) { holding += 1 }
            return .int(holding)
        case .quantified(let quantifier, let test):
            var holding: Int64 = 0
            for group in groups where quantifier.holds(over: group, test.passes) { holding += 1 }
            return .int(holding)
        case .quantifiedList(let path, let list, let op, let values, let options, let pathFirst):
            let pair = { (l: Value, r: Value) in ValueComparison.evaluate(l, op, r, options: options) }
            var holding: Int64 = 0
            for group in groups {
                let holds =
                    pathFirst
                    ? path.holds(over: group) { l in list.holds(over: values) { r in pair(l, r) } }
                    : list.holds(over: values) { l in path.holds(over: group) { r in pair(l, r) } }
                if holds { holding += 1 }
            }
            return .int(holding)
        case .elementwise(let op, let values, let options, let pathFirst):
            let pair = { (l: Value, r: Value) in ValueComparison.evaluate(l, op, r, options: options) }
            var holding: Int64 = 0
            for group in groups {
                let holds =
                    pathFirst ? op.holdsElementwise(group, values, pair) : op.holdsElementwise(values, group, pair)
                if holds { holding += 1 }
            }
            return .int(holding)
        case .aggregate(let function, let overMixed):
            return function.apply(to: groups.first ?? [], overMixed: overMixed)
        case .linkCount, .backlinkCount:
            return .null
        }
    }

}
