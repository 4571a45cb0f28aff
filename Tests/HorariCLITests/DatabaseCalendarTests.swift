import Foundation
import _CalendarTestSupport
import Testing

/// `--calendar gym.sqlite` (issue 40, 2 and 7): the sample gym moved into a
/// database reads the same in every view, books the same, gives back an
/// equivalent calendar, keeps its records from an import, commits a
/// change's messages with it, and refuses a file that is not its own.
@Suite("horari on a database calendar")
struct DatabaseCalendarTests {
    static let now = ["--now", "2026-11-10 10:00"]

    /// A runner whose `gym.sqlite` holds the sample (imported from its
    /// `gym.ics`), with a reminder another program put on the Pilates class.
    static func runnerWithDatabase() throws -> CLIRunner {
        let runner = try CLIRunner()
        let gym = runner.work.appendingPathComponent("gym.ics")
        let text = try CLIRunner.text(of: gym)
        let reminded = text.replacingOccurrences(of: "BEGIN:VEVENT\r\nUID:pilates\r\nDTSTAMP:20261112T180000Z\r\nDTSTART;TZID=Europe/Madrid:20260903T190000\r\nDURATION:PT50M\r\n",
            with: "BEGIN:VEVENT\r\nUID:pilates\r\nDTSTAMP:20261112T180000Z\r\nDTSTART;TZID=Europe/Madrid:20260903T190000\r\nDURATION:PT50M\r\n"
                + "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Bring a towel\r\nTRIGGER:-PT2H\r\nEND:VALARM\r\n")
        #expect(reminded != text)
        try Data(reminded.utf8).write(to: gym)
        let imported = try runner.run(["import", "$WORK/gym.ics", "--into", "$WORK/gym.sqlite"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("added 13,"), "\(imported.stdout)")
        return runner
    }

    @Test("every view reads the same from the database as from the file", arguments: [
        ["month", "2026-11"], ["week", "2026-11-26"], ["day", "2026-11-26"], ["list", "--from", "2026-11-01"],
        ["classes", "timetable", "--week", "2026-11-26"] + now, ["occurrences", "--from", "2026-11-01", "--to", "2026-12-30"],
        ["sessions", "list", "--coach", "marc"] + now, ["members", "list"], ["book", "--member", "marta", "--list"] + now,
        ["month", "2026-11", "--format", "json"],
        ["alarms", "--from", "2026-11-23", "--to", "2026-11-29", "--member", "marta"] + now,
    ])
    func viewsAgree(_ view: [String]) throws {
        let runner = try Self.runnerWithDatabase()
        defer { runner.cleanUp() }
        let file = try runner.run(view + ["--calendar", "$WORK/gym.ics"])
        let database = try runner.run(view + ["--calendar", "$WORK/gym.sqlite"])
        #expect(file.status == 0, "\(file.stderr)")
        #expect(database == file)
        if view.first == "alarms" { #expect(file.stdout.contains("Bring a towel"), "\(file.stdout)") }
    }

    @Test("a reminder another program put on a class survives a booking and an edit made on the database")
    func foreignDataStays() throws {
        let runner = try Self.runnerWithDatabase()
        defer { runner.cleanUp() }
        let db = ["--calendar", "$WORK/gym.sqlite"]
        #expect(try runner.run(["book", "--member", "quim", "--class", "pilates", "--date", "2026-12-03"] + db + Self.now).status == 0)
        #expect(try runner.run(["add", "Boiler check", "--start", "2026-12-02 08:00", "--minutes", "30"] + db).status == 0)
        #expect(try runner.run(["classes", "policy", "--window", "60"] + db + Self.now).status == 0)
        let alarms = try runner.run(["alarms", "--from", "2026-11-30", "--to", "2026-12-06", "--member", "quim"] + db + Self.now)
        #expect(alarms.stdout.contains("Bring a towel"), "\(alarms.stdout)\(alarms.stderr)")
    }

    @Test("a message that cannot be sent yet stays owed, the change is made, and horari outbox sends it once it can")
    func staysOwed() throws {
        let runner = try Self.runnerWithDatabase()
        defer { runner.cleanUp() }
        let db = ["--calendar", "$WORK/gym.sqlite"]
        #expect(try runner.run(["coaches", "edit", "marc", "--email", ""] + db).status == 0)
        #expect(try runner.run(["clients", "edit", "anna", "--coach", "marc", "--email", "anna@example.com"] + db).status == 0)
        let added = try runner.run(["sessions", "add", "--coach", "marc", "--client", "anna", "--start", "2026-12-01 10:00", "--minutes", "60", "--outbox", "$WORK/out"] + db + Self.now)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("Not told yet: Anna Puig") && added.stdout.contains("stays owed"), "\(added.stdout)")
        #expect(added.stdout.contains("Booked session"), "\(added.stdout)")
        let still = try runner.run(["outbox", "$WORK/out"] + db)
        #expect(still.status == 0 && still.stdout.contains("Not told yet: Anna Puig"), "\(still.stdout)\(still.stderr)")
        let sent = try runner.run(["outbox", "$WORK/out", "--gym", "Gym <desk@gym.example>"] + db)
        #expect(sent.status == 0 && sent.stdout.contains("REQUEST to Anna Puig <anna@example.com>"), "\(sent.stdout)\(sent.stderr)")
        #expect(try runner.run(["outbox", "$WORK/out"] + db).stdout == "gym.sqlite owes no messages.\n")
    }

    @Test("a database's name for a file that gets .ics text is refused")
    func databaseNameForText() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let sample = try runner.run(["sample", "--write", "$WORK/new.sqlite"])
        #expect(sample.status == 2 && sample.stderr.contains("write new.ics, then `horari import new.ics --into"), "\(sample.stderr)")
        let export = try runner.run(["export", "$WORK/gym.ics", "--out", "$WORK/copy.db"])
        #expect(export.status == 2, "\(export.stderr)")
        #expect(!FileManager.default.fileExists(atPath: runner.work.appendingPathComponent("new.sqlite").path))
    }

