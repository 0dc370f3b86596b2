import RQLBytecode
import RQLCore

/// `LoadGroups` and `CompareGroups`: comparisons of two multi-valued operands
/// (`items.price != items.price`, `ALL items.price * 2 > ANY items.price`, `value[*][*] =
/// dict[*][*]`, `pets.@values == obj('dog', 'pluto')`, `link[0].list = {4, 5, 6}`). Each side's
/// values are computed per row into a value register as a list of groups (`.list` of `.list`s),
/// walking key paths step by step the way the reference evaluator does
/// (`ReferenceEvaluator.weightedGroups`, `walk`); the comparison then quantifies over the groups.
extension Execution {

    /// Collects reached things, folding an object met again (and null links) into its first
    /// occurrence when `folding`, its weight (the number of paths that reached it) added to the
    /// first's; values and collections are never folded.
    struct GroupMerger {
        let folding: Bool
        var items: [PathItem] = []
        /// Parallel to `items`: at least 1, saturating at `Int.max`.
        var weights: [Int] = []
        private var objects: [ObjectSlot: Int] = [:]
        private var nullLink: Int?

        /// Whether some object was folded into an earlier occurrence (losing order and repeats).
        private(set) var folded = false

        init(folding: Bool) { self.folding = folding }

        mutating func add(_ item: PathItem, weight: Int = 1) {
            if folding {
                switch item {
                case .object(let table, let position):
                    let slot = ObjectSlot(className: table.objectSchema.name, position: position)
                    if let index = objects[slot] {
                        weights[index] = Folder.sum(weights[index], weight)
                        folded = true
                        return
                    }
                    objects[slot] = items.count
                case .nullLink:
                    if let index = nullLink {
                        weights[index] = Folder.sum(weights[index], weight)
                        return
                    }
                    nullLink = items.count
                case .value, .collection:
                    break
                }
            }
            items.append(item)
            weights.append(weight)
        }
    }

    /// An object's identity for folding: its class and position in the snapshot.
    struct ObjectSlot: Hashable {
        let className: String
        let position: Int
    }

    /// `LoadGroups`: v[P3] := the groups of the operand at every row of r[P1]. An operand without
    /// a path is the same for every row: computed once a batch.
    func loadGroups(_ instruction: Op, _ operand: GroupOperand, sequences: Bool, block: TableBlock) {
        let r = Int(instruction.p1)
        let out = gathers.values(Int(instruction.p3))
        let rows = registers.ready(r)
        let count = registers.counts[r]
        guard count > 0 else { return }
        guard let table else {
            for j in 0..<count { out[Int(rows[j])] = .list([.list([])]) }
            return
        }
        if !operand.readsRow {
            let shared = Self.encode(groups(of: operand, at: .nullLink, row: 0, sequences: sequences))
            for j in 0..<count { out[Int(rows[j])] = shared }
            return
        }
        let start = block.positions.lowerBound
        for j in 0..<count {
            let row = Int(rows[j])
            let object = PathItem.object(table, start + row)
            out[row] = Self.encode(groups(of: operand, at: object, row: row, sequences: sequences))
        }
    }

    /// `CompareGroups`: keeps the rows of r[P1] whose groups in v[P2] and v[P5] compare.
    func compareGroups(_ instruction: Op, _ comparison: GroupComparison) {
        let lhs = gathers.values(Int(instruction.p2))
        let rhs = gathers.values(Int(instruction.p5))
        registers.keep(Int(instruction.p1)) { row in
            comparison.holds(Self.decode(lhs[Int(row)]), Self.decode(rhs[Int(row)]))
        }
    }

    /// Groups as one value: a list of lists.
    static func encode(_ groups: [[Value]]) -> Value { .list(groups.map { .list($0) }) }

    static func decode(_ value: Value) -> [[Value]] {
        guard case .list(let groups) = value else { return [[value]] }
        return groups.map { group in
            if case .list(let values) = group { values } else { [group] }
        }
    }

