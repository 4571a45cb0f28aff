import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A watchdog over a test's child process: past its time the child is
/// killed (SIGKILL), so that a child that hangs fails its own test, saying
/// so, instead of holding the whole suite (and CI) until its limit.
///
/// Arm it once the process has started, before reading its output or
/// waiting for it; after the wait, ``check(_:)`` throws when it fired.
///
/// Not API: shared by the tests only.
public final class ChildWatchdog: @unchecked Sendable {
    /// How long a child may run: `HORARI_TEST_CHILD_SECONDS`, or five
    /// minutes (the longest child of the suite takes seconds).
    public static let defaultSeconds: TimeInterval = {
        if let text = ProcessInfo.processInfo.environment["HORARI_TEST_CHILD_SECONDS"], let seconds = TimeInterval(text), seconds > 0 {
            return seconds
        }
        return 300
    }()

    private let lock = NSLock()
    private var didFire = false
    private let seconds: TimeInterval

    /// Arms the watchdog over `process`, which has started.
    public init(_ process: Process, seconds: TimeInterval = ChildWatchdog.defaultSeconds) {
        self.seconds = seconds
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            guard process.isRunning else { return }
            lock.withLock { didFire = true }
            kill(pid, SIGKILL)
        }
    }

    /// Whether the child ran past its time and was killed.
    public var fired: Bool { lock.withLock { didFire } }

    /// Throws ``ChildTimedOut`` naming `what` when the watchdog killed the child.
    public func check(_ what: @autoclosure () -> String) throws {
        if fired { throw ChildTimedOut(description: "\(what()) ran past \(Int(seconds)) s and was killed") }
    }
}

/// A test's child process that ran past its time (``ChildWatchdog``).
public struct ChildTimedOut: Error, CustomStringConvertible {
    /// What ran, and for how long.
    public let description: String
}
