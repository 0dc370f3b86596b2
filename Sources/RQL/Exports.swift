// What `import RQL` gives a program: the object model declared in this module, the query DSL,
// and Foundation (Realm Swift's users get it through `import RealmSwift` too). The engine's
// modules stay behind the facade: their `Value`, `Schema`, `ObjectId`, … are implementation
// types with RQL-facing counterparts here.
@_exported import Foundation
@_exported import RQLDSL
