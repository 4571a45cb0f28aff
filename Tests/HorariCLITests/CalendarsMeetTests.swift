import Foundation
import Testing

/// Where one calendar meets another, or a record changes state, a calendar's
/// promises hold (issue 28): each test is one of the numbered wrong
/// results, run as its user runs it, under `TZ=Asia/Tokyo` where the clock matters.
@Suite("horari keeps a calendar's promises where calendars meet")
struct CalendarsMeetTests {
    /// The sample gym moved to Tokyo: the same file with every Madrid TZID
    /// and zone property naming Asia/Tokyo.
    static func tokyoGym(_ runner: CLIRunner) throws -> URL {
        let text = try String(contentsOf: CLIRunner.sample, encoding: .utf8).replacingOccurrences(of: "Europe/Madrid", with: "Asia/Tokyo")
        let url = runner.work.appendingPathComponent("tokyo-gym.ics")
        try Data(text.utf8).write(to: url)
        return url
    }

    static func write(_ text: String, _ name: String, in runner: CLIRunner) throws {
        try Data(text.utf8).write(to: runner.work.appendingPathComponent(name))
    }

    @Test("1. importing a Tokyo gym into a Madrid calendar keeps Madrid's clock and every zone property it has")
    func importKeepsTheClock() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let tokyo = ["TZ": "Asia/Tokyo"]
        _ = try Self.tokyoGym(runner)
        let added = try runner.run(["add", "Morning run", "--start", "2026-11-24 10:00", "--minutes", "60", "--time-zone", "Europe/Madrid", "--calendar", "$WORK/madrid.ics"], environment: tokyo)
        #expect(added.status == 0, "\(added.stderr)")
        let imported = try runner.run(["import", "$WORK/tokyo-gym.ics", "--into", "$WORK/madrid.ics"], environment: tokyo)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("X-HORARI-TIMEZONE"), "the file's zone is said as not taken: \(imported.stdout)")
        let text = try String(contentsOf: runner.work.appendingPathComponent("madrid.ics"), encoding: .utf8)
        #expect(text.contains("X-WR-TIMEZONE:Europe/Madrid\r\n"))
        #expect(!text.contains("X-HORARI-TIMEZONE:Asia/Tokyo"), "the target's clock moved to Tokyo")
        let list = try runner.run(["list", "--calendar", "$WORK/madrid.ics", "--from", "2026-11-24", "--limit", "40"], environment: tokyo)
        #expect(list.stdout.contains("Times in Europe/Madrid"), "\(list.stdout)")
        #expect(list.stdout.contains("10:00–11:00 • Morning run"), "the 10:00 item stays at 10:00: \(list.stdout)")
        // The next item typed is on Madrid's clock.
        #expect(try runner.run(["add", "Stretch", "--start", "2026-11-25 10:00", "--minutes", "30", "--id", "stretch", "--calendar", "$WORK/madrid.ics"], environment: tokyo).status == 0)
        let after = try String(contentsOf: runner.work.appendingPathComponent("madrid.ics"), encoding: .utf8)
        #expect(after.contains("DTSTART;TZID=Europe/Madrid:20261125T100000"), "\(after)")
    }

    static let ruleBreaker = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Horari tests//Rules//EN\r
        BEGIN:VEVENT\r
        UID:first-thing\r
        DTSTAMP:20261101T000000Z\r
        DTSTART;TZID=Europe/Madrid:20261130T100000\r
        DURATION:PT1H\r
        SUMMARY:1st thing\r
        COLOR:red\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:reading-group\r
        DTSTAMP:20261101T000000Z\r
        DTSTART;TZID=Europe/Madrid:20261201T100000\r
        DURATION:PT1H\r
        SUMMARY:Reading group\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test("2. an import meets the calendar's rules: refused per item with its line, the rest imported; --force takes it and validate names every rule it breaks")
    func importMeetsTheRules() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        try Self.write(Self.ruleBreaker, "in.ics", in: runner)
        #expect(try runner.run(["add", "Essay", "--task", "--due", "2026-11-27 18:00", "--time-zone", "Europe/Madrid", "--calendar", "$WORK/p.ics"]).status == 0)
        #expect(try runner.run(["rules", "task-planner", "--calendar", "$WORK/p.ics"]).status == 0)
        let before = try Data(contentsOf: runner.work.appendingPathComponent("p.ics"))
        let refused = try runner.run(["import", "$WORK/in.ics", "--into", "$WORK/p.ics"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("in.ics:4: refused ‘1st thing’"), "\(refused.stderr)")
        #expect(refused.stderr.contains("starts with a digit") && refused.stderr.contains("‘red’ is red"), "\(refused.stderr)")
        #expect(refused.stdout.contains("added 1,") && refused.stdout.contains("refused 1"), "\(refused.stdout)")
        let after = try String(contentsOf: runner.work.appendingPathComponent("p.ics"), encoding: .utf8)
        #expect(after.contains("UID:reading-group") && !after.contains("UID:first-thing"))
        #expect(try Data(contentsOf: runner.work.appendingPathComponent("p.ics")) != before)
        // Taken as written when asked, and then listed by validate, for both rules.
        let forced = try runner.run(["import", "$WORK/in.ics", "--into", "$WORK/p.ics", "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        let validate = try runner.run(["validate", "$WORK/p.ics"])
        #expect(validate.status == 1)
        #expect(validate.stdout.contains("‘first-thing’: the title ‘1st thing’ starts with a digit"), "\(validate.stdout)")
        #expect(validate.stdout.contains("‘first-thing’: ‘red’ is red"), "\(validate.stdout)")
        // A calendar that names no rules keeps the default ones: red is reserved there too.
        let plain = try runner.run(["import", "$WORK/in.ics", "--into", "$WORK/plain.ics"])
        #expect(plain.status == 1 && plain.stderr.contains("‘red’ is red") && !plain.stderr.contains("digit"), "\(plain.stderr)")
    }
}

extension CalendarsMeetTests {
    @Test("15. an import that drops something says so: a 1 MB EXDATE line not imported is counted, and the exit is 1 unless --force")
    func importThatDropsSaysSo() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        // Over the 1 MiB line limit: the property is left out, and its
        // excluded instances would come back without a word.
        let dates = (0..<80_000).map { String(format: "2026%02d%02dT100000", 1 + $0 % 12, 1 + $0 % 28) }.joined(separator: ",")
        let file = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//Horari tests//Long line//EN\r
            BEGIN:VEVENT\r
            UID:daily\r
            DTSTAMP:20261101T000000Z\r
            DTSTART:20260101T100000\r
            RRULE:FREQ=DAILY;COUNT=10\r
            EXDATE:\(dates)\r
            SUMMARY:Daily\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        try Self.write(file, "long.ics", in: runner)
        let imported = try runner.run(["import", "$WORK/long.ics", "--into", "$WORK/new.ics"])
        #expect(imported.status == 1, "\(imported.stderr)")
        #expect(imported.stdout.contains("not imported 1"), "\(imported.stdout)")
        #expect(imported.stderr.contains("could not be read"), "\(imported.stderr)")
        let forced = try runner.run(["import", "$WORK/long.ics", "--into", "$WORK/forced.ics", "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stdout.contains("not imported 1"), "\(forced.stdout)")
    }
}

extension CalendarsMeetTests {
    @Test("3. a coach's export imports into a readable calendar: that coach's book, with the coach and their clients")
    func coachExportReimports() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        #expect(try runner.run(["export", "$WORK/gym.ics", "--for", "coach", "marc", "--out", "$WORK/marc.ics"]).status == 0)
        let imported = try runner.run(["import", "$WORK/marc.ics", "--into", "$WORK/copy.ics"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let sessions = try runner.run(["sessions", "list", "--coach", "marc", "--calendar", "$WORK/copy.ics", "--now", "2026-11-22 10:00"])
        #expect(sessions.status == 0, "\(sessions.stderr)")
        #expect(sessions.stdout.contains("Anna Puig") && sessions.stdout.contains("Pau Ferrer"), "\(sessions.stdout)")
        let clients = try runner.run(["clients", "list", "--coach", "marc", "--calendar", "$WORK/copy.ics"])
        #expect(clients.stdout.contains("anna\tAnna Puig"), "\(clients.stdout)\(clients.stderr)")
        let validate = try runner.run(["validate", "$WORK/copy.ics"])
        #expect(validate.status == 0, "\(validate.stdout)")
        // Nothing of the other coach, nor of the members, came along.
        let text = try String(contentsOf: runner.work.appendingPathComponent("marc.ics"), encoding: .utf8)
        #expect(!text.contains("laia") && !text.contains("Marta Roig"))
        // Imported back into the gym, nothing changes.
        let back = try runner.run(["import", "$WORK/marc.ics", "--into", "$WORK/gym.ics"])
        #expect(back.stdout.hasPrefix("added 0, updated 0, unchanged 3,"), "\(back.stdout)")
    }

    @Test("4. a member's export imported back into the gym merges into the classes: no second Yoga, no red day")
    func memberExportReimports() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let before = try runner.run(["week", "2026-11-23", "--calendar", "$WORK/gym.ics", "--format", "json"])
        #expect(before.status == 0 && before.stdout.contains("\"Yoga\""), "\(before.stderr)")
        #expect(try runner.run(["export", "$WORK/gym.ics", "--for", "member", "marta", "--out", "$WORK/marta.ics"]).status == 0)
        let imported = try runner.run(["import", "$WORK/marta.ics", "--into", "$WORK/gym.ics"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("added 0,") && imported.stdout.contains("merged 3 class occurrences"), "\(imported.stdout)")
        let after = try runner.run(["week", "2026-11-23", "--calendar", "$WORK/gym.ics", "--format", "json"])
        #expect(after.stdout == before.stdout, "the week is as it was")
        // Into a calendar without the gym's classes (her own), they are her events, once however often:
        // Yoga's two dates are two instances of one UID, as her invitations name them (issue 41, 2).
        #expect(try runner.run(["import", "$WORK/marta.ics", "--into", "$WORK/mine.ics"]).stdout.hasPrefix("added 2,"))
        #expect(try runner.run(["import", "$WORK/marta.ics", "--into", "$WORK/mine.ics"]).stdout.hasPrefix("added 0, updated 0, unchanged 2,"))
    }
}

extension CalendarsMeetTests {
    @Test("5. a cancelled session is marked in day, list, week and occurrences, and never makes its day red")
    func cancelledSessionIsMarked() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        // Thursday 26: Anna's session and Reformer Pilates, a red day.
        let red = try runner.run(["week", "2026-11-26", "--calendar", "$WORK/gym.ics"])
        #expect(red.stdout.contains("Thursday  26  Several items (2)"), "\(red.stdout)")
        #expect(try runner.run(["sessions", "cancel", "s-anna-1126", "--coach", "marc", "--calendar", "$WORK/gym.ics"]).status == 0)
        let week = try runner.run(["week", "2026-11-26", "--calendar", "$WORK/gym.ics"])
        #expect(week.stdout.contains("Thursday  26  • 19:00–19:50  Reformer Pilates  [pilates]  ✗ 1 cancelled"), "\(week.stdout)")
        let day = try runner.run(["day", "2026-11-26", "--calendar", "$WORK/gym.ics"])
        #expect(day.stdout.contains("✗ Training: Anna Puig (cancelled)"), "\(day.stdout)")
        let list = try runner.run(["list", "--calendar", "$WORK/gym.ics", "--from", "2026-11-26", "--limit", "2"])
        #expect(list.stdout.contains("✗ Training: Anna Puig (cancelled)"), "\(list.stdout)")
        let occurrences = try runner.run(["occurrences", "$WORK/gym.ics", "--from", "2026-11-26", "--to", "2026-11-26"])
        #expect(occurrences.stdout.contains("Training: Anna Puig  [cancelled]"), "\(occurrences.stdout)")
        // The month marks the day with Pilates' colour, not red; its JSON says which is cancelled.
        let month = try runner.run(["month", "2026-11", "--calendar", "$WORK/gym.ics", "--format", "json"])
        #expect(month.status == 0, "\(month.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(month.stdout.utf8)) as? [String: Any]
        let weeks = json?["weeks"] as? [[String: Any]] ?? []
        let days = weeks.flatMap { $0["days"] as? [[String: Any]] ?? [] }
        let thursday = days.first { $0["date"] as? String == "2026-11-26" }
        let marker = thursday?["marker"] as? [String: Any]
        #expect(marker?["kind"] as? String == "single", "\(String(describing: thursday))")
        let dayJSON = try runner.run(["day", "2026-11-26", "--calendar", "$WORK/gym.ics", "--format", "json"])
        #expect(dayJSON.stdout.contains("\"cancelled\" : true") || dayJSON.stdout.contains("\"cancelled\":true") || dayJSON.stdout.contains("\"cancelled\": true"), "\(dayJSON.stdout)")
    }
}

extension CalendarsMeetTests {
    @Test("6. a session three days ahead is not marked completed; a mark is undone with --status scheduled")
    func marksOnlyOnceStarted() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let before = try Data(contentsOf: runner.work.appendingPathComponent("gym.ics"))
        let early = try runner.run(["sessions", "mark", "s-anna-1126", "--coach", "marc", "--status", "completed", "--calendar", "$WORK/gym.ics", "--now", "2026-11-23 10:00"])
        #expect(early.status == 1)
        #expect(early.stderr.contains("session ‘s-anna-1126’ starts Thu 2026-11-26 17:00; it can be marked completed or no-show once it has started"), "\(early.stderr)")
        #expect(try Data(contentsOf: runner.work.appendingPathComponent("gym.ics")) == before)
        let done = try runner.run(["sessions", "mark", "s-anna-1126", "--coach", "marc", "--status", "completed", "--calendar", "$WORK/gym.ics", "--now", "2026-11-26 18:00"])
        #expect(done.status == 0, "\(done.stderr)")
        let undone = try runner.run(["sessions", "mark", "s-anna-1126", "--coach", "marc", "--status", "scheduled", "--calendar", "$WORK/gym.ics", "--now", "2026-11-26 18:00"])
        #expect(undone.stdout == "Session s-anna-1126 is scheduled again (it was completed).\n", "\(undone.stdout)\(undone.stderr)")
        let list = try runner.run(["sessions", "list", "--coach", "marc", "--calendar", "$WORK/gym.ics", "--now", "2026-11-23 10:00"])
        #expect(list.stdout.contains("[s-anna-1126]"), "\(list.stdout)")
    }

    @Test("8. a folder of whole calendars is refused, and a calendar in a folder that does not exist makes no folder")
    func foldersThatAreNotCalendars() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let folder = runner.work.appendingPathComponent("somedir")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: runner.work.appendingPathComponent("gym.ics"), to: folder.appendingPathComponent("gym.ics"))
        try FileManager.default.copyItem(at: try Self.tokyoGym(runner), to: folder.appendingPathComponent("club.ics"))
        for command in [["month", "2026-11", "--calendar", "$WORK/somedir"], ["add", "Lunch", "--start", "2026-11-24 14:00", "--calendar", "$WORK/somedir"]] {
            let out = try runner.run(command)
            #expect(out.status == 1 && out.stderr.contains("holds 2 whole calendars"), "\(command[0]): \(out.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["club.ics", "gym.ics"])
        let nope = try runner.run(["add", "Lunch", "--start", "2026-11-24 14:00", "--calendar", "$WORK/nope/missing.ics"])
        #expect(nope.status == 1 && nope.stderr.contains("there is no folder"), "\(nope.stderr)")
        #expect(!FileManager.default.fileExists(atPath: runner.work.appendingPathComponent("nope").path))
        // The default calendar's own folder is still made.
        #expect(try runner.run(["add", "Lunch", "--start", "2026-11-24 14:00"]).status == 0)
    }
}

