// Commits small transactions to a store file as fast as it can, printing each version once
// `commit()` has returned (so the printed version is durable), until it has made COUNT commits
// or is killed. `StoreCrashTests` kills it with SIGKILL at random moments and checks that the
// file still opens at a version at least as new as the last one printed.
//
//     store-crash-helper PATH COUNT
//
// The store must exist with the schema `StoreCrashTests.schema` (an `Item` class with an `int`
// primary key `id`, a `string` `text` and a `list<int>` `history`, and a `Counter` class with an
// `int` `value`). Each commit inserts one Item whose id is the new version, appends the version
// to Item 0's history (once it exists), and sets the Counter's value to the version.
import Foundation
import RQLCore
import RQLStorage

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: store-crash-helper PATH COUNT\n".utf8))
    exit(2)
}
do {
    let store = try BlockStore.open(path: arguments[1])
    for _ in 0..<count {
        let t = store.beginWrite()
        let version = Int64(t.reader.version)
        let id = try t.insert(
            "Item",
            [
                "id": .int(version), "text": .string(String(repeating: "x", count: Int(version % 50))),
                "history": .list([]),
            ]
        )
        if version == 1 {
            _ = try t.insert("Counter", ["value": .int(version)])
        } else {
            let counter = ObjectLink(className: "Counter", key: RowKey(0))
            try t.set("value", of: counter, to: .int(version))
            try t.append(.int(version), to: "history", of: ObjectLink(className: "Item", key: RowKey(0)))
        }
        _ = id
        let result = try t.commit()
        let line = "\(result.snapshot.version)\n"
        FileHandle.standardOutput.write(Data(line.utf8))
    }
} catch {
    FileHandle.standardError.write(Data("store-crash-helper: \(error)\n".utf8))
    exit(1)
}
