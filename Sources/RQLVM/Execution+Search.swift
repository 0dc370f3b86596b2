import RQLBytecode
import RQLCore

/// The search predicates as register instructions: `FilterText` (TEXT), `FilterGeoWithin`
/// (GEOWITHIN) and `FilterMatches` (MATCHES). Each tests what the reference evaluator tests, by
/// the same shared rules (`TextSearch.matches`, `GeoRegion.contains`, `RegexPattern.matches`), over
/// the batch's selection.
extension Execution {
    /// `FilterText`: keeps the rows whose string in column P2 of source P5 has the terms.
    func filterText(_ instruction: Op, at pc: Int, block: TableBlock) {
        let r = Int(instruction.p1)
        let rows = registers.ready(r)
        let count = registers.counts[r]
        guard case .textSearch(let search, let targetColumn)? = constant(instruction.p4) else {
            registers.clear(r)
            return
        }
        let column = Int(instruction.p2)
        var m = 0
        if let targetColumn {
            m = filterTextOfTargets(instruction, search, targetColumn, at: pc, block: block)
        } else if instruction.p5 == 0, let table,
            let matching = indexedMatches(search, column: column, table: table, at: pc)
        {
            let start = block.positions.lowerBound
            for j in 0..<count {
                let row = rows[j]
                rows[m] = row
                m &+= Kernels.bit(matching[start + Int(row)])
            }
        } else {
            withSource(Int(instruction.p5), column: column, block: block) { view, through in
                guard case .string(let strings)? = view else { return }
                for j in 0..<count {
                    let row = rows[j]
                    rows[m] = row
                    let at = through.map { $0[Int(row)] } ?? Int(row)
                    // No row (a null link on the way) reads as null: a text without tokens.
                    let text =
                        at >= 0 && !strings.nulls.isNull(at)
                        ? String(decoding: strings.bytes(at: at), as: UTF8.self) : ""
                    m &+= Kernels.bit(search.matches(text))
                }
            }
        }
        if m != count { registers.dense[r] = false }
        registers.counts[r] = m
    }

    /// `FilterText` over a list or set of links: keeps the rows some live target of which has, in
    /// column `targetColumn`, a string with the terms (read from the targets' index when they
    /// have one); returns the number kept.
    private func filterTextOfTargets(
        _ instruction: Op,
        _ search: TextSearch,
        _ targetColumn: Int,
        at pc: Int,
        block: TableBlock
    ) -> Int {
        let r = Int(instruction.p1)
        let rows = registers.ready(r)
        let count = registers.counts[r]
        var m = 0
        withSource(Int(instruction.p5), column: Int(instruction.p2), block: block) { view, through in
            guard case .collection(let collection)? = view, case .link(let links) = collection.elements,
                let target = store.table(named: links.targetClass),
                targetColumn >= 0 && targetColumn < target.objectSchema.properties.count
            else { return }
            let indexed = indexedMatches(search, column: targetColumn, table: target, at: pc)
            target.withColumn(targetColumn) { targetView in
                guard case .string(let strings) = targetView else { return }
                for j in 0..<count {
                    let row = rows[j]
                    rows[m] = row
                    let at = through.map { $0[Int(row)] } ?? Int(row)
                    let range = at >= 0 && at < collection.offsets.count - 1 ? collection.range(of: at) : 0..<0
                    var found = false
                    for e in range where !found && links.keys[e] >= 0 {
                        // A link to a deleted object reaches no string.
                        guard let position = target.position(of: RowKey(links.keys[e])) else { continue }
                        if let indexed {
                            found = indexed[position]
                        } else {
                            let text =
                                strings.nulls.isNull(position)
                                ? "" : String(decoding: strings.bytes(at: position), as: UTF8.self)
                            found = search.matches(text)
                        }
                    }
                    m &+= Kernels.bit(found)
                }
            }
        }
        return m
    }

    /// The rows of `table` matching `search` by its full-text index on `column`, one flag per
    /// position, computed on the first batch and kept for the run; nil without an index or when
    /// the index cannot answer the terms exactly.
    private func indexedMatches(_ search: TextSearch, column: Int, table: Store.Table, at pc: Int) -> [Bool]? {
        if let known = searchState.textMatches[pc] { return known }
        guard search.isIndexable else { return nil }
        var included: Set<Int>?
        var excluded = Set<Int>()
        for term in search.terms {
            guard let rows = table.fullTextLookup(property: column, token: term.token, prefix: term.isPrefix) else {
                return nil
            }
            if term.isExcluded {
                excluded.formUnion(rows)
            } else if let so = included {
                included = so.intersection(rows)
            } else {
                included = Set(rows)
            }
        }
        var matching = [Bool](repeating: included == nil, count: table.rowCount)
        for position in included ?? [] where position >= 0 && position < matching.count { matching[position] = true }
        for position in excluded where position >= 0 && position < matching.count { matching[position] = false }
        searchState.textMatches[pc] = matching
        return matching
    }