extension CalendarsMeetTests {
    @Test("16. a class occurrence is not moved onto another occurrence of its class, even one moved there; the file is left as it was")
    func moveOntoAnotherOccurrence() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let before = try Data(contentsOf: runner.work.appendingPathComponent("gym.ics"))
        // The sample's Wednesday Yoga of 2026-11-25 is moved to 19:30.
        let onto = try runner.run(["classes", "move", "yoga", "--date", "2026-11-23", "--start", "2026-11-25 19:45", "--calendar", "$WORK/gym.ics"])
        #expect(onto.status == 1)
        #expect(onto.stderr.contains("Yoga of 2026-11-23 cannot move there: the Yoga of 2026-11-25 is on then (Wed 2026-11-25 19:30–20:30)"), "\(onto.stderr)")
        #expect(try Data(contentsOf: runner.work.appendingPathComponent("gym.ics")) == before)
        // Where the series would have put it (18:30), the moved occurrence is not: that fits.
        let free = try runner.run(["classes", "move", "yoga", "--date", "2026-11-23", "--start", "2026-11-25 18:15", "--minutes", "60", "--calendar", "$WORK/gym.ics"])
        #expect(free.status == 0, "\(free.stderr)")
    }
}

extension CalendarsMeetTests {
    @Test("9. another coach's client by the same ID is not revealed: laia adds her own ‘anna’, and each coach sees only theirs")
    func clientIDsAreEachCoachsOwn() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let added = try runner.run(["clients", "add", "anna", "--name", "Anna Vidal", "--coach", "laia", "--calendar", "$WORK/gym.ics"])
        #expect(added.status == 0 && !added.stderr.contains("exists"), "\(added.stderr)")
        let laia = try runner.run(["clients", "list", "--coach", "laia", "--calendar", "$WORK/gym.ics"])
        #expect(laia.stdout.contains("anna\tAnna Vidal") && !laia.stdout.contains("Anna Puig"), "\(laia.stdout)")
        let marc = try runner.run(["clients", "list", "--coach", "marc", "--calendar", "$WORK/gym.ics"])
        #expect(marc.stdout.contains("anna\tAnna Puig") && !marc.stdout.contains("Anna Vidal"), "\(marc.stdout)")
        #expect(try runner.run(["sessions", "add", "--coach", "laia", "--client", "anna", "--start", "2026-11-30 10:00", "--minutes", "45", "--calendar", "$WORK/gym.ics", "--now", "2026-11-22 10:00"]).status == 0)
        let history = try runner.run(["sessions", "history", "--client", "anna", "--coach", "laia", "--calendar", "$WORK/gym.ics"])
        #expect(history.stdout.contains("Anna Vidal") && !history.stdout.contains("Anna Puig"), "\(history.stdout)")
        #expect(try runner.run(["validate", "$WORK/gym.ics"]).status == 0)
    }
}

