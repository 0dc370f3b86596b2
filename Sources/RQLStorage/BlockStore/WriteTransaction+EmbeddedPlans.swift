import RQLCore

/// A value checked against its property and ready to write. Embedded objects are given by their
/// property values (a `.map`) and created when the plan is applied, with their owner.
indirect enum PlannedValue {
    /// Written as it is (links point at existing objects).
    case value(Value)
    /// A to-one embedded object to create, or null.
    case embedded(EmbeddedPlan?)
    /// The elements of a `list<Embedded>`, each created.
    case embeddedList([EmbeddedPlan])
    /// The entries of a `map<Embedded?>`, in key order; null entries stay null.
    case embeddedMap([(key: String, plan: EmbeddedPlan?)])
}

/// A new embedded object: its table and one planned value per property.
struct EmbeddedPlan {
    let table: Int
    let values: [PlannedValue]
}

/// Planning and creating objects with their embedded objects. Embedded objects nest as deep as
/// the values a caller gives (up to `maximumEmbeddedDepth`): both walks keep their own work
/// lists, so the stack does not grow with the nesting.
extension WriteTransaction {
    /// A property value whose embedded objects are planned separately: they are given by their
    /// index in the planning's list of objects.
    private enum PendingValue {
        /// Written as it is.
        case value(Value)
        /// A to-one embedded object (its index), or null.
        case embedded(Int?)
        /// The objects of a `list<Embedded>`.
        case embeddedList([Int])
        /// The entries of a `map<Embedded?>` in key order; nil for a null entry.
        case embeddedMap([(key: String, object: Int?)])
    }

    /// An embedded object to plan: its table, its level below its top-level owner, the values
    /// given for it, and (once planned) one pending value per property.
    private struct PendingObject {
        let table: Int
        let depth: Int
        var given: [(String, Value)]
        var values: [PendingValue] = []
    }

    /// Checks `given` (property name → value) for a new object of table `t`, filling the
    /// properties not given with their defaults. `depth`: the new object's level below its
    /// top-level owner (0 for a top-level object).
    func planObject(
        _ t: Int,
        _ given: [(String, Value)],
        key: RowKey?,
        depth: Int = 0
    ) throws(WriteError) -> [PlannedValue] {
        var objects: [PendingObject] = []
        let values = try pendingValues(t, given, key: key, depth: depth, &objects)
        let plans = try planEmbedded(&objects)
        return values.map { Self.resolve($0, plans) }
    }

    /// The checked values of a new top-level object of table `t` (defaults for the properties
    /// not given), or nil when its class has a property holding embedded objects: only those
    /// need `planObject`'s work lists, and a single-object insert is mostly this planning.
    /// Checks and errors are `planObject`'s, in the same order (`SingleObjectWriteTests`
    /// compares the two). Not `pendingValues` with its results unwrapped: its array of
    /// `PendingValue`s costs an insert 13% more instructions (88 k → 100 k, callgrind).
    func plainRow(_ t: Int, _ given: [String: Value]) throws(WriteError) -> [Value]? {
        let objectSchema = tables[t].objectSchema
        let properties = objectSchema.properties
        for property in properties where isEmbeddedTarget(property) { return nil }
        var row = [Value?](repeating: nil, count: properties.count)
        for (name, value) in given {
            guard let index = objectSchema.propertyIndex(named: name) else {
                throw .unknownProperty(className: objectSchema.name, property: name)
            }
            let property = properties[index]
            guard !property.isBacklink else { throw .computedProperty(className: objectSchema.name, property: name) }
            row[index] = try checked(value, for: property, in: objectSchema.name, key: nil)
        }
        var values: [Value] = []
        values.reserveCapacity(properties.count)
        for (index, property) in properties.enumerated() {
            if let value = row[index] {
                values.append(value)
            } else if property.isBacklink {
                values.append(.null)
            } else {
                values.append(try checked(property.defaultValue, for: property, in: objectSchema.name, key: nil))
            }
        }
        return values
    }

