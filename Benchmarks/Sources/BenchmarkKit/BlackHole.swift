/// Keeps `value` alive and "used", so the optimizer cannot drop the computation that made it.
///
///     for _ in 0..<iterations { blackHole(try? Parser.parse(text)) }
///
/// The body lives in this module and is not `@inlinable`, so callers in other modules see an
/// opaque call that might read anything they pass.
@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Returns `value` through a call the optimizer cannot see into, so a constant input
/// (a query string literal, a comparison bound) is not folded into the measured code.
///
///     let text = opaque("age > 90")
@inline(never)
public func opaque<T>(_ value: T) -> T {
    value
}
