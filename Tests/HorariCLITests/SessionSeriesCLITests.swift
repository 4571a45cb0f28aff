import Foundation
import Testing

/// `sessions add --repeat`, and `sessions move|cancel --and-following`
/// (issue 44, 1), on a scratch copy of the sample gym.
@Suite("horari sessions: repeating sessions, this and following")
struct SessionSeriesCLITests {
    let work = ["--calendar", "$WORK/gym.ics", "--now", "2026-11-22 10:00"]

    func sessions(_ runner: CLIRunner) throws -> [[String: Any]] {
        let out = try runner.run(["sessions", "list", "--coach", "marc", "--format", "json", "--limit", "50"] + work)
        let page = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        return (page["sessions"] as? [[String: Any]]) ?? []
    }

    @Test("a series is booked, kept in the calendar, moved and cancelled from a date on; the earlier dates stay")
    func series() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let added = try runner.run(["sessions", "add", "--coach", "marc", "--client", "anna", "--start", "2026-12-01 18:00",
                                    "--repeat", "FREQ=WEEKLY;COUNT=6", "--id", "anna-tue", "--location", "Gimnàs Sants"] + work)
        #expect(added.status == 0 && added.stdout.hasPrefix("Booked 6 of 6 sessions of series anna-tue: anna with marc.\n"), "\(added)")
        let file = try String(contentsOf: runner.work.appendingPathComponent("gym.ics"), encoding: .utf8)
        #expect(file.components(separatedBy: "X-HORARI-SERIES:anna-tue\r\n").count == 7, "each session names its series in the calendar")
        #expect(try sessions(runner).filter { $0["series"] as? String == "anna-tue" }.count == 6)

        let moved = try runner.run(["sessions", "move", "anna-tue-20261215", "--coach", "marc", "--start", "2026-12-16 19:00", "--and-following"] + work)
        #expect(moved.status == 0 && moved.stdout.contains("Moved 4 of 4 sessions from anna-tue-20261215 on:")
                && moved.stdout.contains("  anna-tue-20270105  Wed 2027-01-06 19:00–20:00 Europe/Madrid"), "\(moved)")
        let cancelled = try runner.run(["sessions", "cancel", "anna-tue-20261229", "--coach", "marc", "--and-following"] + work)
        #expect(cancelled.status == 0 && cancelled.stdout == "Cancelled 2 sessions: anna-tue-20261229, anna-tue-20270105.\n", "\(cancelled)")
        let all = try sessions(runner).filter { $0["series"] as? String == "anna-tue" }
        #expect(all.map { $0["start"] as? String ?? "" } == ["2026-12-01T18:00:00+01:00", "2026-12-08T18:00:00+01:00",
                                                             "2026-12-16T19:00:00+01:00", "2026-12-23T19:00:00+01:00"],
                "the list shows those still scheduled: \(all)")

        let alone = try runner.run(["sessions", "cancel", "s-anna-1126", "--coach", "marc", "--and-following"] + work)
        #expect(alone.status == 1 && alone.stderr.contains("was booked alone"), "\(alone)")
        let styled = try runner.run(["sessions", "move", "anna-tue-20261201", "--coach", "marc", "--start", "2026-12-02 18:00", "--and-following", "--type", "Strength"] + work)
        #expect(styled.status == 2, "\(styled)")
    }

    @Test("a session may not take the UID of the calendar's own event: refused, the calendar as it was")
    func uidTaken() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        #expect(try runner.run(["add", "Dentist", "--start", "2026-12-01 09:00", "--id", "anna-tue-20261201"] + work).status == 0)
        let file = runner.work.appendingPathComponent("gym.ics")
        let before = try Data(contentsOf: file)
        for args in [["--repeat", "FREQ=WEEKLY;COUNT=2", "--id", "anna-tue"], ["--id", "anna-tue-20261201"]] {
            let out = try runner.run(["sessions", "add", "--coach", "marc", "--client", "anna", "--start", "2026-12-01 18:00"] + args + work)
            #expect(out.status == 1 && out.stderr.contains("with ID ‘anna-tue-20261201’ already exists"), "\(out)")
            #expect(try Data(contentsOf: file) == before)
        }
    }
}
