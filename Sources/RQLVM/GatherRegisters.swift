import RQLCore

/// The position and value registers of one run, allocated once per run, never per batch.
///
/// Position register `p[N]` holds, per in-block row offset of the current batch, a row position
/// in `tables[N]` (the target of a link gather; -1: no row). Value register `v[N]` holds, per
/// in-block row offset, one value (a column loaded through links, a count, an aggregate). Only
/// the entries of the rows of the selection an instruction ran over are meaningful.
final class GatherRegisters<Table: TableReader> {
    static var capacity: Int { TableBlock.capacity }

    let positionStorage: UnsafeMutablePointer<Int>
    let valueStorage: UnsafeMutablePointer<Value>
    private let valueCount: Int
    /// The table each position register's positions belong to (set by the gather that wrote it).
    var tables: [Table?]
    /// Scratch elements for aggregates, reused across rows.
    var scratch: [Value] = []

    init(positions: Int, values: Int) {
        positionStorage = .allocate(capacity: max(positions, 1) * Self.capacity)
        positionStorage.initialize(repeating: -1, count: max(positions, 1) * Self.capacity)
        valueCount = max(values, 1) * Self.capacity
        valueStorage = .allocate(capacity: valueCount)
        valueStorage.initialize(repeating: .null, count: valueCount)
        tables = [Table?](repeating: nil, count: max(positions, 1))
    }

    deinit {
        positionStorage.deallocate()
        valueStorage.deinitialize(count: valueCount)
        valueStorage.deallocate()
    }

    /// The positions of register `p`, indexed by in-block row offset.
    @inline(__always)
    func positions(_ p: Int) -> UnsafeMutablePointer<Int> { positionStorage + p * Self.capacity }

    /// The values of register `v`, indexed by in-block row offset.
    @inline(__always)
    func values(_ v: Int) -> UnsafeMutablePointer<Value> { valueStorage + v * Self.capacity }
}
