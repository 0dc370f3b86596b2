import RQLCore
@_spi(Streaming) import RQLStorage

/// Decodes an `objects` section as the parser reads it, one member at a time, and appends each
/// object to a `RowAppender` (the streaming load of `DatasetLoader.load(from:into:progress:)`).
///
/// Plain scalars (`int`, `double`, `float`, `string`, `bool`, optional or not) are read from
/// their tokens; everything else is parsed as one `JSONValue` and decoded as the other loader
/// does (`DatasetGraphDecoding`). A top-level object's key is its position in its class's
/// array, counted from the table's first new key, so a link by position is known at once and
/// checked at the end when it points past what was read. A link by primary key to an object not
/// read yet holds a placeholder key (`-2 - n`, for the `n`-th such link) until the end, when it
/// is resolved and the row corrected; only such rows are kept.
final class DatasetStreamDecoder: DatasetGraphDecoding {
    let schema: Schema
    private let appender: RowAppender
    private let progress: ((DatasetLoadProgress) -> Void)?
    /// Top-level objects read.
    private(set) var objectCount = 0

    /// Per class of `schema`: the primary keys read, by position.
    private var primaryKeys: [PrimaryKeyPositions]
    /// Per class: whether its array has been read to its end, and how many objects it had.
    private var finished: [Bool]
    private var counts: [Int]
    /// Per class: property name → index, and each property's default.
    private let defaults: [[Value]]
    /// Links by primary key to objects not read yet, in document order.
    private var forwardLinks: [(target: Int, key: Value, keyJSON: JSONValue, location: DatasetLocation)] = []
    /// Rows holding placeholders: class, key, property, value.
    private var placeholderRows: [(source: Int, key: Int64, property: Int, value: Value)] = []
    /// Links by position past the objects read when they were met, checked at the end.
    private var positionChecks: [(target: Int, position: Int64, keyJSON: JSONValue, location: DatasetLocation)] = []

    init(schema: Schema, appender: RowAppender, progress: ((DatasetLoadProgress) -> Void)?) {
        self.schema = schema
        self.appender = appender
        self.progress = progress
        primaryKeys = Array(repeating: PrimaryKeyPositions(), count: schema.classes.count)
        finished = Array(repeating: false, count: schema.classes.count)
        counts = Array(repeating: 0, count: schema.classes.count)
        defaults = schema.classes.map { $0.properties.map(\.defaultValue) }
    }

    // MARK: Reading

    /// Reads the `objects` section at the parser's position; `path` is where it is.
    func readObjects(_ parser: inout JSONParser, path: [JSONPathComponent]) throws(DatasetError) {
        guard parser.nextTypeName() == "an object" else {
            if parser.nextTypeName() == nil {
                try DatasetStream.syntax(path) { () throws(JSONSyntaxError) in _ = try parser.parseValue() }
            }
            throw .invalidDocument(
                path: JSONPathComponent.text(path),
                reason: "expected an object of arrays, found \(parser.nextTypeName() ?? "nothing")"
            )
        }
        var cursor = try DatasetStream.syntax(path) { () throws(JSONSyntaxError) in try parser.enterObject() }
        while let name = try DatasetStream.syntax(
            path,
            { () throws(JSONSyntaxError) in try parser.nextMember(&cursor) }
        ) {
            guard let c = schema.classIndex(named: name) else { throw .unknownClass(name) }
            guard !schema.classes[c].isEmbedded else { throw .embeddedClassInObjects(name) }
            let arrayPath = path + [.key(name)]
            guard parser.nextTypeName() == "an array" else {
                if parser.nextTypeName() == nil {
                    try DatasetStream.syntax(arrayPath) { () throws(JSONSyntaxError) in _ = try parser.parseValue() }
                }
                throw .invalidDocument(path: JSONPathComponent.text(arrayPath), reason: "expected an array of objects")
            }
            try readArray(of: c, &parser, path: arrayPath)
        }
    }

