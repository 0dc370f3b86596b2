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
//
//     store-crash-helper hold PATH
//
// A reader in another process (`FreePagesTests`): opens the store read-only, reads every value
// of every class and looks every Item up by primary key, prints the version and a digest of
// what it read, then waits for a line on standard input (meanwhile the test commits), reads
// everything again from the same snapshot, prints that digest, and exits.
//
//     store-crash-helper create PATH
//
//     store-crash-helper log PATH COUNT THRESHOLD
//
// The first mode with the commit log on (`CommitLogCrashTests`; the first mode turns it off, so
// each of its commits is a checkpoint): each commit appends one log
// record, and a checkpoint runs whenever the log passes THRESHOLD bytes, so kills land in both.
// It continues from the store's version, so one file survives many kills.
//
//     store-crash-helper spill PATH hold|commit
//
// Loads of 60,000 Persons (`BlockSpillTests`: the same schema and rows) into the store at PATH,
// whose full blocks the transaction writes before its commit. Prints "spilled" once the first
// load's rows are appended (its blocks written, nothing committed); then `hold` waits to be
// killed, and `commit` commits that load and further ones, printing each version committed.
//
// One of several processes creating one store at once (`StoreCreationTests`): opens the store at
// PATH, creating it with the schema above when there is none, inserts one Item whose id is its
// process id, prints the version of that commit, and exits 0; any error is printed, exit 1.
import Foundation
import RQLCore
import RQLDatasets
@_spi(Streaming) import RQLStorage

let arguments = CommandLine.arguments

/// Every value of every class, and every Item's primary-key lookup, as text.
func digest(_ snapshot: BlockSnapshot) -> String {
    var text = ""
    for objectSchema in snapshot.schema.classes {
        guard let table = snapshot.table(named: objectSchema.name) else { continue }
        for position in 0..<table.rowCount {
            for property in objectSchema.properties.indices where !objectSchema.properties[property].isBacklink {
                text += "\(table.value(at: position, property: property))|"
            }
            if objectSchema.name == "Item", case .int(let id) = table.value(at: position, property: 0) {
                text += "@\(table.position(ofPrimaryKey: .int(id)) ?? -1)"
            }
            text += "\n"
        }
    }
    return text
}

if arguments.count == 3, arguments[1] == "hold" {
    do {
        let store = try BlockStore.open(path: arguments[2], readOnly: true)
        let snapshot = store.snapshot
        let first = digest(snapshot)
        FileHandle.standardOutput.write(Data("\(snapshot.version) \(first.hashValue) \(first.count)\n".utf8))
        _ = readLine()
        let second = digest(snapshot)
        FileHandle.standardOutput.write(Data("\(snapshot.version) \(second.hashValue) \(second.count)\n".utf8))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("store-crash-helper: \(error)\n".utf8))
        exit(1)
    }
}
if arguments.count == 3, arguments[1] == "create" {
    do {
        let schema = try DatasetLoader.loadSchema(
            json: #"""
                {"schema": {
                  "Item": {"primaryKey": "id", "properties": {"id": "int", "text": "string", "history": "list<int>"}},
                  "Counter": {"properties": {"value": "int"}}
                }}
                """#
        )
        let store = try BlockStore.open(path: arguments[2], creatingWith: schema)
        let (_, commit) = try store.write { t in
            try t.insert("Item", ["id": .int(Int64(getpid())), "text": .string("created"), "history": .list([])])
        }
        FileHandle.standardOutput.write(Data("\(commit.snapshot.version)\n".utf8))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("store-crash-helper: \(error)\n".utf8))
        exit(1)
    }
}
if arguments.count == 4, arguments[1] == "spill" {
    do {
        let schema = try DatasetLoader.loadSchema(
            json:
                #"{"schema": {"Person": {"primaryKey": "id", "properties": {"id": "int", "name": "string", "age": "int"}}}}"#
        )
        let store = try BlockStore.open(path: arguments[2])
        store.logsCommits = false
        var printed = false
        while true {
            let t = store.beginWrite()
            let appender = try t.beginAppending(schema: schema)
            let first = t.reader.table(named: "Person")?.rowCount ?? 0
            for id in first..<first + 60_000 {
                let name = "person \(id) " + String(repeating: "x", count: id % 17)
                try appender.append([.int(Int64(id)), .string(name), .int(Int64(id % 90))], to: 0)
            }
            if !printed {
                FileHandle.standardOutput.write(Data("spilled\n".utf8))
                printed = true
            }
            if arguments[3] == "hold" {
                while true { sleep(60) }
            }
            try appender.finish()
            let result = try t.commit()
            FileHandle.standardOutput.write(Data("\(result.snapshot.version)\n".utf8))
        }
    } catch {
        FileHandle.standardError.write(Data("store-crash-helper: \(error)\n".utf8))
        exit(1)
    }
}
let logging = arguments.count == 5 && arguments[1] == "log"
let operands = logging ? Array(arguments.dropFirst(2)) : Array(arguments.dropFirst())
guard operands.count == (logging ? 3 : 2), let count = Int(operands[1]) else {
    FileHandle.standardError.write(Data("usage: store-crash-helper [log] PATH COUNT [THRESHOLD]\n".utf8))
    exit(2)
}
do {
    let store = try BlockStore.open(path: operands[0])
    // Without `log`, every commit is a checkpoint (the log is on by default).
    store.logsCommits = logging
    if logging {
        store.checkpointThreshold = Int(operands[2]) ?? 1 << 20
    }
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
