import RQLCore

/// The element `LoadElement` reads from each row's list or dictionary: `[n]`, `[FIRST]`,
/// `[LAST]`, `['key']`.
///
///     ElementSelector.index(0)      // scores[0]
///     ElementSelector.key("a")      // dict['a']
public enum ElementSelector: Hashable, Sendable {
    /// `[n]` of a list; out of range: no element.
    case index(Int)
    /// `[FIRST]` of a list; empty: no element.
    case first
    /// `[LAST]` of a list; empty: no element.
    case last
    /// `['key']` of a dictionary; a missing key reads as null.
    case key(String)
}

/// What `ReducePath` follows from each row and what it computes over what it reaches: links,
/// lists and sets of links and `@links` backlinks, one hop after another, then one property of
/// every object reached, reduced to one value per row.
///
///     // ANY dogs.toys.name == 'ball' from Person
///     PathWalk(
///         hops: [.link(column: 2, target: "Dog"), .link(column: 1, target: "Toy")],
///         end: .column(0),
///         reduction: .quantified(.any, ElementTest(.equal, .string("ball")))
///     )
///
/// The walk folds an object reached along several paths into one entry with a weight (the
/// number of paths), so that `owners.dogs.owners.dogs…` costs what its distinct objects cost,
/// as the reference evaluator's walk does; counts and aggregates use the weights.
public struct PathWalk: Hashable, Sendable {
    /// One step from the objects reached so far to the objects they link to.
    public enum Hop: Hashable, Sendable {
        /// Link column `column` of the current class (a to-one link, or a list or set of links)
        /// to the objects of `target`; a null or dangling link reaches a null link.
        case link(column: Int, target: String)
        /// `@links.className.property`: the objects of `className` whose link `property` points
        /// at the current object, once per link.
        case backlinks(className: String, property: String)
    }

    /// What is read from each object the hops reach.
    public enum End: Hashable, Sendable {
        /// A scalar column: all the values form one group (links flatten).
        case column(Int)
        /// A list, set or dictionary of values: its elements, one group per object.
        case elements(Int)
        /// A dictionary's keys (`@keys`), one group per object.
        case keys(Int)
        /// Nothing: the objects (and the links of the last hop) are what is counted.
        case objects
        /// The byte sizes of a collection's elements (`strings[*].@size`), all in one group: a
        /// null element has size 0, an element without a size (a number) none, and a null link
        /// met on the way counts one size 0.
        case sizes(Int)
        /// The element the subscripts pick from each object's list or dictionary of values
        /// (`links.dict['a']`, `links.list[0]`), one group per object: empty when out of range.
        case element(Int, [ElementSelector])
    }

    /// The value computed for each row.
    public enum Reduction: Hashable, Sendable {
        /// The number of groups in which the quantifier holds of the test (ANY: some value
        /// passes, ALL: every value, NONE: no value). A null link reaching the end is an empty
        /// group, and so is a walk that reaches nothing at all.
        case quantified(Quantifier, ElementTest)
        /// `@count` of a path of links: the links the last hop reaches, repeats included (a
        /// list's size, 1 per to-one link that resolves).
        case linkCount
        /// The aggregate of the one group's values, repeats included.
        case aggregate(AggregateFunction, overMixed: Bool)
        /// `@links.@count` summed over the objects reached, repeats included.
        case backlinkCount
        /// The number of groups in which a quantified comparison with a constant list holds
        /// (`ALL items.price > ANY {1, 2}`, `ANY {5.5} == ALL items.price`): with `pathFirst`,
        /// `path` quantifies the group's values `l`, and for each `list` quantifies the list's
        /// `r` in `l op r`; otherwise the list's values come first, on the left of `op`.
        case quantifiedList(
            path: Quantifier,
            list: Quantifier,
            op: ComparisonOperator,
            values: [Value],
            options: StringOptions,
            pathFirst: Bool
        )
        /// The number of groups that compare with the constant list element by element, in order
        /// (`items.price == {1, 2}`; with `pathFirst` the group's values are the left side): `==`
        /// and the orderings need equal lengths and every pair to hold, `!=` holds when the lengths
        /// differ or some pair differs. The walk keeps every path, in order (no folding).
        case elementwise(op: ComparisonOperator, values: [Value], options: StringOptions, pathFirst: Bool)
        /// The number of groups in which the quantifier holds of `@type == name` (`equal`) or
        /// `@type != name` for the group's values (`ANY dict.@type == 'int'`; `TypeAttribute`,
        /// an unknown name matching nothing).
        case quantifiedType(Quantifier, name: Value, equal: Bool)
        /// `ReducePathAgainst`: the number of groups in which the quantifier holds of the group's
        /// values compared with the row's value in a value register (`ANY items.price ==
        /// fav_item.price`, `ALL items.price > items.@avg.price`), the group's value on the left
        /// with `pathFirst`.
        case quantifiedAgainst(Quantifier, op: ComparisonOperator, options: StringOptions, pathFirst: Bool)
        /// `list.integers.@sum > 1` through a to-many hop: one aggregate (`function`) or count
        /// (`nil`) per object's collection, plus the aggregate of nothing when a null link was
        /// met, all in one group; 1 when the quantifier holds of the test over them, else 0.
        case perOwner(AggregateFunction?, overMixed: Bool, Quantifier, ElementTest)
    }