    // MARK: Operands

    /// The groups of `operand` from `object` (in-block row `row`): a grouped path's groups, else
    /// one group.
    func groups(of operand: GroupOperand, at object: PathItem, row: Int, sequences: Bool) -> [[Value]] {
        if case .matching(let inner, let pattern) = operand {
            return groups(of: inner, at: object, row: row, sequences: sequences).map { group in
                group.map { .bool(pattern.matches($0)) }
            }
        }
        guard case .path(let path, true) = operand, path.isMultiValued else {
            return [values(of: operand, at: object, row: row, sequences: sequences)]
        }
        return groups(of: path, from: object, folding: !sequences)
    }

    /// The values of `operand` from `object`, in one list.
    func values(of operand: GroupOperand, at object: PathItem, row: Int, sequences: Bool) -> [Value] {
        switch operand {
        case .constant(let value):
            return [value]
        case .values(let values):
            return values
        case .object(let className, let primaryKey):
            guard let table = store.table(named: className), let position = table.position(ofPrimaryKey: primaryKey)
            else { return [.null] }
            return [.link(ObjectLink(className: className, key: table.rowKey(at: position)))]
        case .list(let elements):
            return elements.flatMap { values(of: $0, at: object, row: row, sequences: sequences) }
        case .path(let path, _):
            // Quantifiers see sets: objects met again are folded unless the order matters.
            let folding = path.isMultiValued && !sequences
            return flatten(walk(path, from: object, folding: folding), isMultiValued: path.isMultiValued)
        case .arithmetic(let op, let lhs, let rhs):
            let left = values(of: lhs, at: object, row: row, sequences: sequences)
            let right = values(of: rhs, at: object, row: row, sequences: sequences)
            var result: [Value] = []
            for l in left {
                for r in right {
                    if let value = ValueArithmetic.apply(op, l, r) { result.append(value) }
                }
            }
            return result
        case .valueRegister(let v):
            return [gathers.values(v)[row]]
        case .parameterGroups(let v):
            return Self.decode(gathers.values(v)[row]).flatMap { $0 }
        case .count(let path):
            return counts(of: path, from: object, sequences: sequences)
        case .aggregate(let function, let path):
            return aggregates(function, path, from: object, sequences: sequences)
        case .withinRegion(let path, let region):
            return withinRegion(path, region, from: object)
        case .matching(let inner, let pattern):
            return values(of: inner, at: object, row: row, sequences: sequences).map { .bool(pattern.matches($0)) }
        case .searchingText(let path, let search):
            let strings = flatten(reach(path, from: object, sequences: false), isMultiValued: path.isMultiValued)
            return strings.map { value in
                switch value {
                case .string(let text): .bool(search.matches(text))
                case .null: .bool(search.matches(""))
                default: .bool(false)
                }
            }
        }
    }

    /// Whether each thing `path` reaches is a point within `region`
    /// (`ReferenceEvaluator.geoWithinHolds`): an object that is not a point, a value, and a null
    /// or dangling link (met at any step: it stays a null link to the end) are not within.
    /// Objects met again are folded: repeats cannot change a quantifier over these tests.
    private func withinRegion(_ path: BoundPath, _ region: GeoRegion, from object: PathItem) -> [Value] {
        var result: [Value] = []
        for item in walk(path, from: object, folding: true) {
            for element in elements(of: item) {
                guard case .object(let table, let position) = element else {
                    result.append(.bool(false))
                    continue
                }
                result.append(.bool(Self.point(in: table, at: position).map(region.contains) ?? false))
            }
        }
        return result
    }

