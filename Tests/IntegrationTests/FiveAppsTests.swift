import CalendarCore
import CalendarScheduling
import CalendarViews
import Foundation
import ICalendarKit
import SchedulingICalendar
import Testing
import _CalendarTestFixtures
import _CalendarTestSupport
import _SchedulingTestSupport

/// What the five apps needed beyond the first release (issue 17): done
/// tasks, IDs a person can type, sessions with colours, types and a history,
/// and JSON without Swift's enum layout.
@Suite("The five apps: done tasks, short IDs, session history, JSON")
struct FiveAppsTests {
    static var planner: URL { get throws { try Fixture.url("ics/planner.ics") } }

    // MARK: Done tasks

    @Test("a task marked done is written as RFC 5545 has it, read back done, and reopened without a trace")
    func doneRoundTrip() throws {
        var calendar = try ICalendarImporter().importCalendar(contentsOf: Self.planner).calendar
        let uid = "6f1c2a9e-77aa-4c11-8d2e-5b9f3c1e0d42"
        let now = Date(timeIntervalSince1970: 1_795_339_200)  // 2026-11-22T09:20:00Z
        let done = try calendar.markDone(uid: uid, at: now)
        #expect(done.isDone && done.status == .completed && done.sequence == 1)
        let text = ICalendarExporter().export(calendar)
        let vtodo = try #require(text.components(separatedBy: "BEGIN:VTODO").first { $0.contains("UID:\(uid)") })
        #expect(vtodo.contains("STATUS:COMPLETED\r\n") && vtodo.contains("COMPLETED:20261122T092000Z\r\n") && vtodo.contains("PERCENT-COMPLETE:100\r\n"))
        var back = try ICalendarImporter().importCalendar(from: text).calendar
        #expect(back.item(uid: uid)?.isDone == true)
        #expect(back.item(uid: uid)?.completed == .utc(try LocalDateTime(year: 2026, month: 11, day: 22, hour: 9, minute: 20)))
        let reopened = try back.reopen(uid: uid, at: now)
        #expect(!reopened.isDone && reopened.status == .needsAction)
        #expect(!reopened.properties.contains { $0.name == "COMPLETED" || $0.name == "PERCENT-COMPLETE" })
        // An event cannot be done; nothing changes.
        let before = back
        #expect(throws: CalendarItemError.self) { try back.markDone(uid: "c9d8e7f6-1111-4a2b-9c3d-4e5f6a7b8c9d", at: now) }
        #expect(back == before)
    }

    @Test("the store marks done and reopens as the calendar does")
    func storeDone() async throws {
        let due = CalendarTime.zoned(try LocalDateTime(year: 2026, month: 11, day: 25, hour: 18), "Europe/Madrid")
        let store = try LiveSchedule(items: [CalendarItem(uid: "essay", kind: .task, title: "Essay", start: due, hasStart: false)])
        try await store.markDone(uid: "essay", at: Date(timeIntervalSince1970: 1_795_341_600))
        #expect(await store.snapshot.item(uid: "essay")?.isDone == true)
        try await store.reopen(uid: "essay")
        #expect(await store.snapshot.item(uid: "essay")?.isDone == false)
        await #expect(throws: CalendarItemError.self) { try await store.markDone(uid: "nothing") }
    }

    @Test("done tasks are shown but not counted: a day is red only when several items are still to do")
    func doneNotCounted() throws {
        let schedule = try ICalendarImporter().importCalendar(contentsOf: Self.planner).calendar.schedule()
        let zone = try ZoneRules.named("Europe/Madrid")
        let month = MonthView(year: 2026, month: 11, schedule: schedule, options: .init(timeZone: zone))
        let days = Dictionary(uniqueKeysWithValues: month.weeks.flatMap(\.days).map { ($0.date.description, $0.marker) })
        // The 25th: the lab and the maths set are open, the essay is done.
        #expect(days["2026-11-25"] == .several(count: 2))
        // The 26th: one open task (a colourless one) and a done one.
        #expect(days["2026-11-26"] == .single(.fallback))
        let week = WeekView(containing: try LocalDate(year: 2026, month: 11, day: 25), schedule: schedule, options: .init(firstWeekday: .monday, timeZone: zone))
        let wednesday = try #require(week.days.first { $0.date.day == 25 })
        #expect(wednesday.content == .several(count: 2) && wednesday.done == 1)
        let day = DayView(date: try LocalDate(year: 2026, month: 11, day: 25), schedule: schedule, options: .init(timeZone: zone))
        #expect(day.timed.map(\.occurrence.isDone) == [false, true, false])
    }

