import CalendarCore
import CalendarViews
import Foundation
import Testing

/// Items for view tests: zoned in Madrid on a day of March 2026 unless said.
private struct Make {
    static func at(_ day: Int, _ hour: Int, _ minute: Int = 0, month: Int = 3) throws -> CalendarTime {
        .zoned(try LocalDateTime(year: 2026, month: month, day: day, hour: hour, minute: minute), "Europe/Madrid")
    }

    static func item(_ uid: String, _ start: CalendarTime, minutes: Int?, color: String? = nil, rule: String? = nil) throws -> CalendarItem {
        var i = CalendarItem(uid: uid, title: uid, start: start, end: minutes.map { .duration(.init(seconds: $0 * 60)) })
        i.color = try color.map { try ItemColor.named($0) }
        if let rule { i.recurrenceRules = [try RecurrenceRule(parsing: rule)] }
        return i
    }

    /// Items from "HH:MM-HH:MM" on 2026-03-10, named a, b, c… in order.
    static func day(_ spans: [String]) throws -> Schedule {
        var items: [CalendarItem] = []
        for (n, span) in spans.enumerated() {
            let parts = span.split(separator: "-").map { $0.split(separator: ":").compactMap { Int($0) } }
            let start = parts[0][0] * 60 + parts[0][1]
            let end = parts[1][0] * 60 + parts[1][1]
            let name = String(UnicodeScalar(UInt8(97 + n)))
            items.append(try item(name, at(10, parts[0][0], parts[0][1]), minutes: end - start))
        }
        return try Schedule(items: items)
    }
}

@Suite("Week view")
struct WeekViewTests {
    let madrid: ZoneRules
    init() throws { madrid = try ZoneRules.named("Europe/Madrid") }

    @Test("Seven days from the first weekday: empty, one occurrence, or several with the localised label")
    func contents() throws {
        let schedule = try Schedule(items: [
            try Make.item("swim", Make.at(10, 9), minutes: 60, color: "teal"),
            try Make.item("run", Make.at(11, 8), minutes: 30, color: "teal"),
            try Make.item("yoga", Make.at(11, 19), minutes: 60, color: "orange"),
            // 23:00–01:00 crosses into the 13th, where it is the only item.
            try Make.item("late", Make.at(12, 23), minutes: 120, color: "navy"),
            // An all-day item over the 14th and 15th (DTEND the 16th, exclusive).
            CalendarItem(uid: "trip", title: "trip", start: .date(try LocalDate(year: 2026, month: 3, day: 14)),
                         end: .at(.date(try LocalDate(year: 2026, month: 3, day: 16)))),
        ])
        let names = CalendarNames(locale: Locale(identifier: "es_ES"))
        let today = try LocalDate(year: 2026, month: 3, day: 11)
        let week = WeekView(containing: try LocalDate(year: 2026, month: 3, day: 12), schedule: schedule,
                            options: .init(timeZone: madrid, today: today, names: names))
        #expect(week.start == (try LocalDate(year: 2026, month: 3, day: 9)))  // Spain's week starts on Monday
        #expect(week.days.map(\.date.day) == [9, 10, 11, 12, 13, 14, 15])
        #expect(week.days.map(\.name) == ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"])
        #expect(week.isoWeek == 11)
        #expect(week.days[0].content == .empty && week.days[0].label == nil)
        guard case .one(let swim) = week.days[1].content else { Issue.record("the 10th holds one item"); return }
        let teal = try ItemColor.named("teal")
        #expect(swim.title == "swim" && week.days[1].label == "swim" && week.days[1].color == teal)
        #expect(swim.start == (try LocalDateTime(year: 2026, month: 3, day: 10, hour: 9)))
        #expect(week.days[2].content == .several(count: 2))
        #expect(week.days[2].label == "Varios elementos" && week.days[2].color == .red && week.days[2].isToday)
        guard case .one(let late) = week.days[4].content else { Issue.record("the 13th holds the late item"); return }
        #expect(late.id.uid == "late")
        #expect(week.days[5].label == "trip" && week.days[6].label == "trip")
        // Navigation moves whole weeks.
        #expect(week.next == (try LocalDate(year: 2026, month: 3, day: 16)))
        #expect(week.previous == (try LocalDate(year: 2026, month: 3, day: 2)))
    }

