import Foundation
import RQLCore
import RQLStorage

/// Turns Swift objects and values into the store's terms inside a realm's write transaction:
/// adds unmanaged objects (and everything they link to) and makes them managed, gives embedded
/// objects by value, and records the first broken constraint instead of trapping.
///
/// ```swift
/// let writer = _RQLWriter(context: context, session: session, update: .error)
/// writer.add(person)              // person, its dogs, their toys: one row each, all managed
/// ```
///
/// Public only because `_Persistable._rqlStore` names it; nothing outside RQL makes one.
public final class _RQLWriter {
    let context: RealmContext
    let session: WriteSession
    /// How objects with a primary key that already exists are treated.
    let update: Realm.UpdatePolicy
    /// The embedded objects whose values are being read (`embeddedValues`), with their level
    /// below their owner; nil when none are.
    private var embeddedQueue: [(object: ObjectBase, level: Int)]?
    /// The level of the embedded object whose values are being read.
    private var embeddedLevel = 0

    init(context: RealmContext, session: WriteSession, update: Realm.UpdatePolicy) {
        self.context = context
        self.session = session
        self.update = update
    }

    var transaction: WriteTransaction { session.transaction }

    func fail(_ code: Realm.Error.Code, _ message: String) {
        session.fail(Realm.Error(code, message))
    }

    // MARK: Values

    /// A date as the store keeps it (a date whose time is not finite is an error).
    func date(_ date: Date) -> RQLCore.Value {
        guard let timestamp = Timestamp(timeIntervalSince1970: date.timeIntervalSince1970) else {
            fail(.invalidValue, "The date \(date) cannot be stored: its time is not finite")
            return .null
        }
        return .date(timestamp)
    }

    /// A link to `object` (added first when unmanaged), or an embedded object's values.
    func store(_ object: ObjectBase) -> RQLCore.Value {
        if type(of: object)._rqlIsEmbedded { return embeddedValues(object) }
        // An added object's own embedded objects are read apart from those being read now.
        let (queue, level) = (embeddedQueue, embeddedLevel)
        embeddedQueue = nil
        defer { (embeddedQueue, embeddedLevel) = (queue, level) }
        guard let link = add(object) else { return .null }
        return .link(link)
    }

    /// An embedded object's property values by name (nested embedded objects as values too).
    ///
    /// Read level by level from a work list rather than by one nested call per level of the
    /// user's objects: an embedded object met while another one's values are read is queued and
    /// stands for now as a placeholder (`placeholder(_:)`), replaced by its values once every
    /// level is read. Nesting past the store's bound is recorded as an error.
    func embeddedValues(_ object: ObjectBase) -> RQLCore.Value {
        if embeddedQueue != nil {
            embeddedQueue?.append((object, embeddedLevel + 1))
            return Self.placeholder((embeddedQueue?.count ?? 0) - 1)
        }
        embeddedQueue = [(object, 1)]
        defer {
            embeddedQueue = nil
            embeddedLevel = 0
        }
        var values: [[(String, RQLCore.Value)]] = []
        while let count = embeddedQueue?.count, values.count < count {
            // Read without copying the queue, which the values read below may append to.
            guard let (next, level) = embeddedQueue?[values.count] else { break }
            guard level <= WriteTransaction.maximumEmbeddedDepth else {
                fail(
                    .invalidValue,
                    "Embedded objects nest more than \(WriteTransaction.maximumEmbeddedDepth) levels below their owner"
                )
                return .null
            }
            embeddedLevel = level
            let info = next._rqlClassInfo
            var pairs: [(String, RQLCore.Value)] = []
            for (ordinal, property) in info.properties.enumerated() where !property.schemaType.isBacklink {
                pairs.append((property.name, storedValue(of: next, ordinal: ordinal, info: info)))
            }
            values.append(pairs)
        }
        // An object's embedded objects come after it in the queue: the last ones hold no
        // placeholders, and each earlier one's are replaced by values already complete.
        var complete = [RQLCore.Value](repeating: .null, count: values.count)
        for i in values.indices.reversed() {
            complete[i] = .map(MixedMap(values[i].map { ($0.0, Self.replacingPlaceholders($0.1, complete)) }))
        }
        return complete[0]
    }