    // MARK: Short IDs

    @Test("short IDs are the shortest unique prefixes of at least six characters, and each resolves to its UID")
    func shortIDs() throws {
        let ids = ShortIDs(["yoga", "yoga-2", "6f1c2a9e-1b7d", "6f1c2a9e-77aa", "b3e4d5c6-0a1b", "abcdefgh", "abcdefgz"])
        #expect(ids.short(for: "yoga") == "yoga" && ids.short(for: "yoga-2") == "yoga-2")
        #expect(ids.short(for: "6f1c2a9e-1b7d") == "6f1c2a9e-1" && ids.short(for: "b3e4d5c6-0a1b") == "b3e4d5")
        #expect(ids.short(for: "abcdefgh") == "abcdefgh")
        #expect(ids.resolve("yoga") == .found("yoga"))   // a whole UID wins over the prefix of another
        #expect(ids.resolve("6f1c2a") == .ambiguous(["6f1c2a9e-1b7d", "6f1c2a9e-77aa"]))
        #expect(ids.resolve("b3e4") == .found("b3e4d5c6-0a1b"))
        #expect(ids.resolve("zzz") == .notFound && ids.resolve("") == .notFound)
        // A thousand random UUIDs: every printed ID names its own item.
        var random = SplitMix64(seed: 17)
        let uids = (0..<1000).map { _ in String(format: "%08x-%04x", UInt32(truncatingIfNeeded: random.next()), UInt16(truncatingIfNeeded: random.next() >> 40)) }
        let many = ShortIDs(uids)
        for uid in uids {
            let short = many.short(for: uid)
            #expect(short.count >= min(6, uid.count) && uid.hasPrefix(short))
            #expect(many.resolve(short) == .found(uid), "\(uid) printed as \(short)")
        }
    }

    // MARK: Sessions

