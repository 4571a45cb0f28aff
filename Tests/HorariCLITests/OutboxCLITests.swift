import Foundation
import Testing

/// `--outbox` (issue 32, 2) as a gym desk uses it: the options it needs,
/// and the numbers its messages carry across a closure, read from the
/// `.eml` files the way a mail program reads them.
@Suite("horari --outbox: the messages a desk writes")
struct OutboxCLITests {
    static let at = ["--calendar", "$WORK/gym.ics", "--now", "2026-11-10 10:00"]
    static let gym = ["--gym", "Gimnàs Sants <desk@gimnas.example>"]

    /// The `.eml` files in the outbox, by name.
    func files(in folder: URL) -> Set<String> {
        Set(((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".eml") })
    }

    /// An `.eml`'s calendar part (`text/calendar`), decoded, read as a mail program reads it.
    func calendarPart(_ url: URL) throws -> String? {
        let text = try String(contentsOf: url, encoding: .utf8)
        // The part is base64, from its blank line to the next boundary.
        guard let head = text.range(of: "Content-Type: text/calendar"),
              let body = text.range(of: "\r\n\r\n", range: head.upperBound..<text.endIndex) ?? text.range(of: "\n\n", range: head.upperBound..<text.endIndex),
              let end = text.range(of: "--", range: body.upperBound..<text.endIndex),
              let data = Data(base64Encoded: String(text[body.upperBound..<end.lowerBound]), options: .ignoreUnknownCharacters) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Quim, given an address, is booked into Yoga on 2026-11-30 with
    /// `--outbox`: his invitation's calendar part.
    func invitationToQuim(_ runner: CLIRunner) throws -> String {
        _ = try runner.run(["members", "edit", "quim", "--email", "quim@example.com"] + Self.at)
        let booked = try runner.run(["book", "--member", "quim", "--class", "yoga", "--date", "2026-11-30", "--outbox", "$WORK/outbox"] + Self.gym + Self.at)
        #expect(booked.status == 0, "\(booked.stderr)")
        let folder = runner.work.appendingPathComponent("outbox")
        let eml = try #require(files(in: folder).first.map { folder.appendingPathComponent($0) })
        return try #require(try calendarPart(eml))
    }

    /// An `.eml`'s calendar part's METHOD and SEQUENCE.
    func methodAndSequence(_ url: URL) throws -> String {
        guard let calendar = try calendarPart(url) else { return "\(url.lastPathComponent) has no calendar part" }
        let lines = calendar.components(separatedBy: "\r\n")
        return [lines.first { $0.hasPrefix("METHOD:") } ?? "no METHOD", lines.first { $0.hasPrefix("SEQUENCE:") } ?? "no SEQUENCE"].joined(separator: " ")
    }

    @Test("a class change with --outbox and no --gym is a usage error (exit 2) that changes nothing and makes no folder")
    func needsTheGym() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        _ = try runner.run(["members", "edit", "quim", "--email", "quim@example.com"] + Self.at)
        let original = runner.calendarBytes
        let refused = try runner.run(["book", "--member", "quim", "--class", "yoga", "--date", "2026-11-30", "--outbox", "$WORK/outbox"] + Self.at)
        #expect(refused.status == 2)
        #expect(refused.stderr.hasPrefix("Error: --outbox: a class's messages come from the gym; give --gym 'Name <address>' too (nothing was changed)\n"))
        #expect(runner.calendarBytes == original)
        #expect(!FileManager.default.fileExists(atPath: runner.work.appendingPathComponent("outbox").path))
    }

