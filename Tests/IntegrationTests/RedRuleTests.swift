import CalendarCore
import CalendarViews
import Foundation
import ICalendarKit
import Testing
import _CalendarTestFixtures

/// Issue 41, 3: red means several items on every path. `ICalendar.add`
/// refuses a colour of the red family, but another program may write one
/// (`Tests/Fixtures/ics/red-elsewhere.ics`: RFC 7986 `COLOR` on a lone event
/// and a lone task, and on one of a day's two events). Imported or merged,
/// such an item keeps its colour in the file, and every view draws it in
/// `ItemColor.redStandIn`, so that red on a screen is a busy day.
@Suite("Red means several, on every path")
struct RedRuleTests {
    let utc = ZoneRules.utc

    func imported() throws -> ICalendar {
        let result = try ICalendarImporter().importCalendar(from: Fixture.text("ics/red-elsewhere.ics"))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        return result.calendar
    }

    func date(_ d: Int) throws -> LocalDate { try LocalDate(year: 2026, month: 12, day: d) }

    @Test("an imported red event alone on its day is drawn in the stand-in by the month, week, day and list views; two items are red")
    func views() throws {
        let schedule = try imported().schedule()
        let standIn = ItemColor.redStandIn
        #expect(!standIn.isReservedForBusyDays)
        #expect(ItemColor.red.displayed == standIn)
        #expect(try ItemColor.named("crimson").displayed == standIn)
        #expect(try ItemColor.named("teal").displayed == ItemColor.named("teal"))

        let month = MonthView(year: 2026, month: 12, schedule: schedule, options: .init(timeZone: utc))
        func marker(_ d: Int) -> DayMarker? { month.weeks.flatMap(\.days).first { $0.date.month == 12 && $0.date.day == d }?.marker }
        #expect(marker(3) == .single(standIn))
        #expect(marker(4) == .single(standIn))
        #expect(marker(10) == .several(count: 2))
        #expect(marker(10)?.color == .red)

        let week = WeekView(containing: try date(3), schedule: schedule, options: .init(timeZone: utc))
        let thursday = try #require(week.days.first { $0.date == (try date(3)) })
        #expect(thursday.color == standIn)
        #expect(week.days.allSatisfy { $0.color != .red })
        let busyWeek = WeekView(containing: try date(10), schedule: schedule, options: .init(timeZone: utc))
        #expect(busyWeek.days.first { $0.date == (try? date(10)) }?.color == .red)

        let day = DayView(date: try date(10), schedule: schedule, options: .init(timeZone: utc))
        #expect(day.timed.map(\.occurrence.color) == [standIn, try ItemColor.named("teal")])

        let list = ListView(from: try date(1), schedule: schedule, options: .init(timeZone: utc))
        #expect(list.occurrences.count == 4)
        #expect(list.occurrences.allSatisfy { $0.color != .red && $0.color?.isReservedForBusyDays != true })

        let tasks = TaskList(schedule: schedule, now: try CalendarTime(icalValue: "20261201T000000Z").instant(floatingZone: .utc), options: .init(timeZone: utc))
        #expect(tasks.pending.first { $0.id.uid == "crimson-task@example.com" }?.color == standIn)
    }

    @Test("the item keeps its own colour: in the schedule, merged into another calendar and exported")
    func keptInTheFile() throws {
        let calendar = try imported()
        #expect(calendar.schedule().item(uid: "red-alone@example.com")?.color == .red)
        var other = ICalendar()
        let report = other.merge(calendar)
        #expect(report.added.count == 4)
        #expect(other.item(uid: "red-alone@example.com")?.color == .red)
        let text = ICalendarExporter().export(other)
        #expect(text.contains("COLOR:red\r\n") && text.contains("COLOR:crimson\r\n"))
        // Adding such an item in code is still refused, naming the red family.
        var fresh = ICalendar()
        #expect(throws: CalendarItemError.self) {
            try fresh.add(CalendarItem(uid: "new", title: "New", start: .utc(try LocalDateTime(year: 2026, month: 12, day: 3, hour: 9)), color: .red))
        }
    }
}
