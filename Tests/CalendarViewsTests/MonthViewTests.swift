import CalendarCore
import CalendarViews
import Foundation
import Testing

@Suite("Month view")
struct MonthViewTests {
    let madrid: ZoneRules
    init() throws { madrid = try ZoneRules.named("Europe/Madrid") }

    func day(_ d: Int, _ month: Int = 3, _ year: Int = 2026) throws -> LocalDate { try LocalDate(year: year, month: month, day: d) }

    func item(_ uid: String, _ start: CalendarTime, _ end: CalendarItem.End?, _ color: String?) throws -> CalendarItem {
        var i = CalendarItem(uid: uid, title: uid, start: start, end: end)
        i.color = try color.map { try ItemColor.named($0) }
        return i
    }

    func marker(_ view: MonthView, _ d: Int, _ month: Int = 3) -> DayMarker? {
        view.weeks.flatMap(\.days).first { $0.date.month == month && $0.date.day == d }?.marker
    }

    @Test("One item shows its colour; two, of the same colour or not, show several (red)")
    func redRule() throws {
        let at = { (d: Int, h: Int) in CalendarTime.zoned(try LocalDateTime(year: 2026, month: 3, day: d, hour: h), "Europe/Madrid") }
        let schedule = try Schedule(items: [
            try item("a", at(2, 9), .duration(.init(seconds: 3600)), "teal"),
            try item("b", at(3, 9), .duration(.init(seconds: 3600)), "teal"),
            try item("c", at(3, 18), .duration(.init(seconds: 3600)), "teal"),
            try item("d", at(4, 9), .duration(.init(seconds: 3600)), "teal"),
            try item("e", at(4, 10), .duration(.init(seconds: 3600)), "orange"),
        ])
        let view = MonthView(year: 2026, month: 3, schedule: schedule, options: .init(timeZone: madrid))
        let teal = try ItemColor.named("teal")
        #expect(marker(view, 2) == .single(teal))
        #expect(marker(view, 3) == .several(count: 2))
        #expect(marker(view, 4) == .several(count: 2))
        #expect(marker(view, 4)?.color == .red)
        #expect(marker(view, 5) == DayMarker.none)
    }

    @Test("Across midnight and all-day spans count on every day they cover (end exclusive), in the display zone")
    func spans() throws {
        let schedule = try Schedule(items: [
            // 22:00–02:00 Madrid: the 10th and the 11th.
            try item("night", .zoned(try LocalDateTime(year: 2026, month: 3, day: 10, hour: 22), "Europe/Madrid"), .duration(.init(seconds: 4 * 3600)), "navy"),
            // Ends exactly at midnight: only the 12th.
            try item("evening", .zoned(try LocalDateTime(year: 2026, month: 3, day: 12, hour: 20), "Europe/Madrid"), .duration(.init(seconds: 4 * 3600)), "navy"),
            // All-day 20–22 (DTEND 23, exclusive): three days; on the 21st with another item.
            try item("trip", .date(try day(20)), .at(.date(try day(23))), "olive"),
            try item("call", .utc(try LocalDateTime(year: 2026, month: 3, day: 21, hour: 9)), nil, "navy"),
        ])
        let view = MonthView(year: 2026, month: 3, schedule: schedule, options: .init(timeZone: madrid))
        let navy = try ItemColor.named("navy")
        let olive = try ItemColor.named("olive")
        #expect(marker(view, 10) == .single(navy))
        #expect(marker(view, 11) == .single(navy))
        #expect(marker(view, 12) == .single(navy))
        #expect(marker(view, 13) == DayMarker.none)
        #expect(marker(view, 20) == .single(olive))
        #expect(marker(view, 21) == .several(count: 2))
        #expect(marker(view, 22) == .single(olive))
        #expect(marker(view, 23) == DayMarker.none)
        // Seen from Tokyo (+9), the 22:00 Madrid start is already the 11th.
        let tokyo = MonthView(year: 2026, month: 3, schedule: schedule, options: .init(timeZone: try .named("Asia/Tokyo")))
        #expect(marker(tokyo, 10) == DayMarker.none)
        #expect(marker(tokyo, 11) == .single(navy))
    }

