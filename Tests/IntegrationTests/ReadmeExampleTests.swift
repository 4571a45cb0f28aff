import CalendarCore
import CalendarScheduling
import CalendarViews
import Foundation
import SchedulingICalendar
import Testing

/// The README's library snippet, verbatim, so it keeps compiling and working.
@Suite("README example")
struct ReadmeExampleTests {
    @Test func readmeSnippet() async throws {
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        // A weekly yoga class in Madrid, 18:00–19:00 on Mondays and Wednesdays.
        var yoga = CalendarItem(
            uid: "yoga@example.org", title: "Yoga",
            start: .zoned(try LocalDateTime(year: 2026, month: 3, day: 2, hour: 18), "Europe/Madrid"),
            end: .duration(ItemDuration(seconds: 3600)))
        yoga.color = try .named("teal")
        yoga.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,WE")]
        try yoga.validate()  // red, or a colour people cannot tell from red, is refused

        // Every occurrence in the first week of March, for all items at once.
        let store = try LiveSchedule(items: [yoga])
        let madrid = try ZoneRules.named("Europe/Madrid")
        let from = try CalendarTime.zoned(try LocalDateTime(year: 2026, month: 3, day: 2), "Europe/Madrid").instant(floatingZone: madrid)
        let week = await store.snapshot.occurrences(from: from, to: from.addingTimeInterval(7 * 86_400), floatingZone: madrid)
        for occurrence in week {
            print(occurrence.item.title, occurrence.start)  // Yoga 2026-03-02T18:00:00 Europe/Madrid, …
        }

        #expect(printed == ["Yoga 2026-03-02T18:00:00 Europe/Madrid", "Yoga 2026-03-04T18:00:00 Europe/Madrid"])
        printed = []

        // The README's views snippet, verbatim.
        // The yoga class above, seen through the views (in Catalan).
        let schedule = try Schedule(items: [yoga])
        let names = CalendarNames(locale: Locale(identifier: "ca_ES"))
        let march4 = try LocalDate(year: 2026, month: 3, day: 4)
        let month = MonthView(year: 2026, month: 3, schedule: schedule, options: .init(firstWeekday: names.firstWeekday, timeZone: madrid))
        print(month.weeks.count, month.weeks[1].days[0].date, month.weeks[1].days[0].marker.color?.description ?? "")  // 6 2026-03-02 teal
        let days = WeekView(containing: march4, schedule: schedule, options: .init(timeZone: madrid, names: names))
        print(days.days[2].name, days.days[2].label ?? "")  // dimecres Yoga
        let day = DayView(date: march4, schedule: schedule, options: .init(timeZone: madrid, names: names))
        print(day.timed[0].startMinute, day.timed[0].endMinute, day.timed[0].column)  // 1080 1140 0
        let list = ListView(from: march4, schedule: schedule, options: .init(timeZone: madrid, limit: 3, names: names))
        print(list.sections[0].title, list.occurrences.map(\.start.date.day))  // març del 2026 [4, 9, 11]
        #expect(printed == ["6 2026-03-02 teal", "dimecres Yoga", "1080 1140 0", "març del 2026 [4, 9, 11]"])
    }

    @Test func readmeSchedulingSnippet() throws {
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        // The README's scheduling snippet, verbatim.
        var book = SchedulingBook(timeZone: try .named("Europe/Madrid"))
        try book.addCoach(Coach(id: "marc", name: "Marc Soler", buffer: .minutes(10)))
        try book.addClient(Client(id: "anna", coachID: "marc", name: "Anna Puig"))
        let monday = try LocalDate(year: 2026, month: 11, day: 23)
        let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18; passed in, never read
        try book.addSession(id: "s1", coach: "marc", client: "anna",
                            start: try LocalDateTime(year: 2026, month: 11, day: 26, hour: 18), duration: .minutes(60), now: now)

        try book.addClass(ClassSeries(id: "yoga", title: "Yoga", weekdays: [.monday, .wednesday],
                                      time: try TimeOfDay(hour: 18, minute: 30), duration: .minutes(60), capacity: 1,
                                      firstDate: try LocalDate(year: 2026, month: 9, day: 7)))
        try book.addMember(Member(id: "marta", name: "Marta Roig"))
        try book.addMember(Member(id: "oriol", name: "Oriol Camps"))
        try book.book(member: "marta", classID: "yoga", on: monday, now: now)
        do {
            try book.book(member: "oriol", classID: "yoga", on: monday, now: now)
        } catch {
            print(error)  // Yoga on 2026-11-23 is full (1 of 1 places taken, 0 waiting); join the waitlist or pick another date
        }
        print(try book.book(member: "oriol", classID: "yoga", on: monday, now: now, whenFull: .joinWaitlist))  // waitlisted(position: 1)
        print(try book.cancelBooking(member: "marta", classID: "yoga", on: monday, now: now).promoted ?? "")  // oriol
        let schedule = try book.memberSchedule(member: "oriol")  // a Schedule the views draw
        print(schedule.items.map(\.title))  // ["Yoga"]

        #expect(printed == [
            "Yoga on 2026-11-23 is full (1 of 1 places taken, 0 waiting); join the waitlist or pick another date",
            "waitlisted(position: 1)", "oriol", "[\"Yoga\"]",
        ])
    }
}
