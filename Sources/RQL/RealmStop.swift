#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Stops the program on purpose, as Realm Swift does with an uncaught `RLMException`: a bad
/// query in `filter`, a write outside a transaction, a deleted object read, an unknown class.
/// The message goes to standard error in full before the trap, because `preconditionFailure`
/// drops its message in an optimized build and server programs run optimized builds.
///
/// Every deliberate stop in the object model goes through here (internal invariants keep
/// `precondition`); the line reads as Realm Swift's does, so logs and searches agree:
///
///     *** Terminating app due to uncaught exception 'RLMException', reason: 'Object has been deleted or invalidated.'
@inline(never)
func realmStop(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    let text = "*** Terminating app due to uncaught exception 'RLMException', reason: '\(message)'\n"
    // Straight to file descriptor 2, unbuffered, until every byte is out: the trap below must
    // not cut the message short.
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        guard written > 0 else { break }
        bytes = bytes.dropFirst(written)
    }
    fatalError("uncaught RLMException (reason above)", file: file, line: line)
}

/// Stops with `message` unless `condition` holds: `precondition` whose message survives an
/// optimized build.
@inline(__always)
func realmPrecondition(
    _ condition: Bool,
    _ message: @autoclosure () -> String,
    file: StaticString = #fileID,
    line: UInt = #line
) {
    if !condition { realmStop(message(), file: file, line: line) }
}