    /// Stands for queued embedded object `index` in the values of the one that holds it: a link
    /// to no class (no class has an empty name).
    private static func placeholder(_ index: Int) -> RQLCore.Value {
        .link(ObjectLink(className: "", key: RowKey(Int64(index))))
    }

    /// `value` (a property of an embedded object: one embedded object, or a list or map of
    /// them) with each placeholder replaced by its object's values.
    private static func replacingPlaceholders(_ value: RQLCore.Value, _ complete: [RQLCore.Value]) -> RQLCore.Value {
        switch value {
        case .link(let link) where link.className.isEmpty:
            return complete[Int(link.key.rawValue)]
        case .list(let items) where items.contains(where: \.isPlaceholder):
            return .list(items.map { replacingPlaceholders($0, complete) })
        case .map(let map) where map.values.contains(where: \.isPlaceholder):
            return .map(MixedMap(map.entries.map { ($0.key, replacingPlaceholders($0.value, complete)) }))
        default:
            return value
        }
    }

    /// Property `ordinal` of `object` (managed or not) as a stored value.
    func storedValue(of object: ObjectBase, ordinal: Int, info: ClassInfo) -> RQLCore.Value {
        if let accessor = object._rqlAccessor, accessor.context === context {
            // A managed object of this realm: copy what is stored (embedded children by value).
            let stored = accessor.storedValue(ordinal)
            return info.properties[ordinal].target?._rqlIsEmbedded == true ? copiedEmbedded(stored) : stored
        }
        return withExtendedLifetime(object) {
            info.properties[ordinal].field.storedValue(at: info.field(ordinal, of: object), owner: object, writer: self)
        }
    }

    /// A stored embedded value (links to embedded rows) as values, for copying it elsewhere.
    private func copiedEmbedded(_ stored: RQLCore.Value) -> RQLCore.Value {
        switch stored {
        case .link(let link):
            guard let child = context.object(for: link) else { return .null }
            return embeddedValues(child)
        case .list(let values):
            return .list(values.map(copiedEmbedded))
        case .map(let map):
            return .map(MixedMap(zip(map.keys, map.values.map(copiedEmbedded)).map { ($0, $1) }))
        default:
            return stored
        }
    }

    // MARK: Adding objects

    /// Makes `object` (and every unmanaged object it links to) managed by this realm and
    /// returns its link; nil after recording why it cannot be added.
    @discardableResult
    func add(_ object: ObjectBase) -> ObjectLink? {
        if let accessor = object._rqlAccessor {
            guard
                accessor.context === context
                    || accessor.context.coordinator === context.coordinator
                        && !accessor.context.isFrozen
            else {
                fail(
                    .invalidObject,
                    "Object is already managed by another Realm. Use create instead to copy it into this Realm."
                )
                return nil
            }
            guard !accessor.isDetached, session.contains(accessor.link) else {
                fail(.invalidObject, "Adding a deleted or invalidated object to a Realm is not permitted")
                return nil
            }
            return accessor.link
        }
        let info: ClassInfo
        do {
            info = try context.checkedClassInfo(for: type(of: object))
        } catch {
            session.fail(error)
            return nil
        }
        guard !info.isEmbedded else {
            fail(.invalidObject, "Cannot add an embedded object (\(info.className)) on its own; set it on its parent")
            return nil
        }
        var values: [String: RQLCore.Value] = [:]
        var deferred: [Int] = []
        for ordinal in info.properties.indices where !info.properties[ordinal].schemaType.isBacklink {
            if info.deferredOnAdd[ordinal] {
                deferred.append(ordinal)
            } else {
                values[info.properties[ordinal].name] = storedValue(of: object, ordinal: ordinal, info: info)
            }
        }
        guard !session.hasFailed else { return nil }
        if update != .error, let primaryKey = info.primaryKey, let keyValue = values[primaryKey],
            let existing = session.key(of: info.className, primaryKey: keyValue)
        {
            let link = ObjectLink(className: info.className, key: existing)
            for (name, value) in values where name != primaryKey {
                write(value, to: name, of: link, ordinal: info.propertyIndex(named: name))
            }
            bind(object, info: info, key: existing, created: false)
            deferWrites(deferred, of: object, info: info, link: link, overwriting: true)
            return link
        }
        guard let key = session.perform({ (t) throws(WriteError) in try t.insert(info.className, values) }) else {
            return nil
        }
        let link = ObjectLink(className: info.className, key: key)
        bind(object, info: info, key: key, created: true)
        deferWrites(deferred, of: object, info: info, link: link, overwriting: false)
        return link
    }