extension CalendarsMeetTests {
    @Test("18. coaches, clients and members: listed, edited and removed, each change said; an edit that changes nothing writes nothing")
    func weeklyUpkeepOfPeople() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let gym = runner.work.appendingPathComponent("gym.ics")
        func run(_ arguments: [String]) throws -> CLIRunner.Output { try runner.run(arguments + ["--calendar", "$WORK/gym.ics", "--now", "2026-11-22 10:00"]) }
        let coaches = try run(["coaches", "list"])
        #expect(coaches.stdout.hasPrefix("laia\tLaia Vidal\tlaia@gym.example\tbuffer 0 min\tMO 08:00-14:00, WE 08:00-14:00, FR 08:00-14:00\n"), "\(coaches.stdout)")
        #expect(try run(["coaches", "edit", "marc", "--buffer", "15"]).stdout == "Coach marc: buffer ‘10 min’ → ‘15 min’.\n")
        let before = try Data(contentsOf: gym)
        #expect(try run(["coaches", "edit", "marc", "--buffer", "15"]).stdout == "Coach marc: nothing changed.\n")
        #expect(try Data(contentsOf: gym) == before, "an edit that changes nothing wrote the file")
        let laia = try run(["coaches", "remove", "laia", "--yes"])
        #expect(laia.status == 1 && laia.stderr.contains("coach ‘laia’ still has 1 client"), "\(laia.stderr)")
        #expect(try run(["clients", "edit", "anna", "--coach", "marc", "--name", "Anna P."]).stdout == "Client anna of coach marc: name ‘Anna Puig’ → ‘Anna P.’.\n")
        #expect(try run(["clients", "remove", "pau", "--coach", "marc", "--yes"]).stdout == "Removed client pau (Pau Ferrer) of coach marc, and 1 session: s-pau-1124.\n")
        // Another coach's client is as unknown as one that does not exist.
        #expect(try run(["clients", "remove", "anna", "--coach", "laia", "--yes"]).stderr.contains("coach ‘laia’ has no client ‘anna’"))
        #expect(try run(["members", "list"]).stdout.hasPrefix("aina\tAina Soler\tno e-mail\n"))  // no column that disappears (issue 43, 13)
        #expect(try run(["members", "edit", "marta", "--email", "marta.r@example.com"]).stdout == "Member marta: e-mail ‘none’ → ‘marta.r@example.com’.\n")
        let removed = try run(["members", "remove", "marta", "--yes"])
        #expect(removed.stdout.contains("pilates on 2026-11-26: their place is given up; aina moves up from the waitlist"), "\(removed.stdout)")
        // Without a terminal, a removal needs --yes, and nothing changes.
        let asked = try run(["members", "remove", "quim"])
        #expect(asked.status == 1 && asked.stderr.contains("add --yes"))
        let validate = try runner.run(["validate", "$WORK/gym.ics"])
        #expect(validate.status == 0, "\(validate.stdout)")
    }
}

