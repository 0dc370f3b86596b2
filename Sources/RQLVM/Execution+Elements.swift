import RQLBytecode
import RQLCore

/// `LoadElement`: subscripts of a list or dictionary (`scores[0]`, `scores[LAST]`,
/// `dict['a']`), of a mixed value holding a list or dictionary (`m[0]`, `m['a'][1]`), through
/// to-one links.
/// Mirrors the reference evaluator's positional and key steps: a position out of range gives
/// no value (the row leaves the selection, as its comparison cannot match), a missing key
/// gives null, and a null or dangling link anywhere before gives null.
extension Execution {
    /// Where a chain of subscripts has got to in one row.
    enum Subscripted {
        /// A value (a link element reads as its link).
        case value(Value)
        /// A null or dangling link: null at the end, whatever the steps after it.
        case nullLink
        /// Nothing: out of range, or a step that does not apply.
        case nothing
    }

    /// `LoadElement`: v[P3] := the elements K[P4] of column P2 of the rows of r[P1] (source P5).
    func loadElement(_ instruction: Op, _ selectors: [ElementSelector], block: TableBlock) {
        let r = Int(instruction.p1)
        let out = gathers.values(Int(instruction.p3))
        let rows = registers.ready(r)
        let count = registers.counts[r]
        var m = 0
        withSource(Int(instruction.p5), column: Int(instruction.p2), block: block) { view, through in
            for j in 0..<count {
                let row = rows[j]
                rows[m] = row
                let at = through.map { $0[Int(row)] } ?? Int(row)
                var reached: Subscripted = at < 0 ? .nullLink : .nothing
                if at >= 0, let view, let first = selectors.first {
                    reached = element(first, of: view, at: at)
                    for selector in selectors.dropFirst() { reached = subscripted(reached, selector) }
                }
                switch reached {
                case .value(let value): out[Int(row)] = value
                case .nullLink: out[Int(row)] = .null
                case .nothing: continue
                }
                m &+= 1
            }
        }
        if m != count { registers.dense[r] = false }
        registers.counts[r] = m
    }

    /// Which element of a collection a subscript picks.
    enum Pick {
        /// Element number `e` of the element column.
        case element(Int)
        /// A key the dictionary does not hold: null.
        case missingKey
        /// A position out of range, or a subscript that does not apply: nothing.
        case nothing
    }

    /// The element `selector` picks from row `at` of a collection column.
    func pick(_ selector: ElementSelector, of collection: CollectionColumnView, at: Int) -> Pick {
        guard at >= 0 && at < collection.offsets.count - 1 else { return .nothing }
        let range = collection.range(of: at)
        switch selector {
        case .index(let n):
            return collection.kind == .list && n >= 0 && n < range.count ? .element(range.lowerBound + n) : .nothing
        case .first:
            return collection.kind == .list && !range.isEmpty ? .element(range.lowerBound) : .nothing
        case .last:
            return collection.kind == .list && !range.isEmpty ? .element(range.upperBound - 1) : .nothing
        case .key(let key):
            guard collection.kind == .map, let keys = collection.keys else { return .nothing }
            let wanted = Array(key.utf8)
            // Keys are few per row: a linear scan of the row's keys.
            guard let e = range.first(where: { keys.bytes(at: $0).elementsEqual(wanted) }) else { return .missingKey }
            return .element(e)
        }
    }

    /// The first subscript, of row `at` of a list, dictionary or mixed column.
    func element(_ selector: ElementSelector, of view: ColumnView, at: Int) -> Subscripted {
        switch view {
        case .collection(let collection):
            switch pick(selector, of: collection, at: at) {
            case .nothing:
                return .nothing
            case .missingKey:
                // A missing key: null (a null link in a dictionary of links).
                if case .link = collection.elements { return .nullLink }
                return .value(.null)
            case .element(let e):
                if case .link(let links) = collection.elements { return resolved(links.keys[e], in: links.targetClass) }
                return .value(collection.elements.scalarValue(at: e) ?? .null)
            }
        case .mixed(let values):
            return subscripted(.value(values.values[at]), selector)
        case .bool, .int, .float, .double, .decimal, .date, .objectId, .uuid, .string, .data, .link:
            return .nothing
        }
    }