    // MARK: Deferred properties

    /// An added object whose links, embedded objects and mixed values are still to be written.
    private struct DeferredWrites {
        let object: ObjectBase
        let info: ClassInfo
        let link: ObjectLink
        let ordinals: [Int]
        let overwriting: Bool
        /// How many of `ordinals` are written (or being written).
        var done = 0
    }

    /// Added objects with deferred properties left, the newest last.
    private var deferredWrites: [DeferredWrites] = []
    private var isWritingDeferred = false

    /// Queues the deferred properties of an object that just got its row and, unless an outer
    /// `add` is already doing it, writes every queued property. Storing one property may add the
    /// objects it links to, which queue theirs: a work list, not recursion, so a linked chain of
    /// any length is added without growing the stack.
    private func deferWrites(
        _ ordinals: [Int],
        of object: ObjectBase,
        info: ClassInfo,
        link: ObjectLink,
        overwriting: Bool
    ) {
        if !ordinals.isEmpty {
            deferredWrites.append(
                DeferredWrites(object: object, info: info, link: link, ordinals: ordinals, overwriting: overwriting)
            )
        }
        guard !isWritingDeferred else { return }
        isWritingDeferred = true
        defer { isWritingDeferred = false }
        while let top = deferredWrites.indices.last {
            guard !session.hasFailed else {
                deferredWrites = []
                return
            }
            let next = deferredWrites[top]
            guard next.done < next.ordinals.count else {
                deferredWrites.removeLast()
                continue
            }
            deferredWrites[top].done += 1
            writeDeferred(
                next.ordinals[next.done],
                of: next.object,
                info: next.info,
                link: next.link,
                overwriting: next.overwriting
            )
        }
    }

    /// Adds many objects; runs of unmanaged objects of one class with only plain properties go
    /// to the store column by column in one bulk insert.
    func add<S: Sequence>(_ objects: S) where S.Element: ObjectBase {
        var batch: [ObjectBase] = []
        var batchInfo: ClassInfo?
        var seen = Set<ObjectIdentifier>()
        func flush() {
            if let info = batchInfo, !batch.isEmpty { addBatch(batch, info: info) }
            batch = []
            batchInfo = nil
        }
        for object in objects {
            guard !session.hasFailed else { return }
            if update == .error, object._rqlAccessor == nil, seen.insert(ObjectIdentifier(object)).inserted,
                let info = context.classInfo(named: type(of: object).className()), info.type == type(of: object),
                info.isBulkInsertable
            {
                if batchInfo !== info { flush() }
                batchInfo = info
                batch.append(object)
            } else {
                flush()
                add(object)
            }
        }
        flush()
    }

    private func addBatch(_ objects: [ObjectBase], info: ClassInfo) {
        guard objects.count > 1 else {
            add(objects[0])
            return
        }
        var columns: [String: ColumnValues] = [:]
        for ordinal in info.properties.indices where !info.properties[ordinal].schemaType.isBacklink {
            var values: [RQLCore.Value] = []
            values.reserveCapacity(objects.count)
            for object in objects { values.append(storedValue(of: object, ordinal: ordinal, info: info)) }
            columns[info.properties[ordinal].name] = .values(values)
        }
        guard !session.hasFailed,
            let keys = session.perform({ (t) throws(WriteError) in try t.insert(columns: columns, into: info.className)
            })
        else { return }
        let classIndex = context.classIndex(of: info)
        for (object, raw) in zip(objects, keys) {
            bind(object, info: info, key: RowKey(raw), classIndex: classIndex, created: true)
        }
    }

