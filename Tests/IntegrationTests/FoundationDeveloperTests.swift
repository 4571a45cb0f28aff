import CalendarCore
import CalendarScheduling
import CalendarViews
import Foundation
import ICalendarKit
import SchedulingICalendar
import Testing
import _SchedulingTestSupport

/// Issue 30, 5: what two apps written on the library as a Swift developer
/// would write them found missing, each used here as such an app would.
@Suite("Foundation developers' frictions")
struct FoundationDeveloperTests {
    /// An Outlook export of a meeting on a zone the user customised in
    /// Outlook: Outlook names such a zone "Customized Time Zone" and defines
    /// it only in the file (its VTIMEZONE), so no system knows the name.
    static let outlookCustomZone = """
        BEGIN:VCALENDAR\r
        PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN\r
        VERSION:2.0\r
        METHOD:PUBLISH\r
        BEGIN:VTIMEZONE\r
        TZID:Customized Time Zone\r
        BEGIN:STANDARD\r
        DTSTART:16011104T020000\r
        RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11\r
        TZOFFSETFROM:-0400\r
        TZOFFSETTO:-0500\r
        END:STANDARD\r
        BEGIN:DAYLIGHT\r
        DTSTART:16010311T020000\r
        RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3\r
        TZOFFSETFROM:-0500\r
        TZOFFSETTO:-0400\r
        END:DAYLIGHT\r
        END:VTIMEZONE\r
        BEGIN:VEVENT\r
        CLASS:PUBLIC\r
        DTEND;TZID="Customized Time Zone":20261201T100000\r
        DTSTAMP:20261120T151210Z\r
        DTSTART;TZID="Customized Time Zone":20261201T090000\r
        RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU\r
        SEQUENCE:0\r
        SUMMARY;LANGUAGE=en-us:Budget review\r
        UID:040000008200E00074C5B7101A82E00800000000A0B5E4C1E44FDC01000000000000000010000000\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test("Schedule(items:) refuses an item whose zone only its file defines, and places it given the file's zones")
    func fileDefinedZone() throws {
        let calendar = try ICalendarImporter().importCalendar(from: Self.outlookCustomZone).calendar
        let refusal = #expect(throws: CalendarItemError.self) { _ = try Schedule(items: calendar.items) }
        #expect(refusal?.code == .unknownTimeZone)
        #expect(refusal?.description.contains("‘Customized Time Zone’") == true)
        #expect(refusal?.description.contains("calendar.zones") == true)
        let december = DateInterval(start: Date(timeIntervalSince1970: 1_796_083_200), end: Date(timeIntervalSince1970: 1_798_761_600))
        let given = try Schedule(items: calendar.items, zones: calendar.zones).occurrences(in: december)
        let own = calendar.schedule().occurrences(in: december)
        #expect(given.map(\.startInstant) == own.map(\.startInstant))
        // 09:00 at UTC−5 (the zone's standard time in December) is 14:00Z.
        #expect(given.map { Int($0.startInstant.timeIntervalSince1970) % 86_400 } == [14 * 3600, 14 * 3600, 14 * 3600, 14 * 3600])
    }

    @Test("validate knows every zone an item names, an RDATE's too")
    func validateEveryZone() throws {
        var item = CalendarItem(uid: "a", title: "Run", start: .zoned(try LocalDateTime(year: 2026, month: 12, day: 1, hour: 9), "Europe/Madrid"))
        item.recurrenceDates = [.zoned(try LocalDateTime(year: 2026, month: 12, day: 3, hour: 9), "Office Zone")]
        #expect((#expect(throws: CalendarItemError.self) { try item.validate() })?.code == .unknownTimeZone)
        var zones = ZoneTable()
        zones["Office Zone"] = ZoneRules(identifier: "Office Zone", fixedOffset: 3600)
        try item.validate(zones: zones)
    }

    @Test("a DateInterval is a window wherever one is taken, its end exclusive")
    func dateIntervals() throws {
        let calendar = try ICalendarImporter().importCalendar(from: Self.outlookCustomZone).calendar
        let schedule = calendar.schedule()
        let all = schedule.occurrences(from: Date(timeIntervalSince1970: 1_796_083_200), to: Date(timeIntervalSince1970: 1_798_761_600))
        try #require(all.count == 4)
        // From the first's start to the third's: the third starts at the end, so it is out.
        let window = DateInterval(start: all[0].startInstant, end: all[2].startInstant)
        #expect(schedule.occurrences(in: window).map(\.id) == all[0..<2].map(\.id))
        var visited = 0
        schedule.forEachOccurrence(in: window) { _ in visited += 1 }
        #expect(visited == 2)
        #expect(Array(schedule.occurrenceSequence(in: window)).map(\.id) == all[0..<2].map(\.id))
        let series = try #require(calendar.items.first?.recurrenceSet)
        #expect(try series.instances(in: window, zones: calendar.zones).count == 2)
        #expect(all[0].dateInterval.duration == 3600)
        #expect(all[0].duration == .hours(1))
        let list = ListView(in: window, schedule: schedule, options: .init(timeZone: try .named("America/New_York")))
        #expect(list.occurrences.map(\.id) == all[0..<2].map(\.id))
    }

    @Test("a session's end is read on the clocks, across the night they go back")
    func sessionEnd() throws {
        let madrid = try ZoneRules.named("Europe/Madrid")
        let evening = Session(id: "s", coachID: "marc", clientID: "anna", start: try Gym.at("2026-11-26 18:00"), duration: .minutes(60))
        #expect(evening.end(in: madrid) == (try Gym.at("2026-11-26 19:00")))
        // 02:30 CEST, the first of the two, for an hour: 03:30 CEST is 02:30 CET.
        let night = Session(id: "n", coachID: "marc", clientID: "anna", start: try Gym.at("2026-10-25 02:30"), duration: .minutes(60))
        #expect(night.end(in: madrid) == (try Gym.at("2026-10-25 02:30")))
        #expect(night.dateInterval(in: madrid).duration == 3600)
        var book = try Gym.book()
        let booked = try book.addSession(coach: "marc", client: "anna", start: try Gym.at("2026-11-26 18:00"), duration: .minutes(45), now: try Gym.now("2026-11-20 10:00"))
        #expect(book.end(of: booked) == (try Gym.at("2026-11-26 18:45")))
        #expect(book.dateInterval(of: booked).start == (try Gym.now("2026-11-26 18:00")))
    }

    @Test("free slots and class occurrences in a DateInterval lie inside it")
    func bookWindows() throws {
        let book = try Gym.book()
        let afternoon = DateInterval(start: try Gym.now("2026-11-26 16:30"), end: try Gym.now("2026-11-26 19:00"))
        let slots = try book.freeSlots(coach: "marc", in: afternoon, length: .minutes(60))
        // Offered on the hour from the 16:00 opening, as the date-based call
        // offers them; 16:00 starts before the window, 19:00 ends after it.
        #expect(slots.map(\.start) == [try Gym.at("2026-11-26 17:00"), try Gym.at("2026-11-26 18:00")])
        let sameDay = try book.freeSlots(coach: "marc", from: try Gym.day("2026-11-26"), through: try Gym.day("2026-11-26"), length: .minutes(60))
        #expect(sameDay.filter { afternoon.start <= $0.startDate && $0.dateInterval.end <= afternoon.end } == slots)
        #expect(slots.allSatisfy { afternoon.start <= $0.dateInterval.start && $0.dateInterval.end <= afternoon.end })
        let week = DateInterval(start: try Gym.now("2026-11-23 00:00"), end: try Gym.now("2026-11-30 00:00"))
        let classes = book.occurrences(in: week)
        #expect(classes.map(\.id.description) == ["yoga@2026-11-23", "yoga@2026-11-25", "spin@2026-11-27"])
        #expect(classes[0].dateInterval.duration == 3600)
    }

    @Test("two books with the same records are equal, whatever way they were made")
    func bookEquality() throws {
        var book = try Gym.book()
        try book.addSession(id: "s1", coach: "marc", client: "anna", start: try Gym.at("2026-11-26 18:00"), duration: .minutes(60), now: try Gym.now("2026-11-20 10:00"))
        _ = try book.book(member: "marta", classID: "yoga", on: try Gym.day("2026-11-25"), now: try Gym.now("2026-11-20 10:00"))
        var calendar = ICalendar()
        calendar.setScheduling(book)
        let text = ICalendarExporter().export(calendar)
        let readBack = try ICalendarImporter().importCalendar(from: text).calendar.schedulingBook()
        #expect(readBack == book)
        var booked = book
        _ = try booked.book(member: "oriol", classID: "yoga", on: try Gym.day("2026-11-25"), now: try Gym.now("2026-11-20 10:00"))
        #expect(booked != book)
        _ = try booked.cancelBooking(member: "oriol", classID: "yoga", on: try Gym.day("2026-11-25"), now: try Gym.now("2026-11-20 11:00"))
        #expect(booked == book)
    }

    @Test("two copies of an item differing only in DTSTAMP have the same content")
    func sameContent() throws {
        let item = try #require(ICalendarImporter().importCalendar(from: Self.outlookCustomZone).calendar.items.first)
        var later = item
        later.timestamp = .utc(try LocalDateTime(year: 2026, month: 11, day: 24, hour: 8))
        #expect(later != item)
        #expect(later.hasSameContent(as: item))
        var renamed = later
        renamed.title = "Budget review (moved)"
        #expect(!renamed.hasSameContent(as: item))
    }

    @Test("a change whose RECURRENCE-ID names no instance is reported with its line, and refused by validate")
    func unmatchedOverride() throws {
        // RFC 5545 §3.8.5.3's weekly Tuesday/Thursday series; its changes: one
        // on an instance (Thursday 11 Dec), one on a Wednesday it never has.
        let text = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//Horari//tests//EN\r
            BEGIN:VEVENT\r
            UID:standup@example.com\r
            DTSTAMP:20261120T120000Z\r
            DTSTART;TZID=America/New_York:20261201T090000\r
            DURATION:PT30M\r
            RRULE:FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH\r
            SUMMARY:Stand-up\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:standup@example.com\r
            DTSTAMP:20261120T120000Z\r
            RECURRENCE-ID;TZID=America/New_York:20261203T090000\r
            DTSTART;TZID=America/New_York:20261203T100000\r
            DURATION:PT30M\r
            SUMMARY:Stand-up (late)\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:standup@example.com\r
            DTSTAMP:20261120T120000Z\r
            RECURRENCE-ID;TZID=America/New_York:20261202T090000\r
            DTSTART;TZID=America/New_York:20261202T090000\r
            DURATION:PT30M\r
            SUMMARY:Stand-up (Wednesday?)\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let result = try ICalendarImporter().importCalendar(from: text)
        let reported = result.diagnostics.filter { $0.code == .unmatchedOverride }
        #expect(reported.map(\.line) == [20])  // the change's BEGIN:VEVENT
        #expect(reported.first?.severity == .warning)
        let series = try #require(result.calendar.items.first)
        #expect(series.unmatchedOverrides().map(\.item.title) == ["Stand-up (Wednesday?)"])
        #expect((#expect(throws: CalendarItemError.self) { try series.validate() })?.code == .unmatchedOverride)
        // Still shown at its own start: nothing the file says is dropped.
        let week = DateInterval(start: Date(timeIntervalSince1970: 1_796_083_200), duration: 7 * 86_400)
        #expect(result.calendar.schedule().occurrences(in: week).map(\.item.title).contains("Stand-up (Wednesday?)"))
    }

    @Test("Duration is the length type, with TimeInterval and ItemDuration bridges")
    func durations() {
        #expect(Duration(timeInterval: 90.5) == .milliseconds(90_500))
        #expect(Duration(timeInterval: 90.5).timeInterval == 90.5)
        #expect(Duration(timeInterval: .infinity) == .seconds(Int64(1) << 62))
        #expect(Duration(timeInterval: .nan) == .zero)
        #expect(ItemDuration(timeInterval: 5400) == ItemDuration(seconds: 5400))
        #expect(ItemDuration(.minutes(90)).duration.timeInterval == 5400)
    }
}
