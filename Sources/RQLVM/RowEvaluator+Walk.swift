import RQLBytecode
import RQLCore

/// Following key paths without running away. A path through to-many links and back
/// (`owners.dogs.owners.dogs…`) reaches the same objects along many paths; the walk folds an
/// object met again at a step into its first occurrence and keeps a weight, the number of
/// paths that reached it, so each step costs what its distinct objects cost. Quantified
/// comparisons need only the set reached, counts and SUBQUERY counts the weights, and
/// element-wise comparisons of sequences the order, which `PathValues` produces lazily.
extension RowEvaluator {
    /// Something reached, and the number of distinct ways the path reached it (its
    /// multiplicity: `items.price` over `[a, a]` reaches `a` twice).
    struct Weighted {
        var item: Reached
        /// At least 1; saturates at `Int.max` (a count that large cannot be stored anyway).
        var weight: Int
    }

    /// Everything `path` reaches from `context`, before the final flattening, with
    /// multiplicities. Unless `context.sequences` is set, an object met again at a step is
    /// folded into its first occurrence and its weight added, so each step costs what the
    /// distinct objects it reaches cost: `owners.dogs.owners.dogs…` is linear per hop instead of
    /// exponential. Values and collections are never folded. With `context.sequences` (an
    /// element-wise comparison of two sequences, where order and repeats matter) every path is
    /// followed separately, in order, each with weight 1.
    func walk(_ path: RowPath, in context: Context) -> [Weighted] {
        var items = start(path.root, in: context).map { Weighted(item: $0, weight: 1) }
        for step in path.steps {
            var inputs = items
            switch step {
            case .property, .backlinks:
                // Object steps open link collections first, so that the objects in them merge.
                var expanded = Merger(folding: !context.sequences)
                for input in items {
                    for element in elements(of: input.item) { expanded.add(element, weight: input.weight) }
                }
                inputs = expanded.items
            case .index, .first, .last, .all, .key, .keys, .values:
                break
            }
            var next = Merger(folding: !context.sequences)
            for input in inputs {
                for result in apply(step, to: input.item) { next.add(result, weight: input.weight) }
            }
            items = next.items
        }
        return items
    }

    /// What `path` reaches, each distinct object once (or, with `context.sequences`, every
    /// path in order). A single-valued path never fans out, so it is simply followed.
    func reach(_ path: RowPath, in context: Context) -> [Reached] {
        guard path.isMultiValued, !context.sequences else {
            var items = start(path.root, in: context)
            for step in path.steps { items = items.flatMap { apply(step, to: $0) } }
            return items
        }
        return walk(path, in: context).map(\.item)
    }

    /// Collects reached things, folding repeated objects (and null links) into their first
    /// occurrence when `folding`.
    struct Merger {
        let folding: Bool
        var items: [Weighted] = []
        private var objectIndex: [ObjectKey: Int] = [:]
        private var nullLinkIndex: Int?

        init(folding: Bool) { self.folding = folding }

        /// Whether some object was folded into an earlier occurrence.
        private(set) var folded = false

        mutating func add(_ item: Reached, weight: Int) {
            guard folding else {
                items.append(Weighted(item: item, weight: weight))
                return
            }
            switch item {
            case .object(let object):
                let key = ObjectKey(className: object.className, position: object.position)
                if let index = objectIndex[key] {
                    items[index].weight = Self.sum(items[index].weight, weight)
                    folded = true
                    return
                }
                objectIndex[key] = items.count
            case .nullLink:
                // Null links add no value to a multi-valued path: folding them loses nothing.
                if let index = nullLinkIndex {
                    items[index].weight = Self.sum(items[index].weight, weight)
                    return
                }
                nullLinkIndex = items.count
            case .value, .collection:
                break
            }
            items.append(Weighted(item: item, weight: weight))
        }

        static func sum(_ a: Int, _ b: Int) -> Int {
            let (result, overflow) = a.addingReportingOverflow(b)
            return overflow ? Int.max : result
        }
    }

    /// An object's identity for folding: its class and its position in the snapshot.
    struct ObjectKey: Hashable {
        let className: String
        let position: Int
    }

    /// The values `path` reaches, in the groups realm-core quantifies separately: one group per
    /// object that owns a collection of values the path reads (`list.integers` is one group per
    /// linked object, `link.dict.key1` too), while links of every kind flatten (`items.price` and
    /// `items.allergens.name` are one group for the whole path), and one per mixed list or
    /// dictionary opened by `[*]`, `@keys` or `@values` (`value[*][*]` is one group per inner
    /// list). An owner with an empty collection is an empty group; a path that reaches nothing at
    /// all is one empty group. Objects met again within a group are folded as in `walk`, unless
    /// `context.sequences` is set.
    func groups(of path: RowPath, in context: Context) -> [[Value]] {
        weightedGroups(of: path, in: context).groups.map { group in
            flatten(group.map(\.item), isMultiValued: path.isMultiValued)
        }
    }

