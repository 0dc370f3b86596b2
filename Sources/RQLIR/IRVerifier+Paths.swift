import RQLCore

/// Path checks: each step must make sense where the previous steps left off, and the path's
/// `isMultiValued` must agree with what the steps do.
extension IRVerifier {
    /// Where a path has got to, as far as the schema can tell.
    enum PathEnd: Equatable {
        /// One object of the class.
        case object(String)
        /// A list, set, map or backlinks of objects of the class.
        case objectCollection(String, kind: CollectionKind)
        /// A list, set or map of values; `isMixed` when the elements are mixed.
        case valueCollection(kind: CollectionKind, isMixed: Bool)
        /// A mixed value, which may hold a nested list or map.
        case mixed
        /// A value of any other type.
        case scalar

        var isObject: Bool {
            switch self {
            case .object, .objectCollection: true
            case .valueCollection, .mixed, .scalar: false
            }
        }
    }

    /// Checks `path` from the scope's object or element; returns where it ends, or nil when it
    /// is too broken to tell.
    @discardableResult
    func check(_ path: BoundPath, in scope: Scope, into problems: inout [String]) -> PathEnd? {
        let text = IRPrinter.print(path)
        let startClass: String
        switch path.root {
        case .object:
            startClass = scope.className
        case .element(let depth):
            let index = scope.elementClasses.count - 1 - depth
            guard depth >= 0, index >= 0 else {
                problems.append("\(text): element depth \(depth) outside \(scope.elementClasses.count) SUBQUERY levels")
                return nil
            }
            startClass = scope.elementClasses[index]
        }
        if path.rootClassName != startClass {
            problems.append("\(text): starts in '\(startClass)', not '\(path.rootClassName)'")
        }
        var end = PathEnd.object(startClass)
        var isMulti = false
        for step in path.steps {
            guard let next = self.step(step, from: end, isMulti: &isMulti, path: text, into: &problems) else {
                return nil
            }
            end = next
        }
        switch end {
        case .objectCollection, .valueCollection: isMulti = true
        case .object, .mixed, .scalar: break
        }
        if isMulti != path.isMultiValued {
            problems.append("\(text): marked \(path.isMultiValued ? "multi" : "single")-valued but its steps are not")
        }
        return end
    }

    private func step(
        _ step: PathStep,
        from end: PathEnd,
        isMulti: inout Bool,
        path text: String,
        into problems: inout [String]
    ) -> PathEnd? {
        let stepText = IRPrinter.print(step)
        func fail(_ message: String) -> PathEnd? {
            problems.append("\(text): \(stepText) \(message)")
            return nil
        }
        switch step {
        case .property(let className, let index, let name):
            guard case let current? = objectClass(of: end, isMulti: &isMulti) else { return fail("after a non-object") }
            guard className == current else {
                return fail("names class '\(className)' but the path is in '\(current)'")
            }
            guard let objectSchema = schema[className] else { return fail("names unknown class '\(className)'") }
            guard index >= 0, index < objectSchema.properties.count else {
                return fail("index \(index) out of range for '\(className)'")
            }
            let property = objectSchema.properties[index]
            guard property.name == name else {
                return fail("property \(index) of '\(className)' is '\(property.name)', not '\(name)'")
            }
            if let target = property.type.targetClassName {
                if property.isBacklink { return .objectCollection(target, kind: .list) }
                return property.isToMany ? .objectCollection(target, kind: property.collection) : .object(target)
            }
            if property.isToMany {
                return .valueCollection(kind: property.collection, isMixed: property.type == .mixed)
            }
            return property.type == .mixed ? .mixed : .scalar
        case .backlinks(let className, let propertyName):
            guard case let current? = objectClass(of: end, isMulti: &isMulti) else { return fail("after a non-object") }
            guard let property = schema[className]?.property(named: propertyName), !property.isBacklink,
                property.type.targetClassName == current
            else { return fail("'\(className).\(propertyName)' does not link to '\(current)'") }
            return .objectCollection(className, kind: .list)
        case .index, .first, .last:
            switch end {
            case .objectCollection(let className, .list): return .object(className)
            case .valueCollection(.list, let isMixed): return isMixed ? .mixed : .scalar
            case .mixed: return .mixed
            default: return fail("needs a list")
            }
        case .all:
            isMulti = true
            switch end {
            case .objectCollection(let className, _): return .object(className)
            case .valueCollection(_, let isMixed): return isMixed ? .mixed : .scalar
            case .mixed: return .mixed
            case .object, .scalar: return fail("needs a collection")
            }
        case .key:
            switch end {
            case .objectCollection(let className, .map): return .object(className)
            case .valueCollection(.map, let isMixed): return isMixed ? .mixed : .scalar
            case .mixed: return .mixed
            default: return fail("needs a dictionary")
            }
        case .keys, .values:
            isMulti = true
            let isKeys = step == .keys
            switch end {
            case .objectCollection(let className, .map): return isKeys ? .scalar : .object(className)
            case .valueCollection(.map, let isMixed): return isKeys || !isMixed ? .scalar : .mixed
            case .mixed: return isKeys ? .scalar : .mixed
            default: return fail("needs a dictionary")
            }
        }
    }

    /// The class of the objects at `end`; a collection of objects is opened (multi-valued).
    private func objectClass(of end: PathEnd, isMulti: inout Bool) -> String? {
        switch end {
        case .object(let className):
            return className
        case .objectCollection(let className, _):
            isMulti = true
            return className
        case .valueCollection, .mixed, .scalar:
            return nil
        }
    }
}
