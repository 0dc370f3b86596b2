import Foundation
import RQL

/// `realm-file-helper observe-write PATH`: observes the file's dogs on a queue while adding 20
/// of its own (one commit each, while another process may do the same), waits until the
/// observation shows 40 dogs, and prints `dogs=N updates=U failures=F` (the first failure after
/// it): every update must replay (old names minus deletions plus insertions are the new names).
func observeWhileWriting(_ path: String) throws -> String {
    let realm = try Realm(configuration: configuration(path))
    let queue = DispatchQueue(label: "observer")
    let observed = ObservedDogs()
    let token = realm.objects(Dog.self).observe(on: queue) { observed.apply($0) }
    let tag = ProcessInfo.processInfo.processIdentifier
    for index in 0..<20 {
        try realm.write { realm.add(Dog(value: ["name": "\(tag)-\(index)", "age": index])) }
        Thread.sleep(forTimeInterval: 0.002)
    }
    let deadline = Date().addingTimeInterval(30)
    while observed.count < 40, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    token.invalidate()
    return observed.summary
}

/// The names an observation delivered, checked at each update by replaying it.
final class ObservedDogs: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [String] = []
    private var updates = 0
    private var failures: [String] = []

    func apply(_ change: RealmCollectionChange<Results<Dog>>) {
        lock.withLock {
            switch change {
            case .initial(let dogs):
                names = dogs.map(\.name)
            case .update(let dogs, let deletions, let insertions, _):
                let new = dogs.map(\.name)
                var rows = names
                for index in deletions.reversed() where index < rows.count { rows.remove(at: index) }
                for index in insertions where index <= rows.count && index < new.count {
                    rows.insert(new[index], at: index)
                }
                if rows != new { failures.append("replay gave \(rows.count) names, not \(new.count)") }
                names = new
                updates += 1
            case .error(let error):
                failures.append("\(error)")
            }
        }
    }

    var count: Int { lock.withLock { names.count } }

    var summary: String {
        lock.withLock { "dogs=\(names.count) updates=\(updates) failures=\(failures.count) \(failures.first ?? "")" }
    }
}