    /// Checks `value` for `property` of an object of `className` (`key` names it in errors).
    /// `depth`: the object's level below its top-level owner, found from its owners when not
    /// given (an existing object).
    func plan(
        _ value: Value,
        for property: Property,
        in className: String,
        key: RowKey?,
        depth: Int? = nil
    ) throws(WriteError) -> PlannedValue {
        guard !property.isBacklink else { throw .computedProperty(className: className, property: property.name) }
        guard isEmbeddedTarget(property) else {
            return .value(try checked(value, for: property, in: className, key: key))
        }
        var objects: [PendingObject] = []
        let depth = depth ?? embeddedDepth(className, key)
        let pending = try pendingValue(value, for: property, in: className, key: key, depth: depth, &objects)
        let plans = try planEmbedded(&objects)
        return Self.resolve(pending, plans)
    }

    /// Plans every object of `objects` in turn (each may append its own embedded objects after
    /// it) and returns their plans by index, each made after its children's.
    private func planEmbedded(_ objects: inout [PendingObject]) throws(WriteError) -> [EmbeddedPlan?] {
        var next = 0
        while next < objects.count {
            let object = objects[next]
            let values = try pendingValues(object.table, object.given, key: nil, depth: object.depth, &objects)
            objects[next].values = values
            objects[next].given = []
            next += 1
        }
        // An object's embedded objects come after it in the list.
        var plans = [EmbeddedPlan?](repeating: nil, count: objects.count)
        for i in objects.indices.reversed() {
            plans[i] = EmbeddedPlan(table: objects[i].table, values: objects[i].values.map { Self.resolve($0, plans) })
        }
        return plans
    }

    private static func resolve(_ pending: PendingValue, _ plans: [EmbeddedPlan?]) -> PlannedValue {
        switch pending {
        case .value(let value): .value(value)
        case .embedded(let object): .embedded(object.flatMap { plans[$0] })
        case .embeddedList(let objects): .embeddedList(objects.compactMap { plans[$0] })
        case .embeddedMap(let entries): .embeddedMap(entries.map { ($0.key, $0.object.flatMap { plans[$0] }) })
        }
    }

    /// One pending value per property of a new object of table `t` (defaults for those not
    /// given); its embedded objects are appended to `objects`.
    private func pendingValues(
        _ t: Int,
        _ given: [(String, Value)],
        key: RowKey?,
        depth: Int,
        _ objects: inout [PendingObject]
    ) throws(WriteError) -> [PendingValue] {
        let objectSchema = tables[t].objectSchema
        var pending: [PendingValue?] = Array(repeating: nil, count: objectSchema.properties.count)
        for (name, value) in given {
            let (index, property) = try writableProperty(t, name)
            pending[index] = try pendingValue(
                value,
                for: property,
                in: objectSchema.name,
                key: key,
                depth: depth,
                &objects
            )
        }
        var result: [PendingValue] = []
        result.reserveCapacity(pending.count)
        for (index, property) in objectSchema.properties.enumerated() {
            if let value = pending[index] {
                result.append(value)
            } else if property.isBacklink {
                result.append(.value(.null))
            } else {
                let value = property.defaultValue
                result.append(
                    try pendingValue(value, for: property, in: objectSchema.name, key: key, depth: depth, &objects)
                )
            }
        }
        return result
    }

    /// `value` checked for `property` of an object at level `depth`; embedded objects are given
    /// by their values (`.map`, `.null` for none) and appended to `objects`, one level deeper.
    private func pendingValue(
        _ value: Value,
        for property: Property,
        in className: String,
        key: RowKey?,
        depth: Int,
        _ objects: inout [PendingObject]
    ) throws(WriteError) -> PendingValue {
        guard !property.isBacklink else { throw .computedProperty(className: className, property: property.name) }
        guard isEmbeddedTarget(property), case .object(let target) = property.type else {
            return .value(try checked(value, for: property, in: className, key: key))
        }
        let targetTable = try tableIndex(target)
        // The new objects' level below their top-level owner.
        let depth = depth + 1
        guard depth <= Self.maximumEmbeddedDepth || value.isNull else {
            throw .typeMismatch(
                className: className,
                property: property.name,
                key: key,
                expected: "embedded objects nested at most \(Self.maximumEmbeddedDepth) levels below their owner",
                found: "one at level \(depth)"
            )
        }
        func object(_ value: Value) throws(WriteError) -> Int {
            switch value {
            case .map(let values):
                objects.append(
                    PendingObject(table: targetTable, depth: depth, given: values.map { ($0.key, $0.value) })
                )
                return objects.count - 1
            case .link(let link):
                throw .linkToEmbeddedObject(className: className, property: property.name, key: key, target: link)
            default:
                throw mismatch(property, className, key, value)
            }
        }
        switch property.collection {
        case .single:
            return .embedded(value.isNull ? nil : try object(value))
        case .list, .set:
            guard case .list(let items) = value else { throw mismatch(property, className, key, value) }
            var indices: [Int] = []
            for item in items {
                if item.isNull { throw .nullNotAllowed(className: className, property: property.name, key: key) }
                indices.append(try object(item))
            }
            return .embeddedList(indices)
        case .map:
            guard case .map(let map) = value else { throw mismatch(property, className, key, value) }
            var entries: [(key: String, object: Int?)] = []
            for entry in map {
                try checkMapKey(entry.key, property, className, key)
                entries.append((entry.key, entry.value.isNull ? nil : try object(entry.value)))
            }
            return .embeddedMap(entries)
        }
    }

