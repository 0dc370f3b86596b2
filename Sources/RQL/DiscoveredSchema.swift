import RQLCore

/// A set of model classes discovered together and validated as one schema: every link target
/// present, every backlink pointing at a link, every index on an indexable type.
///
/// ```swift
/// let discovered = try DiscoveredSchema(types: [Person.self], closingOverLinks: true)
/// discovered.schema["Dog"] != nil   // Person links to Dog, so Dog is included
/// ```
struct DiscoveredSchema {
    /// In the order given, link targets after the classes that first name them.
    let classes: [ClassInfo]
    let schema: RQLCore.Schema
    private let byName: [String: ClassInfo]

    /// - Parameter closingOverLinks: include every class a class links to (the default
    ///   configuration's behaviour, since Linux has no class list to start from); without it,
    ///   a link to a class not in `types` is an error, as with an explicit `objectTypes`.
    init(types: [ObjectBase.Type], closingOverLinks: Bool) throws(SchemaDiscoveryError) {
        var classes: [ClassInfo] = []
        var byName: [String: ClassInfo] = [:]
        var pending = types[...]
        while let type = pending.popFirst() {
            let info = try ClassInfo.info(for: type)
            if let existing = byName[info.className] {
                guard existing.type == type else { throw .duplicateClassName(className: info.className) }
                continue
            }
            byName[info.className] = info
            classes.append(info)
            if closingOverLinks { pending.append(contentsOf: info.properties.compactMap(\.target)) }
        }
        for info in classes {
            for property in info.properties {
                guard let target = property.target else { continue }
                let targetName = target.className()
                guard let known = byName[targetName] else {
                    throw .missingLinkTarget(className: info.className, property: property.name, target: targetName)
                }
                guard known.type == target else { throw .duplicateClassName(className: targetName) }
            }
        }
        do {
            schema = try RQLCore.Schema(classes.map(\.objectSchema))
        } catch {
            throw .invalidSchema(error)
        }
        self.classes = classes
        self.byName = byName
    }

    func classInfo(named className: String) -> ClassInfo? { byName[className] }
}