    /// `groups(of:in:)` before flattening, with weights: an item of a group of links is weighted
    /// by the number of paths that reach it (an object met again is folded unless
    /// `context.sequences`); a group opened per owner stands for that owner however often it
    /// is reached (groups are quantified existentially, so copies add nothing) and its items
    /// weigh 1. `folded` tells whether an object was folded, losing order and repeats;
    /// `opened` whether any group was opened per owner.
    func weightedGroups(
        of path: RowPath,
        in context: Context
    ) -> (
        groups: [[Weighted]], folded: Bool, opened: Bool
    ) {
        var groups = [start(path.root, in: context).map { Weighted(item: $0, weight: 1) }]
        var folded = false
        var anyOpened = false
        for step in path.steps {
            var next: [[Weighted]] = []
            for group in groups {
                var kept = Merger(folding: !context.sequences)
                var opened: [[Weighted]] = []
                var inputs = group
                switch step {
                case .property, .backlinks:
                    var elements = Merger(folding: !context.sequences)
                    for input in group {
                        for element in self.elements(of: input.item) { elements.add(element, weight: input.weight) }
                    }
                    folded = folded || elements.folded
                    inputs = elements.items
                case .index, .first, .last, .all, .key, .keys, .values:
                    break
                }
                for input in inputs {
                    switch (step, input.item) {
                    case (.property, _), (.backlinks, _):
                        let result = apply(step, to: input.item)
                        if result.count == 1, case .collection(let collection) = result[0], !collection.holdsLinks {
                            opened.append([Weighted(item: result[0], weight: 1)])
                        } else {
                            for reached in result { kept.add(reached, weight: input.weight) }
                        }
                    case (.all, .value(.list)), (.all, .value(.map)), (.keys, .value(.map)), (.values, .value(.map)):
                        opened.append(apply(step, to: input.item).map { Weighted(item: $0, weight: 1) })
                    case (.all, _), (.keys, _), (.values, _), (.index, _), (.first, _), (.last, _), (.key, _):
                        for reached in apply(step, to: input.item) { kept.add(reached, weight: input.weight) }
                    }
                }
                folded = folded || kept.folded
                anyOpened = anyOpened || !opened.isEmpty
                if !kept.items.isEmpty || opened.isEmpty { next.append(kept.items) }
                next += opened
            }
            groups = next
        }
        return (groups, folded, anyOpened)
    }

    /// The values of a path in order, every path followed, produced one at a time (depth first,
    /// which is the order `walk` gives with `context.sequences`), so that a comparison can stop
    /// at the first pair that decides it without building an exponentially long sequence.
    struct PathValues: IteratorProtocol {
        let evaluator: RowEvaluator
        let path: RowPath
        /// For each depth being walked, the things reached there and the next one to visit.
        var stack: [(items: [Reached], next: Int)]
        /// Values of the last thing reached, not yet handed out.
        var pending: [Value] = []

        init(_ evaluator: RowEvaluator, _ path: RowPath, in context: Context) {
            self.evaluator = evaluator
            self.path = path
            stack = [(evaluator.start(path.root, in: context), 0)]
        }

        mutating func next() -> Value? {
            while true {
                if !pending.isEmpty { return pending.removeFirst() }
                guard let top = stack.last else { return nil }
                guard top.next < top.items.count else {
                    stack.removeLast()
                    continue
                }
                let item = top.items[top.next]
                stack[stack.count - 1].next += 1
                let depth = stack.count - 1
                guard depth < path.steps.count else {
                    pending = evaluator.flatten([item], isMultiValued: path.isMultiValued)
                    continue
                }
                let step = path.steps[depth]
                var children: [Reached]
                switch step {
                case .property, .backlinks:
                    children = evaluator.elements(of: item).flatMap { evaluator.apply(step, to: $0) }
                case .index, .first, .last, .all, .key, .keys, .values:
                    children = evaluator.apply(step, to: item)
                }
                stack.append((children, 0))
            }
        }
    }

    /// The number of values a weighted group flattens to, repeats included (saturating).
    func length(of group: [Weighted], isMultiValued: Bool) -> Int {
        var total = 0
        for weighted in group {
            let count: Int
            switch weighted.item {
            case .object, .value: count = 1
            case .collection(let collection): count = collection.rawElements.count
            case .nullLink: count = isMultiValued ? 0 : 1
            }
            let (product, overflow) = count.multipliedReportingOverflow(by: weighted.weight)
            total = Merger.sum(total, overflow ? Int.max : product)
        }
        return total
    }

    /// The objects `path` reaches (a SUBQUERY's elements, GEOWITHIN's points), each with its
    /// multiplicity: collections of links are opened, null links and non-objects dropped.
    func objects(of path: RowPath, in context: Context) -> [(object: ObjectRef, weight: Int)] {
        var merger = Merger(folding: !context.sequences)
        for reached in walk(path, in: context) {
            for element in elements(of: reached.item) {
                if case .object = element { merger.add(element, weight: reached.weight) }
            }
        }
        return merger.items.compactMap { weighted in
            if case .object(let object) = weighted.item { (object, weighted.weight) } else { nil }
        }
    }
}
