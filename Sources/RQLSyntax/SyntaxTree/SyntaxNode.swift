import RQLCore

/// A node of the syntax tree: what it is, and where in the query it was written.
///
/// Two nodes are equal when they have the same structure. The span locates a node in one
/// particular source text and is not part of its identity, which is what lets tests state
/// `parse(print(tree)) == tree`.
///
/// `Kind` is `Hashable` in an extension, not in the generic signature: a signature's protocol
/// requirement is checked at run time each time a node type's metadata is first made, by a
/// search of every conformance in the binary, which every `rqlc` process paid once per kind.
public struct SyntaxNode<Kind: Sendable>: Sendable {
    public var kind: Kind
    public var span: SourceSpan

    public init(_ kind: Kind, span: SourceSpan) {
        self.kind = kind
        self.span = span
    }
}

extension SyntaxNode: Equatable, Hashable where Kind: Hashable {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}

/// A predicate: `age > 2 AND name BEGINSWITH 'R'`.
public typealias Predicate = SyntaxNode<PredicateKind>
/// A value-producing operand: a literal, an argument, a key path, a list, arithmetic.
public typealias Expression = SyntaxNode<ExpressionKind>
/// One step of a key path: `.name`, `[0]`, `['key']`, `@links.Dog.owner`.
public typealias PathElement = SyntaxNode<PathElementKind>
/// One `SORT`, `DISTINCT` or `LIMIT` clause.
public typealias PostQueryClause = SyntaxNode<PostQueryClauseKind>
/// The shape on the right of `GEOWITHIN`.
public typealias GeoShape = SyntaxNode<GeoShapeKind>
