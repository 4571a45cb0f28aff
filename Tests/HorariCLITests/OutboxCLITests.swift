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

    @Test("a class change with --outbox, no --gym and no address kept is refused (exit 1), changes nothing and leaves no folder")
    func needsTheGym() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        _ = try runner.run(["members", "edit", "quim", "--email", "quim@example.com"] + Self.at)
        let original = runner.calendarBytes
        let refused = try runner.run(["book", "--member", "quim", "--class", "yoga", "--date", "2026-11-30", "--outbox", "$WORK/outbox"] + Self.at)
        #expect(refused.status == 1)
        #expect(refused.stderr == "Error: --outbox: a class's messages come from the gym, and the calendar keeps no address for it; give --gym 'Name <address>', or keep one with `horari gym address 'Name <address>'` (nothing was changed)\n")
        #expect(runner.calendarBytes == original)
        #expect(!FileManager.default.fileExists(atPath: runner.work.appendingPathComponent("outbox").path))
    }

    @Test("the gym's address kept once (horari gym address) is the sender of a class's messages, the organizer an answer must name, and what an earlier change left owed is sent from; --gym overrides it (issue 44, 7)")
    func keptAddress() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let folder = runner.work.appendingPathComponent("outbox")
        func from(_ names: Set<String>) throws -> [String] {
            try names.sorted().map { name in
                let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                return text.components(separatedBy: "\r\n").first { $0.hasPrefix("From: ") } ?? "no From in \(name)"
            }
        }
        _ = try runner.run(["members", "edit", "quim", "--email", "quim@example.com"] + Self.at)
        // Owed before any address is kept: a session of a coach with no address waits for a sender.
        #expect(try runner.run(["coaches", "edit", "marc", "--email", ""] + Self.at).status == 0)
        let owed = try runner.run(["sessions", "add", "--coach", "marc", "--client", "anna", "--start", "2026-11-12 10:00", "--outbox", "$WORK/outbox"] + Self.at)
        #expect(owed.status == 0 && owed.stdout.contains("no sender; give --gym 'Name <address>', or keep one with `horari gym address` (the message stays owed)"),
                "\(owed.stdout)\(owed.stderr)")
        #expect(files(in: folder).isEmpty)

        let set = try runner.run(["gym", "address", "Gimnàs Sants <desk@gimnas.example>"] + Self.at)
        #expect(set.status == 0 && set.stdout == "Gimnàs Sants <desk@gimnas.example>\n", "\(set.stdout)\(set.stderr)")
        #expect(String(decoding: runner.calendarBytes, as: UTF8.self).contains("\r\nX-HORARI-GYM-ADDRESS;CN=Gimnàs Sants:mailto:desk@gimnas.example\r\n"))
        #expect(try runner.run(["gym", "address"] + Self.at).stdout == "Gimnàs Sants <desk@gimnas.example>\n")

        // The message owed before is sent from the address kept since.
        let sent = try runner.run(["outbox", "$WORK/outbox", "--calendar", "$WORK/gym.ics"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(try from(files(in: folder)) == ["From: =?UTF-8?B?R2ltbsOgcyBTYW50cw==?= <desk@gimnas.example>"])

        // A change made now, with no --gym.
        var before = files(in: folder)
        let booked = try runner.run(["book", "--member", "quim", "--class", "yoga", "--date", "2026-11-30", "--outbox", "$WORK/outbox"] + Self.at)
        #expect(booked.status == 0, "\(booked.stderr)")
        let invitation = try #require(files(in: folder).subtracting(before).first)
        #expect(try from([invitation]) == ["From: =?UTF-8?B?R2ltbsOgcyBTYW50cw==?= <desk@gimnas.example>"])
        let part = try #require(try calendarPart(folder.appendingPathComponent(invitation)))
        #expect(part.contains("\r\nORGANIZER;CN=Gimnàs Sants:mailto:desk@gimnas.example\r\n"), "\(part)")

        // Her answer names the kept address as organizer: applied with no --gym.
        let reply = part.replacingOccurrences(of: "METHOD:REQUEST", with: "METHOD:REPLY")
            .replacingOccurrences(of: "PARTSTAT=NEEDS-ACTION;RSVP=TRUE", with: "PARTSTAT=DECLINED")
        #expect(reply.contains("PARTSTAT=DECLINED"), "\(reply)")
        try Data(reply.utf8).write(to: runner.work.appendingPathComponent("reply.ics"))
        let answered = try runner.run(["import", "$WORK/reply.ics", "--into", "$WORK/gym.ics", "--now", "2026-11-10 10:00"])
        #expect(answered.status == 0 && answered.stdout.hasPrefix("Quim"), "\(answered.stdout)\(answered.stderr)")
        #expect(answered.stdout.contains("declined yoga@2026-11-30: the place is given up."), "\(answered.stdout)")

        // --gym overrides the kept address, for that command only.
        before = files(in: folder)
        let other = try runner.run(["book", "--member", "quim", "--class", "yoga", "--date", "2026-11-30", "--outbox", "$WORK/outbox", "--gym", "Front Desk <front@gimnas.example>"] + Self.at)
        #expect(other.status == 0, "\(other.stderr)")
        #expect(try from(files(in: folder).subtracting(before)) == ["From: Front Desk <front@gimnas.example>"])

        // Forgotten: a class's messages need --gym again.
        #expect(try runner.run(["gym", "address", "--none"] + Self.at).stdout == "No gym address: a class's messages need --gym 'Name <address>'.\n")
        #expect(!String(decoding: runner.calendarBytes, as: UTF8.self).contains("X-HORARI-GYM-ADDRESS"))
        let refused = try runner.run(["cancel", "--member", "quim", "--class", "yoga", "--date", "2026-11-30", "--outbox", "$WORK/outbox"] + Self.at)
        #expect(refused.status == 1 && refused.stderr.contains("the calendar keeps no address for it"), "\(refused.stderr)")
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
