#if LibICal
internal import CLibICal
import CalendarCore

/// The one owner of every call into libical.
///
/// libical is not a library one can call freely from Swift concurrency:
/// - whether its errors `abort()` is a *build* setting (`ICAL_ERRORS_ARE_FATAL`:
///   upstream's default aborts, Debian's build does not). We set it to
///   non-fatal explicitly, once, before any other call, so a malformed file
///   can never abort the process whichever build is installed;
/// - strings returned by non-`_r` functions live in a per-thread ring buffer
///   that later calls overwrite: they are copied at once, never freed;
///   strings from `_r` functions are ours and freed with
///   `icalmemory_free_buffer` (see ``LibICal/string(_:)``);
/// - a component tree keeps iteration cursors inside it, so even reading is a
///   mutation: a tree is created, read and freed inside one ``serialized(_:)``
///   call, on one thread, and never escapes it;
/// - the built-in time-zone table is filled on first use with a race. We never
///   use libical's zones (``ZoneRules`` resolves TZIDs), and the
///   initialisation below touches only the UTC zone, under the lock.
///
/// Every call therefore runs inside ``serialized(_:)``, which holds one
/// process-wide lock. The tests' libical referee and the benchmark use the
/// same lock (`package` access), so no two libical calls ever overlap.
package enum LibICal {
    /// The lock; its value records that the one-time set-up has run.
    private static let lock = Locked<Bool>(false)

    /// Runs `body` with exclusive use of libical.
    package static func serialized<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock { ready in
            if !ready {
                icalerror_set_errors_are_fatal(0)
                _ = icaltimezone_get_utc_timezone()
                ready = true
            }
            horari_icalerror_clear()
            return try body()
        }
    }

    /// The version its headers give (`ICAL_VERSION`: `3.0`, no patch level).
    static let headerVersion = ICAL_VERSION

    /// Copies a string libical returned with `_r` (ours to free) and frees it.
    static func string(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { icalmemory_free_buffer(pointer) }
        return String(cString: pointer)
    }

    /// Copies a string libical owns (a ring-buffer or in-tree string) at once.
    static func borrowed(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
#endif