extension CalendarsMeetTests {
    @Test("20. one occurrence, or this and the following, of a repeating event: edited or deleted as every calendar client offers")
    func oneOccurrenceOrTheFollowing() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        func run(_ arguments: [String]) throws -> CLIRunner.Output { try runner.run(arguments + ["--calendar", "$WORK/r.ics"], environment: ["TZ": "Asia/Tokyo"]) }
        func list() throws -> [String] {
            try run(["list", "--from", "2026-11-01", "--limit", "20"]).stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }.map { String($0.dropFirst(2)) }
        }
        #expect(try run(["add", "Standup", "--start", "2026-11-02 09:00", "--minutes", "15", "--repeat", "FREQ=WEEKLY;BYDAY=MO;COUNT=10", "--time-zone", "Europe/Madrid", "--id", "standup"]).status == 0)
        let one = try run(["edit", "standup", "--occurrence", "2026-11-30", "--start", "2026-11-30 10:00"])
        #expect(one.stdout.contains("Changed one occurrence of ‘Standup’: event ‘Standup’ (Mon 2026-11-30 09:00–09:15 Europe/Madrid)\n     to event ‘Standup’ (Mon 2026-11-30 10:00–10:15 Europe/Madrid)"), "\(one.stdout)\(one.stderr)")
        let deleted = try run(["delete", "standup", "--occurrence", "2026-11-16", "--yes"])
        #expect(deleted.stdout == "Deleted the occurrence of ‘Standup’ on Mon 2026-11-16 09:00 Europe/Madrid; the rest of the series is as it was.\n", "\(deleted.stdout)\(deleted.stderr)")
        let wrong = try run(["delete", "standup", "--occurrence", "2026-12-01", "--yes"])
        #expect(wrong.status == 1 && wrong.stderr.contains("‘Standup’ has no occurrence on 2026-12-01; near it: 2026-11-30 09:00"), "\(wrong.stderr)")
        let following = try run(["edit", "standup", "--occurrence", "2026-12-14", "--and-following", "--start", "2026-12-14 08:30"])
        #expect(following.status == 0, "\(following.stderr)")
        // Ten Mondays in all, the 16th deleted, the 30th at 10:00, from the 14th at 08:30 (a new series).
        #expect(try list() == [
            "Mon 2026-11-02  09:00–09:15 • Standup  [standup]", "Mon 2026-11-09  09:00–09:15 • Standup  [standup]",
            "Mon 2026-11-23  09:00–09:15 • Standup  [standup]", "Mon 2026-11-30  10:00–10:15 • Standup  [standup]",
            "Mon 2026-12-07  09:00–09:15 • Standup  [standup]", "Mon 2026-12-14  08:30–08:45 • Standup  [standup_]",
            "Mon 2026-12-21  08:30–08:45 • Standup  [standup_]", "Mon 2026-12-28  08:30–08:45 • Standup  [standup_]",
            "Mon 2027-01-04  08:30–08:45 • Standup  [standup_]",
        ])
        let ended = try run(["delete", "standup_R20261214T090000", "--occurrence", "2026-12-28", "--and-following", "--yes"])
        #expect(ended.stdout.contains("the series ends before it"), "\(ended.stdout)\(ended.stderr)")
        #expect(try list().count == 7)
        #expect(try runner.run(["validate", "$WORK/r.ics"]).status == 0)
    }
}

