import RQLCore
import RQLStorage

/// Which changes to an observed object count as its modification: changes to its own
/// properties, and changes reached through its links along key paths.
///
/// With no key paths, every property of the object counts, and every property of the objects
/// its link properties (to-one links, lists, sets and maps of objects) point at directly: one
/// link level. Nothing deeper is followed unless asked: `keyPaths: ["toys.maker.name"]` follows
/// exactly that path, however long. The cost is proportional to the change, never to the
/// observed results: each changed object at the end of a path is walked back towards the
/// observed class through the backlink index, one lookup per object and step. (Realm follows
/// up to four levels by default by walking forward from every observed object, which makes
/// deep or cyclic graphs expensive: realm-core#5212, realm-swift#5239, #8742.)
///
/// ```swift
/// let paths = try ObservedPaths(["name", "toys.brand"], className: "Dog", schema: schema)
/// paths.modified(by: changes, in: snapshot)   // keys of the dogs whose name or toys' brand changed
/// ```
struct ObservedPaths {
    /// One path through links: the property names, and the class each one is read from.
    struct LinkPath {
        /// `steps[i]` is a link property of `classes[i]`, leading to `classes[i + 1]`.
        var steps: [String]
        /// The classes the path goes through; one more than `steps`.
        var classes: [String]
        /// The property of the last class whose change counts; nil for any.
        var last: String?
    }

    /// The observed class.
    let className: String
    /// The observed class's properties whose change counts; nil for any.
    let direct: Set<String>?
    /// The paths through links.
    let linked: [LinkPath]

    /// Every class a change in which may modify an observed object.
    var classes: Set<String> {
        var classes: Set<String> = [className]
        for path in linked { classes.formUnion(path.classes) }
        return classes
    }

    /// The paths for `keyPaths` (dotted property names) on `className`; nil means the default
    /// (every own property, one link level). An unknown property, or a path that goes on past
    /// something that is not a link, is an error naming it.
    init(_ keyPaths: [String]?, className: String, schema: RQLCore.Schema) throws(Realm.Error) {
        self.className = className
        guard let objectSchema = schema[className] else {
            throw Realm.Error(.invalidSchema, "No class '\(className)' to observe")
        }
        guard let keyPaths else {
            direct = nil
            linked = objectSchema.properties.compactMap { property in
                guard !property.isBacklink, case .object(let target) = property.type else { return nil }
                return LinkPath(steps: [property.name], classes: [className, target], last: nil)
            }
            return
        }
        var direct: Set<String> = []
        var linked: [LinkPath] = []
        for keyPath in keyPaths {
            let names = keyPath.split(separator: ".").map(String.init)
            guard let first = names.first else {
                throw Realm.Error(.invalidValue, "An empty key path cannot be observed on '\(className)'")
            }
            direct.insert(first)
            var path = LinkPath(steps: [], classes: [className], last: nil)
            for (index, name) in names.enumerated() {
                let current = path.classes[path.classes.count - 1]
                let isLast = index == names.count - 1
                if isLast, name == "*", index > 0 { break }
                guard let property = schema[current]?.properties.first(where: { $0.name == name }) else {
                    throw Realm.Error(
                        .invalidValue,
                        "Property '\(name)' not found in object of type '\(current)' (key path '\(keyPath)')"
                    )
                }
                if isLast {
                    path.last = name
                    break
                }
                guard let target = property.type.targetClassName, !property.isBacklink else {
                    throw Realm.Error(
                        .invalidValue,
                        "Property '\(name)' of '\(current)' is not a link, so key path '\(keyPath)' cannot go on"
                    )
                }
                path.steps.append(name)
                path.classes.append(target)
            }
            if !path.steps.isEmpty { linked.append(path) }
        }
        self.direct = direct
        self.linked = linked
    }

    /// Whether `changes` touch any class these paths read.
    func isTouched(by changes: ChangeSet) -> Bool {
        if changes.classes[className] != nil { return true }
        return linked.contains { path in path.classes.dropFirst().contains { changes.classes[$0] != nil } }
    }

    /// The keys of the observed class's objects that `changes` modified along these paths,
    /// with the names of the observed properties (the first step of each path) that changed.
    /// Found in `snapshot`, the version after the changes.
    func modified(by changes: ChangeSet, in snapshot: BlockSnapshot) -> [RowKey: Set<String>] {
        var result: [RowKey: Set<String>] = [:]
        if let own = changes.classes[className] {
            for (key, properties) in own.modified {
                let counted = direct.map { properties.intersection($0) } ?? properties
                if !counted.isEmpty { result[key, default: []].formUnion(counted) }
            }
        }
        for path in linked {
            for key in reached(path, by: changes, in: snapshot) {
                result[key, default: []].insert(path.steps[0])
            }
        }
        return result
    }

    /// The observed objects from which `path` reaches a changed object, walked backwards from
    /// the changes: each level's changed objects, then the objects of the level before that
    /// link to them (the backlink index), joined by those whose own link property changed.
    private func reached(_ path: LinkPath, by changes: ChangeSet, in snapshot: BlockSnapshot) -> Set<RowKey> {
        let lastClass = path.classes[path.classes.count - 1]
        var frontier: Set<RowKey> = []
        if let end = changes.classes[lastClass] {
            for (key, properties) in end.modified where path.last.map(properties.contains) ?? true {
                frontier.insert(key)
            }
        }
        var level = path.steps.count - 1
        while level >= 0 {
            let origin = path.classes[level]
            let step = path.steps[level]
            var previous: Set<RowKey> = []
            if !frontier.isEmpty, let targets = snapshot.table(named: path.classes[level + 1]) {
                for key in frontier {
                    guard let position = targets.position(of: key) else { continue }
                    previous.formUnion(targets.backlinks(at: position, fromClass: origin, property: step))
                }
            }
            if level > 0, let own = changes.classes[origin] {
                for (key, properties) in own.modified where properties.contains(step) { previous.insert(key) }
            }
            frontier = previous
            level -= 1
        }
        return frontier
    }
}