    /// Reads one class's array, object by object.
    private func readArray(of c: Int, _ parser: inout JSONParser, path: [JSONPathComponent]) throws(DatasetError) {
        let objectSchema = schema.classes[c]
        var elements = try DatasetStream.syntax(path) { () throws(JSONSyntaxError) in try parser.enterArray() }
        var position = 0
        while try DatasetStream.syntax(path, { () throws(JSONSyntaxError) in try parser.nextElement(&elements) }) {
            guard parser.nextTypeName() == "an object" else {
                // Bad text there is a syntax error; a value of another type is not an object.
                try DatasetStream.syntax(path + [.index(position)]) { () throws(JSONSyntaxError) in
                    try parser.skipValue()
                }
                throw .notAnObject(className: objectSchema.name, position: position)
            }
            let row = try readObject(of: c, objectSchema, at: position, &parser, path: path)
            try store(row, in: c, at: DatasetLocation(className: objectSchema.name, position: position, property: ""))
            position += 1
            counts[c] = position
            objectCount += 1
            if let progress, objectCount % TableBlock.capacity == 0 {
                progress(DatasetLoadProgress(objects: objectCount, bytes: parser.offset))
            }
        }
        finished[c] = true
    }

    /// One top-level object's values, read member by member.
    private func readObject(
        of c: Int,
        _ objectSchema: ObjectSchema,
        at position: Int,
        _ parser: inout JSONParser,
        path: [JSONPathComponent]
    ) throws(DatasetError) -> [Value] {
        let className = objectSchema.name
        let properties = objectSchema.properties
        let keyIndex = objectSchema.primaryKeyIndex
        var row = defaults[c]
        var sawKey = false
        var expected = 0
        // Repeated members are told apart by the properties seen; past 64 properties the parser
        // checks the names.
        let checksSeen = properties.count <= 64
        var seen: UInt64 = 0
        var members: JSONParser.Cursor
        do {
            members = try parser.enterObject(checkingKeys: !checksSeen)
        } catch {
            throw .syntax(error.inside(path + [.index(position)]))
        }
        while true {
            let name: String
            do {
                guard let next = try parser.nextMember(&members) else { break }
                name = next
            } catch {
                throw .syntax(error.inside(path + [.index(position)]))
            }
            // Members usually come in schema order.
            let index: Int
            if expected < properties.count && properties[expected].name == name {
                index = expected
            } else {
                guard let found = objectSchema.propertyIndex(named: name) else {
                    throw .unknownProperty(className: className, position: position, property: name)
                }
                index = found
            }
            if checksSeen {
                guard seen & (1 << UInt64(index)) == 0 else {
                    throw .syntax(parser.duplicateKeyError(name).inside(path + [.index(position)]))
                }
                seen |= 1 << UInt64(index)
            }
            expected = index + 1
            let property = properties[index]
            if property.isBacklink { throw .backlinkGiven(className: className, position: position, property: name) }
            let location = DatasetLocation(className: className, position: position, property: name)
            if index == keyIndex {
                let (key, json) = try readKey(property, &parser, at: location, path: path)
                try register(key, json, of: c, at: location)
                row[index] = key
                sawKey = true
            } else {
                row[index] = try read(property, &parser, at: location, path: path)
            }
        }
        if let keyIndex, !sawKey {
            throw .missingPrimaryKey(className: className, position: position, property: properties[keyIndex].name)
        }
        return row
    }

    /// A primary key's value, and its JSON for a message.
    private func readKey(
        _ property: Property,
        _ parser: inout JSONParser,
        at location: DatasetLocation,
        path: [JSONPathComponent]
    ) throws(DatasetError) -> (Value, () -> JSONValue) {
        switch try scalar(property, &parser, at: location, path: path) {
        case .int(let value)?: return (.int(value), { .number(JSONNumber(text: String(value))) })
        case .string(let text)?: return (.string(text), { .string(text) })
        // A key is an int, a string, an ObjectId or a UUID: only the first two have tokens,
        // and each of them reads as its own type or as null.
        case .some: return (.null, { .null })
        case nil:
            let json = try value(&parser, path + [.index(location.position), .key(location.property)])
            let key = try decodeSingle(json, property.type, optional: property.isOptional, at: location)
            return (key, { json })
        }
    }

    /// One member's value: plain scalars from their tokens, the rest through a `JSONValue`.
    private func read(
        _ property: Property,
        _ parser: inout JSONParser,
        at location: DatasetLocation,
        path: [JSONPathComponent]
    ) throws(DatasetError) -> Value {
        if let value = try scalar(property, &parser, at: location, path: path) { return value }
        let json = try value(&parser, path + [.index(location.position), .key(location.property)])
        return try decode(json, property, at: location)
    }

    /// A plain scalar's token: what `scalar` reads before it decodes.
    private enum ScalarToken {
        case null
        /// A number, for an `int`, `double` or `float` property.
        case number(JSONParser.NumberToken)
        case string(String)
        case bool(Bool)
    }

