import CalendarCore
import Foundation
import Testing

@Suite("Schedule and store")
struct ScheduleTests {
    let madrid = "Europe/Madrid"
    func t(_ d: Int, _ h: Int, _ m: Int = 0, month: Int = 3) throws -> CalendarTime {
        .zoned(try LocalDateTime(year: 2026, month: month, day: d, hour: h, minute: m), madrid)
    }
    func instant(_ s: String) throws -> Date { try CalendarTime(icalValue: s).instant(floatingZone: .utc) }

    @Test("single items, series, overrides and all-day items come out sorted in one window")
    func window() throws {
        var yoga = CalendarItem(uid: "yoga", title: "Yoga", start: try t(2, 18), end: .duration(.init(seconds: 3600)),
                                recurrenceRules: [try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,WE")])
        // Wednesday 4 March moved to Thursday 5 March 19:00; Monday 9 March cancelled.
        yoga.overrides = [
            .init(recurrenceID: try t(4, 18), item: CalendarItem(uid: "yoga", title: "Yoga (moved)", start: try t(5, 19), end: .duration(.init(seconds: 3600)))),
            .init(recurrenceID: .utc(try LocalDateTime(year: 2026, month: 3, day: 9, hour: 17)), item: yoga, isCancelled: true),
        ]
        let dentist = CalendarItem(uid: "dentist", title: "Dentist", start: try t(3, 10), end: .at(try t(3, 11)))
        let trip = CalendarItem(uid: "trip", title: "Trip", start: .date(try LocalDate(year: 2026, month: 3, day: 6)),
                                end: .at(.date(try LocalDate(year: 2026, month: 3, day: 8))))
        let old = CalendarItem(uid: "old", title: "Old", start: try t(1, 9, month: 1))
        let schedule = try Schedule(items: [yoga, dentist, trip, old])
        let found = schedule.occurrences(from: try instant("20260302T000000Z"), to: try instant("20260312T000000Z"), floatingZone: try .named(madrid))
        #expect(found.map(\.item.title) == ["Yoga", "Dentist", "Yoga (moved)", "Trip", "Yoga"])
        #expect(found[2].id == Occurrence.ID(uid: "yoga", recurrenceID: try t(4, 18)), "a moved instance keeps its identity")
        let tripEnd = CalendarTime.date(try LocalDate(year: 2026, month: 3, day: 8))
        #expect(found[3].isAllDay && found[3].end == tripEnd)
        #expect(found[4].start == (try t(11, 18)))
    }

    /// Issue 43, 4: no quiet default that is wrong for most callers. A floating
    /// time read in UTC put a Tokyo reader's 09:00 at 18:00.
    @Test("without a floating zone, a schedule reads floating and all-day times on its own clock, not UTC's")
    func floatingDefault() throws {
        let wall = try LocalDateTime(year: 2026, month: 3, day: 4, hour: 9)
        let standup = CalendarItem(uid: "standup", kind: .event, title: "Stand-up", start: .floating(wall), end: .duration(ItemDuration(seconds: 900)))
        let tokyo = try ZoneRules.named("Asia/Tokyo")
        let schedule = try Schedule(items: [standup], timeZone: tokyo)
        let day = DateInterval(start: try instant("20260303T000000Z"), end: try instant("20260305T000000Z"))
        let found = schedule.occurrences(in: day)
        #expect(found.map(\.startSeconds) == schedule.occurrences(in: day, floatingZone: tokyo).map(\.startSeconds))
        #expect(found.first?.startSeconds == tokyo.instant(forWall: wall.localSeconds))
        #expect(found.first?.startSeconds != schedule.occurrences(in: day, floatingZone: .utc).first?.startSeconds)
    }

    @Test("THISANDFUTURE moves this and every later instance")
    func thisAndFuture() throws {
        var item = CalendarItem(uid: "c", title: "Class", start: try t(2, 9), end: .duration(.init(seconds: 1800)),
                                recurrenceRules: [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=5")])
        item.overrides = [.init(recurrenceID: try t(4, 9), thisAndFuture: true,
                                item: CalendarItem(uid: "c", title: "Class (later)", start: try t(4, 10), end: .duration(.init(seconds: 3600))))]
        let found = try Schedule(items: [item]).occurrences(from: try instant("20260301T000000Z"), to: try instant("20260310T000000Z"))
        #expect(found.map { $0.start.wallTime.hour } == [9, 9, 10, 10, 10])
        #expect(found.last.map { $0.endSeconds - $0.startSeconds } == 3600)
        #expect(found.last?.item.title == "Class (later)")
    }

    @Test("a long single item that started before the window still shows")
    func longItem() throws {
        let course = CalendarItem(uid: "course", title: "Course", start: .date(try LocalDate(year: 2026, month: 1, day: 1)),
                                  end: .at(.date(try LocalDate(year: 2026, month: 6, day: 1))))
        let found = try Schedule(items: [course]).occurrences(from: try instant("20260302T000000Z"), to: try instant("20260303T000000Z"))
        #expect(found.map(\.id.uid) == ["course"])
    }

    @Test("a window in a ten-year-old daily series is right")
    func oldSeries() throws {
        let item = CalendarItem(uid: "d", title: "Daily", start: .zoned(try LocalDateTime(year: 2016, month: 1, day: 1, hour: 7), madrid),
                                recurrenceRules: [try RecurrenceRule(parsing: "FREQ=DAILY")])
        let found = try Schedule(items: [item]).occurrences(from: try instant("20260302T000000Z"), to: try instant("20260309T000000Z"))
        #expect(found.count == 7)
        #expect(found.first?.start == (try t(2, 7)))
    }

    @Test("the store validates, refuses duplicates and publishes every change")
    func store() async throws {
        let store = try LiveSchedule()
        let updates = await store.changes()
        let a = CalendarItem(uid: "a", title: "A", start: try t(2, 9))
        try await store.add(a)
        await #expect(throws: CalendarItemError.self) { try await store.add(a) }
        await #expect(throws: CalendarItemError.self) {
            try await store.add(CalendarItem(uid: "b", title: "B", start: try t(2, 9), color: .red))
        }
        var edited = a
        edited.title = "A2"
        try await store.update(edited)
        try await store.delete(uid: "a")
        await #expect(throws: CalendarItemError.self) { try await store.delete(uid: "a") }
        var kinds: [LiveSchedule.Change.Kind] = []
        for await change in updates {
            kinds.append(change.kind)
            if change.kind == .updated { #expect(change.snapshot.item(uid: "a")?.title == "A2") }
            if kinds.count == 3 { break }
        }
        #expect(kinds == [.added, .updated, .deleted])
        #expect(await store.snapshot.items.isEmpty)
    }
}