    @Test("a busy day of events (or events and tasks) says Several items; of tasks only, Several tasks")
    func severalItemsOrTasks() throws {
        var essay = try Make.item("essay", Make.at(11, 12), minutes: nil)
        essay.kind = .task
        var reading = try Make.item("reading", Make.at(12, 18), minutes: nil)
        reading.kind = .task
        var maths = try Make.item("maths", Make.at(12, 20), minutes: nil)
        maths.kind = .task
        let schedule = try Schedule(items: [
            try Make.item("swim", Make.at(10, 9), minutes: 60), try Make.item("run", Make.at(10, 18), minutes: 30),
            try Make.item("yoga", Make.at(11, 19), minutes: 60), essay, reading, maths,
        ])
        for (id, items, tasks) in [("en_US", "Several items", "Several tasks"), ("ca_ES", "Diversos elements", "Diverses tasques")] {
            let week = WeekView(containing: try LocalDate(year: 2026, month: 3, day: 12), schedule: schedule,
                                options: .init(firstWeekday: .monday, timeZone: madrid, names: CalendarNames(locale: Locale(identifier: id))))
            #expect(week.days[1].content == .several(count: 2) && week.days[1].label == items, "two events, \(id)")
            #expect(week.days[2].content == .several(count: 2) && week.days[2].label == items, "an event and a task, \(id)")
            #expect(week.days[3].content == .several(count: 2) && week.days[3].label == tasks, "two tasks, \(id)")
        }
    }

    @Test("Sunday first (en_US): the week of a Sunday starts on it")
    func sundayFirst() throws {
        let week = WeekView(containing: try LocalDate(year: 2026, month: 11, day: 22),
                            options: .init(names: CalendarNames(locale: Locale(identifier: "en_US"))))
        #expect(week.days.first?.date == (try LocalDate(year: 2026, month: 11, day: 22)))
        #expect(week.days.first?.name == "Sunday")
        // The Thursday of the row (26 November 2026) is in ISO week 48.
        #expect(week.isoWeek == 48)
    }
}

@Suite("Day view layout")
struct DayViewTests {
    let madrid: ZoneRules
    init() throws { madrid = try ZoneRules.named("Europe/Madrid") }

    func layout(_ spans: [String]) throws -> [String] {
        let view = DayView(date: try LocalDate(year: 2026, month: 3, day: 10), schedule: try Make.day(spans), options: .init(timeZone: madrid))
        // Golden form: name column/count+span, in the input's names.
        return view.timed.sorted { $0.occurrence.id.uid < $1.occurrence.id.uid }.map {
            "\($0.occurrence.id.uid) \($0.column)/\($0.columnCount)+\($0.columnSpan)"
        }
    }

    @Test("Apart: items that do not overlap take the whole width")
    func apart() throws {
        #expect(try layout(["09:00-10:00", "10:00-11:00", "13:00-13:30"]) == ["a 0/1+1", "b 0/1+1", "c 0/1+1"])
    }

    @Test("A chain: a overlaps b, b overlaps c, a and c do not — two columns, c reuses a's")
    func chain() throws {
        #expect(try layout(["09:00-10:00", "09:30-10:30", "10:00-11:00"]) == ["a 0/2+1", "b 1/2+1", "c 0/2+1"])
    }

    @Test("A nest: each inside the one before — three columns")
    func nest() throws {
        #expect(try layout(["09:00-12:00", "09:30-11:00", "10:00-10:30"]) == ["a 0/3+1", "b 1/3+1", "c 2/3+1"])
    }

