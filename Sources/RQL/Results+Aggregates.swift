import Foundation
import RQLCore
import RQLStorage

// Aggregates over one property of every result, with realm-core's rules (`ValueAggregation`:
// nulls ignored; min/max/average nil when there is nothing to aggregate, sum 0; a mixed
// property's numbers added as decimals, as the query language's `@sum` adds them), and
// key-value coding over every result.

extension Results {
    /// The least value of `property` among the results, or nil when there are none.
    ///
    /// ```swift
    /// let youngest: Int? = dogs.min(ofProperty: "age")
    /// ```
    public func min<T: _Persistable>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        aggregate(property, .min, as: T.self)
    }

    /// The greatest value of `property` among the results, or nil when there are none.
    public func max<T: _Persistable>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        aggregate(property, .max, as: T.self)
    }

    /// The sum of `property` over the results (zero when there are none).
    ///
    /// ```swift
    /// let totalAge: Int = dogs.sum(ofProperty: "age")
    /// ```
    public func sum<T: _Persistable>(ofProperty property: String) -> T where T.PersistedType: AddableType {
        aggregate(property, .sum, as: T.self) ?? T._rlmDefaultValue()
    }

    /// The mean of `property` over the results, or nil when there are none.
    ///
    /// ```swift
    /// let averageAge: Double? = dogs.average(ofProperty: "age")
    /// ```
    public func average<T: _Persistable>(ofProperty property: String) -> T? where T.PersistedType: AddableType {
        aggregate(property, .average, as: T.self)
    }

    /// The values of `property` of every result, through the store, and whether the property is
    /// mixed; the program stops for a property the class does not have or one `method` cannot
    /// aggregate, as in Realm Swift.
    private func propertyValues(
        _ property: String,
        _ method: AggregateMethod
    ) -> (values: [RQLCore.Value], isMixed: Bool) {
        if case .values(let table, _, _) = source {
            // Realm Swift aggregates plain values as `min(ofProperty: "self")`.
            guard property == PlainValueTable.propertyName else {
                realmStop("Invalid property name '\(property)' for a collection of \(table.className)")
            }
            let keys = evaluate().keys
            return (keys.map { state.elements[Int($0.rawValue)] }, PlainValues.areMixed(Element.self))
        }
        guard let ordinal = classInfo.propertyIndex(named: property) else {
            realmStop("Invalid property name '\(property)' for class '\(classInfo.className)'")
        }
        let core = classInfo.properties[ordinal].core
        guard core.collection == .single, core.type.targetClassName == nil else {
            realmStop(
                "Cannot aggregate '\(classInfo.className).\(property)': it is not a single value"
            )
        }
        guard method.accepts(core.type) else {
            // realm-core's UnsupportedColumnTypeException, worded as Realm Swift words it.
            realmStop(
                "\(method) is not supported for \(core.type.keyword)\(core.isOptional ? "?" : "") property "
                    + "'\(classInfo.className).\(property)'."
            )
        }
        let isMixed = core.type == .mixed
        let (version, keys) = evaluate()
        guard let classIndex = version.classIndex(named: classInfo.className),
            var cursor = version.cursor(classIndex: classIndex)
        else { return ([], isMixed) }
        var values: [RQLCore.Value] = []
        values.reserveCapacity(keys.count)
        for key in keys {
            if let row = cursor.row(of: key) { values.append(row.value(ordinal)) }
        }
        return (values, isMixed)
    }

    private func aggregate<T: _Persistable>(_ property: String, _ method: AggregateMethod, as type: T.Type) -> T? {
        let (values, isMixed) = propertyValues(property, method)
        let owner: ObjectBase = if case .values = source { PlainValues.owner } else { classInfo.prototype }
        return AggregateConversion.convert(method.apply(to: values, overMixed: isMixed), to: T.self, owner: owner)
    }

    // MARK: Key-value coding

    /// The value of `key` of every result, as an array.
    ///
    /// ```swift
    /// dogs.value(forKey: "name") as? [String]   // ["Rex", "Spot"]
    /// ```
    public func value(forKey key: String) -> Any? {
        map { element -> Any in
            guard let object = element as? ObjectBase else { return element }
            return object.value(forKey: key) as Any
        }
    }

    /// The value at a dotted key path of every result, as an array.
    ///
    /// ```swift
    /// dogs.value(forKeyPath: "favoriteToy.name") as? [String?]
    /// ```
    public func value(forKeyPath keyPath: String) -> Any? {
        map { element -> Any in
            guard let object = element as? ObjectBase else { return element }
            return object.value(forKeyPath: keyPath) as Any
        }
    }

    /// Sets `key` of every result to `value` (inside a write transaction; the program stops
    /// outside one, as in Realm Swift).
    ///
    /// ```swift
    /// try realm.write { dogs.setValue("Earth", forKey: "planet") }
    /// ```
    public func setValue(_ value: Any?, forKey key: String) {
        for element in Array(self) {
            (element as? ObjectBase)?.setValue(value, forKey: key)
        }
    }

    /// Sets the dotted key path of every result to `value` (inside a write transaction).
    ///
    /// ```swift
    /// try realm.write { dogs.setValue("Frisbee", forKeyPath: "favoriteToy.name") }
    /// ```
    public func setValue(_ value: Any?, forKeyPath keyPath: String) {
        for element in Array(self) {
            (element as? ObjectBase)?.setValue(value, forKeyPath: keyPath)
        }
    }
}

/// Which aggregate a collection computes, and the property types it takes (realm-core's: sums
/// and averages of numbers, minimums and maximums of numbers and dates, each of mixed too).
enum AggregateMethod: String, CustomStringConvertible {
    /// `min(ofProperty:)`.
    case min
    /// `max(ofProperty:)`.
    case max
    /// `sum(ofProperty:)`.
    case sum
    /// `average(ofProperty:)`.
    case average

    var description: String { rawValue }

    /// The aggregate of `values` (`ValueAggregation`); `overMixed` for a mixed property or
    /// collection, whose numbers are added as decimals.
    func apply(to values: [RQLCore.Value], overMixed: Bool) -> RQLCore.Value {
        switch self {
        case .min: ValueAggregation.minimum(values)
        case .max: ValueAggregation.maximum(values)
        case .sum: ValueAggregation.sum(values, overMixed: overMixed)
        case .average: ValueAggregation.average(values, overMixed: overMixed)
        }
    }

    func accepts(_ type: RQLCore.PropertyType) -> Bool {
        switch type {
        case .int, .float, .double, .decimal128, .mixed: true
        case .date: self == .min || self == .max
        case .bool, .string, .data, .objectId, .uuid, .object, .linkingObjects: false
        }
    }
}

/// An aggregate's `Value` as the Swift type the caller asked for: read directly when the types
/// agree, converted as `Object(value:)` converts numbers otherwise (an int sum asked for as a
/// `Double`, an average asked for as a `Decimal128`).
enum AggregateConversion {
    static func convert<T: _Persistable>(_ value: RQLCore.Value, to type: T.Type, owner: ObjectBase) -> T? {
        if case .null = value { return nil }
        if let direct = T._rqlRead(value, owner: owner) { return direct }
        switch value {
        case .int(let v): return T._rqlConvert(v)
        case .float(let v): return T._rqlConvert(Double(v))
        case .double(let v): return T._rqlConvert(v)
        case .decimal(let v): return T._rqlConvert(Decimal128(v))
        default: return nil
        }
    }
}