    /// `GatherElement`: p[P3] := the target of element `selector` of the link collection column
    /// P2 of the rows of r[P1] (source P5): -1 for a missing key, a null or deleted target or a
    /// row without a source; a position out of range drops the row.
    func gatherElement(_ instruction: Op, _ selector: ElementSelector, block: TableBlock) {
        let r = Int(instruction.p1)
        let p = Int(instruction.p3)
        let out = gathers.positions(p)
        let rows = registers.ready(r)
        let count = registers.counts[r]
        var target: Store.Table?
        var m = 0
        withSource(Int(instruction.p5), column: Int(instruction.p2), block: block) { view, through in
            var links: LinkColumnView?
            var collection: CollectionColumnView?
            if case .collection(let c)? = view, case .link(let l) = c.elements {
                collection = c
                links = l
                target = store.table(named: l.targetClass)
            }
            for j in 0..<count {
                let row = rows[j]
                rows[m] = row
                let at = through.map { $0[Int(row)] } ?? Int(row)
                guard at >= 0 else {
                    out[Int(row)] = -1
                    m &+= 1
                    continue
                }
                guard let collection, let links else { continue }
                switch pick(selector, of: collection, at: at) {
                case .nothing:
                    continue
                case .missingKey:
                    out[Int(row)] = -1
                case .element(let e):
                    let key = links.keys[e]
                    out[Int(row)] = key >= 0 ? target?.position(of: RowKey(key)) ?? -1 : -1
                }
                m &+= 1
            }
        }
        gathers.tables[p] = target
        if m != count { registers.dense[r] = false }
        registers.counts[r] = m
    }

    /// A link element: its link when the target exists, else a null link.
    private func resolved(_ key: Int64, in className: String) -> Subscripted {
        guard key >= 0, let table = store.table(named: className), table.position(of: RowKey(key)) != nil else {
            return .nullLink
        }
        return .value(.link(ObjectLink(className: className, key: RowKey(key))))
    }

    /// A further subscript of a mixed value: a nested list or dictionary, or (a key) the property
    /// of that name of the object a mixed link points at.
    func subscripted(_ reached: Subscripted, _ selector: ElementSelector) -> Subscripted {
        guard case .value(let value) = reached else { return reached }
        switch (selector, value) {
        case (.index(let n), .list(let items)):
            return n >= 0 && n < items.count ? .value(items[n]) : .nothing
        case (.first, .list(let items)):
            return items.first.map { .value($0) } ?? .nothing
        case (.last, .list(let items)):
            return items.last.map { .value($0) } ?? .nothing
        case (.key(let key), .map(let map)):
            return .value(map[key] ?? .null)
        case (.key(let key), .link(let link)):
            return property(named: key, of: link)
        case (.index, _), (.first, _), (.last, _), (.key, _):
            return .nothing
        }
    }

    /// `['name']` after a mixed link: the linked object's property `name` (a link as its link, or
    /// a null link when its target is gone); nothing when it has none. A collection property
    /// would read as all its elements, which one value cannot hold: codegen lowers a key only
    /// when no class has a collection property of that name, so this never meets one.
    private func property(named name: String, of link: ObjectLink) -> Subscripted {
        guard let (table, position) = store.resolve(link) else { return .nullLink }
        guard let column = table.objectSchema.propertyIndex(named: name) else { return .nothing }
        let property = table.objectSchema.properties[column]
        guard !property.isToMany, !property.isBacklink else { return .nothing }
        let value = table.value(at: position, property: column)
        if property.isLink {
            guard case .link(let target) = value, store.resolve(target) != nil else { return .nullLink }
        }
        return .value(value)
    }
}
