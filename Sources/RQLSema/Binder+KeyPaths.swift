import RQLCore
import RQLIR
import RQLSyntax

/// A key path resolved against the schema, with what the type checks need to know about it.
struct ResolvedPath {
    /// Where a key path ended up after its last element.
    enum End {
        /// Objects of a class: a to-one link, `SELF`, a SUBQUERY element, or the targets of a
        /// to-many link that was already stepped through.
        case objects(ObjectSchema)
        /// A collection property (or backlinks) not yet subscripted: `elementType` is the type of
        /// each element (`.object(C)` for links and backlinks).
        case collection(elementType: PropertyType, kind: CollectionKind, name: String)
        /// A scalar value of a type other than mixed.
        case value(PropertyType)
        /// A mixed value, into which subscripts and `.key` navigate.
        case mixed
        /// `@links` alone: only `.@count` may follow.
        case allBacklinks
        /// `strings.length`: the byte length of each element of a primitive collection.
        case elementLengths
    }

    var root: BoundPath.Root
    var rootClass: ObjectSchema
    var steps: [PathStep]
    /// Whether a step before the end already made the path multi-valued (a to-many link crossed,
    /// `[*]`, `@keys`, `@values`); an unsubscripted collection at the end adds to this.
    var crossedToMany: Bool
    var end: End
    /// Whether the owners of the last collection property (or backlinks) step were already
    /// several; nil when the path has no such step. An aggregate yields one value per owner.
    var collectionOwnersMultiValued: Bool? = nil
    /// The class and property of the last property step, for messages (`'table.values'`).
    var lastOwner: String
    var lastName: String

    var isMultiValued: Bool {
        if crossedToMany { return true }
        switch end {
        case .collection, .elementLengths: return true
        default: return false
        }
    }

    /// The type of the values the path reaches (`.object(C)` for links, `.mixed` when unknown).
    var valueType: PropertyType {
        switch end {
        case .objects(let objectSchema): .object(objectSchema.name)
        case .collection(let elementType, _, _):
            if let target = elementType.targetClassName { .object(target) } else { elementType }
        case .value(let type): type
        case .mixed: .mixed
        case .allBacklinks, .elementLengths: .int
        }
    }

    /// Whether the values are links (to-one, to-many or backlinks).
    var isLink: Bool { valueType.targetClassName != nil }

    /// Whether the path ends in an unsubscripted collection of primitive values (`integers`).
    var isPrimitiveCollection: Bool {
        if case .collection(let elementType, _, _) = end { return elementType.targetClassName == nil }
        return false
    }

    var bound: BoundPath {
        BoundPath(
            root: root,
            steps: steps,
            isMultiValued: isMultiValued,
            rootClassName: rootClass.name,
            valueType: valueType
        )
    }
}

extension BindingSession {
    /// Resolves the elements of `keyPath` (its postfix is left to the caller).
    func resolvePath(_ keyPath: KeyPath, span: SourceSpan) throws(BindError) -> ResolvedPath {
        var elements = keyPath.elements[...]
        var resolved = startPath()
        if let first = elements.first, let depth = try variableDepth(of: first) {
            let scope = scopes[scopes.count - 1 - depth]
            resolved = ResolvedPath(
                root: .element(depth: depth),
                rootClass: scope.objectSchema,
                steps: [],
                crossedToMany: false,
                end: .objects(scope.objectSchema),
                lastOwner: scope.objectSchema.name,
                lastName: "$" + scope.variable
            )
            elements = elements.dropFirst()
        }
        for element in elements {
            try step(&resolved, element.kind, span: element.span)
        }
        return resolved
    }

    /// The start of a path: the query's object, or inside a SUBQUERY in RQL the innermost element
    /// (a bare property there names a property of the element, as realm-core maps `$x` to "" on
    /// the element's table). In NSPredicate a bare key path inside a SUBQUERY stays on the query's
    /// object (Realm Swift's correlated `$col1.name == name`).
    func startPath() -> ResolvedPath {
        let (root, objectSchema): (BoundPath.Root, ObjectSchema) =
            dialect == .rql
            ? (scopes.last.map { (.element(depth: 0), $0.objectSchema) } ?? (.object, rootClass))
            : (.object, rootClass)
        return ResolvedPath(
            root: root,
            rootClass: objectSchema,
            steps: [],
            crossedToMany: false,
            end: .objects(objectSchema),
            lastOwner: objectSchema.name,
            lastName: objectSchema.name
        )
    }

