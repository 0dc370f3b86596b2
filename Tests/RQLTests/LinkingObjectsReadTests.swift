import Foundation
import Testing

@testable import RQL

final class BacklinkHub: Object {
    @Persisted var name = ""
    @Persisted(originProperty: "hub") var spokes: LinkingObjects<BacklinkSpoke>
}

final class BacklinkSpoke: Object {
    @Persisted var number = 0
    @Persisted var hub: BacklinkHub?
}

/// `count` and the subscript read the backlinks once per version of the realm: iterating n
/// linking objects by index is linear, where reading them again on each call made it quadratic.
@Suite("Linking objects read once per version")
struct LinkingObjectsReadTests {
    static let spokes = 100_000

    @Test("iterating 100,000 linking objects by index reads the backlinks once")
    func iterationReadsOnce() throws {
        let realm = try makeRealm([BacklinkHub.self, BacklinkSpoke.self])
        let hub = BacklinkHub(value: ["name": "hub"])
        try realm.write {
            realm.add(hub)
            for number in 0..<Self.spokes { realm.add(BacklinkSpoke(value: ["number": number, "hub": hub])) }
        }
        let spokes = hub.spokes
        var sum = 0
        for index in 0..<spokes.count { sum += spokes[index].number }
        for spoke in spokes { sum -= spoke.number }
        #expect(sum == 0)
        #expect(spokes.count == Self.spokes)
        #expect(spokes.state.reads == 1)

        // A write moves the version: the next read sees it, once.
        try realm.write { realm.add(BacklinkSpoke(value: ["number": -1, "hub": hub])) }
        #expect(spokes.count == Self.spokes + 1)
        #expect(spokes[Self.spokes].number == -1)
        #expect(spokes.state.reads == 2)
    }

    @Test("inside a write, each change is seen by the next read")
    func readsInsideAWrite() throws {
        let realm = try makeRealm([BacklinkHub.self, BacklinkSpoke.self])
        let hub = BacklinkHub(value: ["name": "hub"])
        try realm.write {
            realm.add(hub)
            let spokes = hub.spokes
            #expect(spokes.isEmpty)
            realm.add(BacklinkSpoke(value: ["number": 1, "hub": hub]))
            #expect(spokes.map(\.number) == [1])
            let second = realm.create(BacklinkSpoke.self, value: ["number": 2])
            #expect(spokes.count == 1)
            second.hub = hub
            #expect(spokes.map(\.number).sorted() == [1, 2])
        }
    }

    @Test("frozen linking objects keep what they read")
    func frozen() throws {
        let realm = try makeRealm([BacklinkHub.self, BacklinkSpoke.self])
        let hub = BacklinkHub(value: ["name": "hub"])
        try realm.write {
            realm.add(hub)
            realm.add(BacklinkSpoke(value: ["number": 1, "hub": hub]))
        }
        let frozen = hub.spokes.freeze()
        try realm.write { realm.add(BacklinkSpoke(value: ["number": 2, "hub": hub])) }
        #expect(frozen.map(\.number) == [1])
        #expect(hub.spokes.count == 2)
    }
}
