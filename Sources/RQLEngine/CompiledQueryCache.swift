import RQLCore
import RQLIR
import RQLSema
import RQLSyntax
import Synchronization

/// The compiled queries an engine has made, so that compiling the same query again is a
/// dictionary look-up: keyed by query text, dialect, class, arguments, the schema and the
/// engine's options (or by the logical plan, for chained `Results`). Parsed syntax trees are
/// kept separately by text and dialect alone, so the same text with other argument values skips
/// the parser and only binds and optimizes again.
///
/// Both tables are small and forget their oldest entries first. A compiled query is valid at
/// every version of a store with the same schema, so entries never go stale; statistics only
/// chose the plan, and a plan chosen on yesterday's statistics is still correct.
///
///     let cache = CompiledQueryCache(capacity: 16)
///     let engine = QueryEngine(cache: cache)
///     _ = try engine.compile("age > 2", className: "Dog", store: store)   // parse, bind, optimize
///     _ = try engine.compile("age > 2", className: "Dog", store: store)   // a look-up
///     cache.hits   // 1
public final class CompiledQueryCache: Sendable {
    /// The cache engines share unless given their own.
    public static let shared = CompiledQueryCache()

    /// What a compiled query was made from.
    enum Source: Hashable {
        /// Query text with its dialect, class and arguments.
        case text(String, Dialect, className: String, arguments: [QueryArgument])
        /// A bound logical plan (a `Results` chain, a DSL-built query).
        case plan(LogicalPlan)
    }

    struct Key: Hashable {
        var source: Source
        /// The schema's number in this cache (`schemaID(of:)`): hashing a whole schema on every
        /// look-up would cost more than the rest of the key.
        var schemaID: Int
        var options: EngineOptions
    }

    struct SyntaxKey: Hashable {
        var text: String
        var dialect: Dialect
    }

    private struct State {
        var compiled: [Key: CompiledQuery] = [:]
        var compiledOrder: [Key] = []
        var syntax: [SyntaxKey: QuerySyntax] = [:]
        var syntaxOrder: [SyntaxKey] = []
        var hits = 0
        var misses = 0
        /// The schemas seen, each with its number and the address of its class list.
        var schemas: [(schema: Schema, address: UInt?, id: Int)] = []
        var nextSchemaID = 0
    }

    /// The number of compiled queries (and, separately, syntax trees) kept.
    public let capacity: Int
    private let state = Mutex(State())

    public init(capacity: Int = 128) {
        self.capacity = max(0, capacity)
    }

    /// How many compiles were answered from the cache.
    public var hits: Int { state.withLock { $0.hits } }
    /// How many compiles were not.
    public var misses: Int { state.withLock { $0.misses } }
    /// The number of compiled queries kept.
    public var count: Int { state.withLock { $0.compiled.count } }

    /// Forgets everything.
    public func removeAll() {
        state.withLock { $0 = State() }
    }

    /// A number for `schema`, the same for every equal schema while the cache remembers it. A
    /// schema whose class list is the very buffer of one seen before (a store's schema, read
    /// again) is found by its address; any other is compared by value once. The cache holds the
    /// schemas it numbers, so an address it knows cannot be reused by another schema.
    func schemaID(of schema: Schema) -> Int {
        let address = schema.classes.withUnsafeBufferPointer { $0.baseAddress.map { UInt(bitPattern: $0) } }
        return state.withLock { state in
            if let address, let known = state.schemas.first(where: { $0.address == address }) { return known.id }
            if let known = state.schemas.first(where: { $0.schema == schema }) { return known.id }
            // Numbers are never reused: entries under a forgotten number simply age out.
            if state.schemas.count >= 32 { state.schemas.removeAll() }
            let id = state.nextSchemaID
            state.nextSchemaID += 1
            state.schemas.append((schema, address, id))
            return id
        }
    }

    func compiled(_ key: Key) -> CompiledQuery? {
        state.withLock { state in
            if let found = state.compiled[key] {
                state.hits += 1
                return found
            }
            state.misses += 1
            return nil
        }
    }

    func insert(_ compiled: CompiledQuery, for key: Key) {
        guard capacity > 0 else { return }
        state.withLock { state in
            if state.compiled.updateValue(compiled, forKey: key) == nil { state.compiledOrder.append(key) }
            Self.trim(&state.compiled, &state.compiledOrder, to: capacity)
        }
    }

    func syntax(_ key: SyntaxKey) -> QuerySyntax? {
        state.withLock { $0.syntax[key] }
    }

    func insert(_ syntax: QuerySyntax, for key: SyntaxKey) {
        guard capacity > 0 else { return }
        state.withLock { state in
            if state.syntax.updateValue(syntax, forKey: key) == nil { state.syntaxOrder.append(key) }
            Self.trim(&state.syntax, &state.syntaxOrder, to: capacity)
        }
    }

    private static func trim<K: Hashable, V>(_ table: inout [K: V], _ order: inout [K], to capacity: Int) {
        guard order.count > capacity else { return }
        let evicted = order.count - capacity
        for key in order.prefix(evicted) { table[key] = nil }
        order.removeFirst(evicted)
    }
}
