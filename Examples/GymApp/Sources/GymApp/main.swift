import CalendarCore
import CalendarScheduling
import CalendarStore
import Foundation
import ICalendarKit
import SchedulingICalendar

// Gimnàs Sants: weekly classes with places, bookings until a class is full,
// a waitlist, and a member's week beside her own Google calendar. An app
// passes `Date()` as `now`; this one fixes it, so it prints the same everywhere.
let madrid = try ZoneRules.named("Europe/Madrid")
let now = Date(timeIntervalSince1970: 1_795_420_800)  // Monday 2026-11-23, 09:00 in Madrid
let today = LocalDate.today(in: madrid, now: now)
func clock(_ t: LocalDateTime) -> String { String(format: "%02d:%02d", t.hour, t.minute) }
func day(_ d: LocalDate) -> String { "\(String(describing: d.weekday).prefix(3).capitalized) \(d.day)" }

// The timetable: each class meets weekly and takes a number of members.
var book = SchedulingBook(timeZone: madrid)
try book.addClass(ClassSeries(id: "yoga", title: "Yoga", weekdays: [.monday, .wednesday], time: "18:30",
                              duration: .seconds(3600), capacity: 12, location: "Sala 2", color: try .named("teal"),
                              firstDate: "2026-09-07"))
try book.addClass(ClassSeries(id: "pilates", title: "Reformer Pilates", weekdays: [.thursday], time: "19:00",
                              duration: .seconds(50 * 60), capacity: 3, location: "Sala 1", color: try .named("mediumpurple"),
                              firstDate: "2026-09-03"))
try book.addClass(ClassSeries(id: "spin", title: "Spinning", weekdays: [.friday], time: "07:00",
                              duration: .seconds(45 * 60), capacity: 10, color: try .named("darkorange"), firstDate: "2026-09-04"))
for (id, name) in [("marta", "Marta Roig"), ("oriol", "Oriol Camps"), ("aina", "Aina Serra"), ("quim", "Quim Puig"), ("nuria", "Núria Vila")] {
    try book.addMember(Member(id: id, name: name))
}

// Members book through their own desks; the scheduler serves one request at a time.
let gym = FrontDesk(book: book)
let thursday: LocalDate = "2026-11-26"
for id in ["aina", "oriol", "quim"] {
    try await gym.member(id).book(classID: "pilates", on: thursday, now: now)
    print("\(id) has a place in Reformer Pilates on \(thursday)")
}
let marta = try await gym.member("marta")
do {
    try await marta.book(classID: "pilates", on: thursday, now: now)
} catch {
    print("marta: \(error)")  // a SchedulingError: the type is known, no cast needed
    if case .classFull = error,
       case .waitlisted(let position) = try await marta.book(classID: "pilates", on: thursday, now: now, whenFull: .joinWaitlist) {
        print("marta joins the waitlist: number \(position)")
    }
}
try await gym.member("nuria").book(classID: "pilates", on: thursday, now: now, whenFull: .joinWaitlist)
try await marta.book(classID: "yoga", on: today, now: now)
try await marta.book(classID: "yoga", on: "2026-11-25", now: now)

// Quim comes to every spinning class until the holidays: a standing booking, each date said.
for d in try await gym.member("quim").bookStanding(classID: "spin", from: today, through: "2026-12-18", now: now) {
    let said = switch d.outcome {
    case .booked: "booked"
    case .waitlisted(let position): "waitlist \(position)"
    case .alreadyHeld: "held already"
    case .alreadyWaiting(let position): "waiting already, \(position)"
    case .cancelled: "given up"
    case .refused(let why): "not booked: \(why)"
    }
    print("quim, spinning \(day(d.date)): \(said)")
}

// The week's timetable, with places left and Marta's own place in each class.
print("\nThis week at the gym, as Marta sees it:")
for date in try await marta.timetable(weekOf: today) {
    for entry in date.entries {
        let o = entry.occurrence
        let places = o.placesLeft > 0 ? "\(o.placesLeft) of \(o.capacity) places left" : "full, \(o.waiting) waiting"
        let mine = switch entry.place {
        case .booked?: "  ← your place"
        case .waitlisted(let position)?: "  ← you are number \(position) on the waitlist"
        case nil: ""
        }
        print("  \(day(date.date))  \(clock(o.start))  \(o.title) (\(places))\(mine)")
    }
}

// Her classes as an .ics file that any calendar imports: hers alone, no one else's name.
let exporter = ICalendarExporter(options: .init(timestamp: now))
let ics = exporter.export(try ICalendar(await gym.book, for: .member("marta"), name: "Marta at Gimnàs Sants"))
let shown = ics.split(separator: "\r\n").filter { line in ["SUMMARY:", "DTSTART;", "STATUS:"].contains { line.hasPrefix($0) } }
print("\nmarta.ics (\(ics.utf8.count) bytes):\n  " + shown.joined(separator: "\n  "))

