import RQLCore

/// A key path and what follows it: `dogs.@count`, `address.city`, `scores.@avg`, `items.@max.price`.
public struct KeyPath: Hashable, Sendable {
    /// At least one element. The first is a property name, `@links…`, a key-path argument, a
    /// variable or `SELF`.
    public var elements: [PathElement]
    /// A size, type or aggregate applied to the value the path reaches.
    public var postfix: KeyPathPostfix?

    public init(_ elements: [PathElement], postfix: KeyPathPostfix? = nil) {
        self.elements = elements
        self.postfix = postfix
    }
}

/// What a key path's last element is followed by.
public enum KeyPathPostfix: Hashable, Sendable {
    /// `.@count`, `.@size`, `[SIZE]`: the number of elements, or the length of a string or binary.
    case count
    /// `.@type`: the type name of a mixed value.
    case type
    /// `.@min`, `.@max`, `.@sum`, `.@avg`, optionally of a property of linked objects (`dogs.@max.age`).
    case aggregate(AggregateFunction, property: String?)
}

/// One step of a key path.
public enum PathElementKind: Hashable, Sendable {
    /// A property (or, right after `@links.`, a class) name.
    case property(String)
    /// `@links.Class.property`: the objects of Class whose `property` links here.
    case backlinks(className: String, property: String)
    /// `@links` alone: every object that links here (only before `.@count`).
    case allBacklinks
    /// `@keys` / `@allKeys`: the keys of a dictionary.
    case keys
    /// `@values` / `@allValues`: the values of a dictionary.
    case values
    /// `[n]`: the element at position n.
    case index(Int)
    /// `[FIRST]`.
    case first
    /// `[LAST]`.
    case last
    /// `[*]`: every element or value.
    case all
    /// `['key']`: the value for a dictionary key.
    case key(String)
    /// `[$0]`: an argument that is a position (int) or a key (string).
    case subscriptArgument(Argument)
    /// `$K0` (RQL) or `%K` (NSPredicate, numbered with the other placeholders): a key path given as an argument.
    case keyPathArgument(Int)
    /// `$x` (NSPredicate): a variable, such as a SUBQUERY's element.
    case variable(String)
    /// `SELF` (NSPredicate): the object or value itself.
    case `self`
}
