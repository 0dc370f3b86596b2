import RQLCore
import RQLIR

/// What a `Query<T>` holds while a closure builds it: a key path still growing, a finished
/// predicate, or another operand (a SUBQUERY count).
enum QueryNode {
    /// A key path; operators turn it into an operand of the unbound IR.
    case keyPath(QueryKeyPath)
    /// A predicate (`Query<Bool>` after a comparison, `&&`, `||`, `!`).
    case predicate(UnboundPredicate)
    /// Any other operand.
    case operand(UnboundExpression)

    /// The node as an operand of a comparison.
    var expression: UnboundExpression {
        switch self {
        case .keyPath(let path): path.expression
        case .operand(let expression): expression
        case .predicate: .invalid("a predicate cannot be compared with a value; combine predicates with && and ||")
        }
    }

    /// The node as a predicate: a bare Bool key path means `keyPath == true` (realm-swift's
    /// `where { $0.isAdopted }`).
    var predicate: UnboundPredicate {
        switch self {
        case .predicate(let predicate): predicate
        case .keyPath, .operand: .comparison(UnboundComparison(expression, .equal, .constant(.bool(true))))
        }
    }

    /// The key path, or an explanation of why the node is not one (for operations that need one).
    func path(for operation: String) -> Result<QueryKeyPath, QueryBuildError> {
        switch self {
        case .keyPath(let path):
            if let invalid = path.invalid { return .failure(QueryBuildError(message: invalid)) }
            return .success(path)
        case .operand(.invalid(let message)):
            return .failure(QueryBuildError(message: message))
        case .operand, .predicate:
            return .failure(QueryBuildError(message: "\(operation) applies only to a key path"))
        }
    }

    /// Applies `transform` to the key path, or carries the error along as an invalid operand.
    func mapPath(for operation: String, _ transform: (inout QueryKeyPath) throws(QueryBuildError) -> Void) -> QueryNode
    {
        switch path(for: operation) {
        case .success(var path):
            do {
                try transform(&path)
                return .keyPath(path)
            } catch {
                return .operand(.invalid(error.message))
            }
        case .failure(let error):
            return .operand(.invalid(error.message))
        }
    }
}

/// A key path under construction, with what realm-swift's DSL tracks about it: which
/// components are collections (so that a comparison through one is `ANY`, and a SUBQUERY
/// knows its collection) and whether an `ANY` is still owed.
struct QueryKeyPath {
    var root: UnboundKeyPath.Root = .object
    var components: [UnboundPathComponent] = []
    /// Positions in `components` of collection properties (lists, sets, backlinks, maps).
    var collections: [Int] = []
    /// Whether a comparison through this path is written `ANY path`; cleared by `count`,
    /// aggregates and `contains`, which apply to the collection as a whole.
    var requiresAny = false
    var postfix: UnboundPostfix?
    /// Set when a step could not be built; the whole operand is then invalid.
    var invalid: String?

    var unbound: UnboundKeyPath { UnboundKeyPath(root: root, components, postfix: postfix) }

    var expression: UnboundExpression {
        if let invalid { return .invalid(invalid) }
        let path = UnboundExpression.keyPath(unbound)
        return requiresAny ? .quantified(.any, path) : path
    }

    /// The expression without its owed `ANY` (for `count`, `contains`, aggregates of a collection).
    var wholeCollection: UnboundExpression {
        if let invalid { return .invalid(invalid) }
        return .keyPath(unbound)
    }

    /// Appends a property step.
    mutating func append(property name: String, isCollection: Bool) throws(QueryBuildError) {
        guard postfix == nil else {
            throw QueryBuildError(message: "no property can follow '\(UnboundKeyPath.describe(unbound))'")
        }
        if isCollection {
            collections.append(components.count)
            requiresAny = true
        }
        components.append(.property(name))
    }

    /// Ends the path in `@count` or an aggregate of the collection it ends with.
    mutating func end(with postfix: UnboundPostfix) throws(QueryBuildError) {
        guard self.postfix == nil else {
            throw QueryBuildError(message: "'\(UnboundKeyPath.describe(unbound))' already ends in an aggregate")
        }
        self.postfix = postfix
        requiresAny = false
    }
}

extension UnboundKeyPath {
    /// The key path as a query would spell it, for messages (`dogs.age`, `map[…]`).
    static func describe(_ path: UnboundKeyPath) -> String {
        var text = ""
        if case .element(let depth) = path.root { text = "$element\(depth)" }
        for component in path.components {
            switch component {
            case .property(let name): text += (text.isEmpty ? "" : ".") + name
            case .index(let index): text += "[\(index)]"
            case .key(let key): text += "['\(key)']"
            case .all: text += "[*]"
            case .keys: text += ".@keys"
            case .values: text += ".@values"
            }
        }
        switch path.postfix {
        case nil: break
        case .count: text += ".@count"
        case .aggregate(let function, let property): text += "." + function.rawValue + (property.map { "." + $0 } ?? "")
        }
        return text.isEmpty ? "SELF" : text
    }
}

/// Where the key paths of a query cross collections, by key path. The unbound IR keeps only the
/// `ANY` a collection implies, not where the collection is; a SUBQUERY count needs the position
/// to re-root key paths at the collection's element, so the DSL carries it alongside.
struct QueryPaths {
    private var collections: [UnboundKeyPath: [Int]] = [:]

    mutating func record(_ path: QueryKeyPath) {
        if path.invalid == nil { collections[path.unbound] = path.collections }
    }

    func merging(_ other: QueryPaths) -> QueryPaths {
        var result = self
        result.collections.merge(other.collections) { first, _ in first }
        return result
    }

    /// The positions of the collection properties `path` crosses (empty when none or unknown).
    func collections(of path: UnboundKeyPath) -> [Int] {
        collections[path] ?? []
    }
}
