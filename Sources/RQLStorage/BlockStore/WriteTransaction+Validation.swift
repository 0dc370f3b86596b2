import RQLCore

extension WriteTransaction {
    /// How deep embedded objects may nest below their top-level owner (the owner's children are
    /// level 1). It is MongoDB's limit on nested documents, which embedded objects become when
    /// synced; a chain of embedded objects is given and copied as values nested one level per
    /// object, and the bound keeps those values small.
    public static let maximumEmbeddedDepth = 100

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
}
