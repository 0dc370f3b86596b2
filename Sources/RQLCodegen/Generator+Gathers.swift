import RQLBytecode
import RQLCore
import RQLIR

/// Comparisons gathered into value registers: a path of to-one links
/// ending in a scalar property (`owner.age > 5`, `dec == 1.5`), or in a collection of values
/// quantified (`ANY scores > 5`, `ALL owner.tags == 'x'`), counted (`scores.@count > 2`) or
/// aggregated (`owner.scores.@sum > 10`), compared with a constant. Each link is a
/// `GatherLink` into a position register; the value is loaded, counted or aggregated into a
/// value register; `FilterValue` compares it with the constant.
extension Generator {
    /// One to-one step of a gathered path: a link column and the class it leads to, or (with a
    /// selector) one element of a list or dictionary of links (`items[FIRST]`, `pets['a']`).
    typealias LinkHop = (column: Int32, target: String, selector: ElementSelector?)

    /// One lowered comparison.
    struct Gathered {
        /// What the value register receives from the last table reached.
        indirect enum Load {
            /// The scalar column.
            case column
            /// The collection column's size.
            case count
            /// The number of the collection's elements passing the test.
            case matching(ElementTest)
            /// The aggregate of the collection's elements (of a column of their targets, for links).
            case aggregate(AggregateFunction, overMixed: Bool, targetColumn: Int?)
            /// The number of links to the object reached (`@links.@count`); the column is unused.
            case backlinks
            /// Subscripts of the list, dictionary or mixed column (`LoadElement`).
            case element([ElementSelector])
            /// A walk through to-many hops and backlinks (`ReducePath`); the column is unused.
            case walk(PathWalk)
            /// A walk whose groups are compared with a value loaded per row (`ReducePathAgainst`).
            case walkAgainst(PathWalk, Gathered)
        }

        /// How the loaded value is tested.
        enum Test {
            /// `value op constant` with string options (`FilterValue`).
            case compare(ComparisonOperator, Value, StringOptions)
            /// `value IN list` (`FilterValueIn`).
            case member([Value])
            /// `value op Q list`, or `Q list op value` unless `valueFirst` (`FilterValueList`).
            case quantifiedList(ComparisonOperator, Quantifier, [Value], valueFirst: Bool, StringOptions)
        }

        /// The to-one links followed (`GatherLink`, `GatherElement`).
        var links: [LinkHop]
        var column: Int32
        var load: Load
        var test: Test

        init(
            links: [LinkHop],
            column: Int32,
            load: Load,
            op: ComparisonOperator,
            constant: Value,
            options: StringOptions
        ) {
            self.links = links
            self.column = column
            self.load = load
            self.test = .compare(op, constant, options)
        }

        /// A walk, which loads 1 for a row where its reduction holds and 0 elsewhere.
        static func walk(_ walk: PathWalk) -> Gathered {
            Gathered(links: [], column: 0, load: .walk(walk), op: .greater, constant: .int(0), options: [])
        }

        /// The elements of the collection reached that pass `test`, counted: above 0 for ANY, 0
        /// for ALL (whose test is negated: none fails) and NONE (none passes).
        static func counting(
            _ test: ElementTest,
            links: [LinkHop],
            column: Int32,
            quantifier: Quantifier
        ) -> Gathered {
            Gathered(
                links: links,
                column: column,
                load: .matching(test),
                op: quantifier == .any ? .greater : .equal,
                constant: .int(0),
                options: []
            )
        }
    }

