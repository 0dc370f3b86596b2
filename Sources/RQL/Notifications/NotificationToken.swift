import Foundation

/// The handle of one observation (`observe` on a realm, an object or a collection). Keep it
/// for as long as the block should be called: `invalidate()`, or releasing the token, stops
/// the notifications.
///
/// ```swift
/// let token = realm.objects(Dog.self).observe { change in print(change) }
/// // …
/// token.invalidate()
/// ```
// Unchecked: its one mutable field, `notifier`, is read and written only under `lock`.
public final class NotificationToken: @unchecked Sendable {
    private let lock = NSLock()
    private var notifier: Notifier?

    /// A token that was never registered (invalidating it does nothing).
    public init() {}

    init(_ notifier: Notifier) {
        self.notifier = notifier
    }

    deinit {
        notifier?.invalidate()
    }

    /// Stops the notifications: the block is not called again once this returns (a delivery
    /// already running on another queue finishes). Invalidating twice does nothing.
    ///
    /// ```swift
    /// token.invalidate()
    /// ```
    public func invalidate() {
        let notifier = lock.withLock {
            let notifier = self.notifier
            self.notifier = nil
            return notifier
        }
        notifier?.invalidate()
    }

    /// The observation, while it runs (for `write(withoutNotifying:)`).
    var observation: Notifier? {
        lock.withLock { notifier }
    }
}
