import RQLBytecode
import RQLCore

/// `LoadElement`: subscripts of a list or dictionary (`scores[0]`, `scores[LAST]`,
/// `dict['a']`), of a mixed value holding a list (`m[0]`, `dict['a'][0]`), through to-one links.
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

    /// The first subscript, of row `at` of a list, dictionary or mixed column.
    private func element(_ selector: ElementSelector, of view: ColumnView, at: Int) -> Subscripted {
        switch view {
        case .collection(let collection):
            guard at < collection.offsets.count - 1 else { return .nothing }
            let range = collection.range(of: at)
            let chosen: Int?
            switch selector {
            case .index(let n):
                chosen = collection.kind == .list && n >= 0 && n < range.count ? range.lowerBound + n : nil
            case .first:
                chosen = collection.kind == .list && !range.isEmpty ? range.lowerBound : nil
            case .last:
                chosen = collection.kind == .list && !range.isEmpty ? range.upperBound - 1 : nil
            case .key(let key):
                guard collection.kind == .map, let keys = collection.keys else { return .nothing }
                let wanted = Array(key.utf8)
                guard let e = range.first(where: { keys.bytes(at: $0).elementsEqual(wanted) }) else {
                    // A missing key: null (a null link in a dictionary of links).
                    if case .link = collection.elements { return .nullLink }
                    return .value(.null)
                }
                chosen = e
            }
            guard let chosen else { return .nothing }
            if case .link(let links) = collection.elements {
                return resolved(links.keys[chosen], in: links.targetClass)
            }
            return .value(collection.elements.scalarValue(at: chosen) ?? .null)
        case .mixed(let values):
            return subscripted(.value(values.values[at]), selector)
        case .bool, .int, .float, .double, .decimal, .date, .objectId, .uuid, .string, .data, .link:
            return .nothing
        }
    }

    /// A link element: its link when the target exists, else a null link.
    private func resolved(_ key: Int64, in className: String) -> Subscripted {
        guard key >= 0, let table = store.table(named: className), table.position(of: RowKey(key)) != nil else {
            return .nullLink
        }
        return .value(.link(ObjectLink(className: className, key: RowKey(key))))
    }

    /// A further subscript of a mixed value: a nested list or dictionary. (A key after a mixed
    /// link reads a property of the linked object in the reference evaluator, possibly a whole
    /// collection; codegen lowers a key only as the first subscript of a dictionary column, so
    /// this never meets one.)
    private func subscripted(_ reached: Subscripted, _ selector: ElementSelector) -> Subscripted {
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
        case (.index, _), (.first, _), (.last, _), (.key, _):
            return .nothing
        }
    }
}
