import Foundation

/// A value shared between threads, reached only while holding its lock.
///
/// Why not `Synchronization.Mutex`: on Linux it locks with the
/// `FUTEX_LOCK_PI` system call, which ThreadSanitizer cannot see, so every
/// access a `Mutex` protects is reported as a race (CI saw one on the
/// ``ZoneRules`` cache; it appears one run in three). Silencing the report
/// would also silence real races. `NSLock` is a `pthread_mutex_t`, which
/// ThreadSanitizer intercepts, so under `make test-thread` our locking is
/// checked, not assumed.
/// Uncontended, it costs about as much as `Mutex` (tens of nanoseconds).
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is read and written only inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    /// A lock around `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