    /// The SUBQUERY depth a path's first element refers to (`$x` in RQL, `.variable("x")` in
    /// NSPredicate), or nil when it is not a variable.
    private func variableDepth(of element: PathElement) throws(BindError) -> Int? {
        let name: String
        switch element.kind {
        // One byte compared rather than `hasPrefix`: this runs for every key path.
        case .property(let text) where text.utf8.first == UInt8(ascii: "$"): name = String(text.dropFirst())
        case .variable(let text): name = text
        default: return nil
        }
        for (depth, scope) in scopes.reversed().enumerated() where scope.variable == name {
            return depth
        }
        throw BindError(.unknownProperty, "unknown variable '$\(name)': no SUBQUERY declares it", at: element.span)
    }

    /// Applies one path element; `span` is the element's (for a name, the name's own span).
    func step(_ path: inout ResolvedPath, _ element: PathElementKind, span: SourceSpan) throws(BindError) {
        switch element {
        case .property(let name):
            try stepProperty(&path, name: name, span: span)
        case .backlinks(let className, let property):
            try stepBacklinks(&path, className: className, property: property, span: span)
        case .allBacklinks:
            guard case .objects = flattenLinkCollection(&path) else {
                throw BindError(.unsupportedOperation, "'@links' applies only to objects", at: span)
            }
            path.end = .allBacklinks
        case .keys, .values:
            try stepKeysOrValues(&path, keys: element == .keys, span: span)
        case .index(let n):
            try stepSubscript(&path, .index(n), label: String(n), span: span)
        case .first:
            try stepSubscript(&path, .first, label: "FIRST", span: span)
        case .last:
            try stepSubscript(&path, .last, label: "LAST", span: span)
        case .all:
            try stepAll(&path, span: span)
        case .key(let key):
            try stepKey(&path, key: key, span: span)
        case .subscriptArgument(let argument):
            let (value, name) = try argumentValue(argument, span: span)
            var isKeyPathArgument = false
            if case .placeholder(_, "K") = argument { isKeyPathArgument = true }
            switch value {
            case .value(.int(let n)):
                guard let index = Int(exactly: n) else {
                    throw BindError(.argumentTypeMismatch, "index \(n) of \(name) is out of range", at: span)
                }
                try stepSubscript(&path, .index(index), label: String(n), span: span)
            case .value(.string("#any")) where isKeyPathArgument:
                // Realm Swift's `.any` on a mixed value writes `[%K]` with the key path `#any`,
                // which realm-swift reads as the wildcard, not as a key.
                try stepAll(&path, span: span)
            case .value(.string(let key)):
                try stepKey(&path, key: key, span: span)
            default:
                throw BindError(
                    .argumentTypeMismatch,
                    "Invalid index type: \(name) must be an int (a position) or a string (a key)",
                    at: span
                )
            }
        case .keyPathArgument(let index):
            let (value, name) = try argumentValue(
                dialect == .rql ? .positional(index) : .placeholder(index, specifier: "K"),
                span: span
            )
            let nullOrList = BindError(
                .argumentTypeMismatch,
                "Null or list cannot be used for parameter '\(name)'",
                at: span
            )
            guard case .value(let scalar) = value, !scalar.isNull else { throw nullOrList }
            if case .list = scalar { throw nullOrList }
            guard case .string(let text) = scalar else {
                throw BindError(
                    .argumentTypeMismatch,
                    "Invalid index type for '\(name)'. Expected a string, but found type '\(scalar.kind)'",
                    at: span
                )
            }
            for component in text.split(separator: ".", omittingEmptySubsequences: false) {
                if component.hasPrefix("@links") || component.isEmpty {
                    throw BindError(.unknownProperty, "key path argument \(name) '\(text)' is not a key path", at: span)
                }
                try stepProperty(&path, name: String(component), span: span)
            }
        case .variable(let name):
            throw BindError(.unknownProperty, "'$\(name)' can only start a key path", at: span)
        case .self:
            // Over a collection of plain values, the query's `SELF` is the element itself.
            if let selfProperty, path.root == .object, path.steps.isEmpty {
                try stepProperty(&path, name: selfProperty, span: span)
            }
        }
    }

