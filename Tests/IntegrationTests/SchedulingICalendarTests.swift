import CalendarCore
import CalendarScheduling
import CalendarStore
import Foundation
import ICalendarKit
import SchedulingICalendar
import Testing
import _CalendarTestFixtures
import _SchedulingTestSupport

@Suite("Scheduling in iCalendar")
struct SchedulingICalendarTests {
    let exporter = ICalendarExporter(options: .init(timestamp: Date(timeIntervalSince1970: 1_795_000_000)))

    /// The gym with sessions, a cancelled and a moved class, bookings and a waitlist.
    func busyGym() throws -> SchedulingBook {
        var book = try Gym.book()
        let now = try Gym.now("2026-11-22 12:00")
        var marc = try book.coach("marc")
        try marc.workingHours.set([], onDate: Gym.day("2026-12-24"))
        try marc.workingHours.set([TimeRange(parsing: "10:00-14:00")], onDate: Gym.day("2026-12-31"))
        try book.updateCoach(marc)
        try book.addSession(id: "s1", coach: "marc", client: "anna", start: Gym.at("2026-11-26 18:00"), duration: .minutes(60), location: "Gimnàs Sants", notes: "Strength block, week 3.\nBring a towel.")
        try book.addSession(id: "s2", coach: "marc", client: "pau", start: Gym.at("2026-11-20 09:00"), duration: .minutes(45))
        try book.setStatus(.noShow, ofSession: "s2", coach: "marc", now: now)
        try book.addSession(id: "l1", coach: "laia", client: "joan", start: Gym.at("2026-11-27 10:00"), duration: .minutes(30))
        try book.addSession(id: "l2", coach: "laia", client: "rosa", start: Gym.at("2026-11-27 11:00"), duration: .minutes(30))
        try book.setStatus(.cancelled, ofSession: "l2", coach: "laia", now: now)
        try book.cancelOccurrence(classID: "yoga", on: Gym.day("2026-12-07"))
        try book.moveOccurrence(classID: "yoga", on: Gym.day("2026-11-25"), to: Gym.at("2026-11-25 19:30"))
        try book.addMember(Member(id: "xavi", name: "Xavi Mas", email: "xavi@example.com"))
        for m in ["marta", "oriol", "nuria", "xavi"] {
            try book.book(member: m, classID: "yoga", on: Gym.day("2026-11-23"), now: now, whenFull: .joinWaitlist)
        }
        try book.book(member: "marta", classID: "yoga", on: Gym.day("2026-11-25"), now: now)
        try book.book(member: "oriol", classID: "spin", on: Gym.day("2026-11-27"), now: now)
        return book
    }

    func text(_ book: SchedulingBook, _ audience: ExportAudience) throws -> String {
        exporter.export(try ICalendar(book, for: audience))
    }

    @Test("the full backup round-trips: export, import, export is byte-identical and the book reads back whole")
    func backupRoundTrip() throws {
        let book = try busyGym()
        let first = try text(book, .everything)
        let imported = try ICalendarImporter().importCalendar(from: first)
        #expect(imported.diagnostics.isEmpty, "\(imported.diagnostics)")
        let back = try imported.calendar.schedulingBook()
        #expect(exporter.export(try ICalendar(back, for: .everything)) == first)
        #expect(back.timeZone.identifier == "Europe/Madrid")
        #expect(back.coaches == book.coaches)
        #expect(back.members == book.members)
        #expect(back.classes == book.classes)
        #expect(try back.clients(coach: "marc") == book.clients(coach: "marc"))
        #expect(try back.sessions(coach: "marc") == book.sessions(coach: "marc"))
        #expect(try back.sessions(coach: "laia").map(\.status) == [.scheduled, .cancelled])
        let monday = try Gym.day("2026-11-23")
        #expect(try back.roster(classID: "yoga", on: monday).confirmed == ["marta", "oriol", "nuria"])
        #expect(try back.roster(classID: "yoga", on: monday).waitlist == ["xavi"])
        // The rules still hold on the book read back.
        var again = back
        #expect(refusal { try again.addSession(coach: "marc", client: "pau", start: Gym.at("2026-11-26 18:30"), duration: .minutes(30)) } != nil)
    }