    @Test("the same bookings, cancellations and waitlists answer the same on both, and leave the same timetable")
    func bookingsAgree() throws {
        let runner = try Self.runnerWithDatabase()
        defer { runner.cleanUp() }
        let steps: [[String]] = [
            ["book", "--member", "quim", "--class", "yoga", "--date", "2026-11-30"],
            ["book", "--member", "quim", "--class", "pilates", "--date", "2026-11-26", "--waitlist"],
            ["book", "--member", "quim", "--class", "pilates", "--date", "2026-11-26"],
            ["cancel", "--member", "marta", "--class", "pilates", "--date", "2026-11-26"],
            ["book", "--member", "nobody", "--class", "yoga", "--date", "2026-11-30"],
            ["classes", "close", "2026-12-24..2026-12-26", "--reason", "Christmas"],
            ["sessions", "add", "--coach", "marc", "--client", "anna", "--start", "2026-12-01 10:00", "--minutes", "60", "--id", "s-new"],
            ["classes", "timetable", "--week", "2026-11-26"],
        ]
        for step in steps {
            let file = try runner.run(step + ["--calendar", "$WORK/gym.ics"] + Self.now)
            let database = try runner.run(step + ["--calendar", "$WORK/gym.sqlite"] + Self.now)
            #expect(database == file, "\(step)")
        }
    }

