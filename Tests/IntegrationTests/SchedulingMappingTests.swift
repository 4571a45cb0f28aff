import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit
import SchedulingICalendar
import Testing
import _SchedulingTestSupport

/// The book as calendar records (SchedulingICalendar's mapping): tests that
/// were CalendarSchedulingTests' until the mapping left CalendarScheduling.
@Suite("Scheduling: the book as calendar items, and read back")
struct SchedulingMappingTests {
    let now: Date

    init() throws { now = try Gym.now("2026-11-22 12:00") }

    @Test("the class series is a recurring item: CalendarCore's expansion agrees with the book's occurrences")
    func seriesAsItem() throws {
        var book = try Gym.book()
        try book.cancelOccurrence(classID: "yoga", on: Gym.day("2026-11-23"))
        try book.moveOccurrence(classID: "yoga", on: Gym.day("2026-11-25"), to: Gym.at("2026-11-26 19:30"), duration: .minutes(45))
        let schedule = try Schedule(items: book.classes.map(book.calendarItem(for:)))
        let from = try Gym.day("2026-09-01"), through = try Gym.day("2027-03-31")
        let expanded = schedule.occurrences(from: try Gym.now("2026-09-01 00:00"), to: try Gym.now("2027-04-01 00:00"))
            .map { "\($0.item.uid) \($0.startSeconds) \($0.endSeconds)" }
        let own = book.occurrences(from: from, through: through).filter { !$0.isCancelled }
            .map { "\($0.id.classID) \($0.startSeconds) \($0.startSeconds + $0.duration.components.seconds)" }
        #expect(expanded == own)
        #expect(own.count > 50)
        let moved = try book.occurrence(classID: "yoga", on: Gym.day("2026-11-25"))
        let movedTo = try Gym.at("2026-11-26 19:30")
        #expect(moved.isMoved && moved.start == movedTo && moved.duration == .minutes(45))
    }

    @Test("a member's schedule is a Schedule of what they booked")
    func memberSchedule() throws {
        var book = try Gym.book()
        try book.book(member: "marta", classID: "yoga", on: Gym.day("2026-11-23"), now: now)
        try book.book(member: "marta", classID: "spin", on: Gym.day("2026-11-27"), now: now)
        try book.book(member: "oriol", classID: "yoga", on: Gym.day("2026-11-25"), now: now)
        let schedule = try book.memberSchedule(member: "marta")
        let week = schedule.occurrences(from: try Gym.now("2026-11-23 00:00"), to: try Gym.now("2026-11-30 00:00"))
        #expect(week.map(\.item.title) == ["Yoga", "Spinning"])
        #expect(week.map(\.startSeconds) == [try Gym.now("2026-11-23 18:30"), try Gym.now("2026-11-27 07:00")].map { Int64($0.timeIntervalSince1970) })
        #expect(week[0].item.color == (try ItemColor.named("teal")))
        #expect(week[0].item.location == "Sala 2")
    }

@Test("two rosters of one occurrence are refused, not one dropped for the other — from iCalendar records and from JSON")
    func twoRostersOfOneOccurrence() throws {
        let book = try Gym.book()
        let content = book.backupContent()
        let roster = { (member: String) in
            ContentComponent(name: "X-HORARI-ROSTER", properties: [
                ContentLine(name: "X-HORARI-CLASS", value: "yoga"), ContentLine(name: "X-HORARI-DATE", value: "20261123"), ContentLine(name: "X-HORARI-BOOKED", value: member),
            ])
        }
        let expected = SchedulingError.invalid(field: .property("X-HORARI-DATE"), reason: "the occurrence yoga@2026-11-23 has two rosters; keep one, with every member in it")
        #expect(refusal { _ = try SchedulingBook(timeZone: book.timeZone, items: content.items, components: content.components + [roster("marta"), roster("oriol")]) } == expected)
        // One roster reads back.
        let one = try SchedulingBook(timeZone: book.timeZone, items: content.items, components: content.components + [roster("marta")])
        #expect(try one.roster(classID: "yoga", on: Gym.day("2026-11-23")).confirmed == ["marta"])
        // The same in the JSON form.
        var booked = book
        try booked.book(member: "marta", classID: "yoga", on: Gym.day("2026-11-23"), now: Gym.now("2026-11-20 10:00"))
        let json = String(decoding: try JSONEncoder().encode(booked), as: UTF8.self)
        let entry = #"{"booked":["marta"],"classID":"yoga","date":"2026-11-23","waiting":[]}"#
        let twice = json.replacingOccurrences(of: #""rosters":["#, with: #""rosters":["# + entry.replacingOccurrences(of: "marta", with: "oriol") + ",")
        #expect(twice != json)
        // JSON names its own field, as a file names its property.
        let expectedJSON = SchedulingError.invalid(field: SchedulingError.Field(rawValue: "date"), reason: "the occurrence yoga@2026-11-23 has two rosters; keep one, with every member in it")
        #expect(refusal { _ = try JSONDecoder().decode(SchedulingBook.self, from: Data(twice.utf8)) } == expectedJSON)
    }
}
