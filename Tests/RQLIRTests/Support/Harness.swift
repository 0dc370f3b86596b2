import Foundation
import RQLCore
import RQLDatasets
import RQLIR
import RQLStorage

/// Builds bound IR by hand for one class of a store (the binder is tested elsewhere) and runs
/// it through the reference evaluator.
///
///     let h = try Harness(json: text, className: "Person")
///     h.count(h.cmp(h.path("items.price"), .equal, h.const(.double(5.5))))
struct Harness {
    let store: BlockSnapshot
    let className: String

    init(store: BlockSnapshot, className: String) {
        self.store = store
        self.className = className
    }

    init(json: String, className: String) throws {
        self.init(store: try DatasetLoader.load(json: json), className: className)
    }

    /// A suite's dataset from realm-core's mined test vectors (Tests/Fixtures). Parsed with the
    /// store's own order-preserving JSON reader: property order decides property indices.
    init(fixture suite: String, className: String) throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/realm-core-public.json")
        let document = try JSONValue.parse(String(decoding: try Data(contentsOf: url), as: UTF8.self))
        guard case .array(let suites)? = document["suites"],
            let found = suites.first(where: { $0["name"] == .string(suite) }),
            let data = found["data"]
        else { throw FixtureError.missingSuite(suite) }
        self.init(store: try DatasetLoader.load(document: data), className: className)
    }

    enum FixtureError: Error { case missingSuite(String) }

    var evaluator: ReferenceEvaluator<BlockSnapshot> { ReferenceEvaluator(store: store) }

    // MARK: Paths

    /// A path written as in RQL: `dogs.age`, `items[0].name`, `integers[FIRST]`, `dict['k']`,
    /// `dict.@keys`, `dict.@values`, `@links.Person.dogs.name`, `list[*]`. Multi-valuedness
    /// and the value type follow from the schema.
    func path(_ text: String, from start: String? = nil, root: BoundPath.Root = .object) -> BoundPath {
        var current: String? = start ?? className
        var steps: [PathStep] = []
        var multi = false
        var pendingCollection = false
        var valueType = PropertyType.object(start ?? className)
        var components =
            text.isEmpty ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        func openCollection() {
            if pendingCollection { multi = true }
            pendingCollection = false
        }
        while !components.isEmpty {
            let component = components.removeFirst()
            var name = component
            var subscripts: [String] = []
            if let bracket = component.firstIndex(of: "[") {
                name = String(component[..<bracket])
                subscripts = component[bracket...].split(separator: "]").map { String($0.dropFirst()) }
            }
            switch name {
            case "":
                break
            case "@keys", "@values":
                steps.append(name == "@keys" ? .keys : .values)
                multi = true
                pendingCollection = false
                if name == "@keys" { valueType = .string }
            case "@links":
                let origin = components.removeFirst()
                let property = components.removeFirst()
                openCollection()
                steps.append(.backlinks(className: origin, property: property))
                pendingCollection = true
                current = origin
                valueType = .object(origin)
            case let key where current == nil:
                // After a dictionary or a mixed value, `.name` reads a key.
                steps.append(.key(key))
                pendingCollection = false
            default:
                openCollection()
                let objectSchema = store.schema[current!]!
                let index = objectSchema.propertyIndex(named: name)!
                let property = objectSchema.properties[index]
                steps.append(.property(className: current!, index: index, name: name))
                current = property.type.targetClassName
                valueType = property.type
                pendingCollection = property.isToMany
            }
            for bracket in subscripts {
                switch bracket {
                case "FIRST": steps.append(.first)
                case "LAST": steps.append(.last)
                case "*":
                    steps.append(.all)
                    multi = true
                case let key where key.hasPrefix("'"):
                    steps.append(.key(String(key.dropFirst().dropLast())))
                default: steps.append(.index(Int(bracket)!))
                }
                pendingCollection = false
            }
        }
        if pendingCollection { multi = true }
        return BoundPath(
            root: root,
            steps: steps,
            isMultiValued: multi,
            rootClassName: start ?? className,
            valueType: valueType
        )
    }

    // MARK: Operands and predicates

    func operand(_ text: String, _ quantifier: Quantifier? = nil) -> BoundOperand {
        let p = path(text)
        return BoundOperand(.path(p), quantifier: quantifier, isMultiValued: p.isMultiValued)
    }

    func operand(_ expression: BoundExpression, multi: Bool = false, _ quantifier: Quantifier? = nil) -> BoundOperand {
        BoundOperand(expression, quantifier: quantifier, isMultiValued: multi)
    }

    func const(_ value: Value) -> BoundOperand {
        BoundOperand(.constant(value), isMultiValued: false)
    }

    func list(_ values: [Value], _ quantifier: Quantifier? = nil) -> BoundOperand {
        BoundOperand(.constantList(values), quantifier: quantifier, isMultiValued: true)
    }

    func cmp(
        _ lhs: BoundOperand,
        _ op: ComparisonOperator,
        _ rhs: BoundOperand,
        _ options: StringOptions = []
    ) -> BoundPredicate {
        .comparison(BoundComparison(lhs, op, rhs, options: options))
    }

    /// `path op constant`, the commonest shape.
    func cmp(_ path: String, _ op: ComparisonOperator, _ value: Value, _ options: StringOptions = []) -> BoundPredicate
    {
        cmp(operand(path), op, const(value), options)
    }

    // MARK: Running

    func query(_ predicate: BoundPredicate, _ clauses: [BoundClause] = []) -> BoundQuery {
        BoundQuery(className: className, predicate: predicate, clauses: clauses)
    }

    func count(_ predicate: BoundPredicate) -> Int {
        evaluator.count(query(predicate))
    }

    /// The value of `property` of each result row, in result order.
    func values(_ predicate: BoundPredicate, _ clauses: [BoundClause] = [], of property: String) -> [Value] {
        let table = store.table(named: className)!
        let column = table.objectSchema.propertyIndex(named: property)!
        return evaluator.run(query(predicate, clauses)).map { key in
            table.value(at: table.position(of: key)!, property: column)
        }
    }

    /// The positions of the matching rows, in table order.
    func positions(_ predicate: BoundPredicate) -> [Int] {
        let table = store.table(named: className)!
        return evaluator.run(query(predicate)).map { table.position(of: $0)! }
    }

    func link(_ className: String, _ position: Int) -> Value {
        .link(ObjectLink(className: className, key: store.table(named: className)!.rowKey(at: position)))
    }
}

extension Value {
    static func strings(_ values: String...) -> [Value] { values.map { .string($0) } }
    static func ints(_ values: Int64...) -> [Value] { values.map { .int($0) } }
}
