import Foundation

// Which of the object model's values cross isolation domains, and why that is sound.
//
// A value that is always managed reads its realm through `RealmContext.current`, which checks
// the confinement before it touches anything: a live value used outside its thread, queue or
// actor stops the program with "Realm accessed from incorrect thread." rather than race, and a
// frozen one reads an immutable version, whose results are computed when it is made. So
// `Results` and `LinkingObjects` are `Sendable`: a frozen value may go into a `Task` or an
// actor method; a live one sent there stops at its first use.
//
// `Object`, `List`, `MutableSet`, `Map` and `AnyRealmCollection` are not `Sendable`: an
// unmanaged one is plain memory that no check guards. A frozen object or collection crosses as
// a frozen `Results` (`list.freeze().sorted(byKeyPath:)`, `realm.objects(_:).where { … }`), or
// as a `ThreadSafeReference` resolved on the other side; `Realm` is not `Sendable` either
// (send its `configuration` and open it there, as realm-swift does).

/// A frozen `Results` may be read from any thread, task or actor.
///
/// ```swift
/// let dogs = realm.objects(Dog.self).freeze()
/// let names = await Task.detached { dogs.map(\.name) }.value
/// ```
extension Results: @unchecked Sendable {}

/// Frozen linking objects may be read from any thread, task or actor; unmanaged ones are empty.
///
/// ```swift
/// let owners = rex.owners.freeze()
/// Task.detached { print(owners.count) }
/// ```
extension LinkingObjects: @unchecked Sendable {}
