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

    /// Exactly the registers the program names: a program without gathers or loads (every plain
    /// scan, every index probe) allocates and initializes nothing, which matters to a probe that
    /// reads one row (initializing and destroying one block's worth of `Value`s cost ~100k
    /// instructions a run).
    init(positions: Int, values: Int) {
        let positionCount = positions * Self.capacity
        positionStorage = .allocate(capacity: positionCount)
        positionStorage.initialize(repeating: -1, count: positionCount)
        valueCount = values * Self.capacity
        valueStorage = .allocate(capacity: valueCount)
        valueStorage.initialize(repeating: .null, count: valueCount)
        tables = [Table?](repeating: nil, count: positions)
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
