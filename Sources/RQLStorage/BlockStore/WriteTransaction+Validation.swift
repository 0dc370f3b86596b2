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

extension WriteTransaction {
    /// How deep embedded objects may nest below their top-level owner (the owner's children are
    /// level 1). A chain of embedded objects is given and copied as values nested one level per
    /// object, and planning and creating them recurses once per level; the bound keeps that
    /// recursion small. It is MongoDB's limit on nested documents, which embedded objects become
    /// when synced.
    public static let maximumEmbeddedDepth = 100

    /// Checks `given` (property name → value) for a new object of table `t`, filling the
    /// properties not given with their defaults. `depth`: the new object's level below its
    /// top-level owner (0 for a top-level object).
    func planObject(
        _ t: Int,
        _ given: [(String, Value)],
        key: RowKey?,
        depth: Int = 0
    ) throws(WriteError) -> [PlannedValue] {
        let objectSchema = tables[t].objectSchema
        var planned: [PlannedValue?] = Array(repeating: nil, count: objectSchema.properties.count)
        for (name, value) in given {
            let (index, property) = try writableProperty(t, name)
            planned[index] = try plan(value, for: property, in: objectSchema.name, key: key, depth: depth)
        }
        var result: [PlannedValue] = []
        result.reserveCapacity(planned.count)
        for (index, property) in objectSchema.properties.enumerated() {
            if let value = planned[index] {
                result.append(value)
            } else if property.isBacklink {
                result.append(.value(.null))
            } else {
                result.append(
                    try plan(property.defaultValue, for: property, in: objectSchema.name, key: key, depth: depth)
                )
            }
        }
        return result
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
        if isEmbeddedTarget(property), case .object(let target) = property.type {
            let depth = depth ?? embeddedDepth(className, key)
            return try planEmbedded(value, target: target, for: property, in: className, key: key, depth: depth)
        }
        return .value(try checked(value, for: property, in: className, key: key))
    }

    /// A value of a non-embedded property, checked and normalised (sets sorted and unique).
    func checked(_ value: Value, for property: Property, in className: String, key: RowKey?) throws(WriteError) -> Value
    {
        switch property.collection {
        case .single:
            try checkElement(value, of: property, in: className, key: key)
            return value
        case .list, .set:
            guard case .list(let items) = value else { throw mismatch(property, className, key, value) }
            for item in items { try checkElement(item, of: property, in: className, key: key) }
            return property.collection == .set ? .list(Value.sortedUnique(items)) : value
        case .map:
            guard case .map(let map) = value else { throw mismatch(property, className, key, value) }
            for entry in map {
                try checkMapKey(entry.key, property, className, key)
                try checkElement(entry.value, of: property, in: className, key: key)
            }
            return value
        }
    }

    /// One element (or the single value) of a non-embedded property.
    func checkElement(_ value: Value, of property: Property, in className: String, key: RowKey?) throws(WriteError) {
        if value.isNull {
            guard property.isOptional else {
                throw .nullNotAllowed(className: className, property: property.name, key: key)
            }
            return
        }
        switch property.type {
        case .mixed:
            try checkMixed(value, property, className, key)
        case .object(let target):
            guard case .link(let link) = value, link.className == target else {
                throw mismatch(property, className, key, value)
            }
            try checkLink(link, property, className, key)
        default:
            guard property.acceptsElement(value) else { throw mismatch(property, className, key, value) }
        }
    }

    /// A mixed value: any kind, with links to existing top-level objects and valid map keys,
    /// nested less than `MixedCoding.maximumDepth` levels (what a block can read back: a deeper
    /// value would be stored and then read as null).
    private func checkMixed(
        _ value: Value,
        _ property: Property,
        _ className: String,
        _ key: RowKey?,
        depth: Int = 0
    ) throws(WriteError) {
        guard depth < MixedCoding.maximumDepth else { throw Self.tooDeep(property, className, key) }
        switch value {
        case .link(let link): try checkLink(link, property, className, key)
        case .list(let items):
            for item in items { try checkMixed(item, property, className, key, depth: depth + 1) }
        case .map(let map):
            for entry in map {
                try checkMapKey(entry.key, property, className, key)
                try checkMixed(entry.value, property, className, key, depth: depth + 1)
            }
        default: break
        }
    }

    /// Throws unless a mixed value nests less than `MixedCoding.maximumDepth` levels (bulk loads,
    /// whose links are checked separately).
    func checkMixedDepth(_ value: Value, _ property: Property, _ className: String, _ key: RowKey?) throws(WriteError) {
        // A list, set or map of mixed stores each element as its own mixed value.
        var pending: [(value: Value, depth: Int)] = [(value, property.collection == .single ? 0 : -1)]
        while let (next, depth) = pending.popLast() {
            guard depth < MixedCoding.maximumDepth else { throw Self.tooDeep(property, className, key) }
            switch next {
            case .list(let items): pending += items.map { ($0, depth + 1) }
            case .map(let map): pending += map.values.map { ($0, depth + 1) }
            default: break
            }
        }
    }

    private static func tooDeep(_ property: Property, _ className: String, _ key: RowKey?) -> WriteError {
        .typeMismatch(
            className: className,
            property: property.name,
            key: key,
            expected: "a mixed value nested at most \(MixedCoding.maximumDepth) levels deep",
            found: "one nested deeper"
        )
    }

