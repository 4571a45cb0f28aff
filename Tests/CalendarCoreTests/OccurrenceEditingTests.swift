import CalendarCore
import Foundation
import Testing

/// One occurrence, or this and the following, of a repeating item changed or
/// deleted (issue 28, 20). The referee is the series itself: what is left,
/// and what the split's two series make together, must be exactly the
/// original's instants, whatever the occurrence cut at.
@Suite("One occurrence, or this and the following")
struct OccurrenceEditingTests {
    let madrid = "Europe/Madrid"
    let window = (from: Date(timeIntervalSince1970: 1_767_225_600), to: Date(timeIntervalSince1970: 1_830_297_600))  // 2026 to 2028

    /// Series over the clocks' changes, in each kind of time: zoned with COUNT
    /// and an EXDATE, floating with UNTIL, all-day unbounded, and two rules.
    func series() throws -> [CalendarItem] {
        var weekly = CalendarItem(uid: "weekly", title: "Standup", start: .zoned(try LocalDateTime(year: 2026, month: 10, day: 5, hour: 9), madrid),
                                  end: .duration(.init(seconds: 900)), recurrenceRules: [try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO;COUNT=10")])
        weekly.exceptionDates = [.zoned(try LocalDateTime(year: 2026, month: 10, day: 19, hour: 9), madrid)]
        let floating = CalendarItem(uid: "floating", title: "Stretch", start: .floating(try LocalDateTime(year: 2026, month: 3, day: 25, hour: 7, minute: 30)),
                                    recurrenceRules: [try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20260405T073000")])
        let allDay = CalendarItem(uid: "bins", title: "Bins", start: .date(try LocalDate(year: 2026, month: 1, day: 6)),
                                  recurrenceRules: [try RecurrenceRule(parsing: "FREQ=MONTHLY;BYDAY=1TU")])
        let twoRules = CalendarItem(uid: "two", title: "Two", start: .zoned(try LocalDateTime(year: 2026, month: 3, day: 2, hour: 18), madrid),
                                    recurrenceRules: [try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO;COUNT=6"), try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=TH;COUNT=3")])
        return [weekly, floating, allDay, twoRules]
    }

    func starts(_ items: [CalendarItem]) throws -> [Int64] {
        let zone = try ZoneRules.named(madrid)
        return try Schedule(items: items).occurrences(from: window.from, to: window.to, floatingZone: zone).map(\.startSeconds).sorted()
    }

    func instances(_ item: CalendarItem) throws -> [RecurrenceSet.Instance] {
        let set = try #require(item.recurrenceSet)
        return try set.instances(from: window.from, to: window.to, floatingZone: try .named(madrid)).prefix(12).map { $0 }
    }

    @Test("split at every occurrence: the two series make exactly the original's instants, the COUNTs shared")
    func splitKeepsEveryInstant() throws {
        for item in try series() {
            let original = try starts([item])
            for instance in try instances(item) {
                let (head, tail) = try item.splitting(at: instance.recurrenceID, newUID: item.uid + "-tail", floatingZone: try .named(madrid))
                #expect(try starts([head].compactMap { $0 } + [tail]) == original, "\(item.uid) split at \(instance.recurrenceID)")
                let before = try starts([head].compactMap { $0 })
                #expect(before.allSatisfy { $0 < instance.epochSeconds })
                #expect(tail.start == instance.recurrenceID)
            }
        }
    }

    @Test("this and the following deleted: exactly the instants before it are left; from the first, nothing")
    func removeFromKeepsThePast() throws {
        for item in try series() {
            let original = try starts([item])
            for (i, instance) in try instances(item).enumerated() {
                var cut = item
                let left = try cut.removeOccurrences(from: instance.recurrenceID, floatingZone: try .named(madrid))
                #expect(left == (i > 0), "\(item.uid) at \(i)")
                if left { #expect(try starts([cut]) == original.filter { $0 < instance.epochSeconds }, "\(item.uid) at \(instance.recurrenceID)") }
            }
        }
    }

    @Test("one occurrence deleted is an EXDATE; one changed is an override the schedule shows; a date it does not meet is refused")
    func oneOccurrence() throws {
        let item = try series()[0]
        let original = try starts([item])
        let thirtieth = try item.occurrence(on: try LocalDate(year: 2026, month: 11, day: 30))
        var deleted = item
        deleted.removeOccurrence(thirtieth.recurrenceID)
        #expect(deleted.exceptionDates.contains(thirtieth.recurrenceID))
        #expect(try starts([deleted]) == original.filter { $0 != thirtieth.epochSeconds })
        var moved = item
        var one = item.item(for: thirtieth)
        one.start = .zoned(try LocalDateTime(year: 2026, month: 11, day: 30, hour: 10), madrid)
        one.title = "Standup, later"
        moved.changeOccurrence(thirtieth.recurrenceID, to: one)
        let found = try Schedule(items: [moved]).occurrences(from: window.from, to: window.to)
        #expect(found.count == original.count)
        #expect(found.first { $0.id.recurrenceID == thirtieth.recurrenceID }?.item.title == "Standup, later")
        #expect(found.map(\.startSeconds).contains(thirtieth.epochSeconds + 3600))
        // Deleting it afterwards takes the change with it.
        moved.removeOccurrence(thirtieth.recurrenceID)
        #expect(moved.overrides.isEmpty)
        let tuesday = #expect(throws: CalendarItemError.self) { _ = try item.occurrence(on: try LocalDate(year: 2026, month: 12, day: 1)) }
        #expect(tuesday?.code == .noSuchOccurrence)
        #expect(tuesday?.message == "‘Standup’ has no occurrence on 2026-12-01; near it: 2026-11-30 09:00")
        let single = CalendarItem(uid: "once", title: "Once", start: .date(try LocalDate(year: 2026, month: 12, day: 1)))
        #expect((#expect(throws: CalendarItemError.self) { _ = try single.occurrence(on: try LocalDate(year: 2026, month: 12, day: 1)) })?.code == .notRecurring)
    }
}
