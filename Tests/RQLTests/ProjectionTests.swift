import Testing

@testable import RQL

// The class projection example of the model guide (../shared/seeds/001_*.txt).

final class Friend: Object {
    @Persisted var firstName = ""
    @Persisted var lastName = ""
    @Persisted var address: FriendAddress?
    @Persisted var friends = List<Friend>()
}

final class FriendAddress: EmbeddedObject {
    @Persisted var city: String = ""
    @Persisted var country = ""
}

final class FriendProjection: Projection<Friend> {
    @Projected(\Friend.firstName) var firstName  // Passthrough from original object
    @Projected(\Friend.address?.city) var homeCity  // Rename and access embedded object property through keypath
    // Collection mapping
    @Projected(\Friend.friends.projectTo.firstName) var firstFriendsName: ProjectedCollection<String>
}

@Suite("Projections")
struct ProjectionTests {
    func ann() -> Friend {
        let ann = Friend(value: ["firstName": "Ann", "lastName": "Lee", "address": ["city": "Oslo", "country": "NO"]])
        ann.friends.append(Friend(value: ["firstName": "Bo"]))
        ann.friends.append(Friend(value: ["firstName": "Cy"]))
        return ann
    }

    @Test("projected properties read through their key paths")
    func reading() {
        let projection = FriendProjection(projecting: ann())
        #expect(projection.firstName == "Ann")
        #expect(projection.homeCity == "Oslo")
        #expect(Array(projection.firstFriendsName) == ["Bo", "Cy"])
    }

    @Test("a writable key path writes through to the root object")
    func writing() {
        let root = ann()
        let projection = FriendProjection(projecting: root)
        projection.firstName = "Anna"
        #expect(root.firstName == "Anna")
    }

    @Test("a projected collection follows its list")
    func live() {
        let root = ann()
        let projection = FriendProjection(projecting: root)
        root.friends.append(Friend(value: ["firstName": "Di"]))
        #expect(projection.firstFriendsName.count == 3)
    }

    @Test("discovery names each projected property and the root key path it reads")
    func discovery() throws {
        let info = try ProjectionInfo.info(for: FriendProjection.self)
        #expect(info.properties.map(\.name) == ["firstName", "homeCity", "firstFriendsName"])
        #expect(info.properties.map(\.rootPath) == [["firstName"], ["address", "city"], ["friends", "firstName"]])
    }

    @Test("projections of the same object are equal")
    func equality() {
        let root = ann()
        #expect(FriendProjection(projecting: root) == FriendProjection(projecting: root))
        #expect(FriendProjection(projecting: root) != FriendProjection(projecting: ann()))
        #expect(FriendProjection(projecting: root).description.contains("\thomeCity = Oslo;"))
    }
}
