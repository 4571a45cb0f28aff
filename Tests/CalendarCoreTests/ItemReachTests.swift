import CalendarCore
import Foundation
import Testing

/// An item's reach in time (`CalendarItem.reach`), which a database indexes
/// so that a view reads only the items that can touch its window. The
/// referee is the schedule itself: every occurrence, in every kind of time
/// and on the clocks furthest from UTC, must lie inside the reach; a reach
/// too short would drop an item from a view silently.
@Suite("An item's reach in time")
struct ItemReachTests {
    let madrid = "Europe/Madrid"
    let window = (from: Date(timeIntervalSince1970: 1_577_836_800), to: Date(timeIntervalSince1970: 1_956_528_000))  // 2020 to 2032

    func at(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ min: Int = 0) throws -> LocalDateTime {
        try LocalDateTime(year: y, month: m, day: d, hour: h, minute: min)
    }

    /// Items of every shape a reach must cover.
    func items() throws -> [CalendarItem] {
        var weekly = CalendarItem(uid: "weekly", title: "Standup", start: .zoned(try at(2026, 10, 5, 9), madrid),
                                  end: .duration(.init(seconds: 900)), recurrenceRules: [try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO;COUNT=10")])
        weekly.exceptionDates = [.zoned(try at(2026, 10, 19, 9), madrid)]
        // One occurrence moved a month past the series' end, one this-and-future shift.
        var moved = weekly
        moved.start = .zoned(try at(2027, 1, 20, 23), madrid)
        weekly.overrides = [RecurrenceOverride(recurrenceID: .zoned(try at(2026, 11, 2, 9), madrid), item: moved)]
        var shifted = CalendarItem(uid: "shifted", title: "Shifted", start: .utc(try at(2026, 3, 2, 18)), end: .duration(.init(seconds: 3600)),
                                   recurrenceRules: [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=5")])
        var later = shifted
        later.start = .utc(try at(2026, 3, 5, 12))
        shifted.overrides = [RecurrenceOverride(recurrenceID: .utc(try at(2026, 3, 4, 18)), thisAndFuture: true, item: later)]
        let floating = CalendarItem(uid: "floating", title: "Stretch", start: .floating(try at(2026, 3, 25, 23, 30)),
                                    end: .at(.floating(try at(2026, 3, 26, 1))), recurrenceRules: [try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20260405T233000")])
        let allDay = CalendarItem(uid: "trip", title: "Trip", start: .date(try LocalDate(year: 2026, month: 8, day: 1)),
                                  end: .duration(.init(days: 10, seconds: 0)))
        var rdates = CalendarItem(uid: "rdates", title: "Extra", start: .zoned(try at(2026, 6, 1, 8), "Pacific/Kiritimati"))
        rdates.recurrenceDates = [.zoned(try at(2026, 5, 1, 8), "Pacific/Kiritimati"), .utc(try at(2026, 9, 1, 23))]
        rdates.recurrenceDateEnds = [.init(start: .utc(try at(2026, 9, 1, 23)), end: .duration(.init(days: 2, seconds: 0)))]
        let due = CalendarItem(task: "due", title: "File taxes", due: .zoned(try at(2026, 6, 30, 23, 59), "Pacific/Pago_Pago"))
        return [weekly, shifted, floating, allDay, rdates, due]
    }

    @Test("every occurrence lies inside the reach, on the clocks furthest ahead of and behind UTC")
    func occurrencesInside() throws {
        for floatingZone in ["Pacific/Kiritimati", "Pacific/Pago_Pago", madrid] {
            let zone = try ZoneRules.named(floatingZone)
            for item in try items() {
                let reach = try #require(item.reach, "\(item.uid)")
                let occurrences = try Schedule(items: [item]).occurrences(from: window.from, to: window.to, floatingZone: zone)
                #expect(!occurrences.isEmpty, "\(item.uid)")
                for o in occurrences {
                    #expect(o.startSeconds >= reach.from, "\(item.uid) \(o.start) in \(floatingZone) starts before its reach")
                    #expect(o.endSeconds <= reach.to ?? .max, "\(item.uid) \(o.start) in \(floatingZone) ends after its reach")
                }
            }
        }
    }

    @Test("the reach is tight: the margin either side of the first start and the last end")
    func tight() throws {
        let event = CalendarItem(uid: "one", title: "One", start: .utc(try at(2026, 11, 25, 10)), end: .at(.utc(try at(2026, 11, 25, 11))))
        let reach = try #require(event.reach)
        let ten = try CalendarTime.utc(try at(2026, 11, 25, 10)).epochSeconds(floatingZone: .utc)
        let margin = CalendarItem.reachMargin
        #expect(margin == 5 * 86_400)
        #expect(reach.from == ten - margin)
        #expect(reach.to == ten + 3600 + margin)
        // COUNT=3 weekly: the third start, an hour long.
        let series = CalendarItem(uid: "three", title: "Three", start: .utc(try at(2026, 11, 25, 10)), end: .duration(.init(seconds: 3600)),
                                  recurrenceRules: [try RecurrenceRule(parsing: "FREQ=WEEKLY;COUNT=3")])
        #expect(try #require(series.reach).to == ten + 14 * 86_400 + 3600 + margin)
    }

    @Test("a series with no end, or more occurrences than are walked, reaches on; an undated task is in every window")
    func open() throws {
        let start = CalendarTime.utc(try at(2026, 1, 1, 9))
        let forever = CalendarItem(uid: "f", title: "F", start: start, recurrenceRules: [try RecurrenceRule(parsing: "FREQ=DAILY")])
        #expect(try #require(forever.reach).to == nil)
        let many = CalendarItem(uid: "m", title: "M", start: start, recurrenceRules: [try RecurrenceRule(parsing: "FREQ=SECONDLY;COUNT=5000000")])
        #expect(try #require(many.reach).to == nil)
        #expect(CalendarItem(undatedTask: "t", title: "Some day").reach == nil)
    }

    @Test("a length no calendar means (a hundred million days) reaches far, without overflowing")
    func hugeLength() throws {
        let item = CalendarItem(uid: "h", title: "H", start: .utc(try at(2026, 1, 1, 9)), end: .duration(.init(days: 100_000_000, seconds: Int.max)))
        let reach = try #require(item.reach)
        #expect(try #require(reach.to) > reach.from + 9_000 * 365 * 86_400)
    }
}