    @Test("booked, closed, opened and booked again: the REQUEST after the closure's CANCEL carries a higher SEQUENCE, or her calendar ignores it")
    func closedAndBookedAgain() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let outbox = ["--outbox", "$WORK/outbox"] + Self.gym
        let steps: [[String]] = [
            ["members", "edit", "quim", "--email", "quim@example.com"] + Self.at,
            ["book", "--member", "quim", "--class", "yoga", "--date", "2026-11-30"] + outbox + Self.at,
            ["classes", "close", "2026-11-30", "--reason", "Flood"] + outbox + Self.at,
            ["classes", "open", "2026-11-30"] + Self.at,
            ["book", "--member", "quim", "--class", "yoga", "--date", "2026-11-30"] + outbox + Self.at,
        ]
        let folder = runner.work.appendingPathComponent("outbox")
        var written: [String] = []
        for step in steps {
            let before = files(in: folder)
            let out = try runner.run(step)
            #expect(out.status == 0, "\(step.first ?? ""): \(out.stderr)")
            for name in files(in: folder).subtracting(before).sorted() { written.append(try methodAndSequence(folder.appendingPathComponent(name))) }
        }
        #expect(written == ["METHOD:REQUEST SEQUENCE:1", "METHOD:CANCEL SEQUENCE:2", "METHOD:REQUEST SEQUENCE:3"])
    }

    @Test("a member's export and her invitation imported into one calendar show her class once, in either order: one UID, yoga@gym.example, and one RECURRENCE-ID, also in her reminders (issue 41, 2)")
    func exportAndInvitationMeet() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        #expect(try runner.run(["book", "--member", "quim", "--class", "yoga", "--date", "2026-12-02"] + Self.at).status == 0)
        let invitation = try invitationToQuim(runner)
        #expect(invitation.contains("\r\nUID:yoga@gym.example\r\n") && invitation.contains("\r\nRECURRENCE-ID;TZID=Europe/Madrid:20261130T183000\r\n"), "\(invitation)")
        try Data(invitation.utf8).write(to: runner.work.appendingPathComponent("invite.ics"))
        #expect(try runner.run(["export", "$WORK/gym.ics", "--for", "member", "quim", "--out", "$WORK/quim.ics"]).status == 0)
        let export = try CLIRunner.text(of: runner.work.appendingPathComponent("quim.ics"))
        #expect(export.contains("\r\nUID:yoga@gym.example\r\n") && export.contains("\r\nDTSTART;TZID=Europe/Madrid:20261130T183000\r\n")
                && export.contains("\r\nRDATE;TZID=Europe/Madrid:20261202T183000\r\n"), "\(export)")
        #expect(!export.contains("UID:yoga/"), "the form before issue 41, 2")
        for (n, files) in [["quim.ics", "invite.ics"], ["invite.ics", "quim.ics"]].enumerated() {
            for file in files {
                let out = try runner.run(["import", "$WORK/\(file)", "--into", "$WORK/mine\(n).ics"])
                #expect(out.status == 0, "\(file): \(out.stdout)\(out.stderr)")
            }
            let shown = try runner.run(["occurrences", "$WORK/mine\(n).ics", "--from", "2026-11-30", "--to", "2026-12-02"])
            let yoga = shown.stdout.components(separatedBy: "\n").filter { $0.contains("Yoga") }
            #expect(yoga.count == 2 && yoga.first?.contains("2026-11-30") == true && yoga.last?.contains("2026-12-02") == true, "\(files): \(shown.stdout)")
        }
        let alarms = try runner.run(["alarms", "--member", "quim", "--from", "2026-11-30", "--to", "2026-11-30", "--default", "-PT1H", "--format", "json"] + Self.at)
        #expect(alarms.stdout.contains("\"uid\":\"yoga@gym.example\"") || alarms.stdout.contains("\"uid\" : \"yoga@gym.example\""), "\(alarms.stdout)\(alarms.stderr)")
        #expect(alarms.stdout.contains("2026-11-30T18:30:00"), "\(alarms.stdout)")
    }

    @Test("the book's own invitation imported into its calendar, with its METHOD or without, is refused and changes nothing: merged, it took the place of the whole class")
    func ownInvitationNotMerged() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let invitation = try invitationToQuim(runner)
        let original = runner.calendarBytes
        for (name, text) in [("invite.ics", invitation), ("no-method.ics", invitation.replacingOccurrences(of: "METHOD:REQUEST\r\n", with: ""))] {
            try Data(text.utf8).write(to: runner.work.appendingPathComponent(name))
            let out = try runner.run(["import", "$WORK/\(name)", "--into", "$WORK/gym.ics"])
            #expect(out.status == 1, "\(name): \(out.stdout)")
            #expect(out.stderr.contains("of the book's class ‘yoga’") || out.stderr.contains("about the book's class ‘yoga’"), "\(name): \(out.stderr)")
            #expect(out.stderr.contains("nothing was changed"))
            #expect(runner.calendarBytes == original, "\(name) changed the calendar")
        }
        let timetable = try runner.run(["classes", "timetable"] + Self.at)
        #expect(timetable.stdout.contains("[yoga]"))
    }
}