    @Test("exported, the database gives back an equivalent calendar; imported back, nothing changes")
    func exportBack() throws {
        let runner = try Self.runnerWithDatabase()
        defer { runner.cleanUp() }
        #expect(try runner.run(["export", "$WORK/gym.sqlite", "--out", "$WORK/back.ics"]).status == 0)
        for view in [["occurrences", "--from", "2026-11-01", "--to", "2026-12-30"], ["classes", "timetable", "--week", "2026-11-26"]] {
            let original = try runner.run(view + ["--calendar", "$WORK/gym.ics"] + Self.now)
            let back = try runner.run(view + ["--calendar", "$WORK/back.ics"] + Self.now)
            #expect(back == original, "\(view)")
        }
        let before = try Self.revision(runner)
        let again = try runner.run(["import", "$WORK/back.ics", "--into", "$WORK/gym.sqlite"])
        #expect(again.stdout.hasPrefix("added 0, updated 0,"), "\(again.stdout)")
        #expect(try Self.revision(runner) == before, "an import that changes nothing committed a change")
        _ = try runner.run(["export", "$WORK/gym.sqlite", "--for", "public", "--out", "$WORK/public.ics"])
        let text = try CLIRunner.text(of: runner.work.appendingPathComponent("public.ics"))
        try Data(text.replacingOccurrences(of: "SUMMARY:Yoga", with: "SEQUENCE:40\r\nSUMMARY:Yoga").utf8).write(to: runner.work.appendingPathComponent("public.ics"))
        let pub = try runner.run(["import", "$WORK/public.ics", "--into", "$WORK/gym.sqlite"])
        #expect(pub.stdout.contains("left 3 records of the file out of"), "\(pub.stdout)")
        let list = try runner.run(["book", "--member", "marta", "--list", "--calendar", "$WORK/gym.sqlite"] + Self.now)
        #expect(list.stdout.contains("Reformer Pilates"), "\(list.stdout)")
    }

    /// The database's revision, read by another program (Python's sqlite3).
    static func revision(_ runner: CLIRunner) throws -> String {
        let process = Process(), out = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT value FROM revision').fetchone()[0])",
                             runner.work.appendingPathComponent("gym.sqlite").path]
        process.standardOutput = out
        try process.run()
        let watchdog = ChildWatchdog(process)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try watchdog.check("python3 reading the revision")
        return String(decoding: data, as: UTF8.self)
    }

    @Test("a change with --outbox commits its messages and delivers them; horari outbox then owes nothing")
    func outbox() throws {
        let runner = try Self.runnerWithDatabase()
        defer { runner.cleanUp() }
        let db = ["--calendar", "$WORK/gym.sqlite"]
        #expect(try runner.run(["members", "edit", "pol", "--email", "pol@example.com"] + db).status == 0)
        let booked = try runner.run(["book", "--member", "pol", "--class", "yoga", "--date", "2026-11-30", "--outbox", "$WORK/out", "--gym", "Gym <desk@gym.example>"] + db + Self.now)
        #expect(booked.status == 0, "\(booked.stderr)")
        #expect(booked.stdout.contains("REQUEST to Pol Riera <pol@example.com>"), "\(booked.stdout)")
        let files = try FileManager.default.contentsOfDirectory(atPath: runner.work.appendingPathComponent("out").path)
        #expect(files.count == 1 && files[0].hasPrefix("request-pol_example.com-"), "\(files)")
        let owed = try runner.run(["outbox", "$WORK/out"] + db)
        #expect(owed.stdout == "gym.sqlite owes no messages.\n", "\(owed.stdout)\(owed.stderr)")
        // A file keeps what its changes owe too (Docs/Storage.md): this one owes nothing.
        let file = try runner.run(["outbox", "$WORK/out", "--calendar", "$WORK/gym.ics"])
        #expect(file.status == 0 && file.stdout == "gym.ics owes no messages.\n", "\(file.stdout)\(file.stderr)")
    }

    @Test("a file that is not a database, and a database of a newer Horari: one line each, exit 1, the file as it was")
    func notOurs() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        try Data("this is a note, not a database\n".utf8).write(to: runner.work.appendingPathComponent("notes.db"))
        let month = try runner.run(["month", "2026-11", "--calendar", "$WORK/notes.db"])
        #expect(month.status == 1 && month.stderr.contains("is not an SQLite database"), "\(month.stderr)")
        #expect(month.stderr.split(separator: "\n").count == 1, "\(month.stderr)")
        let add = try runner.run(["add", "Coffee", "--start", "2026-11-24 10:00", "--calendar", "$WORK/notes.db"])
        #expect(add.status == 1, "\(add.stdout)")
        #expect(runner.bytes(of: "notes.db") == Data("this is a note, not a database\n".utf8))
        let refused = try runner.run(["book", "--member", "marta", "--class", "yoga", "--date", "2026-11-30", "--calendar", "$WORK/none.sqlite"])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: runner.work.appendingPathComponent("none.sqlite").path), "a refused change left a database behind")
    }
}