    // MARK: Creating

    /// Creates the embedded objects of `planned` (children first) and returns the value to
    /// store, links to the new children in place of their plans.
    func materialize(_ planned: PlannedValue) -> Value {
        if case .value(let value) = planned { return value }
        return materializeAll([planned])[0]
    }

    /// Creates an object of table `t` from its validated values and returns a link to it.
    func create(_ t: Int, _ planned: [PlannedValue]) -> ObjectLink {
        createRow(t, materializeAll(planned))
    }

    /// Creates every embedded object `planned` holds, each after its own embedded objects and
    /// in the order of their plans (as a depth-first walk would), and returns the values with
    /// links in place of the plans.
    private func materializeAll(_ planned: [PlannedValue]) -> [Value] {
        /// An object whose embedded objects are being created: `links` holds those made so far.
        struct Frame {
            let plan: EmbeddedPlan?
            let children: [EmbeddedPlan]
            var links: [ObjectLink] = []
        }
        var stack = [Frame(plan: nil, children: Self.children(of: planned))]
        while true {
            let top = stack.count - 1
            let made = stack[top].links.count
            if made < stack[top].children.count {
                let child = stack[top].children[made]
                stack.append(Frame(plan: child, children: Self.children(of: child.values)))
                continue
            }
            let frame = stack.removeLast()
            let values = Self.substitute(frame.plan?.values ?? planned, frame.links)
            guard let plan = frame.plan else { return values }
            stack[stack.count - 1].links.append(createRow(plan.table, values))
        }
    }

    /// The embedded objects planned in `values`, in order.
    private static func children(of values: [PlannedValue]) -> [EmbeddedPlan] {
        var children: [EmbeddedPlan] = []
        for value in values {
            switch value {
            case .value: break
            case .embedded(let plan): if let plan { children.append(plan) }
            case .embeddedList(let plans): children += plans
            case .embeddedMap(let entries): children += entries.compactMap(\.plan)
            }
        }
        return children
    }

    /// `values` with the links in `links` (one per embedded object, in the order of
    /// `children(of:)`) in place of their plans.
    private static func substitute(_ values: [PlannedValue], _ links: [ObjectLink]) -> [Value] {
        var next = 0
        func link() -> Value {
            defer { next += 1 }
            return .link(links[next])
        }
        return values.map { value in
            switch value {
            case .value(let value): return value
            case .embedded(let plan): return plan == nil ? .null : link()
            case .embeddedList(let plans): return .list(plans.map { _ in link() })
            case .embeddedMap(let entries):
                return .map(MixedMap(entries.map { ($0.key, $0.plan == nil ? .null : link()) }))
            }
        }
    }

    /// Appends a row of table `t` with `values` (links to existing objects only) and returns a
    /// link to it.
    func createRow(_ t: Int, _ values: [Value]) -> ObjectLink {
        let key = tables[t].append(values)
        for (index, value) in values.enumerated() { addBacklinks(from: t, key: key, property: index, value: value) }
        let link = ObjectLink(className: className(t), key: RowKey(key))
        changes.insert(link.className, link.key)
        return link
    }
}