    @Test("Five-way overlap: five columns of one fifth (CalendarKit breaks past three)")
    func fiveWay() throws {
        let result = try layout(["09:00-10:00", "09:00-10:00", "09:15-10:00", "09:30-11:00", "09:45-10:15"])
        // d is the longest of those starting latest but one; columns follow start times.
        #expect(result == ["a 0/5+1", "b 1/5+1", "c 2/5+1", "d 3/5+1", "e 4/5+1"])
    }

    @Test("Eight and twelve at once: one column each, none lost")
    func many() throws {
        for n in [8, 12] {
            let result = try layout(Array(repeating: "14:00-15:00", count: n))
            #expect(result.count == n)
            #expect(Set(result.map { $0.split(separator: " ")[1] }) == Set((0..<n).map { "\($0)/\(n)+1" }))
        }
    }

    @Test("An item widens over columns that are free for its whole time")
    func widening() throws {
        // a 9–12 (col 0), b 9–10 (col 1), c 9–10 (col 2), d 10–12 takes col 1 and c's column, free after 10.
        #expect(try layout(["09:00-12:00", "09:00-10:00", "09:00-10:00", "10:00-12:00"]) == ["a 0/3+1", "b 1/3+1", "c 2/3+1", "d 1/3+2"])
        // Later, after the cluster ends, a lone item has the whole width again.
        #expect(try layout(["09:00-10:00", "09:30-10:30", "11:00-12:00"]) == ["a 0/2+1", "b 1/2+1", "c 0/1+1"])
    }

    @Test("Short items closer than the minimum height sit side by side; their times stay")
    func minimumHeight() throws {
        let view = DayView(date: try LocalDate(year: 2026, month: 3, day: 10), schedule: try Make.day(["09:00-09:05", "09:10-09:20"]),
                           options: .init(timeZone: madrid))
        #expect(view.timed.map(\.column) == [0, 1])
        #expect(view.timed.map(\.startMinute) == [540, 550])
        #expect(view.timed.map(\.endMinute) == [545, 560])
        // A minimum of five minutes, a Duration as every length: the two fit one above the other.
        let tight = DayView(date: try LocalDate(year: 2026, month: 3, day: 10), schedule: try Make.day(["09:00-09:05", "09:10-09:20"]),
                            options: .init(timeZone: madrid, minimumLength: .minutes(5)))
        #expect(tight.timed.map(\.column) == [0, 0])
    }

    @Test("Across midnight on both days, cut at the edges; all-day apart; slots list what overlaps each hour")
    func midnightAndAllDay() throws {
        let schedule = try Schedule(items: [
            try Make.item("late", Make.at(10, 22), minutes: 180),
            try Make.item("early", Make.at(11, 1), minutes: 60),
            CalendarItem(uid: "trip", title: "trip", start: .date(try LocalDate(year: 2026, month: 3, day: 11)), end: nil),
        ])
        let first = DayView(date: try LocalDate(year: 2026, month: 3, day: 10), schedule: schedule, options: .init(timeZone: madrid))
        #expect(first.timed.count == 1)
        #expect(first.timed[0].startMinute == 22 * 60 && first.timed[0].endMinute == 1440)
        #expect(first.timed[0].continuesToNextDay && !first.timed[0].continuesFromPreviousDay)
        #expect(first.allDay.isEmpty)
        let second = DayView(date: try LocalDate(year: 2026, month: 3, day: 11), schedule: schedule, options: .init(timeZone: madrid))
        #expect(second.allDay.map(\.title) == ["trip"])
        #expect(second.timed.map(\.occurrence.title) == ["late", "early"])
        #expect(second.timed[0].startMinute == 0 && second.timed[0].endMinute == 60 && second.timed[0].continuesFromPreviousDay)
        // 00:00–01:00 of "late" and 01:00–02:00 of "early" touch but do not overlap: one column.
        #expect(second.timed.map(\.columnCount) == [1, 1])
        #expect(second.slots.count == 24)
        #expect(second.slots[0].placements == [0] && second.slots[1].placements == [1] && second.slots[2].placements.isEmpty)
        #expect(second.previous == (try LocalDate(year: 2026, month: 3, day: 10)))
    }