    /// Writes one of the links, lists of links, embedded objects and mixed values of an object,
    /// once it has its row (so that a cycle back to it finds it managed): for an object just
    /// inserted, the value it held; `overwriting` an existing one (`add(_:update:)`), a property
    /// never set writes its default over the stored value, as Realm Swift does.
    private func writeDeferred(
        _ ordinal: Int,
        of object: ObjectBase,
        info: ClassInfo,
        link: ObjectLink,
        overwriting: Bool
    ) {
        // On insert, a property never set keeps the default the insert gave it.
        let pending =
            deferredValue(of: object, ordinal: ordinal)
            ?? (overwriting ? info.properties[ordinal].field.defaultValue()._rqlStoreAny(self) : nil)
        guard let value = pending, !session.hasFailed else { return }
        write(value, to: info.properties[ordinal].name, of: link, ordinal: ordinal)
        promoteEmbedded(of: object, ordinal: ordinal, info: info, link: link)
    }

    /// The value a deferred property had before the object was bound (kept by `bind`).
    private func deferredValue(of object: ObjectBase, ordinal: Int) -> RQLCore.Value? {
        pendingValues[ObjectIdentifier(object)]?[ordinal].map { $0._rqlStoreAny(self) }
    }

    /// The Swift values of deferred properties of objects being added, by object and ordinal:
    /// binding an object makes its fields managed, so their unmanaged values are kept here until
    /// they are written.
    private var pendingValues: [ObjectIdentifier: [Int: any _Persistable]] = [:]

    /// Writes one property unless the update policy says it is unchanged.
    private func write(_ value: RQLCore.Value, to name: String, of link: ObjectLink, ordinal: Int?) {
        if update == .modified, let ordinal, let current = session.value(of: link, property: ordinal),
            current == value
        {
            return
        }
        session.perform { (t) throws(WriteError) in try t.set(name, of: link, to: value) }
    }

    // MARK: Binding

    /// Makes `object` the accessor of stored row `key`: its fields read the row from now on, its
    /// collections become live views, and deferred values wait in `pendingValues`.
    func bind(_ object: ObjectBase, info: ClassInfo, key: RowKey, classIndex: Int? = nil, created: Bool) {
        let index = classIndex ?? context.classIndex(of: info)
        let accessor = ObjectAccessor(context: context, classInfo: info, key: key, classIndex: index)
        var pending: [Int: any _Persistable] = [:]
        withExtendedLifetime(object) {
            for ordinal in info.properties.indices {
                let field = info.field(ordinal, of: object)
                if info.deferredOnAdd[ordinal], let value = info.properties[ordinal].field.unmanagedValue(at: field) {
                    pending[ordinal] = value
                }
            }
            object._rqlAccessor = accessor
            for ordinal in info.properties.indices {
                let field = info.field(ordinal, of: object)
                if info.isCollection[ordinal] {
                    info.properties[ordinal].field.promote(at: field, ordinal: ordinal, owner: object)
                } else {
                    // A plain value: only the state word changes (the unmanaged value it keeps
                    // is never read again).
                    PersistedState.set(PersistedState(managed: ordinal), at: field)
                }
            }
        }
        if !pending.isEmpty { pendingValues[ObjectIdentifier(object)] = pending }
        if created { session.created(accessor) }
    }

    /// After an embedded property was written, binds the unmanaged embedded objects the Swift
    /// value held to the rows the store created for them.
    func promoteEmbedded(of object: ObjectBase, ordinal: Int, info: ClassInfo, link: ObjectLink) {
        guard let target = info.properties[ordinal].target, target._rqlIsEmbedded,
            let pending = pendingValues[ObjectIdentifier(object)]?[ordinal],
            let stored = session.value(of: link, property: ordinal)
        else { return }
        bindEmbedded(pending, to: stored)
    }