extension CalendarsMeetTests {
    @Test("19. a class changed from a date on, and one ended: earlier dates kept, bookings that no longer fit released and listed")
    func classChangesFromADate() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        func run(_ arguments: [String]) throws -> CLIRunner.Output { try runner.run(arguments + ["--calendar", "$WORK/gym.ics", "--now", "2026-11-22 10:00"]) }
        let changed = try run(["classes", "change", "yoga", "--from", "2026-11-25", "--time", "19:00", "--days", "MO"])
        #expect(changed.stdout == """
            Changed yoga from 2026-11-30 on: MO 19:00–20:00, 12 places, Sala 2, Laia Vidal.
            Its earlier dates are kept as yoga-until-20261124.
            Released:
              yoga on 2026-11-25: tell marta their place is gone

            """, "\(changed.stdout)\(changed.stderr)")
        let fewer = try run(["classes", "change", "pilates", "--from", "2026-11-26", "--capacity", "2"])
        #expect(fewer.stdout.contains("pilates on 2026-11-26: tell nuria, pol their place is gone"), "\(fewer.stdout)")
        let ended = try run(["classes", "end", "spin", "--on", "2026-11-20"])
        #expect(ended.stdout.contains("spin on 2026-11-27: tell oriol, pol, aina their place is gone"), "\(ended.stdout)")
        // The timetable from now on, and the file reads back whole.
        let timetable = try run(["classes", "timetable"])
        #expect(timetable.stdout == """
            Times in Europe/Madrid
            Monday
              18:30–19:30  Yoga  (12 places, Sala 2, Laia Vidal, until 2026-11-23)  [yoga-until-20261124]
              19:00–20:00  Yoga  (12 places, Sala 2, Laia Vidal, from 2026-11-30)  [yoga]
            Thursday
              19:00–19:50  Reformer Pilates  (2 places, Sala 1, Marc Soler, from 2026-11-26)  [pilates]