    @Test("a series is shown up to the limit and named when it has more (an hour-long event every second: 2,000 of the 86,400 touching the day, the rest not expanded); a minutely one fits whole; other items are never cut")
    func limitPerSeries() throws {
        let schedule = try Schedule(items: [
            try Make.item("tick", Make.at(10, 9), minutes: 60, rule: "FREQ=SECONDLY"),
            try Make.item("minute", Make.at(10, 0), minutes: 1, rule: "FREQ=MINUTELY;COUNT=1440"),
            try Make.item("lunch", Make.at(10, 13), minutes: 60),
        ])
        let date = try LocalDate(year: 2026, month: 3, day: 10)
        let day = DayView(date: date, schedule: schedule, options: .init(timeZone: madrid))
        let counts = Dictionary(grouping: day.timed, by: \.occurrence.title).mapValues(\.count)
        #expect(counts == ["tick": DayView.defaultLimitPerSeries, "minute": 1440, "lunch": 1])
        #expect(day.cappedSeries == ["tick"])
        // The first 2,000 in the schedule's order: 09:00:00 to 09:33:19.
        let ticks = day.timed.filter { $0.occurrence.title == "tick" }.map(\.occurrence.start.localSeconds)
        let nine: Int64 = Int64(date.dayNumber) * 86_400 + 9 * 3600
        let expected: [Int64] = (0..<Int64(2_000)).map { nine + $0 }
        #expect(ticks == expected)
        let small = DayView(date: date, schedule: schedule, options: .init(timeZone: madrid, limitPerSeries: 10))
        #expect(Dictionary(grouping: small.timed, by: \.occurrence.title).mapValues(\.count) == ["tick": 10, "minute": 10, "lunch": 1])
        #expect(small.cappedSeries.map(Set.init) == ["tick", "minute"])
        // A series that reaches the limit exactly is whole, and not named.
        let exact = DayView(date: date, schedule: schedule, options: .init(timeZone: madrid, limitPerSeries: 1440))
        #expect(exact.cappedSeries == ["tick"])
        // A week counts seven times the limit: the secondly event is cut, a minutely one every day would not be.
        let week = WeekView(containing: date, schedule: schedule, options: .init(timeZone: madrid, limitPerSeries: 1440))
        #expect(week.cappedSeries == ["tick"])
        let everyMinute = try Schedule(items: [try Make.item("minute", Make.at(1, 0), minutes: 1, rule: "FREQ=MINUTELY")])
        let minutes = WeekView(containing: date, schedule: everyMinute, options: .init(timeZone: madrid))
        #expect(minutes.cappedSeries == nil)
        #expect(minutes.days.allSatisfy { $0.content != .empty })
        // Without a series that reaches it, the JSON has no cappedSeries at all (schema 1 unchanged).
        let plain = DayView(date: date, schedule: try Make.day(["09:00-10:00"]), options: .init(timeZone: madrid))
        #expect(plain.cappedSeries == nil)
        #expect(!String(decoding: try JSONEncoder().encode(plain), as: UTF8.self).contains("cappedSeries"))
    }

