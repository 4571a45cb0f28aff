import CalendarCore
import CalendarScheduling
import CalendarViews
import Foundation
import ICalendarKit
import SchedulingICalendar
import Testing

@Suite("One clock in the library: the calendar's zone, DST readings, lengths, uncoloured items")
struct OneClockLibraryTests {
    static func wall(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ min: Int = 0) throws -> Int64 {
        try LocalDateTime(year: y, month: m, day: d, hour: h, minute: min).localSeconds
    }

    @Test("a wall reading is unique, skipped or repeated, in Madrid, New York and Lord Howe")
    func readings() throws {
        let cases: [(zone: String, gap: Int64, gapFrom: String, gapTo: String, fold: Int64, first: String, second: String)] = [
            ("Europe/Madrid", try Self.wall(2026, 3, 29, 2, 30), "02:00", "03:00", try Self.wall(2026, 10, 25, 2, 30), "CEST", "CET"),
            ("America/New_York", try Self.wall(2026, 3, 8, 2, 30), "02:00", "03:00", try Self.wall(2026, 11, 1, 1, 30), "EDT", "EST"),
            ("Australia/Lord_Howe", try Self.wall(2026, 10, 4, 2, 15), "02:00", "02:30", try Self.wall(2026, 4, 5, 1, 45), "+11", "+1030"),
        ]
        for c in cases {
            let rules = try ZoneRules.named(c.zone)
            guard case .skipped(let before, let after) = rules.reading(ofWall: c.gap) else {
                Issue.record("\(c.zone): the gap is not skipped"); continue
            }
            #expect(LocalDateTime(localSeconds: before).description.hasSuffix(c.gapFrom + ":00"), "\(c.zone)")
            #expect(LocalDateTime(localSeconds: after).description.hasSuffix(c.gapTo + ":00"), "\(c.zone)")
            guard case .repeated(let a, let b) = rules.reading(ofWall: c.fold) else {
                Issue.record("\(c.zone): the fold is not repeated"); continue
            }
            #expect(b - a == (c.zone == "Australia/Lord_Howe" ? 1800 : 3600))
            #expect(rules.databaseAbbreviation(atInstant: a) == c.first)
            #expect(rules.databaseAbbreviation(atInstant: b) == c.second)
            #expect(rules.isRepeatedWall(atInstant: a) && rules.isRepeatedWall(atInstant: b))
            #expect(rules.reading(ofWall: c.fold + 3 * 3600) == .unique(rules.instant(forWall: c.fold + 3 * 3600)))
        }
    }

    @Test("a view with no zone given shows the calendar's zone, never UTC by default")
    func viewsTakeTheCalendarZone() throws {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nX-WR-TIMEZONE:Europe/Madrid\r\nBEGIN:VEVENT\r\nUID:late\r\nDTSTAMP:20261101T000000Z\r\n"
            + "DTSTART:20261126T233000Z\r\nDURATION:PT30M\r\nSUMMARY:Late\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let calendar = try ICalendarImporter().importCalendar(from: text).calendar
        #expect(calendar.calendarZone == "Europe/Madrid")
        let schedule = calendar.schedule()
        #expect(schedule.timeZone?.identifier == "Europe/Madrid")
        // 23:30Z on the 26th is 00:30 on the 27th in Madrid.
        let day = DayView(date: try LocalDate(year: 2026, month: 11, day: 27), schedule: schedule)
        #expect(day.timed.map(\.startMinute) == [30])
        // Without a calendar zone, the zone most items start in.
        let tokyo = CalendarItem(uid: "t", title: "T", start: .zoned(try LocalDateTime(year: 2026, month: 1, day: 1, hour: 9), "Asia/Tokyo"))
        #expect(try Schedule(items: [tokyo]).timeZone?.identifier == "Asia/Tokyo")
        #expect(try Schedule(items: []).timeZone == nil)
    }

    @Test("an item without a colour marks its day in the fallback colour; two items make it red")
    func everyItemShows() throws {
        let madrid = "Europe/Madrid"
        let a = CalendarItem(uid: "a", title: "Session", start: .zoned(try LocalDateTime(year: 2026, month: 11, day: 24, hour: 9), madrid),
                             end: .duration(.init(seconds: 2700)))
        let b = CalendarItem(uid: "b", title: "Other", start: .zoned(try LocalDateTime(year: 2026, month: 11, day: 25, hour: 9), madrid))
        let c = CalendarItem(uid: "c", title: "Third", start: .zoned(try LocalDateTime(year: 2026, month: 11, day: 25, hour: 11), madrid))
        let month = MonthView(year: 2026, month: 11, schedule: try Schedule(items: [a, b, c]))
        let days = month.weeks.flatMap(\.days)
        #expect(days.first { $0.date.day == 24 && $0.isInMonth }?.marker == .single(.fallback))
        #expect(days.first { $0.date.day == 25 && $0.isInMonth }?.marker == .several(count: 2))
        #expect(!ItemColor.fallback.isReservedForBusyDays)
    }

    @Test("a session booked at the second 02:00 of the night the clocks go back stays there, through a backup too")
    func laterOfRepeatedTime() throws {
        var book = SchedulingBook(timeZone: try .named("Europe/Madrid"), policy: nil)
        var hours = WorkingHours()
        try hours.set([try TimeRange(parsing: "01:00-04:00")], on: [.sunday])
        try book.addCoach(Coach(id: "nit", name: "Night", workingHours: hours))
        try book.addClient(Client(id: "owl", coachID: "nit", name: "Owl"))
        let day = try LocalDate(year: 2026, month: 10, day: 25)
        let slots = try book.freeSlots(coach: "nit", from: day, through: day, length: .minutes(30))
        let second = try #require(slots.first { $0.startSeconds == 1_792_890_000 })  // 01:00Z = 02:00 CET
        let first = try #require(slots.first { $0.startSeconds == 1_792_886_400 })   // 00:00Z = 02:00 CEST
        #expect(second.start == first.start, "both slots read 02:00 on the wall")
        let late = try book.addSession(id: "late", coach: "nit", client: "owl", startingAt: Date(timeIntervalSince1970: TimeInterval(second.startSeconds)), duration: .minutes(30))
        #expect(late.isLaterOfRepeatedTime)
        let early = try book.addSession(id: "early", coach: "nit", client: "owl", startingAt: Date(timeIntervalSince1970: TimeInterval(first.startSeconds)), duration: .minutes(30))
        #expect(!early.isLaterOfRepeatedTime)
        #expect(try book.sessions(coach: "nit").map(\.id) == ["early", "late"])
        let back = try ICalendar(book, for: .everything).schedulingBook()
        #expect(try back.session("late", coach: "nit").isLaterOfRepeatedTime)
        #expect(try back.freeSlots(coach: "nit", from: day, through: day, length: .minutes(30)).map(\.startSeconds) == slots.map(\.startSeconds).filter { ![first.startSeconds, second.startSeconds].contains($0) })
    }

    @Test("lengths past 366 days are refused, and absurd ones do not overflow")
    func lengths() throws {
        let start = CalendarTime.zoned(try LocalDateTime(year: 2026, month: 1, day: 1, hour: 9), "Europe/Madrid")
        var item = CalendarItem(uid: "l", title: "Long", start: start, end: .duration(.init(days: 366)))
        try item.validate()
        item.end = .duration(.init(days: 366, seconds: 1))
        #expect(throws: CalendarItemError.self) { try item.validate() }
        item.end = .duration(.init(days: Int.max, seconds: Int.max))
        do { try item.validate(); Issue.record("accepted") } catch { #expect(error.code == .tooLong) }
    }
}
