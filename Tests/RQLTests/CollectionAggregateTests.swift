import Foundation
import Testing

@testable import RQL

/// The aggregates of `Results`, `List` and `MutableSet` at their edges (empty collections,
/// nulls, mixed values, numbers asked for as another type, decimals, dates), each asked of every
/// kind of collection: they share one path, and these tests keep the kinds in agreement.
@Suite("Collection aggregates")
struct CollectionAggregateTests {
    final class Reading: Object {
        @Persisted var count = 0
        @Persisted var optionalCount: Int?
        @Persisted var weight = 0.0
        @Persisted var ratio: Float = 0
        @Persisted var amount = Decimal128(0)
        @Persisted var optionalAmount: Decimal128?
        @Persisted var taken = Date(timeIntervalSince1970: 0)
        @Persisted var optionalTaken: Date?
        @Persisted var mixed: AnyRealmValue
    }

    final class Logbook: Object {
        @Persisted var name = ""
        @Persisted var readings: List<Reading>
        @Persisted var readingSet: MutableSet<Reading>
        @Persisted var counts: List<Int?>
        @Persisted var countSet: MutableSet<Int?>
        @Persisted var amounts: List<Decimal128>
        @Persisted var amountSet: MutableSet<Decimal128>
        @Persisted var dates: List<Date>
        @Persisted var dateSet: MutableSet<Date>
        @Persisted var mixedValues: List<AnyRealmValue>
        @Persisted var mixedSet: MutableSet<AnyRealmValue>
    }

    /// Which collection the aggregates are asked of.
    enum Kind: String, CaseIterable, CustomStringConvertible {
        /// `realm.objects`, or the sorted elements of a list of values.
        case results
        /// A managed list.
        case list
        /// A managed set.
        case set

        var description: String { rawValue }
    }

