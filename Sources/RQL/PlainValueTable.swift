import RQLCore
import RQLEngine
import RQLStorage

/// A collection of plain values (`List<Int>`, `MutableSet<String>`, a `Map`'s values) as the
/// engine queries it: a class of one property, `self`, whose rows are the elements in the
/// collection's order. Query text and `where` closures bind against it with the one binder
/// (`Binder.selfProperty`: `SELF` reads the element), sorts and distincts name `self`, and the
/// engine runs the plan on an in-memory block store of the elements, so elements compare, sort and
/// deduplicate by exactly the rules object properties do. Row keys are positions.
///
/// ```swift
/// let table = PlainValueTable(Int.self)!         // class "Int", property "self: int"
/// let store = table.store([.int(3), .int(7)])    // rows O0, O1
/// ```
struct PlainValueTable: Hashable, Sendable {
    /// The property every element is in, and what `SELF` reads.
    static let propertyName = "self"

    /// The element type's Swift name (`Int`, `String?`), which messages and `explain()` show.
    let className: String
    /// The one class.
    let schema: RQLCore.Schema

    /// The table for elements of `type`; nil for objects (which are queried as objects).
    init?<Element: _Persistable>(_ type: Element.Type) {
        let schemaType = Element._rqlSchemaType
        guard case .scalar(let propertyType) = schemaType.element, schemaType.collection == .single else {
            return nil
        }
        let property = RQLCore.Property(name: Self.propertyName, type: propertyType, isOptional: schemaType.isOptional)
        guard
            let schema = try? RQLCore.Schema([
                RQLCore.ObjectSchema(name: schemaType.swiftName, properties: [property])
            ])
        else { return nil }
        self.className = schemaType.swiftName
        self.schema = schema
    }

    /// A store holding `elements` as the class's rows, in order (row key = position).
    func store(_ elements: [RQLCore.Value]) -> BlockSnapshot {
        // The elements come from a property of this element type, so every one fits the
        // column; an empty store would only hide a broken invariant.
        do {
            return try BlockSnapshot(schema: schema, columns: [className: [Self.propertyName: column(elements)]])
        } catch {
            realmStop("Elements of \(className) do not fit their own column: \(error)")
        }
    }

    /// `elements` as one column: typed when the element type has a typed column and every
    /// element is of that type or null (copied in bulk), as `Value`s otherwise.
    private func column(_ elements: [RQLCore.Value]) -> ColumnValues {
        func typed<T>(_ filler: T, _ extract: (RQLCore.Value) -> T?) -> (values: [T], nulls: [Bool]?)? {
            var values: [T] = []
            values.reserveCapacity(elements.count)
            var nulls: [Bool]?
            for (i, element) in elements.enumerated() {
                if let value = extract(element) {
                    values.append(value)
                } else if element.isNull {
                    if nulls == nil { nulls = [Bool](repeating: false, count: elements.count) }
                    nulls?[i] = true
                    values.append(filler)
                } else {
                    return nil
                }
            }
            return (values, nulls)
        }
        let property = schema.classes[0].properties[0]
        switch property.type {
        case .int:
            if let (values, nulls) = typed(Int64(0), { if case .int(let v) = $0 { v } else { nil } }) {
                return .int(values, nulls: nulls)
            }
        case .double:
            if let (values, nulls) = typed(0.0, { if case .double(let v) = $0 { v } else { nil } }) {
                return .double(values, nulls: nulls)
            }
        case .string:
            if !elements.contains(where: { if case .string = $0 { false } else { !$0.isNull } }) {
                return .string(elements.map { if case .string(let v) = $0 { v } else { nil } })
            }
        default:
            break
        }
        return .values(elements)
    }

    /// The elements of `owner`'s collection property `ordinal` in its realm's current version
    /// (none once the owner was deleted).
    static func elements(of owner: ObjectAccessor, _ ordinal: Int) -> [RQLCore.Value] {
        owner.isInvalidated ? [] : elements(of: owner.storedValue(ordinal))
    }

    /// The stored elements of a collection property's value: a list's or set's elements, a map's
    /// values in key order.
    static func elements(of stored: RQLCore.Value) -> [RQLCore.Value] {
        switch stored {
        case .list(let values): values
        case .map(let map): map.values
        default: []
        }
    }
}

extension PlainValueTable {
    /// A stored element as the collection's Swift element type. Only values that may hold links
    /// (mixed links, nested collections) need the owner's realm to read them.
    static func element<Element: _Persistable>(
        _ value: RQLCore.Value,
        as type: Element.Type,
        owner: ObjectAccessor
    ) -> Element {
        let reader: ObjectBase
        switch value {
        case .link, .list, .map: reader = owner.object(for: owner.link) ?? PlainValues.owner
        default: reader = PlainValues.owner
        }
        guard let element = Element._rqlRead(value, owner: reader) else {
            realmStop("\(owner.classInfo.className) holds \(value.kind), not \(Element.self)")
        }
        return element
    }
}

extension PlainValueTable {
    /// The position of the first of `elements` (an unmanaged collection's values) that matches
    /// `predicate`, run on the engine as a managed collection's query is.
    func firstIndex(of elements: [RQLCore.Value], matching predicate: BoundPredicate) -> Int? {
        guard
            let store = try? BlockSnapshot(schema: schema, columns: [className: [Self.propertyName: column(elements)]])
        else {
            realmStop("The values of this unmanaged collection of \(className) cannot be queried")
        }
        let plan = LogicalPlan(className: className, operators: [.filter(predicate)])
        let keys = QueryExecution.run(QueryExecution.compile(plan, onElements: store), onElements: store)
        return keys.first.map { Int($0.rawValue) }
    }
}
