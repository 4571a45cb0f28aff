import Foundation
import Testing

/// Calendars are for exchange; the book's records change only through the
/// book (issue 40, 5): an export of any audience imported back into the
/// gym's calendar changes no record. The public export, whose classes carry
/// no roster, took the place of every class ("updated 3") and emptied every
/// roster; a journal with the UID of a member's record and a higher
/// SEQUENCE rewrote her address, so her next invitation went to a stranger.
@Suite("horari import: no record of the book is rewritten by a file")
struct ReimportTests {
    static let at = ["--now", "2026-11-10 10:00"]

    @Test("every audience's export imported back leaves the calendar byte for byte", arguments: [
        ["--for", "public"], ["--for", "public", "--name-instructors"], ["--for", "member", "marta"], ["--for", "coach", "marc"], ["--for", "all"], [],
    ])
    func exportBack(_ audience: [String]) throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let original = runner.calendarBytes
        let exported = try runner.run(["export", "$WORK/gym.ics"] + audience + ["--out", "$WORK/export.ics"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let imported = try runner.run(["import", "$WORK/export.ics", "--into", "$WORK/gym.ics"] + Self.at)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stdout.contains("updated") || imported.stdout.contains("updated 0,"), "\(imported.stdout)")
        #expect(runner.calendarBytes == original, "\(imported.stdout)")
    }

    @Test("the public export with a raised SEQUENCE (a calendar app's edit) is left, and said to be")
    func editedPublicExport() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let original = runner.calendarBytes
        _ = try runner.run(["export", "$WORK/gym.ics", "--for", "public", "--out", "$WORK/public.ics"])
        let text = try CLIRunner.text(of: runner.work.appendingPathComponent("public.ics"))
        let edited = text.replacingOccurrences(of: "SUMMARY:Yoga", with: "SEQUENCE:40\r\nSUMMARY:Yoga for all")
        #expect(edited != text)
        try Data(edited.utf8).write(to: runner.work.appendingPathComponent("public.ics"))
        let imported = try runner.run(["import", "$WORK/public.ics", "--into", "$WORK/gym.ics"] + Self.at)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("left 3 records of the file out of"), "\(imported.stdout)")
        #expect(imported.stdout.contains("(pilates, spin, yoga)"), "\(imported.stdout)")
        #expect(runner.calendarBytes == original)
        let booked = try runner.run(["book", "--member", "marta", "--list", "--calendar", "$WORK/gym.ics"] + Self.at)
        #expect(booked.stdout.contains("Yoga"), "\(booked.stdout)\(booked.stderr)")
    }

    @Test("a journal that forges a member's record, or adds one, changes no one's address")
    func forgedMember() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let original = runner.calendarBytes
        let journal = { (uid: String) in
            "BEGIN:VJOURNAL\r\nUID:\(uid)\r\nDTSTAMP:20261101T000000Z\r\nSEQUENCE:50\r\nCATEGORIES:horari-member\r\nSUMMARY:Marta\r\n"
                + "ATTENDEE:mailto:attacker@evil.example\r\nEND:VJOURNAL\r\n"
        }
        let file = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Example//Forger//EN\r\n" + journal("member:marta") + journal("member:eve")
            + "BEGIN:VEVENT\r\nUID:plain-1\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:20261201T100000Z\r\nDURATION:PT1H\r\nSUMMARY:Coffee\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\n"
        try Data(file.utf8).write(to: runner.work.appendingPathComponent("forged.ics"))
        let imported = try runner.run(["import", "$WORK/forged.ics", "--into", "$WORK/gym.ics"] + Self.at)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("added 1,"), "\(imported.stdout)")
        #expect(imported.stdout.contains("left 2 records of the file out of"), "\(imported.stdout)")
        let text = try CLIRunner.text(of: runner.work.appendingPathComponent("gym.ics"))
        #expect(!text.contains("attacker@evil.example"))
        #expect(text.contains("UID:plain-1"))
        #expect(runner.calendarBytes != original)
    }

    @Test("a record's UID twice in one file (the older set aside by the import) is not kept to come back as the class")
    func recordInWhatTheImportSetAside() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let original = runner.calendarBytes
        let event = { (sequence: Int) in
            "BEGIN:VEVENT\r\nUID:yoga\r\nDTSTAMP:20261101T000000Z\r\nSEQUENCE:\(sequence)\r\nDTSTART:20261201T100000Z\r\nDURATION:PT1H\r\nSUMMARY:Hijacked\r\nEND:VEVENT\r\n"
        }
        let file = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Example//Twice//EN\r\n" + event(50) + event(51) + "END:VCALENDAR\r\n"
        try Data(file.utf8).write(to: runner.work.appendingPathComponent("twice.ics"))
        let imported = try runner.run(["import", "$WORK/twice.ics", "--into", "$WORK/gym.ics", "--force"] + Self.at)
        #expect(imported.status == 0, "\(imported.stderr)")
        let text = try CLIRunner.text(of: runner.work.appendingPathComponent("gym.ics"))
        #expect(!text.contains("Hijacked"), "\(imported.stdout)")
        #expect(runner.calendarBytes == original, "\(imported.stdout)")
        #expect(!imported.stdout.contains("not in the file 13"), "a record left is not also 'not in the file': \(imported.stdout)")
    }

    @Test("a whole export imported into an empty calendar gives the book back")
    func backupIntoEmpty() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        _ = try runner.run(["export", "$WORK/gym.ics", "--out", "$WORK/backup.ics"])
        let imported = try runner.run(["import", "$WORK/backup.ics", "--into", "$WORK/restored.ics"] + Self.at)
        #expect(imported.status == 0, "\(imported.stderr)")
        let listed = { (calendar: String) throws -> String in
            try runner.run(["book", "--member", "marta", "--list", "--calendar", calendar] + Self.at).stdout
        }
        #expect(try listed("$WORK/restored.ics") == listed("$WORK/gym.ics"))
        #expect(try listed("$WORK/restored.ics").contains("Yoga"))
    }
}
