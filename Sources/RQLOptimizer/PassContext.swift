import RQLCore
import RQLIR

/// What a pass may know besides the plan: the schema, the class, its row count, and per-column
/// statistics of the store the plan is optimized for (cached per store version). One context
/// serves one optimization; it is a class so that passes share it without copying the schema.
///
/// ```swift
/// let context = try PassContext(store: store, className: "Person")
/// context.statistics(property: 1)?.distinctCount   // ≈ 100 for `age`
/// ```
public final class PassContext {
    /// The schema every path in the plan refers to.
    public let schema: Schema
    /// The class the plan selects from.
    public let objectSchema: ObjectSchema
    /// The number of objects of the class in the store the plan is optimized for.
    public let rowCount: Int
    /// The constants of the cost model.
    public let costModel: CostModel
    private let statisticsSource: (Int) -> PropertyStatistics?

    /// A context for plans over `className` in `store`; statistics come from `cache`.
    public convenience init<Store: StoreReader>(
        store: Store,
        className: String,
        cache: StatisticsCache = .shared,
        costModel: CostModel = CostModel()
    ) throws(OptimizerError) {
        guard let objectSchema = store.schema.lookUpClass(className), let table = store.table(named: className) else {
            throw .unknownClass(className)
        }
        // The entry is found when a pass first asks for statistics: a plan that needs none (a
        // primary key's lookup) leaves the cache untouched.
        let version = store.version
        var entry: TableStatistics?
        self.init(
            schema: store.schema,
            objectSchema: objectSchema,
            rowCount: table.rowCount,
            costModel: costModel
        ) { property in
            let found = entry ?? cache.entry(className: className, version: version, rowCount: table.rowCount)
            entry = found
            return found.statistics(of: table, property: property)
        }
    }

    /// A context with statistics from `statistics` (tests, and stores that keep their own).
    public init(
        schema: Schema,
        objectSchema: ObjectSchema,
        rowCount: Int,
        costModel: CostModel = CostModel(),
        statistics: @escaping (Int) -> PropertyStatistics?
    ) {
        self.schema = schema
        self.objectSchema = objectSchema
        self.rowCount = rowCount
        self.costModel = costModel
        self.statisticsSource = statistics
    }

    /// Statistics of property `property` of the class, or `nil` when there are none (links,
    /// collections, backlinks, or a property out of range).
    public func statistics(property: Int) -> PropertyStatistics? {
        guard property >= 0, property < objectSchema.properties.count else { return nil }
        return statisticsSource(property)
    }
}