    @Test("Rows, leading and trailing days, today and the selected day, for any first weekday")
    func layout() throws {
        for first in Weekday.allCases {
            let view = MonthView(year: 2026, month: 2, options: .init(firstWeekday: first, today: try day(14, 2), selected: try day(27, 2)))
            #expect((4...6).contains(view.weeks.count))
            #expect(view.weeks.allSatisfy { $0.days.count == 7 && $0.days[0].date.weekday == first })
            let inMonth = view.weeks.flatMap(\.days).filter(\.isInMonth)
            #expect(inMonth.map(\.date.day) == Array(1...28))
            let today = try day(14, 2)
            let selected = try day(27, 2)
            #expect(view.weeks.flatMap(\.days).filter(\.isToday).map(\.date) == [today])
            #expect(view.weeks.flatMap(\.days).filter(\.isSelected).map(\.date) == [selected])
        }
        // February 2026 starts on a Sunday: four rows with Sunday first, five with Monday first.
        #expect(MonthView(year: 2026, month: 2, options: .init(firstWeekday: .sunday)).weeks.count == 4)
        #expect(MonthView(year: 2026, month: 2, options: .init(firstWeekday: .monday)).weeks.count == 5)
    }

    @Test("Week numbers: ISO 8601, and the week of the row's Thursday when rows do not start on Monday")
    func weekNumbers() throws {
        // 2026-12-28 … 2027-01-03 is ISO week 53 of 2026; 2027-01-04 starts week 1.
        let monday = MonthView(year: 2027, month: 1, options: .init(firstWeekday: .monday))
        #expect(monday.weeks.map(\.isoWeek) == [53, 1, 2, 3, 4])
        // Sunday first: the row Sun 27 Dec … Sat 2 Jan holds Thursday 31 Dec (week 53).
        let sunday = MonthView(year: 2027, month: 1, options: .init(firstWeekday: .sunday))
        #expect(sunday.weeks.first?.isoWeek == 53)
        #expect(sunday.weeks[1].isoWeek == 1)  // Sun 3 … Sat 9: Thursday 7 Jan
        // Against Foundation's ISO 8601 calendar for every day 2000–2030.
        var iso = Calendar(identifier: .iso8601)
        iso.timeZone = TimeZone(identifier: "UTC")!
        var d = try LocalDate(year: 2000, month: 1, day: 1)
        while d.year <= 2030 {
            let date = Date(timeIntervalSince1970: TimeInterval(d.dayNumber) * 86_400)
            let ours = d.isoWeek
            #expect(ours.week == iso.component(.weekOfYear, from: date) && ours.year == iso.component(.yearForWeekOfYear, from: date), "\(d)")
            d = d.adding(days: 1)
        }
    }

    @Test("Next and previous keep the selected day where it exists (31 → 30, 29, 28)")
    func navigation() throws {
        func moved(_ y: Int, _ m: Int, _ d: Int?, by n: Int) throws -> String {
            let selected = try d.map { try day($0, m, y) }
            let r = n > 0 ? MonthView.next(year: y, month: m, selected: selected) : MonthView.previous(year: y, month: m, selected: selected)
            return "\(r.year)-\(r.month) \(r.selected?.description ?? "none")"
        }
        #expect(try moved(2024, 1, 31, by: 1) == "2024-2 2024-02-29")
        #expect(try moved(2024, 2, 29, by: 1) == "2024-3 2024-03-29")
        #expect(try moved(2024, 1, 31, by: -1) == "2023-12 2023-12-31")
        #expect(try moved(2025, 1, 31, by: 1) == "2025-2 2025-02-28")
        #expect(try moved(2026, 3, 31, by: 1) == "2026-4 2026-04-30")
        #expect(try moved(2026, 12, nil, by: 1) == "2027-1 none")
    }

    @Test("A month view survives JSON")
    func codable() throws {
        let schedule = try Schedule(items: [try item("a", .date(try day(2)), nil, "teal")])
        let view = MonthView(year: 2026, month: 3, schedule: schedule, options: .init(today: try day(2)))
        let back = try JSONDecoder().decode(MonthView.self, from: JSONEncoder().encode(view))
        #expect(back == view)
    }
}
