import RQLBytecode
import RQLCore

/// The values of each kind of `RowExpression`: constants, paths, `@count`/`@size`, `@type`,
/// aggregates, SUBQUERY counts and arithmetic.
extension RowEvaluator {
    func values(of expression: RowExpression, in context: Context) -> [Value] {
        switch expression {
        case .constant(let value):
            return [value]
        case .constantList(let values):
            return values
        case .list(let elements):
            return elements.flatMap { values(of: $0, in: context) }
        case .path(let path):
            return values(of: path, in: context)
        case .count(let path):
            return counts(of: path, in: context)
        case .type(let path):
            // The values themselves; the comparison asks `TypeAttribute` about their types.
            return values(of: path, in: context)
        case .aggregate(let function, let path):
            return aggregates(function, path, in: context)
        case .subqueryCount(let path, let predicate):
            // Each distinct element is tested once and counted as often as the path reaches it.
            var count = 0
            for (element, weight) in objects(of: path, in: context)
            where holds(predicate, in: context.entering(element)) {
                count = Merger.sum(count, weight)
            }
            return [.int(Int64(count))]
        case .arithmetic(let op, let lhs, let rhs):
            return arithmetic(op, values(of: lhs, in: context), values(of: rhs, in: context))
        case .object(let className, let primaryKey):
            guard let table = store.table(named: className),
                let position = table.position(ofPrimaryKey: primaryKey)
            else { return [.null] }
            return [.link(ObjectLink(className: className, key: table.rowKey(at: position)))]
        case .backlinkCount(let path):
            var total = 0
            for (object, weight) in objects(of: path, in: context) {
                let (links, overflow) = object.table.backlinkCount(at: object.position).multipliedReportingOverflow(
                    by: weight
                )
                total = Merger.sum(total, overflow ? Int.max : links)
            }
            return [.int(Int64(total))]
        }
    }

    /// `@min`/`@max`/`@sum`/`@avg` per owner of the path's last collection, as realm-core
    /// evaluates them: `items.@sum.price` is one sum over the person's items, but
    /// `list.integers.@sum` (a link list, then a list of ints) is one sum per linked object, so
    /// it is multi-valued. A null to-one link before the collection gives the aggregate of
    /// nothing (null, or 0 for a sum); a path without a collection property (a mixed list)
    /// aggregates everything it reaches.
    func aggregates(_ function: AggregateFunction, _ path: RowPath, in context: Context) -> [Value] {
        guard let split = lastCollectionStep(of: path) else {
            return [Self.aggregate(function, values(of: path, in: context), overMixed: path.valueType == .mixed)]
        }
        var owners = path
        owners.steps = Array(path.steps[...split])
        let rest = path.steps[(split + 1)...]
        let overMixed = path.valueType == .mixed
        var result: [Value] = []
        for owner in reach(owners, in: context) {
            switch owner {
            case .collection:
                var items = elements(of: owner)
                for step in rest { items = items.flatMap { apply(step, to: $0) } }
                result.append(Self.aggregate(function, flatten(items, isMultiValued: true), overMixed: overMixed))
            case .nullLink:
                result.append(Self.aggregate(function, [], overMixed: overMixed))
            case .object, .value:
                result.append(Self.aggregate(function, flatten([owner], isMultiValued: true), overMixed: overMixed))
            }
        }
        return result
    }

    /// Whether `@count` of the path counts links (realm-core's `Columns<Link>::count()`): its
    /// values are links and its last step is not a dictionary of links (whose size is per
    /// owner, like any other dictionary's).
    func countsLinks(_ path: RowPath) -> Bool {
        guard path.valueType.targetClassName != nil else { return false }
        guard case .property(let className, let column, _)? = path.steps.last else { return true }
        guard let properties = store.schema[className]?.properties, column >= 0, column < properties.count
        else { return false }
        return properties[column].collection != .map
    }

    /// The index of the last step that reads a collection property or backlinks.
    private func lastCollectionStep(of path: RowPath) -> Int? {
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

    /// `@min`/`@max`/`@sum`/`@avg` of values: `AggregateFunction.apply`, which the VM's
    /// `AggregateElements` uses too.
    static func aggregate(_ function: AggregateFunction, _ values: [Value], overMixed: Bool) -> Value {
        function.apply(to: values, overMixed: overMixed)
    }

    /// `@count`/`@size` of what `path` reaches:
    /// - links (a to-one link, `self`, a SUBQUERY element, a link list or set, backlinks): the
    ///   number of links the whole path reaches, as one value, duplicates included: 0 or 1 for
    ///   a to-one link, the list's size for a link list, a total through to-many links
    ///   (realm-core's `LinkCount` over the path's link map);
    /// - any other collection property (the path's last step: primitive lists and sets, maps,
    ///   maps of links): its number of elements, once per owner (so a path through a to-many
    ///   link yields one count per owner);
    /// - a string or binary: its byte length; a mixed value: its length or collection size;
    ///   a null string, binary or mixed: 0 (realm-core: `values.length == 0` matches `[null]`);
    ///   other values and objects yield nothing;
    /// - a null link (`link.list.@count` with no link): 0, as realm-core counts it.
    func counts(of path: RowPath, in context: Context) -> [Value] {
        if countsLinks(path) {
            var total = 0
            for reached in walk(path, in: context) {
                let links: Int
                switch reached.item {
                case .object: links = 1
                case .collection(let collection) where collection.holdsLinks: links = collection.count
                case .collection, .value, .nullLink: links = 0
                }
                let (product, overflow) = links.multipliedReportingOverflow(by: reached.weight)
                total = Merger.sum(total, overflow ? Int.max : product)
            }
            return [.int(Int64(total))]
        }
        var result: [Value] = []
        for item in reach(path, in: context) {
            switch item {
            case .collection(let collection):
                result.append(.int(Int64(collection.count)))
            case .value(let value):
                if let size = ValueAggregation.reachedSize(of: value) { result.append(.int(Int64(size))) }
            case .object:
                break
            case .nullLink:
                result.append(.int(0))
            }
        }
        return result
    }

    /// Arithmetic maps over every pair; with at most one multi-valued side that is element-wise.
    /// A pair without a result (a non-number, integer division by zero) contributes nothing, so
    /// a comparison with it does not match.
    func arithmetic(_ op: ArithmeticOperator, _ lhs: [Value], _ rhs: [Value]) -> [Value] {
        var result: [Value] = []
        for l in lhs {
            for r in rhs {
                if let value = ValueArithmetic.apply(op, l, r) { result.append(value) }
            }
        }
        return result
    }
}