    @Test("on 200 random days of 1 to 80 items, each item widens over exactly the columns free for its whole time (the definition, checked by brute force)")
    func spansByDefinition() throws {
        var state: UInt64 = 42
        func random(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        for _ in 0..<200 {
            let spans = (0..<(1 + random(80))).map { _ -> String in
                let start = random(23 * 60), length = 1 + random(180)
                let end = min(start + length, 23 * 60 + 59)
                return String(format: "%02d:%02d-%02d:%02d", start / 60, start % 60, end / 60, end % 60)
            }
            let view = DayView(date: try LocalDate(year: 2026, month: 3, day: 10), schedule: try Make.day(spans), options: .init(timeZone: madrid))
            let p = view.timed
            func bottom(_ x: DayView.Placement) -> Int { max(x.endMinute, x.startMinute + 15) }
            func overlap(_ x: DayView.Placement, _ y: DayView.Placement) -> Bool { x.startMinute < bottom(y) && bottom(x) > y.startMinute }
            for (i, x) in p.enumerated() {
                // Its cluster: everything its column count is shared with and that overlaps it, directly or through others.
                let others = p.indices.filter { $0 != i && p[$0].columnCount == x.columnCount }
                func free(_ column: Int) -> Bool { !others.contains { p[$0].column == column && overlap(p[$0], x) } }
                #expect(!others.contains { p[$0].column == x.column && overlap(p[$0], x) }, "\(spans)")
                for c in x.column..<(x.column + x.columnSpan) where c != x.column { #expect(free(c), "\(spans)") }
                let next = x.column + x.columnSpan
                #expect(next == x.columnCount || !free(next), "\(spans)")
            }
        }
    }

    @Test("The display zone places items: 09:00 in Madrid is 08:00 in London")
    func displayZone() throws {
        let schedule = try Schedule(items: [try Make.item("a", Make.at(10, 9), minutes: 60)])
        let view = DayView(date: try LocalDate(year: 2026, month: 3, day: 10), schedule: schedule,
                           options: .init(timeZone: try .named("Europe/London")))
        #expect(view.timed.first?.startMinute == 8 * 60)
    }
}

@Suite("List view")
struct ListViewTests {
    let madrid: ZoneRules
    init() throws { madrid = try ZoneRules.named("Europe/Madrid") }

    /// A weekly class (Mondays 18:00) from 2 March 2026, six of them at the same minute on 9 March, and a one-off in May.
    func schedule() throws -> Schedule {
        var items = [try Make.item("class", Make.at(2, 18), minutes: 60, rule: "FREQ=WEEKLY;COUNT=10")]
        for n in 0..<6 { items.append(try Make.item("tie-\(n)", Make.at(9, 18), minutes: 60)) }
        items.append(try Make.item("may", Make.at(4, 12, month: 5), minutes: 30))
        items.append(try Make.item("past", Make.at(1, 8, month: 2), minutes: 30))
        return try Schedule(items: items)
    }

    @Test("From a date onward, ascending, grouped by month")
    func firstPage() throws {
        let options = ListView.Options(timeZone: madrid, limit: 50, names: CalendarNames(locale: Locale(identifier: "en_US")))
        let list = ListView(from: try LocalDate(year: 2026, month: 3, day: 3), schedule: try schedule(), options: options)
        #expect(list.sections.map(\.title) == ["March 2026", "April 2026", "May 2026"])
        let all = list.occurrences
        #expect(all.count == 9 + 6 + 1)  // the 2 March class is before the date; "past" too
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.startSeconds <= $1.startSeconds })
        #expect(list.nextPage == nil)
        #expect(list.sections[2].occurrences.map(\.title) == ["may", "class"])
    }

