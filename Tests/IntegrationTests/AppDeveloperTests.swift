import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit
import SchedulingICalendar
import _SchedulingTestSupport
import Testing

/// Issue 18: the library as a Swift app developer meets it. Foundation's own
/// `Calendar` is the referee for the bridges; the book's JSON and its `.ics`
/// backup are each other's.
@Suite("The library as an app developer meets it")
struct AppDeveloperTests {
    static let madrid = TimeZone(identifier: "Europe/Madrid") ?? .gmt
    static let tokyo = TimeZone(identifier: "Asia/Tokyo") ?? .gmt

    @Test("Date ⇄ LocalDate/LocalDateTime agree with Foundation's Calendar in every zone, for 2,000 instants")
    func bridgesAgreeWithFoundation() throws {
        var rng = SystemRandomNumberGenerator()
        for zone in [Self.madrid, Self.tokyo, TimeZone(identifier: "America/Santiago") ?? .gmt, TimeZone(identifier: "Australia/Lord_Howe") ?? .gmt] {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            for _ in 0..<500 {
                let date = Date(timeIntervalSince1970: TimeInterval(Int64.random(in: 0...4_102_444_800, using: &rng)))
                let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
                let wall = LocalDateTime(date, in: zone)
                #expect([wall.date.year, wall.date.month, wall.date.day, wall.hour, wall.minute, wall.second] == [c.year, c.month, c.day, c.hour, c.minute, c.second])
                #expect(LocalDate(date, in: zone) == wall.date)
                // Back again: a reading that is not repeated names the same instant.
                if case .unique = ZoneRules.of(zone).reading(ofWall: wall.localSeconds) { #expect(wall.date(in: zone) == date) }
                #expect(try LocalDateTime(wall.dateComponents) == wall)
                #expect(try LocalDate(calendar.dateComponents([.year, .month, .day], from: date)) == wall.date)
            }
        }
    }

    @Test("gaps and folds follow RFC 5545 §3.3.5, as every expansion does; today is the zone's")
    func gapsFoldsAndToday() throws {
        let gap: LocalDateTime = "2026-03-29T02:30"  // Madrid skips 02:00–03:00
        #expect(gap.date(in: Self.madrid) == Date(timeIntervalSince1970: 1_774_747_800))  // 01:30Z, shown as 03:30 CEST
        let fold: LocalDateTime = "2026-10-25T02:30"  // Madrid shows 02:00–03:00 twice; the first is CEST
        #expect(fold.date(in: Self.madrid) == Date(timeIntervalSince1970: 1_792_888_200))  // 00:30Z
        let instant = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18T11:06:40Z
        #expect(LocalDate.today(in: Self.madrid, now: instant) == "2026-11-18")
        #expect(LocalDate.today(in: TimeZone(identifier: "Pacific/Kiritimati") ?? .gmt, now: instant) == "2026-11-19")  // UTC+14
        #expect(LocalDate.today(in: TimeZone(identifier: "Pacific/Pago_Pago") ?? .gmt, now: instant) == "2026-11-18")  // UTC-11
        #expect(CalendarTime(instant, in: Self.madrid) == .zoned("2026-11-18T12:06:40", "Europe/Madrid"))
        #expect(try CalendarTime(instant, in: Self.madrid).date(floatingZone: .utc) == instant)
        let components = CalendarTime.zoned("2026-11-18T12:06:40", "Europe/Madrid").dateComponents
        #expect(components.timeZone == Self.madrid && components.hour == 12)
        #expect(try CalendarTime(components) == .zoned("2026-11-18T12:06:40", "Europe/Madrid"))
        #expect(try CalendarTime(DateComponents(year: 2026, month: 11, day: 19)) == .date("2026-11-19"))
        #expect(throws: TimeValueError.self) { try LocalDate(DateComponents(year: 2026, month: 2, day: 30)) }
    }

    @Test("literals need no try; lengths are Durations; ItemDuration converts both ways")
    func literalsAndLengths() throws {
        let d: LocalDate = "2026-11-26", t: LocalDateTime = "2026-11-26 18:30", time: TimeOfDay = "18:30", range: TimeRange = "09:00-13:00"
        #expect(d == (try LocalDate(year: 2026, month: 11, day: 26)))
        #expect(t == (try LocalDateTime(year: 2026, month: 11, day: 26, hour: 18, minute: 30)))
        #expect(try time == TimeOfDay(hour: 18, minute: 30) && range.end == TimeOfDay(hour: 13))
        #expect(ItemDuration(.minutes(90)) == ItemDuration(seconds: 5400) && ItemDuration(days: 1, seconds: 60).duration == .seconds(86_460))
        #expect(CalendarItem.End.lasting(.hours(1)) == .duration(ItemDuration(seconds: 3600)))
    }

    @Test("errors are caught by code, typed or not, and keep what they were made from")
    func catchByCode() throws {
        var caught: [String] = []
        do { _ = try LocalDate(year: 2026, month: 2, day: 30) } catch TimeValueError.Code.impossibleDate { caught.append("typed") } catch { caught.append("other") }
        do { try Self.untyped() } catch CalendarItemError.Code.reservedColor { caught.append("untyped") } catch { caught.append("other") }
        do { _ = try LocalDate(year: 2026, month: 13, day: 1) } catch TimeValueError.Code.impossibleDate { caught.append("wrong") } catch { caught.append("not matched") }
        #expect(caught == ["typed", "untyped", "not matched"])
        let item = CalendarItem(uid: "x", title: "Run", start: .zoned("2026-11-26T18:00", "Mars/Olympus"))
        do { try item.validate() } catch {
            #expect(error.field == .start && (error.underlying as? TimeValueError)?.code == .unknownTimeZone)
        }
    }

    static func untyped() throws {
        var item = CalendarItem(uid: "x", title: "Run", start: .zoned("2026-11-26T18:00", "Europe/Madrid"))
        item.color = try .named("crimson")
        try item.validate()
    }

    @Test("STATUS is an enum; a value the RFC does not define survives import and export as written")
    func statusRoundTrip() throws {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VTODO\r\nUID:a\r\nDTSTAMP:20261101T000000Z\r\nDUE:20261102T100000Z\r\nSUMMARY:A\r\nSTATUS:in-process\r\nEND:VTODO\r\nBEGIN:VEVENT\r\nUID:b\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:20261101T100000Z\r\nSUMMARY:B\r\nSTATUS:X-POSTPONED\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let calendar = try ICalendarImporter().importCalendar(from: text).calendar
        #expect(calendar.items.map(\.status) == [.inProcess, .other("X-POSTPONED")])
        let back = ICalendarExporter().export(calendar)
        #expect(back.contains("STATUS:X-POSTPONED") && back.contains("STATUS:IN-PROCESS"))
    }

    /// A book with every kind of record: hours and a day off, a buffer, colours, sessions of each status
    /// (one at the second 02:30 of the night the clocks go back), a class with a cancelled and a moved
    /// occurrence, a full roster with a waitlist, and a policy.
    static func fullBook() throws -> SchedulingBook {
        var book = try Gym.book()
        book.policy = SchedulingPolicy(minimumNotice: .hours(2))
        var marc = try book.coach("marc")
        marc.workingHours.exceptions["2026-12-24"] = []
        marc.color = try .named("teal")
        try book.updateCoach(marc)
        let now = try Gym.now("2026-11-20 09:00")
        try book.addSession(id: "s1", coach: "marc", client: "anna", start: "2026-11-23T10:00", duration: .minutes(60), location: "Gym", notes: "legs", workoutType: "Strength", now: now)
        try book.addSession(id: "s2", coach: "marc", client: "pau", start: "2026-11-24T17:00", duration: .minutes(45), color: try .named("orange"), now: now)
        try book.setStatus(.noShow, ofSession: "s2", coach: "marc", now: Gym.now("2026-11-24 18:00"))
        book.policy = nil
        try book.addSession(id: "fold", coach: "laia", client: "joan", startingAt: Date(timeIntervalSince1970: 1_792_891_800), duration: .minutes(30))
        try book.cancelOccurrence(classID: "yoga", on: "2026-11-30")
        try book.moveOccurrence(classID: "yoga", on: "2026-12-02", to: "2026-12-03T19:00", duration: .minutes(75))
        let early = try Gym.now("2026-11-01 09:00")
        for m in ["marta", "oriol", "nuria"] { try book.book(member: m, classID: "yoga", on: "2026-11-23", now: early) }
        try book.addMember(Member(id: "joana", name: "Joana"))
        try book.book(member: "joana", classID: "yoga", on: "2026-11-23", now: early, whenFull: .joinWaitlist)
        book.policy = SchedulingPolicy(minimumNotice: .hours(2))
        return book
    }

    @Test("a book saved as JSON reads back the same, agrees with its .ics backup, and writes no Swift enum layout")
    func bookJSONRoundTrip() throws {
        let book = try Self.fullBook()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let json = try encoder.encode(book)
        let text = String(decoding: json, as: UTF8.self)
        let back = try JSONDecoder().decode(SchedulingBook.self, from: json)
        #expect(try encoder.encode(back) == json)
        #expect(!text.contains("_0") && text.contains("\"duration\" : \"PT1H15M\"") && text.contains("\"start\" : \"2026-11-23T10:00:00\""))
        #expect(text.contains("\"kind\" : \"moved\"") && text.contains("\"monday\" : [") && text.contains("\"minimumNotice\" : \"PT2H\""))
        #expect(back.policy == book.policy && back.timeZone.identifier == "Europe/Madrid")
        #expect(try back.roster(classID: "yoga", on: "2026-11-23").waitlist == ["joana"])
        #expect(try back.session("fold", coach: "laia").isLaterOfRepeatedTime)
        // The .ics backup is the other door: it keeps everything but the policy.
        let calendar = try ICalendarImporter().importCalendar(from: ICalendarExporter().export(ICalendar(book, for: .everything))).calendar
        var viaICS = try calendar.schedulingBook()
        viaICS.policy = book.policy
        #expect(try encoder.encode(viaICS) == json)
    }

    @Test("JSON the book refuses is refused with the book's own error")
    func badJSON() throws {
        var book = try Gym.book()
        book.policy = nil
        var json = String(decoding: try JSONEncoder().encode(book), as: UTF8.self)
        json = json.replacingOccurrences(of: "\"sessions\":[]", with: "\"sessions\":[{\"id\":\"x\",\"coachID\":\"marc\",\"clientID\":\"joan\",\"start\":\"2026-11-23T10:00:00\",\"duration\":\"PT1H\",\"status\":\"scheduled\"}]")
        #expect(throws: SchedulingError.unknownClient("joan", coach: "marc")) { try JSONDecoder().decode(SchedulingBook.self, from: Data(json.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SchedulingBook.self, from: Data("{\"schema\":2}".utf8)) }
    }

    @Test("a policy refuses times outside the coach's hours, in the past, too soon, or skipped by the clocks")
    func policy() throws {
        var book = try Gym.book()
        book.policy = SchedulingPolicy(minimumNotice: .hours(24))
        let now = try Gym.now("2026-11-23 09:00")
        func refused(_ start: LocalDateTime, coach: String = "marc", client: String = "anna") -> PolicyRefusal? {
            do { try book.addSession(coach: coach, client: client, start: start, duration: .minutes(60), now: now) } catch .refusedByPolicy(let why) { return why } catch { return nil }
            return nil
        }
        #expect(refused("2026-11-25T12:30")?.description == "Wed 2026-11-25 12:30–13:30 is outside the working hours of coach ‘marc’, who works 09:00-13:00 and 16:00-20:00 that day; pick a time within them")
        #expect(refused("2026-11-22T10:00")?.description == "Sun 2026-11-22 10:00 is in the past; pick a later time")
        #expect(refused("2026-11-23T16:00")?.description == "Mon 2026-11-23 16:00 is less than 24 hours from now; book at least that far ahead")
        #expect(refused("2026-11-28T10:00")?.description.contains("who does not work that day") == true)
        try book.addCoach(Coach(id: "night", name: "Night Owl"))  // no hours set: not limited by them
        try book.addClient(Client(id: "owl", coachID: "night", name: "Owl"))
        book.policy?.minimumNotice = .zero
        #expect(refused("2027-03-28T02:30", coach: "night", client: "owl")?.description == "2027-03-28 02:30 does not exist in Europe/Madrid (the clocks skip it; it would be 03:30); pick another time")
        #expect(refused("2026-11-28T23:00", coach: "night", client: "owl") == nil)
        #expect(try book.sessions(coach: "marc").isEmpty, "nothing refused was booked")
    }

    @Test("removing a session, a client, a coach and a member follows the documented rules")
    func removals() throws {
        var book = try Self.fullBook()
        book.policy = nil
        #expect(throws: SchedulingError.coachHasClients("marc", clients: 2)) { try book.removeCoach("marc") }
        let gone = try book.removeClient("anna", coach: "marc")
        #expect(gone.map(\.id) == ["s1"])
        #expect(throws: SchedulingError.noSuchClient("anna")) { try book.client("anna") }
        // Anna's time is free again: another client takes it.
        try book.addSession(coach: "marc", client: "pau", start: "2026-11-23T10:00", duration: .minutes(60))
        _ = try book.removeClient("pau", coach: "marc")
        try book.removeCoach("marc")
        #expect(throws: SchedulingError.unknownCoach("marc")) { try book.coach("marc") }
        // A member leaves: their place passes to the first waiting.
        let left = try book.removeMember("oriol", now: try Gym.now("2026-11-20 09:00"))
        #expect(left[ClassOccurrence.ID(classID: "yoga", date: "2026-11-23")] == Cancellation(heldPlace: true, promoted: "joana"))
        #expect(try book.roster(classID: "yoga", on: "2026-11-23").confirmed == ["marta", "nuria", "joana"])
        let s = try book.removeSession("fold", coach: "laia")
        #expect(try s.id == "fold" && book.sessions(coach: "laia").isEmpty)
    }

    @Test("free slots align to the clock; a member's agenda and schedule show waitlist places; the week's timetable shows places left")
    func slotsAgendaTimetable() throws {
        var book = try Gym.book()
        try book.addSession(coach: "marc", client: "anna", start: "2026-11-23T16:00", duration: .minutes(55))
        let raw = try book.freeSlots(coach: "marc", from: "2026-11-23", through: "2026-11-23", length: .minutes(60), step: .minutes(30))
        let aligned = try book.freeSlots(coach: "marc", from: "2026-11-23", through: "2026-11-23", length: .minutes(60), step: .minutes(30), alignedTo: .minutes(15))
        #expect(raw.filter { $0.start.hour >= 16 }.map(\.start.description) == ["2026-11-23T16:55:00", "2026-11-23T17:25:00", "2026-11-23T17:55:00", "2026-11-23T18:25:00", "2026-11-23T18:55:00"])
        #expect(aligned.filter { $0.start.hour >= 16 }.map(\.start.description) == ["2026-11-23T17:00:00", "2026-11-23T17:30:00", "2026-11-23T18:00:00", "2026-11-23T18:30:00", "2026-11-23T19:00:00"])
        let early = try Gym.now("2026-11-01 09:00")
        for m in ["marta", "oriol", "nuria"] { try book.book(member: m, classID: "yoga", on: "2026-11-25", now: early) }
        try book.addMember(Member(id: "joana", name: "Joana"))
        try book.book(member: "joana", classID: "yoga", on: "2026-11-23", now: early)
        #expect(try book.book(member: "joana", classID: "yoga", on: "2026-11-25", now: early, whenFull: .joinWaitlist) == .waitlisted(position: 1))
        #expect(try book.agenda(member: "joana").map(\.place) == [.booked, .waitlisted(position: 1)])
        let schedule = try book.memberSchedule(member: "joana")
        // Her places are the dates of Yoga her invitations name: one UID, each date by its RECURRENCE-ID (issue 41, 2).
        let places = schedule.occurrences(from: try Gym.now("2026-11-23 00:00"), to: try Gym.now("2026-11-26 00:00"))
        #expect(schedule.items.map(\.uid) == ["yoga@gym.example"] && places.map(\.item.title) == ["Yoga", "Yoga (waitlist 1)"] && places.map(\.item.status) == [.confirmed, .tentative])
        #expect(places.map(\.id.recurrenceID) == [.zoned(try Gym.at("2026-11-23 18:30"), Gym.zone), .zoned(try Gym.at("2026-11-25 18:30"), Gym.zone)])
        let week = try book.timetable(weekOf: "2026-11-26", member: "joana")
        #expect(week.map(\.date.description).first == "2026-11-23" && week.count == 7)
        let wednesday = try #require(week[2].entries.first)
        #expect(wednesday.occurrence.placesLeft == 0 && wednesday.occurrence.waiting == 1 && wednesday.place == .waitlisted(position: 1) && wednesday.location == "Sala 2")
        #expect(week[0].entries.first?.occurrence.placesLeft == 2 && week[0].entries.first?.place == .booked)
    }

    @Test("desks: perform takes an ordinary throwing closure; a client sees only their own sessions; a coach edits and looks back")
    func desks() async throws {
        let scheduler = FrontDesk(book: try Gym.book())
        // The friction of issue 18: this did not compile while `perform` demanded a typed closure.
        try await scheduler.perform { try $0.addCoach(Coach(id: "eva", name: "Eva")) }
        let typed: Void = try await scheduler.perform { (book: inout SchedulingBook) throws(SchedulingError) in try book.addMember(Member(id: "lu", name: "Lu")) }
        _ = typed
        let marc = try await scheduler.coach("marc")
        let now = try Gym.now("2026-11-20 09:00")
        try await marc.addSession(id: "a1", client: "anna", start: "2026-11-18T10:00", duration: .minutes(60), now: now)
        try await marc.addSession(id: "a2", client: "anna", start: "2026-11-23T10:00", duration: .minutes(60), now: now)
        try await marc.addSession(id: "p1", client: "pau", start: "2026-11-24T10:00", duration: .minutes(60), now: now)
        let edited = try await marc.editSession("a2") { $0.notes = "bring a towel"; $0.workoutType = "Mobility" }
        #expect(edited.notes == "bring a towel" && edited.workoutType == "Mobility")
        #expect(try await marc.pastSessions(before: now).map(\.id) == ["a1"])
        #expect(try await marc.client("anna").name == "Anna Puig")
        await #expect(throws: SchedulingError.unknownClient("joan", coach: "marc")) { try await marc.client("joan") }
        let anna = try await scheduler.client("anna")
        #expect(try await anna.sessions().map(\.id) == ["a1", "a2"])
        #expect(try await anna.upcomingSessions(after: now).map(\.id) == ["a2"])
        #expect(try await anna.schedule().items.map(\.uid) == ["a1", "a2"])
        let slots = try await marc.freeSlots(from: "2026-11-23", through: "2026-11-23", length: .minutes(60), alignedTo: .minutes(15))
        let booked = try await marc.addSession(in: slots[0], client: "pau", now: now)
        #expect(booked.start == "2026-11-23T09:00")
    }
}
