import RQLCore

/// Checks the internal invariants of a bound query against a schema, after the binder and
/// after every optimizer pass. It reports problems instead of trapping, so a broken pass shows
/// up as a readable list rather than a crash:
///
/// * comparisons hold no operator the binder lowers (IN, TEXT, MATCHES);
/// * the query's class exists; every path starts in the class it claims (the query's class, or
///   the class of the SUBQUERY element it names) and every element depth is within the
///   SUBQUERY nesting;
/// * every `.property` step names a class the path is in, an index in range and the property's
///   name at that index; `@links` steps name a property that links to the current class;
/// * a path's `isMultiValued` agrees with its steps; quantifiers are written only in front of
///   multi-valued operands; an operand's `isMultiValued` agrees with its expression;
/// * SUBQUERY and GEOWITHIN paths reach objects; SORT/DISTINCT keys are single-valued paths from
///   the query's class; LIMIT is not negative; TEXT terms are not empty; GEO regions are valid.
///
///     let problems = IRVerifier(schema: store.schema).verify(bound)
///     // ["Dog.agee: property 1 of 'Dog' is 'age', not 'agee'"]
public struct IRVerifier: Sendable {
    public let schema: Schema

    public init(schema: Schema) {
        self.schema = schema
    }

    /// Every problem found, in the order met; empty when the query is well-formed.
    public func verify(_ query: BoundQuery) -> [String] {
        var problems: [String] = []
        guard schema[query.className] != nil else {
            return ["unknown class '\(query.className)'"]
        }
        let scope = Scope(className: query.className, elementClasses: [])
        check(query.predicate, in: scope, into: &problems)
        for clause in query.clauses {
            switch clause {
            case .sort(let keys):
                if keys.isEmpty { problems.append("SORT without keys") }
                for key in keys { checkKey(key.path, clause: "SORT", in: scope, into: &problems) }
            case .distinct(let paths):
                if paths.isEmpty { problems.append("DISTINCT without keys") }
                for path in paths { checkKey(path, clause: "DISTINCT", in: scope, into: &problems) }
            case .limit(let count):
                if count < 0 { problems.append("LIMIT(\(count)) is negative") }
            }
        }
        return problems
    }

    /// The class of the tested object and of each enclosing SUBQUERY element, innermost last.
    struct Scope {
        var className: String
        var elementClasses: [String]
    }

    private func checkKey(_ path: BoundPath, clause: String, in scope: Scope, into problems: inout [String]) {
        check(path, in: scope, into: &problems)
        let name = IRPrinter.print(path)
        if path.isMultiValued { problems.append("\(clause) key \(name) is multi-valued") }
        if path.root != .object { problems.append("\(clause) key \(name) does not start at the query's object") }
    }

    // MARK: Predicates and expressions

    private func check(_ predicate: BoundPredicate, in scope: Scope, into problems: inout [String]) {
        switch predicate {
        case .constant:
            break
        case .and(let operands), .or(let operands):
            for operand in operands { check(operand, in: scope, into: &problems) }
        case .not(let operand):
            check(operand, in: scope, into: &problems)
        case .comparison(let comparison):
            if comparison.op.isLowered {
                problems.append("\(comparison.op.rawValue) in a bound comparison (the binder lowers it)")
            }
            for operand in [comparison.lhs, comparison.rhs] { check(operand, in: scope, into: &problems) }
        case .fullText(let path, let query):
            check(path, in: scope, into: &problems)
            if query.terms.isEmpty { problems.append("TEXT on \(IRPrinter.print(path)) has no terms") }
            if query.terms.contains(where: { $0.token.isEmpty }) {
                problems.append("TEXT on \(IRPrinter.print(path)) has an empty term")
            }
        case .geoWithin(let path, _, let region):
            if check(path, in: scope, into: &problems)?.isObject != true {
                problems.append("GEOWITHIN path \(IRPrinter.print(path)) does not reach objects")
            }
            checkRegion(region, into: &problems)
        case .matches(let operand, _):
            check(operand, in: scope, into: &problems)
        }
    }

