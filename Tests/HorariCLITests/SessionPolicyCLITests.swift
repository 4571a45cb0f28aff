import Foundation
import Testing

/// Issue 43, 1: the rules sessions keep are the book's, shown and set with
/// `horari sessions policy` and kept in the calendar, not forced by the CLI.
@Suite("Session policy from the CLI")
struct SessionPolicyCLITests {
    @Test("the sample keeps the default rules; a past start is refused until the book allows it, and the file says so; the same on SQLite")
    func setAndKept() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        #expect(try runner.run(["import", "$WORK/gym.ics", "--into", "$WORK/gym.sqlite"]).status == 0)
        for calendar in ["$WORK/gym.ics", "$WORK/gym.sqlite"] {
            let at = ["--calendar", calendar, "--time-zone", "Europe/Madrid", "--now", "2026-11-25 12:00"]
            let past = ["sessions", "add", "--coach", "marc", "--client", "anna", "--start", "2026-11-24 10:00", "--id", "s-late"] + at
            let refused = try runner.run(past)
            #expect(refused.status == 1 && refused.stderr.contains("in the past"), "\(calendar): \(refused)")
            let shown = try runner.run(["sessions", "policy"] + at)
            #expect(shown.stdout.contains("A session that starts in the past: refused"), "\(shown)")
            let set = try runner.run(["sessions", "policy", "--past", "allow"] + at)
            #expect(set.status == 0 && set.stdout.contains("A session that starts in the past: allowed"), "\(set)")
            let taken = try runner.run(past)
            #expect(taken.status == 0, "\(calendar): \(taken)")
            // A notice counts from now (and a past start is then too soon as well).
            let notice = try runner.run(["sessions", "policy", "--notice", "90"] + at)
            #expect(notice.stdout.contains("Notice: 90 minutes before the start"), "\(notice)")
            let soon = try runner.run(["sessions", "add", "--coach", "marc", "--client", "pau", "--start", "2026-11-25 12:30"] + at)
            #expect(soon.status == 1 && soon.stderr.contains("less than 90 minutes from now"), "\(calendar): \(soon)")
            let bad = try runner.run(["sessions", "policy", "--past", "maybe"] + at)
            #expect(bad.status == 2 && bad.stderr.hasPrefix("Error: --past ‘maybe’: give refuse or allow\n"), "\(bad)")
        }
        let text = try CLIRunner.text(of: runner.work.appendingPathComponent("gym.ics")).replacingOccurrences(of: "\r\n ", with: "")
        #expect(text.contains("X-HORARI-SESSION-POLICY;X-HORARI-NOTICE=PT1H30M:WITHIN-HOURS\\,REFUSE-SKIPPED-TIMES\r\n"), "\(text.prefix(600))")
    }
}
