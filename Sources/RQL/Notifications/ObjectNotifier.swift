import Foundation
import RQLCore
import RQLStorage

/// The observation of one object: after each commit that modified it along its observed
/// paths, the properties that changed with their values before and after (read from the two
/// versions); `.deleted` once, when it is deleted, and then nothing more.
// Unchecked: as `Notifier`; the fields it adds are `let`s or delivery state.
final class ObjectNotifier<T: ObjectBase>: Notifier, @unchecked Sendable {
    private let object: T
    private let accessor: ObjectAccessor
    private let paths: ObservedPaths
    private let block: (ObjectChange<T>) -> Void

    init(
        object: T,
        accessor: ObjectAccessor,
        keyPaths: [String]?,
        delivery: Delivery,
        block: @escaping (ObjectChange<T>) -> Void
    ) throws(Realm.Error) {
        let version = accessor.context.current
        self.object = object
        self.accessor = accessor
        self.block = block
        paths = try ObservedPaths(keyPaths, className: accessor.classInfo.className, schema: version.schema)
        let hub = accessor.context.coordinator.notifiers
        super.init(hub: hub, delivery: delivery, at: delivery.isThread ? version : hub.newest)
    }

    override func step(to version: StoreVersion, notify: Bool) {
        let old = delivered
        let changes = changes(to: version, classes: paths.classes)
        moved(to: version)
        guard paths.isTouched(by: changes) || changes.schemaChanged else { return }
        let className = accessor.classInfo.className
        if changes.classes[className]?.deleted.contains(accessor.key) == true
            || version.row(of: accessor.key, classIndex: accessor.classIndex) == nil
        {
            invalidate()
            if notify { block(.deleted) }
            return
        }
        guard let properties = paths.modified(by: changes, in: version.snapshot)[accessor.key], notify else { return }
        let before = self.object(at: old)
        let after = self.object(at: version)
        let names = accessor.classInfo.properties.map(\.name).filter(properties.contains)
        let changed = names.map { name in
            PropertyChange(name: name, oldValue: before.value(forKey: name), newValue: after.value(forKey: name))
        }
        guard !isInvalidated else { return }
        block(.change(after, changed))
    }

    /// The object at `version`: the observed one when its realm reads that version now, else a
    /// frozen copy.
    private func object(at version: StoreVersion) -> T {
        if case .thread(let context, _) = delivery, context.current === version { return object }
        let frozen = accessor.context.frozen(at: version)
        let copy = accessor.classInfo.makeManaged(context: frozen, key: accessor.key, classIndex: accessor.classIndex)
        return copy as? T ?? object
    }
}