    /// Steps through a link collection at the end of the path, so that what follows applies to
    /// each linked object. Returns the (possibly new) end.
    @discardableResult
    func flattenLinkCollection(_ path: inout ResolvedPath) -> ResolvedPath.End {
        if case .collection(let elementType, let kind, _) = path.end, kind != .map,
            let target = elementType.targetClassName, let targetSchema = schema[target]
        {
            path.crossedToMany = true
            path.end = .objects(targetSchema)
        }
        return path.end
    }

    private func stepProperty(_ path: inout ResolvedPath, name: String, span: SourceSpan) throws(BindError) {
        switch flattenLinkCollection(&path) {
        case .objects(let objectSchema):
            guard let index = objectSchema.propertyIndex(named: name) else {
                throw unknownProperty(name, on: objectSchema, span: span)
            }
            let property = objectSchema.properties[index]
            path.steps.append(.property(className: objectSchema.name, index: index, name: name))
            path.lastOwner = objectSchema.name
            path.lastName = name
            path.end = try end(of: property, span: span)
            if property.isToMany || property.isBacklink { path.collectionOwnersMultiValued = path.crossedToMany }
        case .collection(let elementType, let kind, let collectionName):
            if kind == .map {
                // `dict.key` reads the value for `key`.
                path.steps.append(.key(name))
                path.end = try end(ofElement: elementType, span: span)
            } else if name == "length",
                elementType == .string || elementType == .data || elementType == .mixed
            {
                path.steps.append(.all)
                path.crossedToMany = true
                path.end = .elementLengths
            } else {
                throw BindError(
                    .unknownProperty,
                    "Property '\(path.lastOwner).\(collectionName)' has no property '\(name)'"
                        + " (it is a \(kind == .set ? "set" : "list") of \(elementType.keyword) values)",
                    at: span
                )
            }
        case .mixed:
            path.steps.append(.key(name))
        case .value(let type):
            throw BindError(
                .unknownProperty,
                "Property '\(path.lastOwner).\(path.lastName)' has no property '\(name)'"
                    + " (it is of type '\(ValueCoercion.typeName(type))')",
                at: span
            )
        case .allBacklinks, .elementLengths:
            throw BindError(.unknownProperty, "no property '\(name)' can follow '\(path.lastName)'", at: span)
        }
    }

    private func stepBacklinks(
        _ path: inout ResolvedPath,
        className: String,
        property: String,
        span: SourceSpan
    ) throws(BindError) {
        guard case .objects(let target) = flattenLinkCollection(&path) else {
            throw BindError(.unsupportedOperation, "'@links' applies only to objects", at: span)
        }
        guard let origin = schema[className], let link = origin.property(named: property),
            link.type == .object(target.name)
        else {
            throw BindError(
                .unknownProperty,
                "No property '\(property)' found in type '\(className)' which links to type '\(target.name)'",
                at: span
            )
        }
        path.steps.append(.backlinks(className: className, property: property))
        path.collectionOwnersMultiValued = path.crossedToMany
        path.lastOwner = target.name
        path.lastName = "@links.\(className).\(property)"
        path.end = .collection(elementType: .object(className), kind: .list, name: path.lastName)
    }

    /// What a property step reaches.
    func end(of property: Property, span: SourceSpan) throws(BindError) -> ResolvedPath.End {
        if case .linkingObjects(let className, _) = property.type {
            return .collection(elementType: .object(className), kind: .list, name: property.name)
        }
        if property.collection != .single {
            return .collection(elementType: property.type, kind: property.collection, name: property.name)
        }
        return try end(ofElement: property.type, span: span)
    }

    func end(ofElement type: PropertyType, span: SourceSpan) throws(BindError) -> ResolvedPath.End {
        switch type {
        case .mixed: return .mixed
        case .object(let className), .linkingObjects(let className, _):
            guard let objectSchema = schema[className] else {
                throw BindError(.unknownClass, "unknown class '\(className)'", at: span)
            }
            return .objects(objectSchema)
        default: return .value(type)
        }
    }

    func unknownProperty(_ name: String, on objectSchema: ObjectSchema, span: SourceSpan) -> BindError {
        var message = "unknown property '\(name)' on class '\(objectSchema.name)'"
        if let suggestion = NameSuggestion.closest(to: name, among: objectSchema.properties.map(\.name)) {
            message += "; did you mean '\(suggestion)'?"
        }
        return BindError(.unknownProperty, message, at: span)
    }
}