    /// The value of a plain scalar property (`int`, `double`, `float`, `string`, `bool`, optional
    /// or not) read from its token; nil, with nothing read, for any other property or a token of
    /// another type (the caller parses the value whole and decoding names what is wrong).
    private func scalar(
        _ property: Property,
        _ parser: inout JSONParser,
        at location: DatasetLocation,
        path: [JSONPathComponent]
    ) throws(DatasetError) -> Value? {
        guard property.collection == .single else { return nil }
        let token: ScalarToken?
        do throws(JSONSyntaxError) {
            token = try Self.scalarToken(property.type, &parser)
        } catch {
            throw .syntax(error.inside(path + [.index(location.position), .key(location.property)]))
        }
        switch token {
        case nil: return nil
        case .null?:
            guard property.isOptional else {
                throw wrongType(location, expected: "a non-null \(property.type.keyword)", found: "null")
            }
            return .null
        case .number(.integer(let value))?:
            switch property.type {
            case .double: return .double(Double(value))
            case .float: return .float(Float(Double(value)))
            default: return .int(value)
            }
        case .number(.other(let number))?:
            if property.type != .int, let double = number.finiteDoubleValue {
                if property.type == .double { return .double(double) }
                if Float(double).isFinite { return .float(Float(double)) }
            }
            return try decode(.number(number), property, at: location)
        case .string(let text)?: return .string(text)
        case .bool(let flag)?: return .bool(flag)
        }
    }

    /// The token of a plain scalar of `type`, or nil (nothing read) for another type or token.
    private static func scalarToken(
        _ type: PropertyType,
        _ parser: inout JSONParser
    ) throws(JSONSyntaxError) -> ScalarToken? {
        switch type {
        case .int, .double, .float, .string, .bool:
            if try parser.readNull() { return .null }
        default:
            return nil
        }
        switch type {
        case .string: return try parser.readString().map(ScalarToken.string)
        case .bool: return try parser.readBool().map(ScalarToken.bool)
        default: return try parser.readNumber().map(ScalarToken.number)
        }
    }

    private func value(
        _ parser: inout JSONParser,
        _ path: @autoclosure () -> [JSONPathComponent]
    ) throws(DatasetError)
        -> JSONValue
    {
        do {
            return try parser.parseValue()
        } catch {
            throw .syntax(error.inside(path()))
        }
    }

    /// Registers the primary key of the object at `location`, refusing a repeated one; `json`
    /// is how the key was written, for the message.
    private func register(
        _ key: Value,
        _ json: () -> JSONValue,
        of c: Int,
        at location: DatasetLocation
    ) throws(DatasetError) {
        guard primaryKeys[c].insert(key, position: location.position), !appender.existingRowHasPrimaryKey(key, in: c)
        else {
            throw .duplicatePrimaryKey(
                className: location.className,
                position: location.position,
                property: location.property,
                key: json().serialized()
            )
        }
    }

    /// Appends a decoded row of class `c`, keeping it for correction if it holds placeholders.
    @discardableResult
    private func store(_ row: [Value], in c: Int, at location: DatasetLocation) throws(DatasetError) -> Int64 {
        let key = appender.nextKey(c)
        if !forwardLinks.isEmpty {
            for (p, value) in row.enumerated() where Self.hasPlaceholder(value) {
                placeholderRows.append((c, key, p, value))
            }
        }
        do {
            return try appender.append(row, to: c)
        } catch {
            guard case .typeMismatch(_, let property, _, let expected, let found) = error else {
                throw .invalidValue(
                    className: location.className,
                    position: location.position,
                    property: location.property,
                    reason: "\(error)"
                )
            }
            let path = location.property.isEmpty ? property : location.property + "." + property
            throw .wrongType(
                className: location.className,
                position: location.position,
                property: path,
                expected: expected,
                found: found
            )
        }
    }

    // MARK: DatasetGraphDecoding

    func link(
        primaryKey key: Value,
        keyJSON: JSONValue,
        target: String,
        at location: DatasetLocation
    )
        throws(DatasetError) -> Value
    {
        guard let t = schema.classIndex(named: target) else { throw dangling(location, target: target, key: keyJSON) }
        if let position = primaryKeys[t].position(of: key) {
            return .link(ObjectLink(className: target, key: RowKey(appender.firstKey(t) + Int64(position))))
        }
        if finished[t] { throw dangling(location, target: target, key: keyJSON) }
        forwardLinks.append((t, key, keyJSON, location))
        return .link(ObjectLink(className: target, key: RowKey(-1 - Int64(forwardLinks.count))))
    }