    static func time(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

    /// A realm with a logbook of three readings (and their values in its value collections) and
    /// an empty logbook; `realm.objects(Reading.self)` is the three readings.
    static func filled(_ name: String = #function) throws -> Realm {
        let realm = try makeRealm([Reading.self, Logbook.self], name: name)
        try realm.write {
            let readings = [
                Reading(value: [
                    "count": 3, "weight": 1.5, "ratio": Float(0.5), "amount": Decimal128("1.10"),
                    "taken": time(20), "mixed": AnyRealmValue.int(2),
                ]),
                Reading(value: [
                    "count": -1, "optionalCount": 4, "weight": 2.25, "ratio": Float(1.5), "amount": Decimal128("2.20"),
                    "optionalAmount": Decimal128(5), "taken": time(10), "optionalTaken": time(30),
                    "mixed": AnyRealmValue.double(0.5),
                ]),
                Reading(value: [
                    "count": 10, "weight": -4.0, "ratio": Float(2), "amount": Decimal128("-0.30"),
                    "taken": time(30), "mixed": AnyRealmValue.string("x"),
                ]),
            ]
            let logbook = Logbook(value: ["name": "full"])
            logbook.readings.append(objectsIn: readings)
            logbook.readingSet.insert(objectsIn: readings)
            fill(logbook)
            realm.add(logbook)
            realm.add(Logbook(value: ["name": "empty"]))
        }
        return realm
    }

    /// The value collections of a full logbook (each with a null or a duplicate where it may).
    static func fill(_ logbook: Logbook) {
        logbook.counts.append(objectsIn: [3, nil, -1, 10, nil])
        logbook.countSet.insert(objectsIn: [3, nil, -1, 10, nil])
        let amounts: [Decimal128] = ["1.10", "2.20", "-0.30"]
        logbook.amounts.append(objectsIn: amounts)
        logbook.amountSet.insert(objectsIn: amounts)
        logbook.dates.append(objectsIn: [time(20), time(10), time(30)])
        logbook.dateSet.insert(objectsIn: [time(20), time(10), time(30)])
        let mixed: [AnyRealmValue] = [.int(2), .double(0.5), .string("x"), .none]
        logbook.mixedValues.append(objectsIn: mixed)
        logbook.mixedSet.insert(objectsIn: mixed)
    }

    static func logbook(_ realm: Realm, _ name: String) throws -> Logbook {
        try #require(realm.objects(Logbook.self).filter("name == %@", name).first)
    }

    static func readings(_ kind: Kind, of logbook: Logbook, in realm: Realm) -> AnyRealmCollection<Reading> {
        switch kind {
        case .results:
            let all = realm.objects(Reading.self)
            return AnyRealmCollection(logbook.readings.isEmpty ? all.filter("count > 1000") : all)
        case .list: return AnyRealmCollection(logbook.readings)
        case .set: return AnyRealmCollection(logbook.readingSet)
        }
    }

    @Test("aggregates of object properties: nulls ignored, numbers asked for as other types", arguments: Kind.allCases)
    func propertiesOfThree(kind: Kind) throws {
        let realm = try Self.filled()
        let readings = Self.readings(kind, of: try Self.logbook(realm, "full"), in: realm)
        #expect(readings.count == 3)
        #expect(readings.min(of: \.count) == -1)
        #expect(readings.max(of: \.count) == 10)
        #expect(readings.sum(of: \.count) == 12)
        let meanCount: Double? = readings.average(ofProperty: "count")
        #expect(meanCount == 4)
        // An int sum asked for as a double, an int average as a decimal.
        let countAsDouble: Double = readings.sum(ofProperty: "count")
        #expect(countAsDouble == 12)
        let meanAsDecimal: Decimal128? = readings.average(ofProperty: "count")
        #expect(meanAsDecimal == 4)
        // Nulls are not values: the one non-null optional count is min, max, sum and mean.
        #expect(readings.min(of: \.optionalCount) == 4)
        #expect(readings.max(of: \.optionalCount) == 4)
        #expect(readings.sum(of: \.optionalCount) == 4)
        let meanOptional: Double? = readings.average(ofProperty: "optionalCount")
        #expect(meanOptional == 4)
        #expect(readings.sum(of: \.weight) == -0.25)
        let meanRatio: Double? = readings.average(ofProperty: "ratio")
        #expect(meanRatio == 4.0 / 3)
        #expect(readings.sum(of: \.ratio) == 4)
        // Decimals add exactly.
        #expect(readings.sum(of: \.amount) == Decimal128("3.00"))
        #expect(readings.average(of: \.amount) == Decimal128(1))
        #expect(readings.min(of: \.amount) == Decimal128("-0.30"))
        #expect(readings.max(of: \.optionalAmount) == Decimal128(5))
        #expect(readings.min(of: \.taken) == Self.time(10))
        #expect(readings.max(of: \.taken) == Self.time(30))
        #expect(readings.min(of: \.optionalTaken) == Self.time(30))
        // A mixed property: its numbers add as decimals (the query language's `@sum`), a string
        // counts for min and max only (it sorts after numbers).
        #expect(readings.sum(of: \.mixed) == .decimal128(Decimal128("2.5")))
        let meanMixed: Decimal128? = readings.average(ofProperty: "mixed")
        #expect(meanMixed == Decimal128("1.25"))
        #expect(readings.min(of: \.mixed) == .double(0.5))
        #expect(readings.max(of: \.mixed) == .string("x"))
        let queried = realm.objects(Logbook.self).filter("readings.@sum.mixed == %@", Decimal128("2.5"))
        #expect(queried.map(\.name) == ["full"])
    }

    @Test("aggregates of an empty collection: min, max and average nil, sum zero", arguments: Kind.allCases)
    func propertiesOfNone(kind: Kind) throws {
        let realm = try Self.filled()
        let readings = Self.readings(kind, of: try Self.logbook(realm, "empty"), in: realm)
        #expect(readings.isEmpty)
        #expect(readings.min(of: \.count) == nil)
        #expect(readings.max(of: \.taken) == nil)
        #expect(readings.sum(of: \.count) == 0)
        #expect(readings.sum(of: \.weight) == 0)
        #expect(readings.sum(of: \.amount) == Decimal128(0))
        #expect(readings.sum(of: \.mixed) == .decimal128(0))
        let mean: Double? = readings.average(ofProperty: "count")
        #expect(mean == nil)
        #expect(readings.average(of: \.amount) == nil)
        #expect(readings.min(of: \.optionalAmount) == nil)
    }

    /// The value collections of `logbook` as `kind` shows them.
    struct Values {
        var counts: AnyRealmCollection<Int?>
        var amounts: AnyRealmCollection<Decimal128>
        var dates: AnyRealmCollection<Date>
        var mixed: AnyRealmCollection<AnyRealmValue>

        init(_ kind: Kind, of logbook: Logbook) {
            switch kind {
            case .results:
                counts = AnyRealmCollection(logbook.counts.sorted())
                amounts = AnyRealmCollection(logbook.amounts.sorted())
                dates = AnyRealmCollection(logbook.dates.sorted())
                mixed = AnyRealmCollection(logbook.mixedValues.sorted())
            case .list:
                counts = AnyRealmCollection(logbook.counts)
                amounts = AnyRealmCollection(logbook.amounts)
                dates = AnyRealmCollection(logbook.dates)
                mixed = AnyRealmCollection(logbook.mixedValues)
            case .set:
                counts = AnyRealmCollection(logbook.countSet)
                amounts = AnyRealmCollection(logbook.amountSet)
                dates = AnyRealmCollection(logbook.dateSet)
                mixed = AnyRealmCollection(logbook.mixedSet)
            }
        }
    }

    static func expectAggregatesOfFilled(_ values: Values, managed: Bool) {
        #expect(values.counts.min() == -1)
        #expect(values.counts.max() == 10)
        #expect(values.counts.sum() == 12)
        let mean: Double? = values.counts.average()
        #expect(mean == 4)
        #expect(values.amounts.sum() == Decimal128("3.00"))
        let meanAmount: Decimal128? = values.amounts.average()
        #expect(meanAmount == 1)
        #expect(values.amounts.min() == Decimal128("-0.30"))
        #expect(values.dates.min() == time(10))
        #expect(values.dates.max() == time(30))
        #expect(values.mixed.sum() == .decimal128(Decimal128("2.5")))
        let meanMixed: Decimal128? = values.mixed.average()
        #expect(meanMixed == Decimal128("1.25"))
        #expect(values.mixed.min() == .double(0.5))
        #expect(values.mixed.max() == .string("x"))
        guard managed else { return }
        // Through the engine, as Realm Swift aggregates plain values: the property `self`.
        let least: Int? = values.counts.min(ofProperty: "self")
        #expect(least == -1)
        let total: Int = values.counts.sum(ofProperty: "self")
        #expect(total == 12)
        let latest: Date? = values.dates.max(ofProperty: "self")
        #expect(latest == time(30))
        let mixedTotal: AnyRealmValue = values.mixed.sum(ofProperty: "self")
        #expect(mixedTotal == .decimal128(Decimal128("2.5")))
        let meanAmount2: Decimal128? = values.amounts.average(ofProperty: "self")
        #expect(meanAmount2 == 1)
    }

    @Test("aggregates of plain values: nulls ignored, decimals exact, dates, mixed", arguments: Kind.allCases)
    func plainValues(kind: Kind) throws {
        let realm = try Self.filled()
        Self.expectAggregatesOfFilled(Values(kind, of: try Self.logbook(realm, "full")), managed: true)
        if kind != .results {
            let unmanaged = Logbook()
            Self.fill(unmanaged)
            Self.expectAggregatesOfFilled(Values(kind, of: unmanaged), managed: false)
        }
    }

    @Test("aggregates of empty plain-value collections", arguments: Kind.allCases)
    func plainValuesOfNone(kind: Kind) throws {
        let realm = try Self.filled()
        var empties = [Values(kind, of: try Self.logbook(realm, "empty"))]
        if kind != .results { empties.append(Values(kind, of: Logbook())) }
        for values in empties {
            #expect(values.counts.min() == nil)
            #expect(values.counts.sum() == 0)
            let mean: Double? = values.counts.average()
            #expect(mean == nil)
            #expect(values.amounts.sum() == Decimal128(0))
            #expect(values.dates.max() == nil)
            #expect(values.mixed.sum() == .decimal128(0))
            #expect(values.mixed.min() == nil)
        }
    }
}