    public var hops: [Hop]
    public var end: End
    public var reduction: Reduction

    public init(hops: [Hop], end: End, reduction: Reduction) {
        self.hops = hops
        self.end = end
        self.reduction = reduction
    }
}

extension ElementSelector {
    /// `[0]`, `[FIRST]`, `['key']`, for EXPLAIN.
    public var text: String {
        switch self {
        case .index(let n): "[\(n)]"
        case .first: "[FIRST]"
        case .last: "[LAST]"
        case .key(let key): "['\(key)']"
        }
    }
}

extension PathWalk {
    /// `ANY col[2]->Dog.col[1]->Toy.col[0] == "ball"`, for EXPLAIN.
    public var text: String {
        var path = hops.map { hop in
            switch hop {
            case .link(let column, let target): "col[\(column)]->\(target)"
            case .backlinks(let className, let property): "@links.\(className).\(property)"
            }
        }
        switch end {
        case .column(let column): path.append("col[\(column)]")
        case .elements(let column): path.append("col[\(column)][*]")
        case .keys(let column): path.append("col[\(column)].@keys")
        case .objects: break
        case .sizes(let column): path.append("col[\(column)][*].@size")
        case .element(let column, let selectors): path.append("col[\(column)]" + selectors.map(\.text).joined())
        }
        let dotted = path.joined(separator: ".")
        switch reduction {
        case .quantified(let quantifier, let test):
            return "\(quantifier.rawValue) \(dotted) \(test.op.rawValue) \(test.value)"
        case .linkCount: return dotted + ".@count"
        case .aggregate(let function, _): return dotted + "." + function.rawValue
        case .backlinkCount: return dotted + ".@links.@count"
        case .quantifiedList(let path, let list, let op, let values, _, let pathFirst):
            let listText = "\(list.rawValue) {" + values.prefix(4).map(\.description).joined(separator: ", ") + "}"
            let pathText = "\(path.rawValue) \(dotted)"
            return pathFirst ? "\(pathText) \(op.rawValue) \(listText)" : "\(listText) \(op.rawValue) \(pathText)"
        case .perOwner(let function, _, let quantifier, let test):
            return
                "\(quantifier.rawValue) \(dotted).\(function?.rawValue ?? "@count") \(test.op.rawValue) \(test.value)"
        case .quantifiedType(let quantifier, let name, let equal):
            return "\(quantifier.rawValue) \(dotted).@type \(equal ? "==" : "!=") \(name)"
        case .quantifiedAgainst(let quantifier, let op, _, let pathFirst):
            let pathText = "\(quantifier.rawValue) \(dotted)"
            return pathFirst ? "\(pathText) \(op.rawValue) v" : "v \(op.rawValue) \(pathText)"
        case .elementwise(let op, let values, _, let pathFirst):
            let listText = "{" + values.prefix(4).map(\.description).joined(separator: ", ") + "}"
            return pathFirst ? "\(dotted) \(op.rawValue) \(listText)" : "\(listText) \(op.rawValue) \(dotted)"
        }
    }
}