    /// A link must reach an existing object, and not an embedded one (it has its owner).
    private func checkLink(
        _ link: ObjectLink,
        _ property: Property,
        _ className: String,
        _ key: RowKey?
    ) throws(WriteError) {
        guard let t = schema.classIndex(named: link.className), tables[t].locate(key: link.key.rawValue) != nil else {
            throw .danglingLink(className: className, property: property.name, key: key, target: link)
        }
        guard !tables[t].objectSchema.isEmbedded else {
            throw .linkToEmbeddedObject(className: className, property: property.name, key: key, target: link)
        }
    }

    func checkMapKey(_ mapKey: String, _ property: Property, _ className: String, _ key: RowKey?) throws(WriteError) {
        // Realm refuses these (its query paths use them).
        if mapKey.utf8.contains(UInt8(ascii: ".")) || mapKey.utf8.first == UInt8(ascii: "$") {
            throw .invalidMapKey(className: className, property: property.name, key: key, mapKey: mapKey)
        }
    }

    /// Embedded objects are given by value: `.map` of property values (`.null` for none).
    private func planEmbedded(
        _ value: Value,
        target: String,
        for property: Property,
        in className: String,
        key: RowKey?,
        depth: Int
    ) throws(WriteError) -> PlannedValue {
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
        switch property.collection {
        case .single:
            if value.isNull { return .embedded(nil) }
            return .embedded(try embeddedObject(value, targetTable, property, className, key, depth))
        case .list, .set:
            guard case .list(let items) = value else { throw mismatch(property, className, key, value) }
            var plans: [EmbeddedPlan] = []
            for item in items {
                if item.isNull { throw .nullNotAllowed(className: className, property: property.name, key: key) }
                plans.append(try embeddedObject(item, targetTable, property, className, key, depth))
            }
            return .embeddedList(plans)
        case .map:
            guard case .map(let map) = value else { throw mismatch(property, className, key, value) }
            var entries: [(key: String, plan: EmbeddedPlan?)] = []
            for entry in map {
                try checkMapKey(entry.key, property, className, key)
                if entry.value.isNull {
                    entries.append((entry.key, nil))
                } else {
                    let plan = try embeddedObject(entry.value, targetTable, property, className, key, depth)
                    entries.append((entry.key, plan))
                }
            }
            return .embeddedMap(entries)
        }
    }

    private func embeddedObject(
        _ value: Value,
        _ targetTable: Int,
        _ property: Property,
        _ className: String,
        _ key: RowKey?,
        _ depth: Int
    ) throws(WriteError) -> EmbeddedPlan {
        switch value {
        case .map(let values):
            return EmbeddedPlan(
                table: targetTable,
                values: try planObject(targetTable, values.map { ($0.key, $0.value) }, key: nil, depth: depth)
            )
        case .link(let link):
            throw .linkToEmbeddedObject(className: className, property: property.name, key: key, target: link)
        default:
            throw mismatch(property, className, key, value)
        }
    }

    /// The level of object `key` of `className` below its top-level owner: 0 for a top-level
    /// object, else one more than its owner's (each embedded object has one owner). Walks up at
    /// most `maximumEmbeddedDepth + 1` owners.
    func embeddedDepth(_ className: String, _ key: RowKey?) -> Int {
        guard var t = schema.classIndex(named: className), var current = key?.rawValue else { return 0 }
        var depth = 0
        while tables[t].objectSchema.isEmbedded, depth <= Self.maximumEmbeddedDepth {
            guard let owner = tables[t].backlinks.incoming(target: current).first,
                let ownerTable = schema.classIndex(named: owner.origin.className)
            else { break }
            depth += 1
            t = ownerTable
            current = owner.source
        }
        return depth
    }

    func mismatch(_ property: Property, _ className: String, _ key: RowKey?, _ value: Value) -> WriteError {
        var expected = property.typeSyntax
        if isEmbeddedTarget(property) { expected += " (embedded objects given as maps of their values)" }
        return .typeMismatch(
            className: className,
            property: property.name,
            key: key,
            expected: expected,
            found: value.kind.description
        )
    }

    /// Creates the embedded objects of `planned` (children first) and returns the values to
    /// store, links to the new children in place of their plans.
    func materialize(_ planned: PlannedValue) -> Value {
        switch planned {
        case .value(let value):
            return value
        case .embedded(let plan):
            return plan.map { .link(create($0.table, $0.values)) } ?? .null
        case .embeddedList(let plans):
            return .list(plans.map { .link(create($0.table, $0.values)) })
        case .embeddedMap(let entries):
            return .map(MixedMap(entries.map { ($0.key, $0.plan.map { .link(create($0.table, $0.values)) } ?? .null) }))
        }
    }

    /// Creates an object of table `t` from its validated values and returns a link to it.
    func create(_ t: Int, _ planned: [PlannedValue]) -> ObjectLink {
        let values = planned.map(materialize)
        let key = tables[t].append(values)
        for (index, value) in values.enumerated() { addBacklinks(from: t, key: key, property: index, value: value) }
        let link = ObjectLink(className: className(t), key: RowKey(key))
        changes.insert(link.className, link.key)
        return link
    }
}
