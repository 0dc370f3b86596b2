/// A resolved key path: where it starts and the steps it takes.
///
/// `dogs.toys.name` from Person is `[.property(dogs), .property(toys), .property(name)]`: each
/// step reads a property of every object reached so far; link properties lead on to their
/// targets. A null to-one link makes a single-valued path yield `null` and contributes nothing
/// to a multi-valued one.
///
/// The binder makes it; the IR, the bytecode's constants and the VM share it.
public struct BoundPath: Hashable, Sendable {
    /// Where evaluation starts.
    public enum Root: Hashable, Sendable {
        /// The object being tested.
        case object
        /// The element of the SUBQUERY `depth` levels out (0 is the innermost).
        case element(depth: Int)
    }

    public var root: Root
    public var steps: [PathStep]
    /// Whether the path can reach more than one value (it crosses a to-many link, ends in a
    /// collection, or uses `[*]`, `@keys`, `@values`).
    public var isMultiValued: Bool
    /// The class the path starts in.
    public var rootClassName: String
    /// The type of the values the path ends with (`mixed` when unknown).
    public var valueType: PropertyType

    public init(
        root: Root = .object,
        steps: [PathStep],
        isMultiValued: Bool,
        rootClassName: String,
        valueType: PropertyType
    ) {
        self.root = root
        self.steps = steps
        self.isMultiValued = isMultiValued
        self.rootClassName = rootClassName
        self.valueType = valueType
    }
}

/// One step of a bound key path.
public enum PathStep: Hashable, Sendable {
    /// Property number `index` (as in `ObjectSchema.properties`) of class `className`, named `name`.
    /// A collection property yields all its elements; a link property yields the linked objects.
    case property(className: String, index: Int, name: String)
    /// `@links.Class.property`: the objects of `className` whose `property` links here.
    case backlinks(className: String, property: String)
    /// `[n]` of a list (or nested mixed list); out of range yields nothing.
    case index(Int)
    /// `[FIRST]`.
    case first
    /// `[LAST]`.
    case last
    /// `[*]`: every element of a collection or mixed collection.
    case all
    /// `['key']` or `.key` after a dictionary: the value for `key`; a missing key yields null.
    case key(String)
    /// `@keys` of a dictionary.
    case keys
    /// `@values` of a dictionary.
    case values
}
