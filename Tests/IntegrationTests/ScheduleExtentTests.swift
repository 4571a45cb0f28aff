import CalendarCore
import Foundation
import ICalendarKit
import Testing
import _CalendarTestFixtures
import _CalendarTestSupport

/// `Schedule.forEachExtent` (the month view's path: plain series walked as
/// instants, no `Occurrence` built) against `forEachOccurrence` (the full
/// path): the same occurrences, with the same instants, dates and colours.
@Suite("Schedule extents")
struct ScheduleExtentTests {
    struct Key: Hashable, Comparable {
        var start: Int64, end: Int64, firstDay: Int?, lastDay: Int?, color: String?
        static func < (a: Key, b: Key) -> Bool {
            (a.start, a.end, a.firstDay ?? 0, a.color ?? "") < (b.start, b.end, b.firstDay ?? 0, b.color ?? "")
        }
    }

    static func viaExtents(_ s: Schedule, _ a: Date, _ b: Date, _ zone: ZoneRules) -> [Key] {
        var out: [Key] = []
        s.forEachExtent(from: a, to: b, floatingZone: zone) {
            out.append(Key(start: $0.startSeconds, end: $0.endSeconds, firstDay: $0.allDayDays?.lowerBound, lastDay: $0.allDayDays?.upperBound, color: $0.color?.description))
        }
        return out.sorted()
    }

    static func viaOccurrences(_ s: Schedule, _ a: Date, _ b: Date, _ zone: ZoneRules) -> [Key] {
        var out: [Key] = []
        s.forEachOccurrence(from: a, to: b, floatingZone: zone) { o in
            let first = o.isAllDay ? o.start.localDate.dayNumber : nil
            out.append(Key(start: o.startSeconds, end: o.endSeconds, firstDay: first,
                           lastDay: first.map { max($0 + 1, o.end.localDate.dayNumber) }, color: o.item.color?.description))
        }
        return out.sorted()
    }

    /// Random series and singles of every kind the fast path must tell apart:
    /// zoned, UTC, floating and all-day starts; no end, an explicit end, a
    /// DURATION with and without days; EXDATEs, RDATEs and a changed instance.
    static func items() throws -> [CalendarItem] {
        var generator = RandomRuleGenerator(seed: 0xE47E)
        var rng = SplitMix64(seed: 0xE47E)
        let colors = try ["teal", "orange", "navy", "gold"].map { try ItemColor.named($0) }
        var items: [CalendarItem] = []
        for i in 0..<160 {
            let (rule, dtstart) = generator.next()
            let wall = try CalendarTime(icalValue: dtstart).wallTime
            let start: CalendarTime
            switch i % 5 {
            case 0: start = .zoned(wall, "Europe/Madrid")
            case 1: start = .zoned(wall, "America/New_York")
            case 2: start = .utc(wall)
            case 3: start = .floating(wall)
            default: start = .date(wall.date)
            }
            let end: CalendarItem.End?
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: end = nil
            case 1: end = .duration(.init(seconds: Int.random(in: 0...3, using: &rng) * 1800))
            case 2: end = .duration(.init(days: 1, seconds: 3600))
            default: end = start.isDate ? .at(.date(wall.date.adding(days: 2))) : .at(start.withWallTime(LocalDateTime(localSeconds: wall.localSeconds + 5400)))
            }
            var item = CalendarItem(uid: "x\(i)", title: "x\(i)", start: start, end: end)
            item.color = i % 7 == 0 ? nil : colors[i % colors.count]
            if i % 2 == 0 {
                item.recurrenceRules = [try RecurrenceRule(parsing: rule)]
                if i % 6 == 0 { item.exceptionDates = [start.withWallTime(LocalDateTime(localSeconds: wall.localSeconds + 7 * 86_400))] }
                if i % 10 == 0 { item.recurrenceDates = [start.withWallTime(LocalDateTime(localSeconds: wall.localSeconds + 3 * 86_400 + 3600))] }
            }
            items.append(item)
        }
        // The sample gym calendar: classes with a cancelled and a moved date.
        items += try ICalendarImporter().importCalendar(from: try Fixture.text("ics/gym.ics")).calendar.items
        return items
    }

    @Test("extents and occurrences agree over windows across the daylight-saving changes, in two display zones", .tags(.long), .onlyInLongRuns)
    func agree() throws {
        let schedule = try Schedule(items: try Self.items())
        var compared = 0
        for zoneName in ["Europe/Madrid", "Asia/Tokyo"] {
            let zone = try ZoneRules.named(zoneName)
            // The random rules start in 1997–1998; the sample's classes in November 2026 (Madrid leaves summer time on 25 October).
            for (year, month, day) in [(1997, 9, 1), (1998, 3, 1), (2026, 10, 19)] {
                let a = Date(timeIntervalSince1970: TimeInterval(zone.instant(forWall: try LocalDateTime(year: year, month: month, day: day).localSeconds)))
                let b = a.addingTimeInterval(42 * 86_400)
                let fast = Self.viaExtents(schedule, a, b, zone)
                let full = Self.viaOccurrences(schedule, a, b, zone)
                if fast != full {
                    let i = zip(fast, full).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(fast.count, full.count)
                    let a = i < fast.count ? "\(fast[i])" : "none"
                    let b = i < full.count ? "\(full[i])" : "none"
                    Issue.record("\(zoneName) \(year)-\(month): \(fast.count) extents, \(full.count) occurrences; first difference at \(i): \(a) against \(b)")
                }
                compared += full.count
            }
        }
        // The windows hold real work: the random rules start in 1997–1998.
        #expect(compared > 1_000)
    }
}