    @Test("sessions are VEVENTs with ORGANIZER, ATTENDEE, LOCATION and STATUS; classes a weekly series with X-HORARI-CAPACITY")
    func shape() throws {
        let ics = try text(try busyGym(), .everything)
        #expect(ics.contains("ORGANIZER;CN=Marc Soler:mailto:marc@gym.example\r\n"))
        #expect(ics.contains("ATTENDEE;CN=Anna Puig;ROLE=REQ-PARTICIPANT:mailto:anna@example.com\r\n"))
        #expect(ics.contains("LOCATION:Gimnàs Sants\r\n"))
        #expect(ics.contains("STATUS:CANCELLED\r\n") && ics.contains("STATUS:CONFIRMED\r\n"))
        #expect(ics.contains("RRULE:FREQ=WEEKLY;BYDAY=MO,WE\r\n"))
        #expect(ics.contains("RRULE:FREQ=WEEKLY;UNTIL=20261225T060000Z;BYDAY=FR\r\n"))
        #expect(ics.contains("X-HORARI-CAPACITY:3\r\n") && ics.contains("X-HORARI-CAPACITY:20\r\n"))
        #expect(!ics.contains("RECURRENCE-ID;TZID=Europe/Madrid:20261207T183000\r\n") && !ics.contains("STATUS:CANCELLED\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:yoga"))
        #expect(ics.contains("RECURRENCE-ID;TZID=Europe/Madrid:20261125T183000\r\n"), "the moved one is an instance")
        #expect(ics.contains("BEGIN:VTIMEZONE\r\nTZID:Europe/Madrid\r\n"))
        // A client without an e-mail gets a URN address, still a valid cal-address.
        #expect(ics.contains("ATTENDEE;CN=Rosa Martí;ROLE=REQ-PARTICIPANT:urn:x-horari:client:rosa\r\n"))
    }

