import CalendarCore
import CalendarStore
import CalendarViews
import Foundation
import ICalendarKit

// Laia's planner: her tasks and classes in the week of 23 November 2026, on
// Madrid's clocks. An app passes `Date()` as `now`; this one fixes it, so it
// prints the same on every machine, in every time zone.
let madrid = try ZoneRules.named("Europe/Madrid")
let now = Date(timeIntervalSince1970: 1_795_420_800)  // Monday 2026-11-23, 09:00 in Madrid
let today = LocalDate.today(in: madrid, now: now)
let names = CalendarNames.english
func clock(_ t: LocalDateTime) -> String { String(format: "%02d:%02d", t.hour, t.minute) }
print("Now: \(names.weekday(today.weekday)) \(today) \(clock(LocalDateTime(now, in: madrid))) in \(madrid.identifier)\n")

// A task has a due time rather than a start; it is still to do until marked done.
func task(_ uid: String, _ title: String, due: LocalDateTime, color: String) throws(CalendarItemError) -> CalendarItem {
    let time = CalendarTime.zoned(due, madrid.identifier)
    return CalendarItem(uid: uid, kind: .task, title: title, start: time, end: .at(time),
                        color: try .named(color), status: .needsAction, hasStart: false)
}

let swimming = CalendarItem(uid: "5a7f0c1d-swim@planner", title: "Swimming", start: .zoned("2026-11-02T18:30", madrid.identifier),
                            end: .lasting(.seconds(45 * 60)), color: try .named("teal"),
                            recurrenceRules: [try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,SA")])
let lab = CalendarItem(uid: "c9d8e7f6-lab@planner", title: "Chemistry lab", start: .zoned("2026-11-25T10:00", madrid.identifier),
                       end: .lasting(.seconds(2 * 3600)), color: try .named("darkorange"), location: "Lab B")

// The store checks every item it takes and hands out immutable snapshots.
let store = try LiveSchedule(items: [
    swimming, lab,
    try task("6f1c2a9e-1b7d@planner", "History essay", due: "2026-11-25T11:00", color: "royalblue"),
    try task("6f1c2a9e-77aa@planner", "Maths problem set 7", due: "2026-11-26T20:00", color: "seagreen"),
    try task("b3e4d5c6-0a1b@planner", "Read chapter 4", due: "2026-11-26T09:00", color: "orchid"),
])

// Red marks a busy day, so no item may be red, nor any colour taken for red.
for color in ["red", "crimson", "tomato", "deeppink"] {
    do {
        try await store.add(try task("e2f3a4b5-party@planner", "Plan the party", due: "2026-11-27T17:00", color: color))
        print("Added ‘Plan the party’ in \(color).\n")
    } catch {
        print("Refused ‘\(color)’ (\(error.code)): \(error.message)")
    }
}

// One line for an occurrence, with the short ID Laia can type (as git shortens commits).
let ids = ShortIDs(await store.snapshot.items.map(\.uid))
func line(_ o: DisplayOccurrence) -> String {
    let time = o.kind == .task ? "due \(clock(o.start))  " + (o.isDone ? "✓" : "☐") : "\(clock(o.start))–\(clock(o.end)) "
    return "\(time) \(o.title)  (\(o.color?.description ?? "no colour"))  [\(ids.short(for: o.id.uid))]"
}

// The month: a day with one item to do wears its colour; with two or more, red.
let month = MonthView(year: 2026, month: 11, schedule: await store.snapshot, options: .init(timeZone: madrid, today: today))
print(names.monthTitle(year: month.year, month: month.month))
print("Mo  Tu  We  Th  Fr  Sa  Su")
for week in month.weeks {
    let cells = week.days.map { day in
        guard day.isInMonth else { return "   " }
        let mark = switch day.marker { case .none: " "; case .single: "•"; case .several: "■" }
        return String(format: "%2d", day.date.day) + mark
    }
    print(cells.joined(separator: " ").replacing(/\s+$/, with: ""))
}
let red = month.weeks.flatMap(\.days).filter { $0.isInMonth && $0.marker.color == .red }
print("• one item, in its colour   ■ two or more, in red: \(red.map { "\($0.date.day)" }.joined(separator: ", "))\n")

// The week says "Several items" (or "Several tasks") instead of crowding a day.
func printWeek() async {
    let week = WeekView(containing: today, schedule: await store.snapshot, options: .init(firstWeekday: .monday, timeZone: madrid, today: today))
    print("Week \(week.isoWeek)")
    for day in week.days {
        let what = switch day.content {
        case .empty: "—"
        case .one(let o): line(o)
        case .several(let count): "\(day.label ?? "") (\(count)), in red"
        }
        let done = day.done > 0 ? "  + \(day.done) done" : ""
        print("\(day.name.padding(toLength: 10, withPad: " ", startingAt: 0))\(day.date.day)  \(what)\(done)")
    }
}
await printWeek()

// The day sets items that overlap side by side, in columns.
let wednesday = DayView(date: "2026-11-25", schedule: await store.snapshot, options: .init(timeZone: madrid))
print("\n\(wednesday.name) \(wednesday.date)")
for placed in wednesday.timed {
    print("  column \(placed.column + 1) of \(placed.columnCount): \(line(placed.occurrence))")
}

// Laia ticks a task off by its short ID. A done task is still shown, but no
// longer counted: Thursday has one task left to do, so it is not red.
for typed in ["6f1c2a", "b3e4d5"] {
    switch ids.resolve(typed) {
    case .found(let uid):
        try await store.markDone(uid: uid, at: now)
        let item = await store.snapshot.item(uid: uid)
        print("\nDone: ‘\(item?.title ?? uid)’ (STATUS:\(item?.status?.icalValue ?? ""))\n")
    case .ambiguous(let uids):
        print("\n‘\(typed)’ is the start of \(uids.map(ids.short(for:)).joined(separator: " and ")); type more of it")
    case .notFound:
        print("\nNo item ‘\(typed)’")
    }
}
await printWeek()

// The list: what is coming, grouped by month, a page at a time.
let options = ListView.Options(timeZone: madrid, limit: 4)
let first = ListView(from: today, schedule: await store.snapshot, options: options)
var pages = [first]
if let next = first.nextPage { pages.append(ListView(after: next, schedule: await store.snapshot, options: options)) }
for (number, page) in pages.enumerated() {
    print("\nPage \(number + 1)")
    for section in page.sections {
        print(section.title)
        for o in section.occurrences {
            print("  \(names.shortWeekdays[o.start.date.weekday.rawValue]) \(o.start.date.day)  \(line(o))")
        }
    }
}

// Laia's phone and her school's calendar server (a CalDAV collection; user and
// password from HORARI_CALDAV_USER/PASSWORD or ~/.netrc): `put URL` puts the
// week there; `tick URL ID…` ticks tasks off, kept on the phone with no signal;
// `sync URL` sends what was kept. A task deleted there meanwhile stays deleted.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.count >= 2, ["put", "tick", "sync"].contains(arguments[0]) {
    let phone = CalendarStore(try CalendarLocation(arguments[1]))
    print("\nOn \(arguments[1]):")
    if arguments[0] == "put" {
        let items = await store.snapshot.items
        print("put \(try await phone.update { calendar in calendar.items = items; return items.count }) items")
    }
    for typed in arguments.dropFirst(2) where arguments[0] == "tick" {
        let ticked = try await phone.updateOwnItems(now: now) { calendar in
            guard case .found(let uid) = ShortIDs(calendar.items.map(\.uid)).resolve(typed) else { throw CalendarItemError(.notFound, field: .uid, typed) }
            return try calendar.markDone(uid: uid, at: now)
        }
        for outcome in ticked.sent { print(outcome.description) }  // what was kept earlier, sent first
        print("ticked ‘\(ticked.value.title)’ (\(ticked.isKept ? "no signal: kept on the phone, \(ticked.waiting) waiting" : "on the server"))")
    }
    if arguments[0] == "sync" {
        let sent = try await phone.sendKeptChanges()
        for outcome in sent { print(outcome.description) }
        print("\(sent.count) kept changes sent; \(phone.keptChanges().count) waiting")
    }
}
