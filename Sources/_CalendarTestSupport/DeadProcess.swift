import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why ``deadProcessID()`` could not give one.
public struct DeadProcessError: Error, CustomStringConvertible {
    /// What happened.
    public let description: String
}

/// A process ID no process has: that of a child that has finished, for the
/// tests of what a killed process left behind (issue 28, 17).
///
/// Not API: shared by the tests only.
/// - Throws: ``DeadProcessError`` when the ID was taken again at once.
public func deadProcessID() throws -> pid_t {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/bin/true")
    try child.run()
    child.waitUntilExit()
    let pid = child.processIdentifier
    guard kill(pid, 0) != 0, errno == ESRCH else { throw DeadProcessError(description: "process \(pid) was taken again") }
    return pid
}