    private func check(_ operand: BoundOperand, in scope: Scope, into problems: inout [String]) {
        let text = IRPrinter.print(operand.expression)
        if let quantifier = operand.quantifier, !operand.isMultiValued {
            problems.append("quantifier \(quantifier.rawValue) on single-valued operand \(text)")
        }
        if let intrinsic = check(operand.expression, in: scope, into: &problems), intrinsic != operand.isMultiValued {
            problems.append(
                "operand \(text) is marked \(operand.isMultiValued ? "multi" : "single")-valued but is "
                    + "\(intrinsic ? "multi" : "single")-valued"
            )
        }
    }

    /// Checks `expression`; returns whether it is multi-valued when that is determined by the
    /// expression alone (nil for `@count`, aggregates and SUBQUERY counts, which are one value
    /// per owner of a collection and so multi-valued only behind a to-many hop).
    @discardableResult
    private func check(_ expression: BoundExpression, in scope: Scope, into problems: inout [String]) -> Bool? {
        switch expression {
        case .constant, .object:
            return false
        case .constantList:
            return true
        case .list(let elements):
            for element in elements {
                switch element {
                case .constant, .object: break
                default: problems.append("list element \(IRPrinter.print(element)) is not a constant or obj()")
                }
            }
            return true
        case .path(let path), .type(let path):
            check(path, in: scope, into: &problems)
            return path.isMultiValued
        case .count(let path):
            check(path, in: scope, into: &problems)
            return nil
        case .aggregate(_, let path):
            check(path, in: scope, into: &problems)
            return nil
        case .backlinkCount(let path):
            check(path, in: scope, into: &problems)
            return false
        case .subqueryCount(let path, let predicate):
            let end = check(path, in: scope, into: &problems)
            if !path.isMultiValued { problems.append("SUBQUERY path \(IRPrinter.print(path)) is not to-many") }
            switch end {
            case .object(let elementClass)?, .objectCollection(let elementClass, _)?:
                var inner = scope
                inner.elementClasses.append(elementClass)
                check(predicate, in: inner, into: &problems)
            case .valueCollection?, .mixed?, .scalar?, nil:
                problems.append("SUBQUERY path \(IRPrinter.print(path)) does not reach objects")
            }
            return nil
        case .arithmetic(_, let lhs, let rhs):
            let l = check(lhs, in: scope, into: &problems)
            let r = check(rhs, in: scope, into: &problems)
            if l == true && r == true {
                problems.append("arithmetic \(IRPrinter.print(expression)) has two multi-valued operands")
            }
            return (l ?? false) || (r ?? false)
        }
    }

    private func checkRegion(_ region: GeoRegion, into problems: inout [String]) {
        func valid(_ p: GeoPoint) -> Bool {
            p.longitude >= -180 && p.longitude <= 180 && p.latitude >= -90 && p.latitude <= 90
        }
        let text = IRPrinter.print(region)
        switch region {
        case .box(let a, let b):
            if !valid(a) || !valid(b) { problems.append("GEOWITHIN \(text): coordinates out of range") }
        case .circle(let center, let radius):
            if !valid(center) { problems.append("GEOWITHIN \(text): coordinates out of range") }
            if !(radius >= 0) { problems.append("GEOWITHIN \(text): negative radius") }
        case .polygon(let rings):
            if rings.isEmpty { problems.append("GEOWITHIN \(text): no rings") }
            for ring in rings {
                if ring.count < 4 { problems.append("GEOWITHIN \(text): a ring has fewer than 4 points") }
                if ring.first != ring.last { problems.append("GEOWITHIN \(text): a ring is not closed") }
                if !ring.allSatisfy(valid) { problems.append("GEOWITHIN \(text): coordinates out of range") }
            }
        }
    }
}
