import Foundation
import Testing

/// One calendar, one clock: the same calendar looks the same whatever the
/// machine's zone, and every command finds the same default calendar.
@Suite("horari: one calendar, one clock")
struct OneClockTests {
    @Test("the views of a calendar print the same under TZ=UTC, America/New_York and Asia/Tokyo")
    func viewsIgnoreTheMachineZone() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let views: [[String]] = [
            ["day", "2026-11-26"], ["week", "2026-11-26"], ["month", "2026-11"], ["list", "--from", "2026-11-23", "--limit", "5"],
            ["sessions", "list", "--coach", "marc", "--now", "2026-11-22 10:00"], ["classes", "timetable", "--week", "2026-11-26"],
            ["sessions", "free", "--coach", "marc", "--from", "2026-11-26", "--to", "2026-11-26", "--now", "2026-11-22 10:00"],
        ]
        for view in views {
            let args = view + ["--calendar", "$WORK/gym.ics"] + (view[0] == "sessions" || view[0] == "classes" ? [] : ["--color", "never", "--today", "2026-11-22"])
            let outputs = try ["UTC", "America/New_York", "Asia/Tokyo"].map { try runner.run(args, environment: ["TZ": $0]) }
            #expect(outputs[0].status == 0, "\(view): \(outputs[0].stderr)")
            #expect(outputs[1] == outputs[0] && outputs[2] == outputs[0], "\(view) differs between machine zones")
        }
        // The Madrid gym's Thursday Pilates is at 19:00 on its own clock, and the header says whose clock that is.
        let day = try runner.run(["day", "2026-11-26", "--calendar", "$WORK/gym.ics", "--color", "never"], environment: ["TZ": "UTC"])
        #expect(day.stdout.hasPrefix("Times in Europe/Madrid\n"))
        #expect(day.stdout.contains("19:00  • 19:00–19:50  Reformer Pilates"))
        // On the gym's own zone, no header.
        let home = try runner.run(["day", "2026-11-26", "--calendar", "$WORK/gym.ics", "--color", "never"], environment: ["TZ": "Europe/Madrid"])
        #expect(!home.stdout.contains("Times in"))
    }

    @Test("add writes to the default calendar, and list and month read it")
    func oneDefaultCalendar() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let none = try runner.run(["month", "2026-11"])
        #expect(none.status == 1)
        #expect(none.stderr == "Error: there is no calendar at \(runner.work.path)/data/horari/calendar.ics yet; start one with `horari add 'Title' --start 'YYYY-MM-DD HH:MM'`, or try `horari sample --write \(runner.work.path)/data/horari/calendar.ics`\n")
        let added = try runner.run(["add", "Essay", "--task", "--due", "2026-11-25 18:00", "--time-zone", "Europe/Madrid"])
        #expect(added.status == 0, "\(added.stderr)")
        let list = try runner.run(["list", "--from", "2026-11-20"])
        #expect(list.stdout.contains("Wed 2026-11-25  18:00       • Essay"), "\(list.stdout)")
        let month = try runner.run(["month", "2026-11", "--color", "never"])
        #expect(month.stdout.contains("2026-11-25 18:00  • Essay"))
        // The new calendar keeps the zone it was created on, on any machine.
        let tokyo = try runner.run(["list", "--from", "2026-11-20"], environment: ["TZ": "Asia/Tokyo"])
        #expect(tokyo.stdout == list.stdout)
        let file = try String(contentsOf: runner.work.appendingPathComponent("data/horari/calendar.ics"), encoding: .utf8)
        #expect(file.contains("X-WR-TIMEZONE:Europe/Madrid\r\n"))
        // Every command finds it: occurrences, validate and export too.
        #expect(try runner.run(["occurrences", "--from", "2026-11-01", "--to", "2026-11-30"]).stdout.contains("Essay"))
        #expect(try runner.run(["validate"]).status == 0)
        #expect(try runner.run(["export"]).stdout.contains("SUMMARY:Essay"))
    }

    @Test("a time printed with its abbreviation on the night the clocks go back is typed back as printed")
    func repeatedHourRoundTrip() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let cases: [(zone: String, typed: String, shown: String)] = [
            ("Europe/Madrid", "2026-10-25 02:30", "02:30 CET"), ("America/New_York", "2026-11-01 01:30", "01:30 EST"),
            ("Australia/Lord_Howe", "2026-04-05 01:45", "01:45 +1030"),
        ]
        for (i, c) in cases.enumerated() {
            let typed = c.typed + " " + c.shown.split(separator: " ")[1]
            let add = try runner.run(["add", "Late \(i)", "--start", typed, "--minutes", "10", "--id", "late-\(i)", "--time-zone", c.zone, "--calendar", "$WORK/gym.ics"])
            #expect(add.status == 0, "\(add.stderr)")
            #expect(add.stdout.contains(c.shown), "\(add.stdout)")
            let day = try runner.run(["day", String(c.typed.prefix(10)), "--time-zone", c.zone, "--calendar", "$WORK/gym.ics", "--color", "never"])
            #expect(day.stdout.contains(c.shown + "–"), "\(day.stdout)")
        }
        // The second 02:30 in Madrid is written as its UTC instant, 01:30Z.
        let file = String(decoding: runner.calendarBytes, as: UTF8.self)
        #expect(file.contains("DTSTART:20261025T013000Z\r\n"))
    }

    @Test("a free slot in the repeated hour is booked exactly as printed, kept in the file, and listed apart")
    func repeatedHourSession() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let cal = ["--calendar", "$WORK/gym.ics", "--now", "2026-10-01 10:00"]
        #expect(try runner.run(["coaches", "add", "nit", "--name", "Night Coach", "--hours", "SU 01:00-04:00"] + cal).status == 0)
        #expect(try runner.run(["clients", "add", "owl", "--coach", "nit", "--name", "Owl"] + cal).status == 0)
        let free = try runner.run(["sessions", "free", "--coach", "nit", "--from", "2026-10-25", "--to", "2026-10-25", "--minutes", "30"] + cal)
        let printed = free.stdout.split(separator: "\n").map(String.init)
        #expect(printed.contains("Sun 2026-10-25 02:00 CEST–02:30 CEST") && printed.contains("Sun 2026-10-25 02:00 CET–02:30 CET"), "\(free.stdout)")
        // Type back the second 02:00 exactly as printed (the start of the line, less the weekday).
        for (id, start) in [("late", "2026-10-25 02:00 CET"), ("early", "2026-10-25 02:00 CEST")] {
            let add = try runner.run(["sessions", "add", "--coach", "nit", "--client", "owl", "--start", start, "--minutes", "30", "--id", id] + cal)
            #expect(add.status == 0, "\(add.stderr)")
            #expect(add.stdout.contains("Sun \(start)–02:30 \(start.split(separator: " ").last ?? "")"), "\(add.stdout)")
        }
        let list = try runner.run(["sessions", "list", "--coach", "nit", "--color", "never"] + cal)
        #expect(list.stdout == "Times in Europe/Madrid\nSun 2026-10-25 02:00 CEST–02:30 CEST  • Owl  [early]\nSun 2026-10-25 02:00 CET–02:30 CET  • Owl  [late]\n")
        // The second is written as its UTC instant, and both slots are gone.
        #expect(String(decoding: runner.calendarBytes, as: UTF8.self).contains("UID:late\r\nDTSTAMP:20261001T080000Z\r\nDTSTART:20261025T010000Z\r\n"))
        let after = try runner.run(["sessions", "free", "--coach", "nit", "--from", "2026-10-25", "--to", "2026-10-25", "--minutes", "30"] + cal)
        #expect(!after.stdout.contains("02:00 CET–") && !after.stdout.contains("02:00 CEST–"), "\(after.stdout)")
    }

    @Test("the task planner's rules are stored in the calendar and enforced by every command")
    func taskPlannerRules() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let cal = ["--calendar", "$WORK/gym.ics"]
        #expect(try runner.run(["rules", "task-planner"] + cal).status == 0)
        let digit = try runner.run(["add", "5k run", "--start", "2026-11-24 10:00"] + cal)
        #expect(digit.status == 1)
        #expect(digit.stderr.contains("starts with a digit, which these rules do not allow; begin it with a letter"))
        let dateOnly = try runner.run(["add", "Read", "--task", "--due", "2026-11-24"] + cal)
        #expect(dateOnly.status == 1)
        #expect(dateOnly.stderr.contains("needs a date and a time"))
        #expect(try runner.run(["add", "Read chapter 5", "--task", "--due", "2026-11-24 20:00"] + cal).status == 0)
        let validate = try runner.run(["validate"] + cal)
        #expect(validate.stdout.contains("rules: task-planner"))
        #expect(try runner.run(["rules", "default"] + cal).status == 0)
        #expect(try runner.run(["add", "5k run", "--start", "2026-11-24 10:00"] + cal).status == 0)
        // Stricter rules are refused while items break them, naming them; the file is left as it was.
        let before = runner.calendarBytes
        let refused = try runner.run(["rules", "task-planner"] + cal)
        #expect(refused.status == 1 && refused.stderr.contains("5k run"))
        #expect(runner.calendarBytes == before)
    }
}
