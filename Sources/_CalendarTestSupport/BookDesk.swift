import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `_BookDesk` (Sources/_BookDesk), one desk of a gym as a process of its
/// own, as the tests that race desks on one SQLite file or one PostgreSQL
/// database run it: built next to the test bundle (the test target depends
/// on it), and killed by its process ID when it runs past two minutes, so
/// that a desk that hangs fails its test rather than the suite.
///
/// Not API: shared by the tests only.
public enum BookDesk {
    /// The executable.
    public static var url: URL {
        let folder = Bundle.main.bundleURL.pathExtension == "xctest" ? Bundle.main.bundleURL.deletingLastPathComponent() : Bundle.main.bundleURL
        return folder.appendingPathComponent("_BookDesk")
    }

    /// Starts a desk with `arguments`, its output and errors in one pipe, under the watchdog.
    public static func start(_ arguments: [String]) throws -> (process: Process, output: Pipe) {
        let process = Process(), out = Pipe()
        process.executableURL = url
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = out
        try process.run()
        _ = ChildWatchdog(process, seconds: 120)
        return (process, out)
    }

    /// Reads a desk's `output` until `count` lines have come or it ends:
    /// how many came, and when the first and the last of them were read.
    @discardableResult
    public static func readLines(_ count: Int, from output: Pipe) throws -> (lines: Int, first: ContinuousClock.Instant?, last: ContinuousClock.Instant?) {
        var lines = 0
        var first: ContinuousClock.Instant?, last: ContinuousClock.Instant?
        var block = [UInt8](repeating: 0, count: 4096)
        while lines < count {
            // read(2), which gives what has come (FileHandle's read(upToCount:) waits for all of it,
            // and its availableData traps on an error).
            let got = block.withUnsafeMutableBytes { read(output.fileHandleForReading.fileDescriptor, $0.baseAddress, $0.count) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            if got == 0 { break }
            let now = ContinuousClock.now
            let more = block[..<got].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            if more > 0 {
                if first == nil { first = now }
                last = now
            }
            lines += more
        }
        return (lines, first, last)
    }

    /// Runs a desk and waits: its exit code and what it printed.
    @discardableResult
    public static func run(_ arguments: [String]) throws -> (status: Int32, out: String) {
        let (process, out) = try start(arguments)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// What desks racing to book said: who was told "booked", how many "full", and any other answer.
    public struct Race: Sendable {
        /// The members told "booked".
        public var booked: Set<String> = []
        /// How many were told the class is full.
        public var full = 0
        /// Any other answer: `member: status output`.
        public var other: [String] = []
    }

    /// Starts one desk a member, all at once, each booking its member into
    /// the desk gym's Yoga on `date` (`_BookDesk DB book MEMBER DATE`), and
    /// waits for them all.
    public static func race(on database: String, members: [String], date: String) throws -> Race {
        let desks = try members.map { member in (member, try start([database, "book", member, date])) }
        var race = Race()
        for (member, (process, out)) in desks {
            let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            switch (process.terminationStatus, said) {
            case (0, "booked\n"): race.booked.insert(member)
            case (3, let s) where s.contains("is full"): race.full += 1
            default: race.other.append("\(member): \(process.terminationStatus) \(said)")
            }
        }
        return race
    }

    /// The members holding a place on `date`, by the desk's `places` command.
    public static func places(on database: String, date: String) throws -> [String] {
        try run([database, "places"]).out.split(separator: "\n").filter { $0.hasSuffix(" \(date)") }.map { String($0.split(separator: " ")[0]) }
    }
}