    /// The register form of `comparison`, or nil when it has another shape.
    func gathered(for comparison: BoundComparison) -> Gathered? {
        // `owner.age IN {20, 21}`: a single value of a to-one path in a constant list.
        if comparison.op == .equal, comparison.options.isEmpty, comparison.rhs.quantifier ?? .any == .any,
            case .constantList(let values) = comparison.rhs.expression, comparison.lhs.quantifier == nil,
            !comparison.lhs.isMultiValued, case .path(let path) = comparison.lhs.expression, !path.isMultiValued
        {
            var single: Gathered?
            if let (links, column, property) = linkPath(path, endingInLink: true, subscripts: true),
                property.collection == .single
            {
                single = Gathered(links: links, column: column, load: .column, op: .equal, constant: .null, options: [])
            } else {
                // `scores[0] IN {1, 2}`: one element.
                single = subscripted(comparison.lhs, .equal, .null, [])
            }
            if var gathered = single {
                gathered.test = .member(values)
                return gathered
            }
        }
        if let listed = listCompared(comparison) ?? singleListCompared(comparison) ?? pathAgainst(comparison) {
            return listed
        }
        guard comparison.rhs.quantifier == nil, !comparison.rhs.isMultiValued,
            case .constant(let value) = comparison.rhs.expression
        else {
            // `5 < owner.age` is `owner.age > 5`.
            guard comparison.lhs.quantifier == nil, !comparison.lhs.isMultiValued,
                case .constant(let value) = comparison.lhs.expression, let flipped = comparison.op.flipped
            else { return nil }
            // Quantifiers flip with the operator: `Q r : k op r` is `Q r : r flipped(op) k`.
            return gathered(comparison.rhs, flipped, value, comparison.options, quantified: true)
        }
        return gathered(comparison.lhs, comparison.op, value, comparison.options, quantified: true)
    }

    func gathered(
        _ operand: BoundOperand,
        _ op: ComparisonOperator,
        _ value: Value,
        _ options: StringOptions,
        quantified: Bool
    ) -> Gathered? {
        linkGathered(operand, op, value, options, quantified: quantified)
            ?? subscripted(operand, op, value, options)
            ?? walked(operand, op, value, options, quantified: quantified)
    }

    /// Through to-one links only, into one collection at most.
    private func linkGathered(
        _ operand: BoundOperand,
        _ op: ComparisonOperator,
        _ value: Value,
        _ options: StringOptions,
        quantified: Bool
    ) -> Gathered? {
        switch operand.expression {
        case .path(let path):
            if quantified, operand.isMultiValued, let (links, column, target) = linkListPath(path) {
                // `ANY dogs.age > 5`: the same counts over a column of the linked objects.
                let quantifier = operand.quantifier ?? .any
                let test = ElementTest(
                    op,
                    value,
                    options: options,
                    negated: quantifier == .all,
                    targetColumn: target
                )
                return Gathered.counting(test, links: links, column: column, quantifier: quantifier)
            }
            guard let (links, column, property) = linkPath(path, endingInLink: !path.isMultiValued, subscripts: true)
            else { return nil }
            if property.collection == .single {
                guard operand.quantifier == nil, !operand.isMultiValued, !path.isMultiValued else { return nil }
                return Gathered(
                    links: links,
                    column: column,
                    load: .column,
                    op: op,
                    constant: value,
                    options: options
                )
            }
            // A collection of values: ANY is a count above 0, NONE a count of 0, ALL no element failing.
            // (Not after a subscript out of range, which reaches nothing and where ALL holds: left to
            // the forms tried after this one.)
            guard quantified, operand.isMultiValued, path.isMultiValued, links.allSatisfy({ $0.selector == nil })
            else { return nil }
            let quantifier = operand.quantifier ?? .any
            let test = ElementTest(op, value, options: options, negated: quantifier == .all)
            return Gathered.counting(test, links: links, column: column, quantifier: quantifier)
        case .count(let path) where quantified && operand.isMultiValued:
            // `ANY strings.length > 3`: the size of each element of a collection of values.
            guard path.steps.last == .all, path.steps.count >= 2 else { return nil }
            var collection = path
            collection.steps.removeLast()
            guard let (links, column, property) = linkPath(collection), property.collection != .single
            else { return nil }
            let quantifier = operand.quantifier ?? .any
            let test = ElementTest(op, value, options: options, negated: quantifier == .all, ofSize: true)
            return Gathered.counting(test, links: links, column: column, quantifier: quantifier)
        case .count(let path):
            // Lists and sets of links count their links, as values are counted.
            guard operand.quantifier == nil, !operand.isMultiValued,
                let (links, column, property) = linkPath(path, endingInLink: true), property.collection != .single
            else { return nil }
            return Gathered(links: links, column: column, load: .count, op: op, constant: value, options: options)
        case .aggregate(let function, let path):
            guard operand.quantifier == nil, !operand.isMultiValued else { return nil }
            let overMixed = path.valueType == .mixed
            if let (links, column, target) = linkListPath(path) {
                // `items.@sum.price`: one aggregate over a column of the linked objects.
                return Gathered(
                    links: links,
                    column: column,
                    load: .aggregate(function, overMixed: overMixed, targetColumn: target),
                    op: op,
                    constant: value,
                    options: options
                )
            }
            guard let (links, column, property) = linkPath(path), property.collection != .single else { return nil }
            return Gathered(
                links: links,
                column: column,
                load: .aggregate(function, overMixed: overMixed, targetColumn: nil),
                op: op,
                constant: value,
                options: options
            )
        case .backlinkCount(let path):
            // `@links.@count` of the object itself or of one reached through to-one links.
            guard operand.quantifier == nil, !operand.isMultiValued, path.root == .object else { return nil }
            var links: [LinkHop] = []
            if !path.steps.isEmpty {
                guard let (prefix, column, property) = linkPath(path, endingInLink: true),
                    property.collection == .single, let target = property.type.targetClassName, schema[target] != nil
                else { return nil }
                links = prefix + [(column, target, nil)]
            }
            return Gathered(links: links, column: 0, load: .backlinks, op: op, constant: value, options: options)
        case .constant, .constantList, .list, .type, .subqueryCount, .arithmetic, .object:
            return nil
        }
    }

