import RQLCore
import Testing

@testable import RQLStorage

/// Found by the VM's differential test: `f < 0` through the block store's sorted index returned
/// the NaN rows too, because NaN sorts before every number and a range without a lower bound
/// started there.
@Suite("Block store: sorted-index ranges over floating-point NaN")
struct BlockIndexNaNTests {
    @Test("a range without a lower bound leaves NaN out, as a scan does", arguments: [false, true])
    func rangeLeavesNaNOut(isFloat: Bool) throws {
        let type: PropertyType = isFloat ? .float : .double
        let schema = try Schema([
            ObjectSchema(name: "Item", properties: [Property(name: "f", type: type, isOptional: true, isIndexed: true)])
        ])
        let store = BlockStore(schema: schema)
        let samples: [Double] = [.nan, -1.5, 0, .nan, 2.5, -.infinity, .infinity, -0.0]
        let write = store.beginWrite()
        for (i, sample) in samples.enumerated() {
            let value: Value = i == 5 ? .null : isFloat ? .float(Float(sample)) : .double(sample)
            _ = try write.insert("Item", ["f": value])
        }
        _ = try write.commit()
        let items = try #require(store.snapshot.table(named: "Item"))
        let bounds: [(Value?, Bool, Value?, Bool)] = [
            (nil, true, .double(0), false), (nil, true, .double(0), true), (.double(-1), true, nil, true),
            (nil, true, .double(.infinity), true),
        ]
        for (lower, lowerInclusive, upper, upperInclusive) in bounds {
            let scanned = (0..<items.rowCount).filter { position in
                let value = items.value(at: position, property: 0)
                guard !value.isNull, !NumericComparison.isNaN(value) else { return false }
                if let lower, ValueOrdering.compare(value, lower) < (lowerInclusive ? 0 : 1) { return false }
                if let upper, ValueOrdering.compare(value, upper) > (upperInclusive ? 0 : -1) { return false }
                return true
            }
            let found = items.indexRange(
                property: 0,
                lower: lower,
                lowerInclusive: lowerInclusive,
                upper: upper,
                upperInclusive: upperInclusive
            )
            #expect(found == scanned, "\(String(describing: lower)) … \(String(describing: upper))")
            #expect(!scanned.isEmpty)
        }
    }
}
