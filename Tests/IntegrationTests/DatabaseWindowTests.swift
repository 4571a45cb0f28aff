import CalendarCore
import CalendarStore
import CalendarViews
import Foundation
import ICalendarKit
import SchedulingICalendar
import Testing
import _CalendarTestFixtures

/// A calendar kept in SQLite, read for a view of a window (issue 40, 2:
/// "indexed by time so a view reads only its window"): the read holds
/// fewer items than the calendar, and the view it makes is the view the
/// whole calendar makes, month by month, on a real producer's file and
/// events spread over ten years.
@Suite("A database read for a window")
struct DatabaseWindowTests {
    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("horari-window-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The league's calendar (Google's form, X-WR-TIMEZONE) with 240 one-hour
    /// events a fortnight apart from 2020, a weekly series with no end from
    /// 2019, an all-day trip across a month's end and an undated task.
    func calendar() throws -> ICalendar {
        var calendar = try ICalendarImporter().importCalendar(from: Fixture.data("ics/league.ics")).calendar
        let madrid = "Europe/Madrid"
        let first = try LocalDateTime(year: 2020, month: 1, day: 3, hour: 18)
        for i in 0..<240 {
            let start = LocalDateTime(localSeconds: first.localSeconds + Int64(i) * 14 * 86_400)
            calendar.items.append(CalendarItem(uid: "spread-\(i)", title: "Spread \(i)", start: .zoned(start, madrid), end: .duration(.init(seconds: 3600))))
        }
        calendar.items.append(CalendarItem(uid: "weekly", title: "Weekly", start: .zoned(try LocalDateTime(year: 2019, month: 5, day: 6, hour: 7), madrid),
                                           end: .duration(.init(seconds: 1800)), recurrenceRules: [try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO")]))
        calendar.items.append(CalendarItem(uid: "trip", title: "Trip", start: .date(try LocalDate(year: 2026, month: 10, day: 28)),
                                           end: .at(.date(try LocalDate(year: 2026, month: 11, day: 4)))))
        calendar.items.append(CalendarItem(undatedTask: "someday", title: "Some day"))
        return calendar
    }

    /// Instants from `from` up to `to`, a day wider either side, as a view asks.
    func window(_ from: LocalDate, _ to: LocalDate) -> DateInterval {
        DateInterval(start: Date(timeIntervalSince1970: Double(from.adding(days: -1).dayNumber) * 86_400),
                     end: Date(timeIntervalSince1970: Double(to.adding(days: 2).dayNumber) * 86_400))
    }

    @Test("every month from 2019 to 2030 is the month the whole calendar shows, read from a few of its items")
    func monthsAgree() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CalendarStore(try CalendarLocation(folder.appendingPathComponent("league.sqlite").path))
        let written = try calendar()
        try await store.update { (calendar: inout ICalendar) throws(Never) in calendar = written }
        let whole = try await store.load().calendar
        #expect(whole.items.count == written.items.count)
        let wholeSchedule = whole.schedule(zoneNamedBy: ICalendar.bookZoneProperties)
        let zone = try #require(wholeSchedule.timeZone)
        var readSomewhere: Set<String> = []
        for year in 2019...2030 {
            for month in 1...12 {
                let first = try LocalDate(year: year, month: month, day: 1)
                let read = try await store.load(touching: window(first.adding(days: -7), first.adding(days: 42)))
                let items = read.result.calendar.items.map(\.uid)
                readSomewhere.formUnion(items)
                // The view's items, and the rest named for the short IDs.
                #expect(Set(items).union(read.unreadUIDs) == Set(whole.items.map(\.uid)), "\(year)-\(month)")
                #expect(items.count < 30, "\(year)-\(month): \(items.count) items read for a month")
                // The series starts on 6 May 2019: April's grid (to 13 May) is the first that shows it.
                #expect(items.contains("weekly") == (year > 2019 || month >= 4), "\(year)-\(month)")
                #expect(items.contains("someday"))
                let options = MonthView.Options(firstWeekday: .monday, timeZone: zone, today: first)
                let part = read.result.calendar.schedule(zoneNamedBy: ICalendar.bookZoneProperties)
                #expect(MonthView(year: year, month: month, schedule: part, options: options)
                        == MonthView(year: year, month: month, schedule: wholeSchedule, options: options), "\(year)-\(month)")
            }
        }
        #expect(readSomewhere == Set(whole.items.map(\.uid)), "some items were read in no month: \(Set(whole.items.map(\.uid)).subtracting(readSomewhere).sorted())")
    }

    @Test("an item in a calendar's own zone at +99:00 (RFC 5545 allows ±23:59; the importer reads up to ±99:59) is in the window of the day it falls on")
    func farZone() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//Horari//window test//EN\r
            X-WR-TIMEZONE:UTC\r
            BEGIN:VTIMEZONE\r
            TZID:Odd\r
            BEGIN:STANDARD\r
            DTSTART:19700101T000000\r
            TZOFFSETFROM:+9900\r
            TZOFFSETTO:+9900\r
            END:STANDARD\r
            END:VTIMEZONE\r
            BEGIN:VEVENT\r
            UID:odd\r
            DTSTAMP:20260101T000000Z\r
            DTSTART;TZID=Odd:20261204T040000\r
            DURATION:PT1H\r
            SUMMARY:Odd\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let imported = try ICalendarImporter().importCalendar(from: Data(text.utf8)).calendar
        // The premise: 04:00 at +99:00 on 4 December is 01:00 UTC on 30 November (a margin of two days missed it).
        let monday = try LocalDate(year: 2026, month: 11, day: 30)
        let day = window(monday, monday)
        let occurrences = imported.schedule().occurrences(from: day.start, to: day.end, floatingZone: .utc)
        #expect(occurrences.map(\.startSeconds) == [1_796_000_400])
        let store = CalendarStore(try CalendarLocation(folder.appendingPathComponent("odd.sqlite").path))
        try await store.update { (calendar: inout ICalendar) throws(Never) in calendar = imported }
        #expect(try await store.load(touching: day).result.calendar.items.map(\.uid) == ["odd"])
    }

    @Test("a file is read whole for a window, as load() reads it, and names nothing unread")
    func fileIsWhole() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CalendarStore(try CalendarLocation(folder.appendingPathComponent("league.ics").path))
        let written = try calendar()
        try await store.update { (calendar: inout ICalendar) throws(Never) in calendar = written }
        let read = try await store.load(touching: window(try LocalDate(year: 2026, month: 11, day: 1), try LocalDate(year: 2026, month: 11, day: 30)))
        #expect(read.result.calendar.items.count == written.items.count)
        #expect(read.unreadUIDs.isEmpty)
    }
}
