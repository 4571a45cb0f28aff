import Foundation
import Testing
import _CalendarTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 28, items 7, 10 and 17, as a user meets them: a read-only
/// calendar is refused and left as it was, a calendar reached through a
/// link stays a link and its file gets the change, and what a killed
/// `horari` left beside a calendar goes with the next change.
@Suite("horari: a calendar file where it lives")
struct FileSafetyTests {
    static let add = ["add", "Lunch", "--start", "2026-11-24 14:00", "--minutes", "30"]

    private func inode(_ path: String) -> UInt64 {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_ino) : 0
    }

    /// `mode & 0o222 == 0` is read-only for root too, so this runs the
    /// same as root (in CI) as for anyone.
    @Test("a calendar marked read-only, in a writable folder, is refused and left byte for byte")
    func readOnlyFile() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let calendar = runner.work.appendingPathComponent("gym.ics").path
        chmod(calendar, 0o444)
        let before = runner.calendarBytes, node = inode(calendar)
        try runner.expectGolden("add-read-only-refused", Self.add + ["--calendar", "$WORK/gym.ics"])
        // A booking writes through the splice, not the whole-file change: refused all the same.
        let book = try runner.run(["book", "--member", "aina", "--class", "yoga", "--date", "2026-11-23", "--calendar", "$WORK/gym.ics", "--now", "2026-11-22 10:00"])
        #expect(book.status == 1)
        #expect(book.stderr.contains("gym.ics is read-only"), "\(book.stderr)")
        #expect(runner.calendarBytes == before)
        #expect(inode(calendar) == node, "the calendar was replaced by another file")
        #expect(try FileManager.default.contentsOfDirectory(atPath: runner.work.path).filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    /// As root, the folder is made read-only for `nobody` (uid 65534), who
    /// runs horari through util-linux's `setpriv` and owns the calendar.
    @Test("a calendar in a folder that cannot be written: the message names the calendar and its folder, not a temporary file")
    func readOnlyFolder() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let folder = runner.work.appendingPathComponent("ro")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let calendar = folder.appendingPathComponent("gym.ics")
        try FileManager.default.copyItem(at: runner.work.appendingPathComponent("gym.ics"), to: calendar)
        let asRoot = getuid() == 0
        if asRoot {
            chmod(runner.work.path, 0o755)
            #expect(chown(calendar.path, 65534, 65534) == 0)
        }
        chmod(folder.path, 0o555)
        defer { chmod(folder.path, 0o755) }
        let before = try Data(contentsOf: calendar)
        let command = (Self.add + ["--calendar", calendar.path]).map { "'\($0)'" }.joined(separator: " ")
        let output = try runner.run([], shell: (asRoot ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "") + "'\(CLIRunner.binary.path)' \(command)")
        #expect(output.status == 1)
        #expect(output.stderr.contains("\(calendar.path) cannot be changed: its folder \(folder.path) cannot be written (Permission denied)"), "\(output.stderr)")
        #expect(!output.stderr.contains(".tmp"), "the message names a temporary file: \(output.stderr)")
        #expect(try Data(contentsOf: calendar) == before)
    }

    @Test("a calendar reached through a link: the change goes to the file it leads to, and the link stays")
    func throughALink() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let real = runner.work.appendingPathComponent("real"), link = runner.work.appendingPathComponent("link")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: link, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: runner.work.appendingPathComponent("gym.ics"), to: real.appendingPathComponent("gym.ics"))
        try FileManager.default.createSymbolicLink(atPath: link.appendingPathComponent("gym.ics").path, withDestinationPath: "../real/gym.ics")
        let first = try runner.run(Self.add + ["--calendar", "link/gym.ics"])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try runner.run(["add", "Dinner", "--start", "2026-11-24 20:00", "--minutes", "60", "--calendar", "$WORK/link/gym.ics"])
        #expect(second.status == 0, "\(second.stderr)")
        let book = try runner.run(["book", "--member", "aina", "--class", "yoga", "--date", "2026-11-23", "--calendar", "link/gym.ics", "--now", "2026-11-22 10:00"])
        #expect(book.status == 0, "\(book.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.appendingPathComponent("gym.ics").path) == "../real/gym.ics", "the link was replaced")
        let day = try runner.run(["day", "2026-11-24", "--calendar", "real/gym.ics", "--color", "never"])
        #expect(day.stdout.contains("Lunch") && day.stdout.contains("Dinner"), "\(day.stdout)")
        let roster = try runner.run(["book", "--member", "aina", "--list", "--calendar", "real/gym.ics", "--now", "2026-11-22 10:00"])
        #expect(roster.stdout.contains("Mon 2026-11-23 18:30–19:30  Yoga  booked"), "\(roster.stdout)\(roster.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: link.path) == ["gym.ics"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: real.path) == ["gym.ics"])
    }

    @Test("what a killed horari left beside the calendar goes with the next change; a live process's stays")
    func staleTemporaries() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let dead = try deadProcessID()
        let stale = ".gym.ics.\(dead).3141592.tmp", live = ".gym.ics.\(getpid()).2718281.tmp", other = ".planner.ics.\(dead).1.tmp"
        for name in [stale, live, other] { try runner.calendarBytes.write(to: runner.work.appendingPathComponent(name)) }
        let output = try runner.run(Self.add + ["--calendar", "$WORK/gym.ics"])
        #expect(output.status == 0, "\(output.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: runner.work.path).filter { $0.hasSuffix(".tmp") }.sorted()
        #expect(left == [live, other].sorted())
    }
}