    /// Binds each unmanaged embedded object in `value` (an object, or a list or map of them) to
    /// the stored link at the same place in `stored`, and so on down their own embedded objects
    /// (a work list, not one nested call per level).
    func bindEmbedded(_ value: Any, to stored: RQLCore.Value) {
        var pending: [(value: Any, stored: RQLCore.Value)] = [(value, stored)]
        while let (value, stored) = pending.popLast() {
            switch (ObjectBase.unwrapped(value), stored) {
            case (let child as ObjectBase, .link(let link)):
                guard child._rqlAccessor == nil, let info = context.classInfo(named: link.className) else { continue }
                bind(child, info: info, key: link.key, created: true)
                for ordinal in info.properties.indices where info.properties[ordinal].target?._rqlIsEmbedded == true {
                    if let value = pendingValues[ObjectIdentifier(child)]?[ordinal],
                        let nested = session.value(of: link, property: ordinal)
                    {
                        pending.append((value, nested))
                    }
                }
                pendingValues[ObjectIdentifier(child)] = nil
            case (let collection as any _RQLEmbeddedElements, .list(let links)):
                for (element, link) in zip(collection._rqlElements, links) { pending.append((element, link)) }
            case (let collection as any _RQLEmbeddedElements, .map(let map)):
                let byKey = Dictionary(zip(map.keys, map.values), uniquingKeysWith: { first, _ in first })
                for (key, element) in collection._rqlKeyedElements {
                    if let link = byKey[key] { pending.append((element, link)) }
                }
            default:
                break
            }
        }
    }

    /// Forgets the kept values of objects whose add finished.
    func finish() {
        pendingValues = [:]
    }

    // MARK: Setting properties of managed objects

    /// `object.property = value` on a managed object.
    func set<Value: _Persistable>(_ value: Value, ordinal: Int, of accessor: ObjectAccessor, owner: ObjectBase) {
        guard !accessor.isInvalidated else {
            fail(
                .invalidObject,
                "Object has been deleted or invalidated: \(accessor.classInfo.className) \(accessor.key)"
            )
            return
        }
        let info = accessor.classInfo
        let property = info.properties[ordinal]
        let stored = value._rqlStore(self)
        guard !session.hasFailed else { return }
        session.perform { (t) throws(WriteError) in try t.set(property.name, of: accessor.link, to: stored) }
        if property.target?._rqlIsEmbedded == true,
            let now = session.value(of: accessor.link, property: ordinal)
        {
            bindEmbedded(value, to: now)
        }
        finish()
    }
}

/// Collections whose elements may be unmanaged embedded objects to bind after a write.
protocol _RQLEmbeddedElements {
    var _rqlElements: [Any] { get }
    var _rqlKeyedElements: [(String, Any)] { get }
}

extension _Persistable {
    /// `_rqlStore` through an existential.
    func _rqlStoreAny(_ writer: _RQLWriter) -> RQLCore.Value { _rqlStore(writer) }
}

extension Realm {
    /// What `add` and `create` do with an object whose primary key is already in the realm.
    ///
    /// ```swift
    /// try realm.write { realm.add(book, update: .modified) }   // updates book 1 if it exists
    /// ```
    public enum UpdatePolicy: Int, Sendable {
        /// A duplicate primary key is an error (recorded; the commit throws it).
        case error = 1
        /// Every property of the existing object is set from the new one.
        case all = 2
        /// Only the properties whose values differ are set.
        case modified = 3
    }
}

extension RQLCore.Value {
    /// Whether this is a placeholder for a queued embedded object (`_RQLWriter.embeddedValues`).
    fileprivate var isPlaceholder: Bool {
        if case .link(let link) = self { return link.className.isEmpty }
        return false
    }
}
