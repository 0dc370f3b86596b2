import Foundation

/// Maps a list or set of objects to one property of each.
///
/// ```swift
/// let names: ProjectedCollection<String> = person.friends.projectTo.firstName
/// ```
@dynamicMemberLookup
public struct CollectionElementMapper<Element: ObjectBase & RealmCollectionValue> {
    let elements: () -> [Element]
    /// While a key path is being recorded, the element prototype that records the step.
    let recordingElement: Element?

    /// The collection of `member` of each element.
    public subscript<V>(dynamicMember member: KeyPath<Element, V>) -> ProjectedCollection<V> {
        if let recordingElement { _ = recordingElement[keyPath: member] }
        let elements = self.elements
        return ProjectedCollection { elements().map { $0[keyPath: member] } }
    }
}

/// A read-only collection of one property of each object of a list or set, live as the
/// underlying collection is.
///
/// ```swift
/// @Projected(\Person.friends.projectTo.firstName) var friendNames: ProjectedCollection<String>
/// ```
public struct ProjectedCollection<Element>: RandomAccessCollection, CustomStringConvertible {
    private let values: () -> [Element]

    init(_ values: @escaping () -> [Element]) {
        self.values = values
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { values().count }

    public subscript(position: Int) -> Element {
        let current = values()
        realmPrecondition(position >= 0 && position < current.count, "Index \(position) is out of bounds")
        return current[position]
    }

    public var description: String { "ProjectedCollection<\(Element.self)> \(values())" }
}

extension List where Element: ObjectBase {
    /// A mapper to project one property of every element: `list.projectTo.name`.
    ///
    /// ```swift
    /// @Projected(\Person.friends.projectTo.firstName) var names: ProjectedCollection<String>
    /// ```
    public var projectTo: CollectionElementMapper<Element> {
        CollectionElementMapper(elements: { Array(self) }, recordingElement: recordingElement)
    }
}

extension MutableSet where Element: ObjectBase {
    /// A mapper to project one property of every element: `set.projectTo.name`.
    ///
    /// ```swift
    /// @Projected(\Person.tags.projectTo.firstName) var names: ProjectedCollection<String>
    /// ```
    public var projectTo: CollectionElementMapper<Element> {
        CollectionElementMapper(elements: { Array(self) }, recordingElement: nil)
    }
}