    /// The point an embedded GeoJSON object holds, read by its `type` and `coordinates`
    /// properties (`GeoPoint(geoJSONType:coordinates:)`), or nil.
    private static func point(in table: Store.Table, at position: Int) -> GeoPoint? {
        let schema = table.objectSchema
        guard let typeColumn = schema.propertyIndex(named: "type"),
            let coordinatesColumn = schema.propertyIndex(named: "coordinates"),
            case .list(let coordinates) = table.value(at: position, property: coordinatesColumn)
        else { return nil }
        return GeoPoint(geoJSONType: table.value(at: position, property: typeColumn), coordinates: coordinates)
    }

    /// What `path` reaches: with `folding` when it is multi-valued and the order does not matter.
    private func reach(_ path: BoundPath, from object: PathItem, sequences: Bool) -> [PathItem] {
        walk(path, from: object, folding: path.isMultiValued && !sequences)
    }

    /// `@count` / `@size` (`ReferenceEvaluator.counts`): a path of links counts the links it
    /// reaches, repeats included, as one value; otherwise each collection reached gives its size,
    /// a string, binary or mixed value its size, null and a null link 0, an object nothing.
    private func counts(of path: BoundPath, from object: PathItem, sequences: Bool) -> [Value] {
        if countsLinks(path) {
            // Every path counts: objects met again are folded, their weights the paths to them.
            var total = 0
            let reached = weightedWalk(path, from: object, folding: true)
            for (item, weight) in zip(reached.items, reached.weights) {
                let links: Int
                switch item {
                case .object: links = 1
                case .collection(let contents, true): links = ValueAggregation.size(of: contents) ?? 0
                case .collection, .value, .nullLink: links = 0
                }
                total = Folder.sum(total, Folder.product(links, weight))
            }
            return [.int(Int64(total))]
        }
        var result: [Value] = []
        for item in reach(path, from: object, sequences: sequences) {
            switch item {
            case .collection(let contents, _): result.append(.int(Int64(ValueAggregation.size(of: contents) ?? 0)))
            case .value(.null), .nullLink: result.append(.int(0))
            case .value(let value):
                if let size = ValueAggregation.size(of: value) { result.append(.int(Int64(size))) }
            case .object: break
            }
        }
        return result
    }

    /// Whether `@count` of the path counts links: its values are links and its last step is not
    /// a dictionary of links (whose size is per owner).
    private func countsLinks(_ path: BoundPath) -> Bool {
        guard path.valueType.targetClassName != nil else { return false }
        guard case .property(let className, let column, _)? = path.steps.last else { return true }
        guard let properties = store.schema[className]?.properties, column >= 0, column < properties.count else {
            return false
        }
        return properties[column].collection != .map
    }

    /// `@min/@max/@sum/@avg` per owner of the path's last collection
    /// (`ReferenceEvaluator.aggregates`): a null link before it gives the aggregate of nothing;
    /// a path without a collection property aggregates everything it reaches.
    private func aggregates(
        _ function: AggregateFunction,
        _ path: BoundPath,
        from object: PathItem,
        sequences: Bool
    ) -> [Value] {
        let overMixed = path.valueType == .mixed
        guard let split = lastCollectionStep(of: path) else {
            let values = flatten(reach(path, from: object, sequences: sequences), isMultiValued: path.isMultiValued)
            return [function.apply(to: values, overMixed: overMixed)]
        }
        var owners = path
        owners.steps = Array(path.steps[...split])
        let rest = path.steps[(split + 1)...]
        var result: [Value] = []
        for owner in reach(owners, from: object, sequences: sequences) {
            switch owner {
            case .collection:
                var items = elements(of: owner)
                for step in rest { items = items.flatMap { apply(step, to: $0) } }
                result.append(function.apply(to: flatten(items, isMultiValued: true), overMixed: overMixed))
            case .nullLink:
                result.append(function.apply(to: [], overMixed: overMixed))
            case .object, .value:
                result.append(function.apply(to: flatten([owner], isMultiValued: true), overMixed: overMixed))
            }
        }
        return result
    }