    /// `FilterGeoWithin`: keeps the rows whose points at link column P2 of source P5 satisfy the
    /// quantifier over the region.
    func filterGeoWithin(_ instruction: Op, block: TableBlock) {
        let r = Int(instruction.p1)
        let rows = registers.ready(r)
        let count = registers.counts[r]
        guard case .geoRegion(let region, let quantifier, let targetColumn)? = constant(instruction.p4) else {
            registers.clear(r)
            return
        }
        var m = 0
        withSource(Int(instruction.p5), column: Int(instruction.p2), block: block) { view, through in
            let links: LinkColumnView
            var collection: CollectionColumnView?
            switch view {
            case .link(let view)?:
                links = view
            case .collection(let view)?:
                guard case .link(let elements) = view.elements else { return }
                links = elements
                collection = view
            default:
                return
            }
            guard let first = store.table(named: links.targetClass) else { return }
            withSecondLink(of: first, column: targetColumn) { hop in
                guard let target = hop.map({ store.table(named: $0.links.targetClass) }) ?? first else { return }
                let schema = target.objectSchema
                let points = GeoPoints(
                    table: target,
                    type: schema.propertyIndex(named: "type"),
                    coordinates: schema.propertyIndex(named: "coordinates")
                )
                /// The point behind an element's link key (through the second link with a hop).
                func isInside(_ key: Int64, _ point: (Int) -> GeoPoint?) -> Bool {
                    var key = key
                    if let hop {
                        // A deleted element, or one without the second link, is a point outside.
                        let position = key >= 0 ? first.position(of: RowKey(key)) : nil
                        key = position.map { hop.links.keys[$0] } ?? -1
                    }
                    return Self.isInside(key, target, point, region)
                }
                points.read { point in
                    for j in 0..<count {
                        let row = rows[j]
                        rows[m] = row
                        let at = through.map { $0[Int(row)] } ?? Int(row)
                        // Elements and those inside the region; a null or dangling link is outside.
                        var n = 0
                        var inside = 0
                        if let collection {
                            let range = at >= 0 && at < collection.offsets.count - 1 ? collection.range(of: at) : 0..<0
                            for e in range {
                                n += 1
                                inside += isInside(links.keys[e], point) ? 1 : 0
                            }
                        } else {
                            n = 1
                            inside = at >= 0 && at < links.keys.count && isInside(links.keys[at], point) ? 1 : 0
                        }
                        let holds: Bool =
                            switch quantifier {
                            case .any: inside > 0
                            case .all: n > 0 && inside == n
                            case .none: inside == 0
                            }
                        m &+= Kernels.bit(holds)
                    }
                }
            }
        }
        if m != count { registers.dense[r] = false }
        registers.counts[r] = m
    }

    /// Calls `body` with the to-one link column `column` of `table` (nil without a column);
    /// nothing when the column is not a link.
    private func withSecondLink(
        of table: Store.Table,
        column: Int?,
        _ body: ((table: Store.Table, links: LinkColumnView)?) -> Void
    ) {
        guard let column else {
            body(nil)
            return
        }
        guard column >= 0 && column < table.objectSchema.properties.count else { return }
        table.withColumn(column) { view in
            guard case .link(let links) = view else { return }
            body((table, links))
        }
    }

    private static func isInside(
        _ key: Int64,
        _ target: Store.Table,
        _ point: (Int) -> GeoPoint?,
        _ region: GeoRegion
    ) -> Bool {
        guard key >= 0, let position = target.position(of: RowKey(key)), let found = point(position) else {
            return false
        }
        return region.contains(found)
    }

    /// `FilterMatches`: keeps the rows whose value is a string the pattern matches.
    func filterMatches(_ instruction: Op) {
        let r = Int(instruction.p1)
        let values = gathers.values(Int(instruction.p2))
        guard case .pattern(let pattern)? = constant(instruction.p4) else {
            registers.clear(r)
            return
        }
        registers.keep(r) { row in pattern.matches(values[Int(row)]) }
    }
}

/// The points of a table of embedded GeoJSON objects, read through its `type` and
/// `coordinates` column views.
private struct GeoPoints<Table: TableReader> {
    let table: Table
    let type: Int?
    let coordinates: Int?

    /// Calls `body` with a function from a position to its point (nil: not a point).
    func read(_ body: ((Int) -> GeoPoint?) -> Void) {
        guard let type, let coordinates else {
            body { _ in nil }
            return
        }
        table.withColumn(type) { typeView in
            table.withColumn(coordinates) { coordinatesView in
                guard case .collection(let list) = coordinatesView else {
                    body { _ in nil }
                    return
                }
                body { position in
                    guard position < list.offsets.count - 1 else { return nil }
                    let range = list.range(of: position)
                    let values = range.prefix(2).map { list.elements.scalarValue(at: $0) ?? .null }
                    return GeoPoint(geoJSONType: typeView.scalarValue(at: position) ?? .null, coordinates: values)
                }
            }
        }
    }
}

/// What the search and SUBQUERY instructions of one run keep between batches, by address.
final class SearchState<Store: StoreReader> {
    /// Per `FilterText` on an indexed column: whether each position of the table matches.
    var textMatches: [Int: [Bool]] = [:]
    /// Per `CountSubquery`: the nested run and its scratch.
    var subqueries: [Int: SubqueryRun<Store>] = [:]
}
