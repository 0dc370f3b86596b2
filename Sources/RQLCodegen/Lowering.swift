import RQLBytecode
import RQLCore
import RQLIR

/// Bound IR key paths → the bytecode's form, step for step: what `Sort`, `TopN`, `Distinct` and
/// `LoadGroups` carry in their constants, so that the VM never sees the IR.
enum Lowering {
    static func path(_ path: BoundPath) -> RowPath {
        let root: RowPath.Root =
            switch path.root {
            case .object: .object
            case .element(let depth): .element(depth: depth)
            }
        return RowPath(
            root: root,
            steps: path.steps.map(step),
            isMultiValued: path.isMultiValued,
            rootClassName: path.rootClassName,
            valueType: path.valueType
        )
    }

    static func step(_ step: PathStep) -> RowStep {
        switch step {
        case .property(let className, let index, let name): .property(className: className, index: index, name: name)
        case .backlinks(let className, let property): .backlinks(className: className, property: property)
        case .index(let n): .index(n)
        case .first: .first
        case .last: .last
        case .all: .all
        case .key(let key): .key(key)
        case .keys: .keys
        case .values: .values
        }
    }

    static func sortKey(_ key: BoundSortKey) -> RowSortKey {
        RowSortKey(path: path(key.path), ascending: key.ascending, caseInsensitive: key.caseInsensitive)
    }
}