    @Test("a session's colour is its own, else its client's, else its coach's, and it survives the file with its type")
    func sessionColours() throws {
        var book = try Gym.book()
        var marc = try book.coach("marc")
        marc.color = try .named("teal")
        try book.updateCoach(marc)
        var anna = try book.client("anna", coach: "marc")
        anna.color = try .named("orange")
        try book.updateClient(anna, coach: "marc")
        try book.addSession(id: "a1", coach: "marc", client: "anna", start: Gym.at("2026-11-24 10:00"), duration: .minutes(60), workoutType: "Strength")
        try book.addSession(id: "a2", coach: "marc", client: "anna", start: Gym.at("2026-11-25 10:00"), duration: .minutes(60), color: try .named("royalblue"))
        try book.addSession(id: "p1", coach: "marc", client: "pau", start: Gym.at("2026-11-26 10:00"), duration: .minutes(60))
        #expect(try ["a1", "a2", "p1"].map { book.color(of: try book.session($0, coach: "marc"))?.description } == ["orange", "royalblue", "teal"])
        #expect(refusal { try book.addSession(coach: "marc", client: "pau", start: Gym.at("2026-11-27 10:00"), duration: .minutes(60), color: try .named("firebrick")) }
                == .invalid(field: .color, reason: ReservedRedFamily().refusal(of: try .named("firebrick")) ?? ""))
        var calendar = ICalendar()
        calendar.setScheduling(book)
        let text = ICalendarExporter().export(calendar)
        #expect(text.contains("CATEGORIES:Strength\r\n") && text.contains("X-HORARI-COLOR:teal\r\n"))
        let back = try ICalendarImporter().importCalendar(from: text).calendar.schedulingBook()
        #expect(try back.session("a1", coach: "marc") == book.session("a1", coach: "marc"))
        #expect(try back.session("a2", coach: "marc").color?.description == "royalblue")
        #expect(try back.session("a1", coach: "marc").color == nil)   // follows Anna's colour
        #expect(try back.client("anna", coach: "marc").color?.description == "orange")
    }

    @Test("a client's history is newest first, whatever the status, and a coach's scope hides other coaches' clients")
    func history() throws {
        var book = try Gym.book()
        try book.addSession(id: "old", coach: "marc", client: "anna", start: Gym.at("2026-11-02 10:00"), duration: .minutes(60))
        try book.addSession(id: "mid", coach: "marc", client: "anna", start: Gym.at("2026-11-09 10:00"), duration: .minutes(60))
        try book.addSession(id: "new", coach: "marc", client: "anna", start: Gym.at("2026-11-30 10:00"), duration: .minutes(60))
        try book.addSession(id: "pau", coach: "marc", client: "pau", start: Gym.at("2026-11-10 10:00"), duration: .minutes(60))
        let now = try Gym.now("2026-11-22 12:00")
        try book.setStatus(.completed, ofSession: "old", coach: "marc", now: now)
        try book.setStatus(.noShow, ofSession: "mid", coach: "marc", now: now)
        #expect(try book.history(client: "anna").map(\.id) == ["new", "mid", "old"])
        #expect(try book.history(client: "anna", coach: "marc", limit: 2).map(\.id) == ["new", "mid"])
        #expect(try book.history(client: "anna").map(\.status) == [.scheduled, .noShow, .completed])
        // Laia asking about Marc's client hears what she hears about nobody.
        #expect(refusal { _ = try book.history(client: "anna", coach: "laia") } == .unknownClient("anna", coach: "laia"))
        #expect(refusal { _ = try book.history(client: "ghost", coach: "laia") } == .unknownClient("ghost", coach: "laia"))
        #expect(refusal { _ = try book.history(client: "ghost") } == .noSuchClient("ghost"))
    }

    // MARK: JSON

    @Test("views encode without Swift's enum layout: markers and contents by kind, times as ISO strings, pages as tokens")
    func viewJSON() throws {
        let schedule = try ICalendarImporter().importCalendar(contentsOf: Self.planner).calendar.schedule()
        let zone = try ZoneRules.named("Europe/Madrid")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let month = MonthView(year: 2026, month: 11, schedule: schedule, options: .init(timeZone: zone))
        let week = WeekView(containing: try LocalDate(year: 2026, month: 11, day: 25), schedule: schedule, options: .init(timeZone: zone))
        let list = ListView(from: try LocalDate(year: 2026, month: 11, day: 25), schedule: schedule, options: .init(timeZone: zone, limit: 2))
        for json in [try encoder.encode(month), try encoder.encode(week), try encoder.encode(list)].map({ String(decoding: $0, as: UTF8.self) }) {
            #expect(!json.contains("\"_0\"") && !json.contains("\"_1\""))
        }
        let monthJSON = String(decoding: try encoder.encode(month), as: UTF8.self)
        #expect(monthJSON.contains(#""marker":{"count":2,"kind":"several"}"#) && monthJSON.contains(#""marker":{"kind":"none"}"#))
        let listJSON = String(decoding: try encoder.encode(list), as: UTF8.self)
        #expect(listJSON.contains(#""start":"2026-11-25T10:00:00+01:00""#) && listJSON.contains(##""hex":"#ff8c00","name":"darkorange""##))
        // The token is opaque, URL-safe, and reads back as the same place.
        let next = try #require(list.nextPage)
        #expect(next.token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(ListView.Cursor(token: next.token) == next && ListView.Cursor(token: "not a token") == nil)
        #expect(try JSONDecoder().decode(ListView.self, from: encoder.encode(list)) == list)
        #expect(try JSONDecoder().decode(WeekView.self, from: encoder.encode(week)) == week)
        #expect(try JSONDecoder().decode(MonthView.self, from: encoder.encode(month)) == month)
    }
}