    /// The index of the last step that reads a collection property or backlinks.
    private func lastCollectionStep(of path: BoundPath) -> Int? {
        var last: Int?
        for (index, step) in path.steps.enumerated() {
            switch step {
            case .property(let className, let column, _):
                guard let properties = store.schema[className]?.properties, column >= 0, column < properties.count
                else { continue }
                if properties[column].isToMany || properties[column].isBacklink { last = index }
            case .backlinks:
                last = index
            case .index, .first, .last, .all, .key, .keys, .values:
                continue
            }
        }
        return last
    }

    // MARK: Paths

    /// Everything `path` reaches from `object`, before flattening (`ReferenceEvaluator.walk`):
    /// object steps open link collections first, so that with `folding` the objects in them merge.
    func walk(_ path: BoundPath, from object: PathItem, folding: Bool) -> [PathItem] {
        weightedWalk(path, from: object, folding: folding).items
    }

    /// `walk` with the number of paths that reached each thing (1 each without `folding`): with
    /// folding a path through to-many links and back costs what its distinct objects cost, and
    /// the weights still count every path (`@count` of links).
    func weightedWalk(_ path: BoundPath, from object: PathItem, folding: Bool) -> GroupMerger {
        var reached = GroupMerger(folding: folding)
        reached.add(object)
        for step in path.steps {
            var inputs = reached
            if Self.isObjectStep(step) {
                var expanded = GroupMerger(folding: folding)
                for (input, weight) in zip(reached.items, reached.weights) {
                    for element in elements(of: input) { expanded.add(element, weight: weight) }
                }
                inputs = expanded
            }
            var next = GroupMerger(folding: folding)
            for (input, weight) in zip(inputs.items, inputs.weights) {
                for result in apply(step, to: input) { next.add(result, weight: weight) }
            }
            reached = next
        }
        return reached
    }

    /// The values `path` reaches in the groups quantifiers apply to
    /// (`ReferenceEvaluator.weightedGroups`): a collection of values read from an object opens
    /// a group of its own, and so does a mixed list or dictionary opened by `[*]`, `@keys` or
    /// `@values`; links flatten. An owner with an empty collection is an empty group; a path
    /// that reaches nothing is one empty group.
    func groups(of path: BoundPath, from object: PathItem, folding: Bool) -> [[Value]] {
        weightedGroups(of: path, from: object, folding: folding).groups.map {
            flatten($0.items, isMultiValued: path.isMultiValued)
        }
    }

    /// `groups(of:from:folding:)` before flattening, with weights: an item of a group of links
    /// weighs the number of paths that reach it; a group opened per owner stands for that owner
    /// however often it is reached, its items weighing 1. `folded` tells whether an object was
    /// folded (losing order and repeats), `opened` whether a group was opened per owner.
    func weightedGroups(
        of path: BoundPath,
        from object: PathItem,
        folding: Bool
    ) -> (groups: [GroupMerger], folded: Bool, opened: Bool) {
        var first = GroupMerger(folding: folding)
        first.add(object)
        var groups = [first]
        var folded = false
        var anyOpened = false
        for step in path.steps {
            var next: [GroupMerger] = []
            for group in groups {
                var kept = GroupMerger(folding: folding)
                var opened: [GroupMerger] = []
                var inputs = group
                if Self.isObjectStep(step) {
                    var expanded = GroupMerger(folding: folding)
                    for (input, weight) in zip(group.items, group.weights) {
                        for element in elements(of: input) { expanded.add(element, weight: weight) }
                    }
                    folded = folded || expanded.folded
                    inputs = expanded
                }
                for (input, weight) in zip(inputs.items, inputs.weights) {
                    let result = apply(step, to: input)
                    switch (step, input) {
                    case (.property, _), (.backlinks, _):
                        if result.count == 1, case .collection(_, false) = result[0] {
                            opened.append(Self.group(result, folding: folding))
                        } else {
                            for reached in result { kept.add(reached, weight: weight) }
                        }
                    case (.all, .value(.list)), (.all, .value(.map)), (.keys, .value(.map)), (.values, .value(.map)):
                        opened.append(Self.group(result, folding: folding))
                    case (.all, _), (.keys, _), (.values, _), (.index, _), (.first, _), (.last, _), (.key, _):
                        for reached in result { kept.add(reached, weight: weight) }
                    }
                }
                folded = folded || kept.folded
                anyOpened = anyOpened || !opened.isEmpty
                if !kept.items.isEmpty || opened.isEmpty { next.append(kept) }
                next += opened
            }
            groups = next
        }
        return (groups, folded, anyOpened)
    }