    @Test("Pages of three neither repeat nor skip, even among six items at the same minute; previous pages go back")
    func paging() throws {
        let schedule = try schedule()
        let options = ListView.Options(timeZone: madrid, limit: 3)
        let everything = ListView(from: try LocalDate(year: 2026, month: 1, day: 1), schedule: schedule,
                                  options: .init(timeZone: madrid, limit: 1000)).occurrences.map(\.id)
        var seen: [Occurrence.ID] = []
        var pages: [ListView] = [ListView(from: try LocalDate(year: 2026, month: 1, day: 1), schedule: schedule, options: options)]
        while true {
            let page = pages[pages.count - 1]
            #expect(page.occurrences.count <= 3)
            seen += page.occurrences.map(\.id)
            guard let next = page.nextPage else { break }
            pages.append(ListView(after: next, schedule: schedule, options: options))
        }
        #expect(seen == everything)
        #expect(seen.count == 10 + 6 + 1 + 1)
        // Back from the last page, page by page, gives the same pages.
        for i in stride(from: pages.count - 1, to: 0, by: -1) {
            guard let previous = pages[i].previousPage else { Issue.record("page \(i) has no previous"); continue }
            let back = ListView(before: previous, schedule: schedule, options: options)
            #expect(back.occurrences.map(\.id) == pages[i - 1].occurrences.map(\.id))
        }
        // The first page has nothing before it: no previous page to go to (issue 41, 7: it led forward).
        #expect(pages[0].previousPage == nil)
        // A page from a later date has: the page before it ends just before its first occurrence.
        let later = ListView(after: try #require(pages[0].nextPage), schedule: schedule, options: options)
        let fromLater = ListView(from: try #require(later.occurrences.first).start.date, schedule: schedule, options: options)
        let before = ListView(before: try #require(fromLater.previousPage), schedule: schedule, options: options)
        #expect(before.occurrences.map(\.id) == everything.prefix { $0 != fromLater.occurrences.first?.id }.suffix(3).map { $0 })
    }

    @Test("Nothing ahead within the lookahead: an empty page with no next")
    func empty() throws {
        let list = ListView(from: try LocalDate(year: 2030, month: 1, day: 1), schedule: try schedule(), options: .init(timeZone: madrid))
        #expect(list.sections.isEmpty && list.nextPage == nil && list.previousPage == nil)
    }

    @Test("A yearly series found 20 years ahead once the lookahead allows it")
    func lookahead() throws {
        let birthday = try Make.item("b", .date(try LocalDate(year: 2000, month: 6, day: 1)), minutes: nil, rule: "FREQ=YEARLY;UNTIL=20450601")
        let schedule = try Schedule(items: [birthday])
        let short = ListView(from: try LocalDate(year: 2026, month: 1, day: 1), schedule: schedule, options: .init(limit: 25))
        #expect(short.occurrences.count == 10)  // ten years, the default lookahead
        let long = ListView(from: try LocalDate(year: 2026, month: 1, day: 1), schedule: schedule, options: .init(limit: 25, lookaheadDays: 30 * 366))
        #expect(long.occurrences.count == 20 && long.nextPage == nil)
        #expect(long.occurrences.last?.start.date == (try LocalDate(year: 2045, month: 6, day: 1)))
    }
}

@Suite("Localised names")
struct CalendarNamesTests {
    /// For each locale: names read for known dates by Foundation's own
    /// formatter (standalone patterns LLLL and cccc) must be ours — this
    /// checks the Monday-first mapping, not just that a list exists — and a
    /// few names are also checked against what the language writes.
    @Test("English, Catalan, Spanish and Italian against Foundation's formatter", arguments: [
        ("en_US", "November", "Monday", "Several items", Weekday.sunday),
        ("ca_ES", "novembre", "dilluns", "Diversos elements", Weekday.monday),
        ("es_ES", "noviembre", "lunes", "Varios elementos", Weekday.monday),
        ("it_IT", "novembre", "lunedì", "Diversi elementi", Weekday.monday),
    ])
    func locales(_ id: String, november: String, monday: String, several: String, first: Weekday) throws {
        let locale = Locale(identifier: id)
        let names = CalendarNames(locale: locale)
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = TimeZone(identifier: "UTC")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        formatter.calendar = calendar
        for month in 1...12 {
            let date = try #require(calendar.date(from: DateComponents(year: 2026, month: month, day: 15)))
            formatter.dateFormat = "LLLL"
            #expect(names.month(month) == formatter.string(from: date))
        }
        // 2026-11-23 is a Monday.
        for offset in 0..<7 {
            let date = try #require(calendar.date(from: DateComponents(year: 2026, month: 11, day: 23 + offset)))
            let ours = try #require(Weekday(rawValue: offset))
            formatter.dateFormat = "cccc"
            #expect(names.weekday(ours) == formatter.string(from: date))
            formatter.dateFormat = "ccc"
            #expect(names.shortWeekdays[offset] == formatter.string(from: date))
        }
        #expect(names.month(11) == november)
        #expect(names.weekday(.monday) == monday)
        #expect(names.severalItems == several)
        #expect(names.firstWeekday == first)
    }

    @Test("A language without a table entry falls back to English labels; names still come from Foundation")
    func fallback() {
        let names = CalendarNames(locale: Locale(identifier: "nl_NL"))
        #expect(names.severalItems == "Several items")
        #expect(names.severalTasks == "Several tasks")
        #expect(names.month(3) == "maart")
        #expect(names.firstWeekday == .monday)
    }

    @Test("Every language of the labels' table fills every template, and a view's words follow the locale (issue 43, 14)")
    func labelTemplates() {
        for (language, words) in CalendarNames.labels {
            let names = CalendarNames(locale: Locale(identifier: language))
            #expect(names.words == words, "\(language)")
            #expect(names.timesIn("Europe/Madrid").contains("Europe/Madrid") && !names.timesIn("x").contains("{"), "\(language)")
            #expect(names.isoWeek(48).contains("48") && !names.isoWeek(48).contains("{"), "\(language)")
            let places = names.placesLeft(7, of: 10)
            #expect(places.contains("7") && places.contains("10") && !places.contains("{"), "\(language)")
            #expect(names.waiting(3).contains("3") && !names.waiting(3).contains("{"), "\(language)")
            for word in [words.done, words.toDo, words.cancelled, words.comingUp, words.full] { #expect(!word.isEmpty, "\(language)") }
        }
        let spanish = CalendarNames(locale: Locale(identifier: "es_ES"))
        #expect(spanish.timesIn("Europe/Madrid") == "Horas de Europe/Madrid")
        #expect(spanish.isoWeek(48) == "semana ISO 48")
        #expect(spanish.placesLeft(7, of: 10) == "7 de 10 plazas libres")
        #expect(CalendarNames(locale: Locale(identifier: "nl_NL")).isoWeek(48) == "ISO week 48")
        #expect(CalendarNames.english.placesLeft(0, of: 4) == "0 of 4 places left")
    }

    @Test("Month titles as the locale writes them")
    func titles() {
        #expect(CalendarNames(locale: Locale(identifier: "en_US")).monthTitle(year: 2026, month: 11) == "November 2026")
        #expect(CalendarNames(locale: Locale(identifier: "es_ES")).monthTitle(year: 2026, month: 11) == "noviembre de 2026")
    }
}

@Suite("View models as values")
struct ViewCodingTests {
    @Test("Week, day and list views survive JSON unchanged")
    func json() throws {
        let madrid = try ZoneRules.named("Europe/Madrid")
        let schedule = try Make.day(["09:00-10:00", "09:30-10:30", "10:00-11:00"])
        let date = try LocalDate(year: 2026, month: 3, day: 10)
        let week = WeekView(containing: date, schedule: schedule, options: .init(timeZone: madrid))
        let day = DayView(date: date, schedule: schedule, options: .init(timeZone: madrid))
        let list = ListView(from: date, schedule: schedule, options: .init(timeZone: madrid, limit: 2))
        #expect(try JSONDecoder().decode(WeekView.self, from: JSONEncoder().encode(week)) == week)
        #expect(try JSONDecoder().decode(DayView.self, from: JSONEncoder().encode(day)) == day)
        #expect(try JSONDecoder().decode(ListView.self, from: JSONEncoder().encode(list)) == list)
        #expect(list.nextPage != nil)
    }
}

@Suite("An occurrence's JSON written directly")
struct OccurrenceJSONTests {
    @Test("ISO text appended as bytes is the strings' text: dates of years 1 to 9999 (all a LocalDate holds), wall times, offsets with seconds, every kind of time")
    func isoBytes() throws {
        var state: UInt64 = 9
        func random(_ range: ClosedRange<Int>) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return range.lowerBound + Int((state >> 33) % UInt64(range.count))
        }
        var years = [1, 9, 10, 99, 100, 999, 1000, 9999]
        years += (0..<500).map { _ in random(1...3000) }
        for year in years {
            let wall = try LocalDateTime(year: year, month: random(1...12), day: random(1...28), hour: random(0...23), minute: random(0...59), second: random(0...59))
            let offset = Int64(random(-14 * 3600...14 * 3600))
            for time in [CalendarTime.date(wall.date), .floating(wall), .utc(wall), .zoned(wall, "Europe/Madrid"), .zoned(wall, "Nowhere/Atlantis")] {
                var bytes: [UInt8] = []
                ISOText.append(time, to: &bytes)
                #expect(String(decoding: bytes, as: UTF8.self) == time.isoText)
            }
            var instant: [UInt8] = []
            ISOText.appendInstant(wall: wall, seconds: wall.localSeconds - offset, to: &instant)
            #expect(String(decoding: instant, as: UTF8.self) == ISOText.instant(wall: wall, seconds: wall.localSeconds - offset))
        }
    }

    /// Titles, places and UIDs with every ASCII byte, quotes, slashes, and text beyond ASCII.
    static let texts: [String] = {
        var all = ["plain", "a/b \\ \"q\"", "Zoë d'Or 𝄞 🏋️‍♀️ e\u{301}", "\u{2028}\u{2029}\u{7F}\u{FEFF}", "</script>", ""]
        all.append(String((0..<128).map { Character(UnicodeScalar(UInt8($0))) }))
        return all
    }()

    @Test("the bytes are JSONEncoder's (pretty, sorted keys, slashes as they are) for events and tasks, timed and all-day, done, cancelled, with and without a colour, a place and a recurrence, and indented as the stream indents them")
    func sameAsTheEncoder() throws {
        let madrid = try ZoneRules.named("Europe/Madrid")
        var items: [CalendarItem] = []
        for (n, text) in Self.texts.enumerated() {
            let start = CalendarTime.zoned(try LocalDateTime(year: 2026, month: 3, day: 10, hour: 9 + n % 10), "Europe/Madrid")
            var event = CalendarItem(uid: "e\(n)\(text)", title: text, start: start, end: .duration(.init(seconds: 3600)), location: n % 2 == 0 ? text : nil)
            event.color = n % 3 == 0 ? try ItemColor.named("teal") : n % 3 == 1 ? ItemColor(rgb: .init(0x12, 0x3a, 0xbc)) : nil
            if n % 2 == 1 { event.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=2")] }
            if n % 4 == 2 { event.status = .cancelled }
            items.append(event)
            var task = CalendarItem(uid: "t\(n)", kind: .task, title: text, start: .date(try LocalDate(year: 2026, month: 3, day: 10)))
            if n % 2 == 0 { task.status = .completed }
            items.append(task)
        }
        let schedule = try Schedule(items: items)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let occurrences = schedule.occurrences(fromDay: try LocalDate(year: 2026, month: 3, day: 9), toDay: try LocalDate(year: 2026, month: 3, day: 13), in: madrid)
        #expect(occurrences.count == 2 * Self.texts.count + Self.texts.count / 2)
        // A recurrence ID on a zone whose name (a TZID's text) holds a backslash, a quote and a tab.
        let decoded = try JSONDecoder().decode(DisplayOccurrence.self, from: Data("""
            {"uid": "odd", "recurrenceId": "2026-03-10T09:00:00[Odd\\\\\\"Zone\\t]", "kind": "event", "title": "t",
             "allDay": false, "start": "2026-03-10T09:00:00+01:00", "end": "2026-03-10T10:00:00+01:00"}
            """.utf8))
        #expect(decoded.id.recurrenceID?.isoText == "2026-03-10T09:00:00[Odd\\\"Zone\t]")
        for shown in occurrences.map({ DisplayOccurrence($0, in: madrid) }) + [decoded] {
            let expected = [UInt8](try encoder.encode(shown))
            var written: [UInt8] = []
            shown.appendJSON(to: &written, indent: 0)
            #expect(written == expected, "\(String(decoding: written, as: UTF8.self))\n---\n\(String(decoding: expected, as: UTF8.self))")
            var indented: [UInt8] = []
            shown.appendJSON(to: &indented, indent: 4)
            #expect(indented == expected.flatMap { $0 == 0x0A ? [0x0A, 0x20, 0x20, 0x20, 0x20] : [$0] })
        }
    }
}