            """, "\(timetable.stdout)")
        // Once the earlier part has met for the last time, it is off the timetable.
        let later = try runner.run(["classes", "timetable", "--calendar", "$WORK/gym.ics", "--now", "2026-11-28 10:00"])
        #expect(later.stdout.hasPrefix("Times in Europe/Madrid\nMonday\n  19:00–20:00  Yoga  (12 places, Sala 2, Laia Vidal, from 2026-11-30)  [yoga]\nThursday\n"), "\(later.stdout)")
        #expect(try runner.run(["validate", "$WORK/gym.ics"]).status == 0)
        let nothing = try run(["classes", "change", "yoga", "--from", "2026-12-01"])
        #expect(nothing.status == 2 && nothing.stderr.contains("nothing to change"))
    }

    @Test("list --format json pages both ways: nextPage with --page, previousPage with --before back to the page before; the first page has none (issue 41, 7)")
    func jsonPagesBothWays() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        func page(_ arguments: [String]) throws -> (starts: [String], next: String?, previous: String?) {
            let r = try runner.run(["list", "--calendar", "$WORK/gym.ics", "--limit", "3", "--format", "json"] + arguments)
            #expect(r.status == 0, "\(r.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let starts = (json["sections"] as? [[String: Any]] ?? []).flatMap { $0["occurrences"] as? [[String: Any]] ?? [] }.compactMap { $0["start"] as? String }
            return (starts, json["nextPage"] as? String, json["previousPage"] as? String)
        }
        let first = try page(["--from", "2020-01-01"])
        #expect(first.starts.count == 3 && first.previous == nil, "\(first)")
        let second = try page(["--page", try #require(first.next)])
        #expect(second.starts.count == 3 && Set(second.starts).isDisjoint(with: first.starts), "\(second)")
        let back = try page(["--before", try #require(second.previous)])
        #expect(back.starts == first.starts, "\(back.starts) is not \(first.starts)")
        let both = try runner.run(["list", "--calendar", "$WORK/gym.ics", "--before", try #require(second.previous), "--page", try #require(first.next)])
        #expect(both.status == 2 && both.stderr.contains("--before goes alone"), "\(both.stderr)")
    }

}