// Her own calendar, exported from Google Calendar, shown beside her classes.
guard let url = Bundle.module.url(forResource: "marta-google", withExtension: "ics") else { throw CocoaError(.fileNoSuchFile) }
let google = try ICalendarImporter().importCalendar(contentsOf: url)
print("\nImported ‘\(google.calendar.name ?? "")’ from Google, on \(google.calendar.timeZone ?? "no zone")'s clocks:")
for problem in google.diagnostics { print("  \(problem)") }
let mine = google.calendar.schedule()  // Google's UTC times read on its X-WR-TIMEZONE
let week = try Schedule(items: try await gym.book.memberSchedule(member: "marta").items + mine.items, timeZone: madrid)
let occurrences = week.occurrences(from: today.start(in: madrid), to: today.adding(days: 7).start(in: madrid), floatingZone: madrid)
print("Marta's week, the gym's classes and Google's events together:")
for o in occurrences {
    let start = LocalDateTime(o.startInstant, in: madrid), end = LocalDateTime(o.endInstant, in: madrid)
    let time = o.isAllDay ? "all day    " : "\(clock(start))–\(clock(end))"
    let clash = !o.isAllDay && occurrences.contains { $0 != o && !$0.isAllDay && $0.startSeconds < o.endSeconds && o.startSeconds < $0.endSeconds }
    print("  \(day(start.date))  \(time)  \(o.item.title)\(clash ? "  ⚠ overlaps" : "")")
}

// Oriol gives up his place: it goes to the first member waiting.
let cancellation = try await gym.member("oriol").cancel(classID: "pilates", on: thursday, now: now)
print("\noriol cancelled Reformer Pilates; \(cancellation.promoted ?? "nobody") moved up from the waitlist")
print("Marta's classes now:")
for entry in try await marta.agenda() {
    let place = if case .waitlisted(let n) = entry.place { "waitlist \(n)" } else { "booked" }
    print("  \(day(entry.occurrence.start.date))  \(clock(entry.occurrence.start))  \(entry.occurrence.title)  (\(place))")
}

// The whole book kept in a calendar file beside other events, and read back.
var backup = ICalendar(name: "Gimnàs Sants")
backup.setScheduling(await gym.book)
let restored = try ICalendarImporter().importCalendar(from: exporter.export(backup)).calendar.schedulingBook()
let roster = try restored.roster(classID: "pilates", on: thursday)
print("\nThe backup reads back with \(restored.classes.count) classes, \(restored.members.count) members and \(restored.bookingCount) places taken;")
print("Reformer Pilates on \(thursday): \(roster.confirmed.joined(separator: ", ")); waiting: \(roster.waitlist.joined(separator: ", "))")

// The gym on a calendar server (GYMAPP_CALDAV_URL: a CalDAV collection; the
// user and password from HORARI_CALDAV_USER and HORARI_CALDAV_PASSWORD, or
// ~/.netrc), as the members' phones share it: each desk a store of its own,
// the server deciding who had the last place.
if let address = ProcessInfo.processInfo.environment["GYMAPP_CALDAV_URL"] {
    let settings = SchedulingStore.Settings(now: { _ in now })
    let office = SchedulingStore(CalendarStore(try CalendarLocation(address)), settings: settings)
    let current = await gym.book
    try await office.change { server in server = current }  // the timetable, the members and their places go up
    print("\nOn \(address): \(try await office.load().bookingCount) places taken")
    for id in ["marta", "nuria"] {
        let phone = SchedulingStore(CalendarStore(try CalendarLocation(address)), settings: settings)
        do {
            _ = try await phone.book(member: id, classID: "spin", on: "2026-11-27")
            print("\(id) booked Spinning on Fri 27 from her phone")
        } catch {
            print("\(id): \(error)")
        }
    }
    let quim = SchedulingStore(CalendarStore(try CalendarLocation(address)), settings: settings)
    let given = try await quim.cancelBooking(member: "quim", classID: "pilates", on: thursday)
    print("quim gave up Reformer Pilates from his phone; \(given.promoted ?? "nobody") moved up")
    print("Marta's classes, as the server has them:")
    for entry in try await office.load().agenda(member: "marta") {
        let place = if case .waitlisted(let n) = entry.place { "waitlist \(n)" } else { "booked" }
        print("  \(day(entry.occurrence.start.date))  \(clock(entry.occurrence.start))  \(entry.occurrence.title)  (\(place))")
    }
}