    /// A path from the tested object through zero or more to-one links to one property that holds
    /// values (a scalar, or a list, set or dictionary of non-link values; with `endingInLink`, also
    /// a to-one link or a collection of links): the links followed and the last property. With
    /// `subscripts`, one element of a list or dictionary of links counts as a to-one link
    /// (`items[FIRST].name`, `relations['boss'].age`): only for single values, as a position
    /// out of range reaches nothing, which drops the row.
    func linkPath(
        _ path: BoundPath,
        endingInLink: Bool = false,
        subscripts: Bool = false
    ) -> (links: [LinkHop], column: Int32, Property)? {
        guard path.root == .object, let last = path.steps.last else { return nil }
        var current = objectSchema
        var links: [LinkHop] = []
        let body = Array(path.steps.dropLast())
        var i = 0
        while i < body.count {
            let step = body[i]
            guard let property = Self.property(step, of: current), !property.isBacklink,
                let target = property.type.targetClassName, let next = schema[target]
            else { return nil }
            var selector: ElementSelector?
            if property.collection != .single {
                guard subscripts, i + 1 < body.count else { return nil }
                switch (property.collection, body[i + 1]) {
                case (.list, .index(let n)): selector = .index(n)
                case (.list, .first): selector = .first
                case (.list, .last): selector = .last
                case (.map, .key(let key)): selector = .key(key)
                default: return nil
                }
                i += 1
            }
            links.append((Int32(Self.index(step)), target, selector))
            current = next
            i += 1
        }
        guard let property = Self.property(last, of: current), !property.isBacklink,
            !property.isLink || endingInLink
        else { return nil }
        return (links, Int32(Self.index(last)), property)
    }

    /// A path through zero or more to-one links, then a list or set of links, then one scalar
    /// property of the linked class (`owner.dogs.age`): the to-one links, the link collection's
    /// column and the target column.
    private func linkListPath(
        _ path: BoundPath
    ) -> (links: [LinkHop], column: Int32, targetColumn: Int)? {
        guard path.steps.count >= 2 else { return nil }
        var prefix = path
        prefix.steps.removeLast()
        guard let (links, column, collection) = linkPath(prefix, endingInLink: true),
            collection.collection == .list || collection.collection == .set,
            let targetName = collection.type.targetClassName, let target = schema[targetName],
            let property = Self.property(path.steps[path.steps.count - 1], of: target), property.collection == .single,
            !property.isLink, !property.isBacklink
        else { return nil }
        return (links, column, Self.index(path.steps[path.steps.count - 1]))
    }