    func link(
        position: Int64?,
        keyJSON: JSONValue,
        target: String,
        at location: DatasetLocation
    )
        throws(DatasetError) -> Value
    {
        guard let t = schema.classIndex(named: target), let position, position >= 0 else {
            throw dangling(location, target: target, key: keyJSON)
        }
        if position >= Int64(counts[t]) {
            if finished[t] { throw dangling(location, target: target, key: keyJSON) }
            positionChecks.append((t, position, keyJSON, location))
        }
        return .link(ObjectLink(className: target, key: RowKey(appender.firstKey(t) + position)))
    }

    func appendEmbedded(
        _ row: [Value],
        to className: String,
        at location: DatasetLocation
    ) throws(DatasetError)
        -> RowKey
    {
        guard let c = schema.classIndex(named: className) else {
            throw .invalidValue(
                className: location.className,
                position: location.position,
                property: location.property,
                reason: "unknown class '\(className)'"
            )
        }
        return RowKey(try store(row, in: c, at: location))
    }

    // MARK: The end

    /// Resolves the links that pointed forward and checks the positions that pointed past the
    /// objects read, then finishes the appender.
    func finish() throws(DatasetError) {
        var resolved: [Int64] = []
        resolved.reserveCapacity(forwardLinks.count)
        for link in forwardLinks {
            guard let position = primaryKeys[link.target].position(of: link.key) else {
                throw dangling(link.location, target: schema.classes[link.target].name, key: link.keyJSON)
            }
            resolved.append(appender.firstKey(link.target) + Int64(position))
        }
        for check in positionChecks where check.position >= Int64(counts[check.target]) {
            throw dangling(check.location, target: schema.classes[check.target].name, key: check.keyJSON)
        }
        for row in placeholderRows {
            let value = Self.replacingPlaceholders(row.value) { resolved[Int(-2 - $0)] }
            appender.correct(value, property: row.property, key: row.key, in: row.source)
        }
        do {
            try appender.finish()
        } catch {
            throw .invalidDocument(path: "objects", reason: "\(error)")
        }
    }

    private static func hasPlaceholder(_ value: Value) -> Bool {
        switch value {
        case .link(let link): link.key.rawValue < -1
        case .list(let items): items.contains(where: hasPlaceholder)
        case .map(let map): map.values.contains(where: hasPlaceholder)
        default: false
        }
    }

    private static func replacingPlaceholders(_ value: Value, _ key: (Int64) -> Int64) -> Value {
        switch value {
        case .link(let link) where link.key.rawValue < -1:
            return .link(ObjectLink(className: link.className, key: RowKey(key(link.key.rawValue))))
        case .list(let items): return .list(items.map { replacingPlaceholders($0, key) })
        case .map(let map): return .map(MixedMap(map.map { ($0.key, replacingPlaceholders($0.value, key)) }))
        default: return value
        }
    }
}

/// A class's primary keys and the positions of their objects. Integer keys that ascend (ids 0,
/// 1, 2, …) are kept as a sorted array, found by binary search; others in a hash table.
struct PrimaryKeyPositions {
    private var ascending: [Int64] = []
    private var isAscending = true
    private var positions: [EqualityKey: Int] = [:]

    /// Adds `key` for the object at `position` (one more than the last); false if it is there.
    mutating func insert(_ key: Value, position: Int) -> Bool {
        if isAscending {
            if case .int(let v) = key, ascending.last.map({ $0 < v }) ?? true {
                ascending.append(v)
                return true
            }
            isAscending = false
            positions.reserveCapacity(ascending.count * 2)
            for (p, v) in ascending.enumerated() { positions[EqualityKey(.int(v))] = p }
            ascending = []
        }
        guard positions[EqualityKey(key)] == nil else { return false }
        positions[EqualityKey(key)] = position
        return true
    }

    /// The position of the object with primary key `key`, if read.
    func position(of key: Value) -> Int? {
        guard isAscending else { return positions[EqualityKey(key)] }
        guard case .int(let v) = key else { return nil }
        var low = 0
        var high = ascending.count
        while low < high {
            let mid = (low + high) >> 1
            if ascending[mid] < v { low = mid + 1 } else { high = mid }
        }
        return low < ascending.count && ascending[low] == v ? low : nil
    }
}
