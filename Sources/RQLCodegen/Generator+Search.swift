import RQLBytecode
import RQLCore
import RQLIR

/// TEXT, GEOWITHIN and MATCHES as register instructions:
/// `name TEXT 'foo -bar'` and `owner.bio TEXT 'x*'` (a string column through to-one links,
/// `FilterText`), `location GEOWITHIN geoCircle(...)` and `ANY places GEOWITHIN ...` (a to-one
/// link, list or set of links to embedded points through to-one links, `FilterGeoWithin`), and
/// `name MATCHES 'R.*'` (one value loaded through to-one links, `FilterMatches`; the elements of
/// a collection of values or of a link list's column, quantified, by `CountMatching`).
extension Generator {
    /// One lowered search predicate.
    enum SearchTest {
        /// `FilterText` on the string column reached through the links (with `targetColumn`: on
        /// that column of the targets of the link list or set reached).
        case text(links: [LinkHop], column: Int32, search: TextSearch, targetColumn: Int?)
        /// `FilterGeoWithin` on the link column reached through the links (with `targetColumn`:
        /// through that to-one link column of the targets of the link list or set reached).
        case geoWithin(
            links: [LinkHop],
            column: Int32,
            region: GeoRegion,
            Quantifier,
            targetColumn: Int?
        )
        /// `FilterMatches` on the loaded value.
        case matches(Gathered, RegexPattern)
        /// `FilterMatches` on parameter n of a correlated SUBQUERY's program (`LoadParameter`):
        /// `$d.name MATCHES 'R.*'` inside `SUBQUERY($d.toys, $t, …)`.
        case matchesParameter(Int, RegexPattern)
        /// A collection's elements counted by a pattern test (`CountMatching`, then `FilterValue`).
        case counted(Gathered)
        /// The objects reached through to-many hops, tested by a program over their class and
        /// counted (`CountSubquery`), the count compared with 0 (`Generator+WalkedSearch.swift`).
        case walked(WalkedSubquery, ComparisonOperator)
        /// A test of each value an operand reaches, in its groups (`LoadGroups`:
        /// `GroupOperand.withinRegion`, `.matching`), kept where, for each quantifier, some group
        /// has it hold of the tests being true (`CompareGroups`; `Generator+WalkedSearch.swift`).
        case grouped(GroupOperand, [Quantifier])
    }

    /// The register form of a TEXT, GEOWITHIN or MATCHES predicate, or nil for other shapes
    /// (paths through to-many links, a quantified MATCHES over a collection).
    func searchTest(for predicate: BoundPredicate) -> SearchTest? {
        switch predicate {
        case .fullText(let path, let query):
            let search = TextSearch(normalizing: query)
            if !path.isMultiValued, let (links, column, property) = linkPath(path), property.collection == .single,
                property.type == .string
            {
                return .text(links: links, column: column, search: search, targetColumn: nil)
            }
            // `links.text`: ANY string of the live targets of a list or set of links.
            guard path.isMultiValued, let (links, column, target, property) = linkCollectionPath(path),
                property.collection == .single, property.type == .string
            else { return walkedSearch(predicate) }
            return .text(links: links, column: column, search: search, targetColumn: target)
        case .geoWithin(let path, let quantifier, let region):
            if let (links, column, property) = linkPath(path, endingInLink: true), property.isLink,
                property.collection == .single || property.collection == .list || property.collection == .set,
                let target = property.type.targetClassName, schema[target] != nil
            {
                return .geoWithin(links: links, column: column, region: region, quantifier, targetColumn: nil)
            }
            // `partners.location`: the point behind a to-one link of each element of a list or set.
            guard path.isMultiValued, let (links, column, target, property) = linkCollectionPath(path),
                property.isLink, property.collection == .single,
                let pointClass = property.type.targetClassName, schema[pointClass] != nil
            else { return walkedSearch(predicate) }
            return .geoWithin(links: links, column: column, region: region, quantifier, targetColumn: target)
        case .matches(let operand, let pattern):
            guard case .path(let path) = operand.expression else { return nil }
            if let n = Self.parameterIndex(path) {
                // One value (`Generator+SubqueryParameters.swift` passes no groups to MATCHES).
                guard Self.groupsParameterIndex(path) == nil, operand.quantifier ?? .any != .none else { return nil }
                return .matchesParameter(n, pattern)
            }
            if operand.isMultiValued {
                // `ANY tags MATCHES 'a.*'`, `ALL others.nick MATCHES …`: counted as a comparison's
                // elements are (`CountMatching`), each element tested by the pattern.
                guard var gathered = gathered(operand, .equal, .null, [], quantified: true),
                    case .matching(var test) = gathered.load, !test.ofSize
                else { return walkedSearch(predicate) }
                test.pattern = pattern
                gathered.load = .matching(test)
                return .counted(gathered)
            }
            // One value: ANY and ALL over it are the value's own test.
            guard operand.quantifier ?? .any != .none,
                let gathered = gathered(operand, .equal, .null, [], quantified: false),
                case .column = gathered.load
            else { return walkedSearch(predicate) }
            return .matches(gathered, pattern)
        case .constant, .and, .or, .not, .comparison:
            return nil
        }
    }

    mutating func emit(_ test: SearchTest, into register: Int32, comment: String) {
        switch test {
        case .text(let links, let column, let search, let targetColumn):
            let source = emitGathers(links, into: register)
            builder.emit(
                .filterText,
                p1: register,
                p2: column,
                p4: builder.constant(.textSearch(search, targetColumn: targetColumn)),
                p5: source,
                comment: comment
            )
        case .geoWithin(let links, let column, let region, let quantifier, let targetColumn):
            let source = emitGathers(links, into: register)
            builder.emit(
                .filterGeoWithin,
                p1: register,
                p2: column,
                p4: builder.constant(.geoRegion(region, quantifier: quantifier, targetColumn: targetColumn)),
                p5: source,
                comment: comment
            )
        case .matches(let gathered, let pattern):
            let v = emitLoad(gathered, into: register)
            builder.emit(.filterMatches, p1: register, p2: v, p4: builder.constant(.pattern(pattern)), comment: comment)
        case .matchesParameter(let n, let pattern):
            let v = emitValue(.parameter(n), into: register)
            builder.emit(.filterMatches, p1: register, p2: v, p4: builder.constant(.pattern(pattern)), comment: comment)
        case .counted(let gathered):
            emit(gathered, into: register, comment: comment)
        case .grouped(let operand, let quantifiers):
            emitGrouped(operand, quantifiers, into: register, comment: comment)
        case .walked(let subquery, let op):
            let v = emit(subquery, into: register)
            builder.emit(
                .filterValue,
                p1: register,
                p2: v,
                p3: op.code,
                p4: builder.constant(.value(.int(0))),
                comment: comment
            )
        }
    }

    /// A path through to-one links to a list or set of links, then one property of the linked
    /// class (`owner.friends.name`): the to-one links, the collection's column, and the target
    /// property's index and description.
    func linkCollectionPath(
        _ path: BoundPath
    ) -> (links: [LinkHop], column: Int32, targetColumn: Int, Property)? {
        guard path.steps.count >= 2, case .property(let className, let index, _) = path.steps[path.steps.count - 1]
        else { return nil }
        var prefix = path
        prefix.steps.removeLast()
        guard let (links, column, collection) = linkPath(prefix, endingInLink: true), collection.isLink,
            collection.collection == .list || collection.collection == .set,
            collection.type.targetClassName == className, let target = schema[className], index >= 0,
            index < target.properties.count, !target.properties[index].isBacklink
        else { return nil }
        return (links, column, index, target.properties[index])
    }
}