    static func property(_ step: PathStep, of objectSchema: ObjectSchema) -> Property? {
        guard case .property(let className, let index, _) = step, className == objectSchema.name, index >= 0,
            index < objectSchema.properties.count
        else { return nil }
        return objectSchema.properties[index]
    }

    static func index(_ step: PathStep) -> Int {
        if case .property(_, let index, _) = step { return index }
        return -1
    }

    /// Emits one gather per hop for the rows of `register` (`GatherLink` for a to-one link,
    /// `GatherElement` for a subscripted element of a link collection); returns the source
    /// operand that reads the last table reached (0: the batch's own rows).
    mutating func emitGathers(_ links: [LinkHop], into register: Int32) -> UInt16 {
        var source: UInt16 = 0
        for link in links {
            let p = builder.makePositionRegister()
            if let selector = link.selector {
                builder.emit(
                    .gatherElement,
                    p1: register,
                    p2: link.column,
                    p3: p,
                    p4: builder.constant(.element([selector])),
                    p5: source
                )
            } else {
                builder.emit(
                    .gatherLink,
                    p1: register,
                    p2: link.column,
                    p3: p,
                    p4: builder.constant(.text(link.target)),
                    p5: source
                )
            }
            source = UInt16(p + 1)
        }
        return source
    }

    /// Emits the gathers and the load of `gathered` (not its test); returns the value register.
    mutating func emitLoad(_ gathered: Gathered, into register: Int32) -> Int32 {
        let source = emitGathers(gathered.links, into: register)
        let v = builder.makeValueRegister()
        switch gathered.load {
        case .column:
            builder.emit(.loadColumn, p1: register, p2: gathered.column, p3: v, p5: source)
        case .count:
            builder.emit(.countElements, p1: register, p2: gathered.column, p3: v, p5: source)
        case .matching(let test):
            builder.emit(
                .countMatching,
                p1: register,
                p2: gathered.column,
                p3: v,
                p4: builder.constant(.elementTest(test)),
                p5: source
            )
        case .aggregate(let function, let overMixed, let targetColumn):
            builder.emit(
                .aggregateElements,
                p1: register,
                p2: gathered.column,
                p3: v,
                p4: builder.constant(.aggregate(function, overMixed: overMixed, targetColumn: targetColumn)),
                p5: source
            )
        case .backlinks:
            builder.emit(.countBacklinks, p1: register, p3: v, p5: source)
        case .element(let selectors):
            builder.emit(
                .loadElement,
                p1: register,
                p2: gathered.column,
                p3: v,
                p4: builder.constant(.element(selectors)),
                p5: source
            )
        case .walk(let walk):
            builder.emit(.reducePath, p1: register, p3: v, p4: builder.constant(.pathWalk(walk)))
        case .walkAgainst(let walk, let comparand):
            let c = emitLoad(comparand, into: register)
            builder.emit(.reducePathAgainst, p1: register, p2: c, p3: v, p4: builder.constant(.pathWalk(walk)))
        }
        return v
    }

    mutating func emit(_ gathered: Gathered, into register: Int32, comment: String) {
        let v = emitLoad(gathered, into: register)
        switch gathered.test {
        case .compare(let op, let constant, let options):
            builder.emit(
                .filterValue,
                p1: register,
                p2: v,
                p3: op.code,
                p4: builder.constant(.value(constant)),
                p5: UInt16(options.rawValue),
                comment: comment
            )
        case .member(let values):
            builder.emit(.filterValueIn, p1: register, p2: v, p4: builder.constant(.values(values)), comment: comment)
        case .quantifiedList(let op, let quantifier, let values, let valueFirst, let options):
            builder.emit(
                .filterValueList,
                p1: register,
                p2: v,
                p3: op.code,
                p4: builder.constant(.quantifiedList(quantifier, values, valueFirst: valueFirst)),
                p5: UInt16(options.rawValue),
                comment: comment
            )
        }
    }
}