    @Test("privacy: the public and member exports name no other member or client; a coach's names only theirs")
    func privacy() throws {
        let book = try busyGym()
        let everyone = ["Anna Puig", "anna@example.com", "Pau Ferrer", "pau@example.com", "Joan Serra", "joan@example.com", "Rosa Martí",
                        "Marta Roig", "marta@example.com", "Oriol Camps", "oriol@example.com", "Núria Pons", "nuria@example.com",
                        "Xavi Mas", "xavi@example.com", "marta", "oriol", "nuria", "xavi"]
        let full = try text(book, .everything)
        for name in everyone { #expect(full.contains(name), "the backup has \(name)") }

        let timetable = try text(book, .publicTimetable)
        let instructors = book.classes.compactMap(\.instructor)
        #expect(!instructors.isEmpty, "the gym's classes have instructors to leave out")
        for name in everyone + instructors { #expect(!timetable.contains(name), "the public timetable names \(name)") }
        #expect(timetable.contains("SUMMARY:Yoga") && timetable.contains("X-HORARI-CAPACITY:3"))
        #expect(!timetable.contains("X-HORARI-ROSTER") && !timetable.contains("Training") && !timetable.contains("X-HORARI-INSTRUCTOR"))
        // Named only when asked for, and then nothing else changes.
        let named = try text(book, .publicTimetableNamingInstructors)
        for name in instructors { #expect(named.contains("X-HORARI-INSTRUCTOR:\(name)\r\n")) }
        #expect(named.components(separatedBy: "\r\n").filter { !$0.hasPrefix("X-HORARI-INSTRUCTOR") && !$0.hasPrefix("DTSTAMP") }
                == timetable.components(separatedBy: "\r\n").filter { !$0.hasPrefix("DTSTAMP") })

        let oriol = try text(book, .member("oriol"))
        for name in everyone where !["Oriol Camps", "oriol@example.com", "oriol"].contains(name) {
            #expect(!oriol.contains(name), "Oriol's export names \(name)")
        }
        let his = try ICalendarImporter().importCalendar(from: Data(oriol.utf8)).calendar.schedule()
        #expect(his.occurrences(from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 4_000_000_000)).count == 2, "his two bookings")

        let laia = try text(book, .coach("laia"))
        for name in ["Anna Puig", "anna@example.com", "Pau Ferrer", "pau@example.com", "Marta Roig", "Oriol Camps", "Núria Pons", "Xavi Mas"] {
            #expect(!laia.contains(name), "Laia's export names \(name)")
        }
        #expect(laia.contains("Joan Serra") && laia.contains("Rosa Martí"))
        #expect(refusal { _ = try ICalendar(book, for: .member("ghost")) } == .unknownMember("ghost"))
    }

    @Test("the feeds say how often to read them again (RFC 7986 REFRESH-INTERVAL, and X-PUBLISHED-TTL for Apple and Outlook); the backup does not")
    func refreshInterval() throws {
        let book = try busyGym()
        for audience in [ExportAudience.publicTimetable, .publicTimetableNamingInstructors, .member("marta"), .coach("laia")] {
            let feed = try text(book, audience)
            #expect(feed.contains("\r\nREFRESH-INTERVAL;VALUE=DURATION:PT1H\r\nX-PUBLISHED-TTL:PT1H\r\n"), "\(audience)")
            // Before the first component: a calendar's own property (RFC 5545 §3.4).
            let said = try #require(feed.range(of: "REFRESH-INTERVAL")), firstComponent = try #require(feed.range(of: "\r\nBEGIN:V"))
            #expect(said.lowerBound < firstComponent.lowerBound)
            #expect(try ICalendarImporter().importCalendar(from: Data(feed.utf8)).calendar.refreshInterval == .seconds(3600))
        }
        let backup = try text(book, .everything)
        #expect(!backup.contains("REFRESH-INTERVAL") && !backup.contains("X-PUBLISHED-TTL"))
        #expect(!exporter.export(try ICalendar(book, for: .publicTimetable, refreshInterval: nil)).contains("REFRESH-INTERVAL"))
        for (seconds, written) in [(900, "PT15M"), (5400, "PT1H30M"), (86_400, "P1D"), (604_800, "P1W"), (90_061, "PT25H1M1S")] {
            var feed = try ICalendar(book, for: .publicTimetable, refreshInterval: .seconds(seconds))
            let out = exporter.export(feed)
            #expect(out.contains("REFRESH-INTERVAL;VALUE=DURATION:\(written)\r\nX-PUBLISHED-TTL:\(written)\r\n"), "\(seconds)")
            #expect(try ICalendarImporter().importCalendar(from: Data(out.utf8)).calendar.refreshInterval == .seconds(seconds))
            // Set again, it takes the place of the old one; nil takes both away.
            feed.refreshInterval = .seconds(60)
            #expect(exporter.export(feed).components(separatedBy: "REFRESH-INTERVAL").count == 2)
            feed.refreshInterval = nil
            #expect(!exporter.export(feed).contains("REFRESH-INTERVAL") && !exporter.export(feed).contains("X-PUBLISHED-TTL"))
        }
        // A length under a second is one second (RFC 7986 allows only a positive one).
        #expect(exporter.export(try ICalendar(book, for: .publicTimetable, refreshInterval: .zero)).contains("REFRESH-INTERVAL;VALUE=DURATION:PT1S"))
        // Read as another producer writes it: Apple's TTL alone, a week; a length that is not one is none.
        let text = { (lines: String) in "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//y//EN\r\n\(lines)END:VCALENDAR\r\n" }
        #expect(try ICalendarImporter().importCalendar(from: Data(text("X-PUBLISHED-TTL:P1W\r\n").utf8)).calendar.refreshInterval == .seconds(604_800))
        #expect(try ICalendarImporter().importCalendar(from: Data(text("REFRESH-INTERVAL;VALUE=DURATION:soon\r\n").utf8)).calendar.refreshInterval == nil)
        #expect(try ICalendarImporter().importCalendar(from: Data(text("REFRESH-INTERVAL;VALUE=DURATION:-PT1H\r\n").utf8)).calendar.refreshInterval == nil)
    }

    @Test("a class people can read about: its description, page and picture in the backup (read back the same), the public and member exports, on each instance too; an address that is not http or https is refused (issue 44, 4)")
    func classDetails() throws {
        var book = try busyGym()
        var yoga = try book.classSeries("yoga")
        yoga.description = "Hatha yoga for every level.\nBring a mat; we lend blocks."
        yoga.url = "https://gym.example/classes/yoga?lang=ca"
        yoga.image = "https://gym.example/img/yoga.jpg"
        try book.updateClass(yoga)
        let backup = try ICalendar(book, for: .everything)
        let again = try ICalendarImporter().importCalendar(from: Data(exporter.export(backup).utf8)).calendar.schedulingBook()
        #expect(try again.classSeries("yoga") == yoga)
        #expect(try again.classSeries("spin").description == nil && again.classSeries("spin").url == nil)
        for audience in [ExportAudience.publicTimetable, .member("marta")] {
            let feed = try text(book, audience)
            // The series and each instance (a moved date, a booked one) are whole components: each says it.
            let instances = feed.components(separatedBy: "RECURRENCE-ID").count - 1
            #expect(instances > 0, "\(audience)")
            #expect(feed.components(separatedBy: "DESCRIPTION:Hatha yoga for every level.\\nBring a mat\\; we lend blocks.\r\n").count - 1 == instances + 1, "\(audience)")
            #expect(feed.components(separatedBy: "URL:https://gym.example/classes/yoga?lang=ca\r\n").count - 1 == instances + 1, "\(audience)")
            #expect(feed.components(separatedBy: "IMAGE;VALUE=URI:https://gym.example/img/yoga.jpg\r\n").count - 1 == instances + 1, "\(audience)")
        }
        // A record in JSON keeps them too, and one written before them reads as none.
        let json = try JSONEncoder().encode(yoga)
        #expect(try JSONDecoder().decode(ClassSeries.self, from: json) == yoga)
        var plain = yoga
        (plain.description, plain.url, plain.image) = (nil, nil, nil)
        #expect(!String(decoding: try JSONEncoder().encode(plain), as: UTF8.self).contains("description"))
        for bad in ["javascript:alert(1)", "mailto:desk@gym.example", "/classes/yoga", "ftp://gym.example/yoga", "https://", "https:///yoga", "https://gym.example/a b",
                    "https://gym.example/\"x", "https://?q", "https://@", "https://#frag", "https://a\\b", "https://gym.example/caf\u{E9}", "https://gym.example/\u{2028}"] {
            var wrong = yoga
            wrong.image = bad
            #expect(refusal { try book.updateClass(wrong) } == .invalid(field: .image, reason: "‘\(bad)’ is not a web address; give an absolute one, such as https://gym.example/yoga"), "\(bad)")
            wrong = yoga
            wrong.url = bad
            #expect(refusal { try book.addClass(ClassSeries(id: "new", title: "New", weekdays: [.monday], time: yoga.time, duration: .minutes(30), capacity: 3,
                                                            firstDate: yoga.firstDate, url: bad)) } != nil, "\(bad)")
        }
        #expect(try book.classSeries("yoga") == yoga, "a refusal changed the class")
    }

    @Test("a member's export imports as their schedule elsewhere: the same instants as the book")
    func memberExportReads() throws {
        let book = try busyGym()
        let imported = try ICalendarImporter().importCalendar(from: try text(book, .member("marta"))).calendar.schedule()
        let found = imported.occurrences(from: try Gym.now("2026-11-01 00:00"), to: try Gym.now("2027-01-01 00:00"))
        #expect(found.map(\.startSeconds) == (try book.bookings(member: "marta")).map(\.startSeconds))
        #expect(found.map(\.item.title) == ["Yoga", "Yoga"])
    }

    @Test("a coach's export reads back as that coach's book: the coach, their clients and sessions, no one else (issue 28, 3)")
    func coachExportReads() throws {
        let book = try busyGym()
        let calendar = try ICalendarImporter().importCalendar(from: try text(book, .coach("laia"))).calendar
        let copy = try calendar.schedulingBook()
        #expect(copy.coaches.map(\.id) == ["laia"])
        #expect(try copy.coach("laia") == book.coach("laia"))
        #expect(try copy.clients(coach: "laia") == book.clients(coach: "laia"))
        #expect(try copy.sessions(coach: "laia") == book.sessions(coach: "laia"))
        #expect(copy.members.isEmpty && copy.classes.isEmpty)
    }

    @Test("client IDs are each coach's own: two coaches' ‘anna’ live side by side, through a file and back (issue 28, 9)")
    func scopedClientIDs() throws {
        var book = try Gym.book()
        // Marc has an ‘anna’ already; Laia's is another person, and adding her reveals nothing.
        try book.addClient(Client(id: "anna", coachID: "laia", name: "Anna Vidal"))
        #expect(refusal { try book.addClient(Client(id: "anna", coachID: "laia", name: "Anna Again")) } == .duplicateID("anna", kind: "client"))
        try book.addSession(id: "l-anna", coach: "laia", client: "anna", start: Gym.at("2026-11-30 10:00"), duration: .minutes(45))
        try book.addSession(id: "m-anna", coach: "marc", client: "anna", start: Gym.at("2026-11-30 10:00"), duration: .minutes(45))
        #expect(try book.history(client: "anna", coach: "laia").map(\.id) == ["l-anna"])
        #expect(try book.history(client: "anna", coach: "marc").map(\.id) == ["m-anna"])
        #expect(refusal { _ = try book.history(client: "anna") } == .clientNeedsCoach("anna"))
        #expect(try book.clients(coach: "laia").map(\.name).contains("Anna Vidal"))
        #expect(!(try book.clients(coach: "marc").map(\.name).contains("Anna Vidal")))
        // Through a calendar file: each journal its own UID, each session its own client.
        let text = try text(book, .everything)
        #expect(text.contains("UID:client:laia/anna\r\n") && text.contains("UID:client:marc/anna\r\n"))
        let back = try ICalendarImporter().importCalendar(from: text).calendar.schedulingBook()
        #expect(try back.client("anna", coach: "laia").name == "Anna Vidal")
        #expect(try back.client("anna", coach: "marc").name == "Anna Puig")
        #expect(try back.calendarItem(for: back.session("l-anna", coach: "laia")).title == "Training: Anna Vidal")
        // Removing Laia's leaves Marc's, and then ‘anna’ is Marc's alone again.
        try book.removeClient("anna", coach: "laia")
        #expect(try book.client("anna").coachID == "marc")
        #expect(try book.sessions(coach: "marc").map(\.id) == ["m-anna"])
    }

    @Test("saving the book into a calendar file keeps the file's other items and properties")
    func keepsTheRest() throws {
        let original = try ICalendarImporter().importCalendar(contentsOf: try Fixture.url("ics/gym.ics")).calendar
        var calendar = original
        calendar.setScheduling(try busyGym())
        let reread = try ICalendarImporter().importCalendar(from: exporter.export(calendar)).calendar
        for item in original.items { #expect(reread.items.contains { $0.uid == item.uid }, "kept \(item.uid)") }
        #expect(reread.name == original.name)
        let book = try reread.schedulingBook()
        #expect(book.classes.map(\.id) == ["spin", "yoga"])
        // Saving an empty book removes the records again and nothing else.
        calendar.setScheduling(SchedulingBook(timeZone: try .named("Europe/Madrid")))
        #expect(calendar.items.map(\.uid) == original.items.map(\.uid))
    }

    @Test("changing the book in a calendar file keeps a component the import could not read")
    func keepsRejected() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("horari-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("gym.ics")
        let broken = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//y//EN\r\nBEGIN:VEVENT\r\nUID:no-start\r\nSUMMARY:Lost?\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        try Data(broken.utf8).write(to: url)
        try CalendarFile.update(url) { calendar in
            var book = try calendar.schedulingBook(defaultTimeZone: "Europe/Madrid")
            try book.addMember(Member(id: "marta", name: "Marta Roig"))
            calendar.setScheduling(book)
        }
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains("UID:no-start\r\nSUMMARY:Lost?"))
        #expect(text.contains("UID:member:marta\r\nSUMMARY:Marta Roig\r\nCATEGORIES:horari-member\r\n"))
    }

    @Test("times written in UTC or another zone (a file edited elsewhere) read as the book's wall times")
    func otherZones() throws {
        let ics = try text(try busyGym(), .everything)
            .replacingOccurrences(of: "DTSTART;TZID=Europe/Madrid:20260907T183000", with: "DTSTART:20260907T163000Z")  // yoga, CEST
            .replacingOccurrences(of: "DTSTART;TZID=Europe/Madrid:20261126T180000", with: "DTSTART;TZID=America/New_York:20261126T120000")  // s1
        let book = try ICalendarImporter().importCalendar(from: ics).calendar.schedulingBook()
        #expect(try book.classSeries("yoga").time == TimeOfDay(hour: 18, minute: 30))
        #expect(try book.classSeries("yoga").firstDate == Gym.day("2026-09-07"))
        #expect(try book.session("s1", coach: "marc").start == Gym.at("2026-11-26 18:00"))
    }

    @Test("a cancelled class occurrence is written as an EXDATE (no instance, which calcurse would show) and read back; a moved one is not excluded")
    func cancelledAsExdate() throws {
        let book = try busyGym()
        let ics = try text(book, .everything)
        // The yoga class on 7 December 2026 at 18:30 (Madrid) is cancelled.
        #expect(ics.contains("EXDATE;TZID=Europe/Madrid:20261207T183000\r\n"))
        #expect(!ics.contains("RECURRENCE-ID;TZID=Europe/Madrid:20261207T183000\r\n") && !ics.contains("STATUS:CANCELLED\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:yoga"))
        #expect(ics.contains("RECURRENCE-ID;TZID=Europe/Madrid:20261125T183000\r\n"), "the moved one is an instance")
        #expect(!ics.contains("EXDATE;TZID=Europe/Madrid:20261125"), "the moved occurrence is not excluded")
        let back = try ICalendarImporter().importCalendar(from: ics).calendar.schedulingBook()
        #expect(try back.classSeries("yoga").changes == book.classSeries("yoga").changes)
        #expect(exporter.export(try ICalendar(back, for: .everything)) == ics, "byte for byte")

        // Another client's EXDATE (calcurse, a hand edit).
        let day = try Gym.day("2026-12-14")
        let edited = ics.replacingOccurrences(of: "EXDATE;TZID=Europe/Madrid:20261207T183000\r\n",
                                              with: "EXDATE;TZID=Europe/Madrid:20261207T183000,20261214T183000\r\n")
        #expect(edited != ics)
        let read = try ICalendarImporter().importCalendar(from: edited).calendar.schedulingBook()
        #expect(try read.classSeries("yoga").changes[day] == .cancelled)
        // An EXDATE on a moved occurrence does not undo the move.
        let moved = ics.replacingOccurrences(of: "EXDATE;TZID=Europe/Madrid:20261207T183000\r\n",
                                             with: "EXDATE;TZID=Europe/Madrid:20261207T183000,20261125T183000\r\n")
        let kept = try ICalendarImporter().importCalendar(from: moved).calendar.schedulingBook()
        #expect(try kept.classSeries("yoga").changes[Gym.day("2026-11-25")] == .moved(to: Gym.at("2026-11-25 19:30"), duration: book.classSeries("yoga").duration))
        // A file written before (a cancelled instance, no EXDATE) reads the same.
        let older = ics.replacingOccurrences(of: "EXDATE;TZID=Europe/Madrid:20261207T183000\r\n", with: "")
            .replacingOccurrences(of: "END:VCALENDAR\r\n", with: "BEGIN:VEVENT\r\nUID:yoga\r\nDTSTAMP:20261122T120000Z\r\nRECURRENCE-ID;TZID=Europe/Madrid:20261207T183000\r\nDTSTART;TZID=Europe/Madrid:20261207T183000\r\nDURATION:PT1H\r\nSUMMARY:Yoga\r\nSTATUS:CANCELLED\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
        #expect(older != ics)
        let old = try ICalendarImporter().importCalendar(from: older).calendar.schedulingBook()
        #expect(try old.classSeries("yoga").changes == book.classSeries("yoga").changes)
    }

    @Test("a damaged record is refused with its name, not dropped")
    func damaged() throws {
        let ics = try text(try busyGym(), .everything).replacingOccurrences(of: "X-HORARI-CAPACITY:20", with: "X-HORARI-CAPACITY:twenty")
        let calendar = try ICalendarImporter().importCalendar(from: ics).calendar
        #expect(refusal { _ = try calendar.schedulingBook() }?.description == "X-HORARI-CAPACITY: class ‘spin’: the capacity is not a whole number")
        let unknown = try text(try busyGym(), .everything).replacingOccurrences(of: "\r\n ", with: "")
            .replacingOccurrences(of: "X-HORARI-MEMBER=xavi;", with: "X-HORARI-MEMBER=ghost;")
        #expect(refusal { _ = try ICalendarImporter().importCalendar(from: unknown).calendar.schedulingBook() } == .unknownMember("ghost"))
    }

    /// Issue 20: a hand-edited roster that books someone who is not a member
    /// passed `validate` while every command of the book failed. The check
    /// reads on, names every problem and its record's line, and its book is
    /// the repair: what the book cannot read left out, everything else kept.
    @Test("the scheduling check names every problem with its line; its book is the repair")
    func checkAndRepair() throws {
        // The backup with its folded lines joined, so that lines can be edited whole.
        var lines = try text(try busyGym(), .everything).replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
        func index(of prefix: String, after from: Int = 0) throws -> Int { try #require(lines[from...].firstIndex { $0.hasPrefix(prefix) }) }
        // A waiting member who is not one, a class the book cannot read.
        let xavi = try index(of: "ATTENDEE;CN=Xavi Mas")
        lines[xavi] = lines[xavi].replacingOccurrences(of: "X-HORARI-MEMBER=xavi;", with: "X-HORARI-MEMBER=ghost;")
        let capacity = try index(of: "X-HORARI-CAPACITY:20")
        lines[capacity] = "X-HORARI-CAPACITY:twenty"
        // A member listed twice in the 23rd's roster, and a roster of a day yoga does not meet.
        let yoga23 = try index(of: "RECURRENCE-ID;TZID=Europe/Madrid:20261123T183000")
        let marta = try index(of: "ATTENDEE;CN=Marta Roig", after: yoga23)
        lines.insert(lines[marta], at: marta)
        let end = try index(of: "END:VCALENDAR")
        lines.insert(contentsOf: [
            "BEGIN:VEVENT", "UID:yoga", "DTSTAMP:20261101T080000Z", "RECURRENCE-ID;TZID=Europe/Madrid:20261124T183000", "DTSTART;TZID=Europe/Madrid:20261124T183000",
            "DURATION:PT1H", "SUMMARY:Yoga", "ATTENDEE;CN=Marta Roig;PARTSTAT=ACCEPTED;X-HORARI-MEMBER=marta:urn:x-horari:member:marta", "END:VEVENT",
        ], at: end)
        let broken = lines.joined(separator: "\r\n")
        let read = try ICalendarImporter().importCalendar(from: broken)
        let calendar = read.calendar
        // The strict reading still throws the first, typed.
        #expect(refusal { _ = try calendar.schedulingBook() } != nil)
        let check = try calendar.schedulingCheck()
        let recordLines = read.sourceLines  // as the importer numbered them, with no second reading
        let begin = { (i: Int) in (lines[..<i].lastIndex(of: "BEGIN:VEVENT") ?? -1) + 1 }
        let found = check.problems.map { p in "\(recordLines.line(of: p.record).map(String.init) ?? "?") \(p.severity.rawValue) \(p.message)" }
        #expect(found == [
            "\(begin(capacity)) error X-HORARI-CAPACITY: class ‘spin’: the capacity is not a whole number",
            "\(begin(yoga23)) error X-HORARI-BOOKED: member ‘marta’ appears twice in the roster of yoga@2026-11-23",
            "\(begin(yoga23)) error the roster of yoga on 2026-11-23 has on its waiting list ‘ghost’, who is not a member",
            "\(begin(end + 3)) error Yoga does not meet on Tuesday 2026-11-24; it meets Mondays and Wednesdays at 18:30 from 2026-09-07",
        ])
        // Bare-CR line ends (classic Mac OS, issue 28): the same lines, as the importer numbers them.
        let crOnly = try ICalendarImporter().importCalendar(from: lines.joined(separator: "\r")).sourceLines
        #expect(check.problems.map { crOnly.line(of: $0.record) } == check.problems.map { recordLines.line(of: $0.record) })
        #expect(check.problems.map(\.repair) == [
            "the class is removed, with the rosters of its 1 booked occurrence", "the second mention is removed", "the booking of ‘ghost’ is removed", "the roster is removed",
        ])
        // The repaired book: the unreadable class (and its roster), the ghost, the second marta and the bad roster left out; the rest as before.
        let repaired = check.book
        let before = try busyGym()
        #expect(repaired.members == before.members)
        #expect(repaired.coaches == before.coaches)
        #expect(try repaired.sessions(coach: "marc") == before.sessions(coach: "marc"))
        #expect((try? repaired.classSeries("spin")) == nil)
        #expect(try repaired.classSeries("yoga") == before.classSeries("yoga"))
        #expect(try repaired.roster(classID: "yoga", on: Gym.day("2026-11-23")).confirmed == before.roster(classID: "yoga", on: Gym.day("2026-11-23")).confirmed)
        var saved = calendar
        saved.setScheduling(repaired)
        let again = try ICalendarImporter().importCalendar(from: exporter.export(saved)).calendar
        #expect(try again.schedulingCheck().problems.isEmpty)
        _ = try again.schedulingBook()
    }

    /// The book's earlier form (coaches, clients, members and rosters as
    /// `X-HORARI-*` components, as files written before held it) still reads,
    /// and saving writes the standard form with the same book in it.
    @Test("a file of the book's earlier form reads, and saving it migrates it losslessly")
    func earlierFormMigrates() throws {
        let earlier = try ICalendarImporter().importCalendar(contentsOf: try Fixture.url("ics/gym-form1.ics")).calendar
        #expect(earlier.components.contains { $0.name == "X-HORARI-ROSTER" })
        let book = try earlier.schedulingBook()
        #expect(try book.roster(classID: "pilates", on: Gym.day("2026-11-26")).waitlist == ["aina"])
        var migrated = earlier
        migrated.setScheduling(book)
        let text = exporter.export(migrated)
        #expect(!text.contains("X-HORARI-ROSTER") && !text.contains("BEGIN:X-HORARI-"))
        let reread = try ICalendarImporter().importCalendar(from: text).calendar
        let again = try reread.schedulingBook()
        #expect(again.backupContent() == book.backupContent())
        // Everything else in the file is as it was.
        #expect(reread.items.filter { !SchedulingBook.isSchedulingItem($0) }.map(\.uid) == earlier.items.filter { !SchedulingBook.isSchedulingItem($0) }.map(\.uid))
        // And the sample, which the CLI builds, is that same book in the standard
        // form — but for when a session was marked completed, which the earlier
        // form did not keep (issue 31, 5).
        let sampleText = try String(contentsOf: SchedulingFileTests.sample, encoding: .utf8)
        #expect(sampleText.contains("X-HORARI-COMPLETED:"))
        let sample = try ICalendarImporter().importCalendar(
            from: sampleText.components(separatedBy: "\r\n").filter { !$0.hasPrefix("X-HORARI-COMPLETED:") }.joined(separator: "\r\n")).calendar
        #expect(try sample.schedulingBook().backupContent() == book.backupContent())
    }

    @Test("a roster with more bookings than places is a warning the book allows, not an error")
    func overCapacity() throws {
        // Yoga has 3 places; a hand edit books a fourth member.
        let ics = try text(try busyGym(), .everything).replacingOccurrences(of: "\r\n ", with: "")
            .replacingOccurrences(of: "PARTSTAT=TENTATIVE;X-HORARI-MEMBER=xavi;X-HORARI-WAITLIST-POSITION=1", with: "PARTSTAT=ACCEPTED;X-HORARI-MEMBER=xavi")
        let calendar = try ICalendarImporter().importCalendar(from: ics).calendar
        _ = try calendar.schedulingBook()
        let problems = try calendar.schedulingCheck().problems
        #expect(problems.map(\.severity) == [.warning])
        #expect(problems.first?.message.hasPrefix("yoga on 2026-11-23 holds 4 bookings for 3 places") == true)
        #expect(problems.first?.repair == nil)
    }
}
