/// Queries on `Person` that reach the generated properties `x0` … `x5` in every way their shape
/// allows: a scalar is compared, tested for nil, listed with IN, measured with `@size` and
/// typed with `@type`; a list, set or map is quantified (ANY, ALL, NONE), counted, aggregated,
/// subscripted (`[FIRST]`, `[LAST]`, `[1]`, `['k0']`), searched with `@keys` / `@values` and
/// filtered with SUBQUERY; a link is followed, also back through `Dog.owners`. Mixed with the
/// fixed properties under AND, OR and NOT. Some shapes do not bind for some types (`x0 > 1` on a
/// bool); a caller skips those, so the generator need not know every typing rule.
///
///     var random = SeededRandom(seed: 3)
///     SchemaExtension(seed: 3).query(&random)   // e.g. "(ANY x2.@values > 1.5 OR NOT x4[FIRST] == 'a')"
extension SchemaExtension {
    /// One predicate, up to two levels of AND / OR / NOT deep.
    public func query(_ random: inout SeededRandom) -> String {
        predicate(&random, depth: 0)
    }

    private func predicate(_ random: inout SeededRandom, depth: Int) -> String {
        if depth < 2 && random.chance(35) {
            let parts = (0..<(2 + random.int(below: 2))).map { _ in predicate(&random, depth: depth + 1) }
            let text = "(" + parts.joined(separator: random.pick([" AND ", " OR "])) + ")"
            return random.chance(20) ? "NOT " + text : text
        }
        if random.chance(15) {
            return random.pick([
                "age > 50", "name BEGINSWITH 'A'", "dog.age < 3", "ANY tags == 2", "city == nil", "mixed == 1",
            ])
        }
        return atom(on: random.pick(properties), &random)
    }

    private static let operators = ["==", "!=", "<", "<=", ">", ">="]

    private func atom(on property: GeneratedProperty, _ random: inout SeededRandom) -> String {
        let name = property.name
        let element = property.element
        func constant() -> String { Self.constant(of: element, &random) }
        func comparison() -> String {
            switch element {
            case .string:
                random.pick(["==", "!=", "BEGINSWITH", "ENDSWITH[c]", "CONTAINS[cd]", "LIKE", "==[c]", ">"])
            case .bool, .objectId, .uuid, .data: random.pick(["==", "!="])
            default: random.pick(Self.operators)
            }
        }
        switch (property.container, element) {
        case (.single, .dog):
            return random.pick([
                "\(name) == nil", "\(name) != nil", "\(name).age > \(random.int(below: 15))",
                "\(name).name == 'Dog\(random.int(below: 7))'", "\(name).@count == 1",
                "\(name).owners.@count > 1", "ANY \(name).owners.age > 50", "\(name) == dog",
                "\(name).@links.@count > 0",
            ])
        case (.single, _):
            switch random.int(below: 8) {
            case 0: return "\(name) == nil"
            case 1: return "\(name) IN {\(constant()), \(constant())}"
            case 2: return "\(name).@size > 1"
            case 3: return "\(name).@type == '\(random.pick(["int", "string", "double", "null", "numeric", "date"]))'"
            case 4: return "\(constant()) \(random.pick(Self.operators)) \(name)"
            default: return "\(name) \(comparison()) \(constant())"
            }
        case (_, .dog):
            let quantifier = random.pick(["ANY ", "ALL ", "NONE ", ""])
            // A map has no order: positions (`[FIRST]`) and SUBQUERY are for lists and sets.
            if property.container == .map {
                return random.pick([
                    "\(name)['k0'].age > \(random.int(below: 15))", "\(name).@count > 1", "\(name)['k1'] == nil",
                    "ANY \(name).@keys == 'k0'", "ANY \(name).@values.name == 'Dog1'",
                    "\(name).@values.age < 5",
                ])
            }
            return random.pick([
                "\(quantifier)\(name).age > \(random.int(below: 15))", "\(name).@count \(comparison()) 1",
                "SUBQUERY(\(name), $d, $d.age > \(random.int(below: 15))).@count > 0",
                "SUBQUERY(\(name), $d, $d.name BEGINSWITH 'Dog1' OR $d.age < 3).@count == 1",
                "SUBQUERY(\(name), $d, ANY $d.owners.age > 40).@count > 0", "\(name).@sum.age > 10",
                "\(name).@avg.age <= 7", "\(name).@max.age == \(random.int(below: 15))",
                property.container == .list ? "\(name)[FIRST].age > 5" : "\(name).@min.age > 5",
                property.container == .list ? "\(name)[LAST].name == 'Dog2'" : "\(name)[SIZE] > 1",
                "ANY \(name).owners.age > 90", "\(name).@links.@count > 0",
                "\(quantifier)\(name) == dog",
            ])
        default:
            let quantifier = random.pick(["ANY ", "ALL ", "NONE ", "", "SOME "])
            switch random.int(below: 10) {
            case 0: return "\(name).@count \(random.pick(Self.operators)) \(random.int(below: 4))"
            case 1:
                let aggregate = random.pick(["@sum", "@avg", "@min", "@max"])
                return "\(name).\(aggregate) \(random.pick(Self.operators)) \(constant())"
            case 2 where property.container == .set:
                return "\(name)[SIZE] \(random.pick(Self.operators)) \(random.int(below: 4))"
            case 2:
                let index =
                    property.container == .map
                    ? "['k\(random.int(below: 3))']" : random.pick(["[FIRST]", "[LAST]", "[1]", "[0]"])
                return "\(name)\(index) \(comparison()) \(constant())"
            case 3 where property.container == .map:
                return random.pick([
                    "ANY \(name).@keys == 'k1'", "\(name).@keys BEGINSWITH 'k'",
                    "\(quantifier)\(name).@values \(comparison()) \(constant())",
                ])
            case 4: return "\(name).@count == 0 OR \(quantifier)\(name) \(comparison()) \(constant())"
            case 5: return "\(constant()) IN \(name)"
            case 6: return "\(quantifier)\(name) IN {\(constant()), \(constant())}"
            case 7: return "\(name).@size > 1"
            default: return "\(quantifier)\(name) \(comparison()) \(constant())"
            }
        }
    }

    /// A constant of `element`'s type in RQL spelling, drawn to collide with the samples.
    private static func constant(of element: ElementType, _ random: inout SeededRandom) -> String {
        switch element {
        case .bool: random.pick(["true", "false", "null"])
        case .int: random.pick(["-2", "0", "1", "5", "3", "null", "1.5"])
        case .float, .double: random.pick(["0", "1.5", "-3.25", "nan", "inf", "-inf", "2", "null"])
        case .string: random.pick(["''", "'a'", "'Oslo'", "'zoë'", "'李'", "'os*'", "null", "'A'"])
        case .data: random.pick(["B64\"\"", "B64\"AA==\"", "B64\"YWJj\"", "null"])
        case .date: random.pick(["T0:0", "T86400:0", "T-3600:0", "2020-02-29@12:00:00:500000000", "null"])
        case .decimal128: random.pick(["1.5", "-7", "1E+3", "0", "1000", "null"])
        case .objectId: random.pick(["oid(000000000000000000000001)", "oid(5f1b2c3d4e5f60718293a4b5)", "null"])
        case .uuid: random.pick(["uuid(00000000-0000-0000-0000-000000000001)", "null"])
        case .mixed: random.pick(["1", "2.5", "'a'", "true", "T0:0", "3", "null", "'1'"])
        case .dog: "null"
        }
    }
}