    /// A group opened per owner: its items (values and collections, never folded), weighing 1.
    private static func group(_ items: [PathItem], folding: Bool) -> GroupMerger {
        var group = GroupMerger(folding: folding)
        for item in items { group.add(item) }
        return group
    }

    /// The number of values a weighted group flattens to, repeats included (saturating).
    func length(of group: GroupMerger, isMultiValued: Bool) -> Int {
        var total = 0
        for (item, weight) in zip(group.items, group.weights) {
            let count: Int
            switch item {
            case .object, .value: count = 1
            case .collection(let contents, _): count = Self.rawElements(of: contents).count
            case .nullLink: count = isMultiValued ? 0 : 1
            }
            total = Folder.sum(total, Folder.product(count, weight))
        }
        return total
    }

    static func isObjectStep(_ step: PathStep) -> Bool {
        switch step {
        case .property, .backlinks: true
        case .index, .first, .last, .all, .key, .keys, .values: false
        }
    }

    /// Objects become links, collections their elements; a null link is null only in a
    /// single-valued path.
    func flatten(_ items: [PathItem], isMultiValued: Bool) -> [Value] {
        var result: [Value] = []
        for item in items {
            switch item {
            case .object(let table, let position):
                result.append(.link(ObjectLink(className: table.objectSchema.name, key: table.rowKey(at: position))))
            case .value(let value): result.append(value)
            case .collection(let contents, _): result.append(contentsOf: Self.rawElements(of: contents))
            case .nullLink: if !isMultiValued { result.append(.null) }
            }
        }
        return result
    }

    /// A list's items, a dictionary's values.
    static func rawElements(of contents: Value) -> [Value] {
        switch contents {
        case .list(let items): items
        case .map(let map): map.values
        default: []
        }
    }
}

extension GroupOperand {
    /// Whether the operand depends on the row (has a key path).
    var readsRow: Bool {
        switch self {
        case .constant, .values, .object: false
        case .list(let elements): elements.contains { $0.readsRow }
        case .path, .valueRegister, .parameterGroups, .count, .aggregate, .withinRegion, .searchingText: true
        case .matching(let operand, _): operand.readsRow
        case .arithmetic(_, let lhs, let rhs): lhs.readsRow || rhs.readsRow
        }
    }
}

extension GroupComparison {
    /// Whether the comparison holds for some group of `lhs` and some group of `rhs`, as the
    /// reference evaluator decides it.
    func holds(_ lhs: [[Value]], _ rhs: [[Value]]) -> Bool {
        let op = self.op
        let pair = { (l: Value, r: Value) in self.pair(l, r) }
        switch form {
        case .quantified(let lq, let rq):
            return lhs.contains { l in
                rhs.contains { r in lq.holds(over: l) { a in rq.holds(over: r) { b in pair(a, b) } } }
            }
        case .elementwise:
            return lhs.contains { l in rhs.contains { r in op.holdsElementwise(l, r, pair) } }
        case .membership(let quantifier, let listOnRight):
            let (list, other) = listOnRight ? (rhs, lhs) : (lhs, rhs)
            let set = Set(list.joined().map(EqualityKey.init))
            return other.contains { group in quantifier.holds(over: group) { EqualityKey.isMember($0, of: set) } }
        }
    }
}
