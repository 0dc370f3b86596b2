import RQLIR
import RQLOptimizer
import RQLSema
import RQLSyntax

// The engine is the one door to compilation: RQL and RQLTools import RQLEngine, never the
// stages behind it (RQLSyntax, RQLSema, RQLIR, RQLOptimizer). These are the stages' types they
// name, one typealias each rather than an `@_exported import`, so the list is the whole of what
// passes through. Public ones appear in the engine's own API or in RQL's (`_rqlQueryConstant`);
// `package` ones are for this package's modules only.

/// The query language a text is written in: RQL, or `NSPredicate` format.
public typealias Dialect = RQLSyntax.Dialect
/// A parsed query, before binding.
public typealias QuerySyntax = RQLSyntax.QuerySyntax
/// A value given for a `$0`-style placeholder.
public typealias QueryArgument = RQLSema.QueryArgument
/// A query bound to a schema: every name resolved, every type checked.
public typealias BoundQuery = RQLIR.BoundQuery
/// Why a parsed query does not fit the schema or the arguments (`QueryError.binding`).
public typealias BindError = RQLSema.BindError
/// The plan a bound query runs by.
public typealias LogicalPlan = RQLIR.LogicalPlan
/// An expression of a query built in Swift (the DSL, `Persistable` constants), before binding.
public typealias UnboundExpression = RQLIR.UnboundExpression

package typealias Parser = RQLSyntax.Parser
package typealias SyntaxPrinter = RQLSyntax.SyntaxPrinter
package typealias Binder = RQLSema.Binder
package typealias LoweredQuery = RQLSema.LoweredQuery
package typealias BoundClause = RQLIR.BoundClause
package typealias BoundPredicate = RQLIR.BoundPredicate
package typealias UnboundClause = RQLIR.UnboundClause
package typealias UnboundComparison = RQLIR.UnboundComparison
package typealias UnboundKeyPath = RQLIR.UnboundKeyPath
package typealias UnboundPredicate = RQLIR.UnboundPredicate
package typealias UnboundQuery = RQLIR.UnboundQuery
package typealias UnboundSortKey = RQLIR.UnboundSortKey
package typealias Optimizer = RQLOptimizer.Optimizer
