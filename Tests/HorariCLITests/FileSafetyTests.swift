import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 28, item 10, as a user meets it: a calendar reached through a
/// link stays a link, and its file gets the change.
@Suite("horari: a calendar file where it lives")
struct FileSafetyTests {
    static let add = ["add", "Lunch", "--start", "2026-11-24 14:00", "--minutes", "30"]

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
}
