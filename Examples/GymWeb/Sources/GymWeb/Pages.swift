import CalendarCore
import CalendarScheduling
import CalendarViews
import Foundation

// What each page shows, taken from the library's view models as they are
// (`SchedulingBook.timetable(weekOf:)`, `MonthView`, `SchedulingBook.agenda(member:)`)
// and only put into words here; the templates in Resources/templates lay it out.

/// What every page has: its language, title, the gym's name, the words and the links at the top.
struct Frame {
    let lang: String
    let title: String
    let gym: String
    let words: Words
    let nav: [Link]

    init(_ language: Language, title: String, gym: String, today: LocalDate) {
        lang = language.rawValue
        self.title = "\(title) · \(gym)"
        self.gym = gym
        words = language.words
        nav = [Link(href: "/", text: words.thisWeek),
               Link(href: "/month/\(Self.monthText(year: today.year, month: today.month))", text: words.month),
               Link(href: "/timetable.ics", text: words.publicFeed)]
    }

    static func monthText(year: Int, month: Int) -> String { String(format: "%04d-%02d", year, month) }

    /// Whether the site serves pages of that year (the four digits a date is written with here).
    static func inRange(_ year: Int) -> Bool { (1...9999).contains(year) }
}

/// A link.
struct Link {
    let href: String
    let text: String
}

/// A time of day as the pages write it.
func clock(_ t: LocalDateTime) -> String { String(format: "%02d:%02d", t.hour, t.minute) }

/// A date in words: "Monday 23 November 2026", in the page's language.
func longDate(_ d: LocalDate, _ names: CalendarNames) -> String {
    "\(names.weekday(d.weekday)) \(d.day) \(names.month(d.month)) \(d.year)"
}

/// `GET /` and `GET /week/YYYY-MM-DD`: the week's timetable.
struct WeekPage {
    let frame: Frame
    let heading: String
    /// The weeks before and after (none past the years a date can have).
    let previous: [Link]
    let next: [Link]
    let days: [Day]

    struct Day {
        let id: String
        let name: String
        let classes: [Row]
        let none: Bool
    }

    /// One class on one date, with the form that books it.
    struct Row {
        let id: String
        let time: String
        let title: String
        let description: String
        /// Whether it has one (Mustache takes an empty text for a true section, and reads stored properties only).
        let described: Bool
        let instructor: String
        let location: String
        let color: String
        let places: String
        /// Moved from its usual time or day (the view model's `isMoved`).
        let moved: Bool
        /// The class and its day, for the booking button's description.
        let when: String
        let full: Bool
        let cancelled: Bool
        let bookable: Bool
        let classID: String
        let date: String
    }

    init(book: SchedulingBook, week: [TimetableDate], of date: LocalDate, language: Language, gym: String, today: LocalDate, now: Date) {
        let names = CalendarNames(locale: language.locale)
        let words = language.words
        let first = week.first?.date ?? date
        frame = Frame(language, title: words.weekOf.replacingOccurrences(of: "{date}", with: first.description), gym: gym, today: today)
        heading = words.weekOf.replacingOccurrences(of: "{date}", with: longDate(first, names))
        previous = Frame.inRange(first.adding(days: -7).year) ? [Link(href: "/week/\(first.adding(days: -7))", text: words.previousWeek)] : []
        next = Frame.inRange(first.adding(days: 7).year) ? [Link(href: "/week/\(first.adding(days: 7))", text: words.nextWeek)] : []
        let series = Dictionary(book.classes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let instant = Int64(now.timeIntervalSince1970.rounded(.down))
        days = week.map { day in
            let rows = day.entries.map { entry in
                let o = entry.occurrence
                let end = o.start.adding(seconds: o.duration.components.seconds)
                let places = o.closure.map { "\(names.words.cancelled): \($0.reason)" } ?? (o.isCancelled ? names.words.cancelled
                    : o.placesLeft > 0 ? names.placesLeft(o.placesLeft, of: o.capacity)
                    : "\(names.words.full), \(names.waiting(o.waiting))")
                let description = series[o.id.classID]?.description ?? ""
                return Row(id: "\(o.id.classID)-\(o.id.date)", time: "\(clock(o.start))–\(clock(end))", title: o.title,
                           description: description, described: !description.isEmpty, instructor: entry.instructor ?? "",
                           location: entry.location ?? "", color: (entry.color ?? .fallback).rgb.hex, places: places, moved: o.isMoved,
                           when: "\(o.title), \(longDate(o.start.date, names))",
                           full: o.placesLeft == 0, cancelled: o.isCancelled, bookable: !o.isCancelled && o.startSeconds > instant,
                           classID: o.id.classID, date: o.id.date.description)
            }
            return Day(id: "d-\(day.date)", name: "\(names.weekday(day.date.weekday)) \(day.date.day)", classes: rows, none: rows.isEmpty)
        }
    }
}

/// `GET /month/YYYY-MM`: the month grid, exactly as `MonthView` marks its days.
struct MonthPage {
    let frame: Frame
    let heading: String
    let previous: [Link]
    let next: [Link]
    let weekdays: [Weekday]
    let weeks: [Week]

    struct Weekday {
        let short: String
        let long: String
    }

    struct Week {
        let days: [Day]
    }

    /// A day cell: its number, and the marker's colour with words that say the same.
    struct Day {
        let number: Int
        let date: String
        let inMonth: Bool
        let today: Bool
        let several: Bool
        let single: Bool
        let color: String
        let says: String
    }

    init(_ view: MonthView, language: Language, gym: String, today: LocalDate) {
        let names = CalendarNames(locale: language.locale)
        let words = language.words
        let title = names.monthTitle(year: view.year, month: view.month)
        frame = Frame(language, title: title, gym: gym, today: today)
        heading = title
        let previous = MonthView.previous(year: view.year, month: view.month, selected: nil)
        let next = MonthView.next(year: view.year, month: view.month, selected: nil)
        self.previous = Frame.inRange(previous.year) ? [Link(href: "/month/\(Frame.monthText(year: previous.year, month: previous.month))", text: words.previousMonth)] : []
        self.next = Frame.inRange(next.year) ? [Link(href: "/month/\(Frame.monthText(year: next.year, month: next.month))", text: words.nextMonth)] : []
        weekdays = (0..<7).map { offset in
            let day = CalendarCore.Weekday(rawValue: (view.firstWeekday.rawValue + offset) % 7) ?? .monday
            return Weekday(short: names.shortWeekdays[day.rawValue], long: names.weekday(day))
        }
        weeks = view.weeks.map { week in
            Week(days: week.days.map { day in
                let says: String
                switch day.marker {
                case .none: says = ""
                case .single: says = words.oneItem
                case .several(let count): says = words.items.replacingOccurrences(of: "{n}", with: String(count))
                }
                let several = if case .several = day.marker { true } else { false }
                return Day(number: day.date.day, date: day.date.description, inMonth: day.isInMonth, today: day.isToday,
                           several: several, single: day.marker.color != nil && !several, color: day.marker.color?.rgb.hex ?? "", says: says)
            })
        }
    }
}

/// `GET /members/ID`: her bookings and waiting lists, each with the form that cancels it.
struct MemberPage {
    let frame: Frame
    let heading: String
    let said: String
    let saidSomething: Bool
    let feed: String
    let bookings: [Row]
    let none: Bool

    struct Row {
        let id: String
        /// The occurrence's own date (its ID; what a cancellation names).
        let date: String
        /// The day it meets, which a moved occurrence changes.
        let meets: String
        let day: String
        let time: String
        let title: String
        let place: String
        let classID: String
        let member: String
    }

    init(member: Member, agenda: [MemberBooking], said: String?, language: Language, gym: String, today: LocalDate) {
        let names = CalendarNames(locale: language.locale)
        let words = language.words
        let heading = words.bookingsOf.replacingOccurrences(of: "{name}", with: member.name)
        frame = Frame(language, title: heading, gym: gym, today: today)
        self.heading = heading
        self.said = said.flatMap { words.said[$0] } ?? ""
        saidSomething = !self.said.isEmpty
        feed = "/members/\(member.id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? "").ics"
        bookings = agenda.map { entry in
            let o = entry.occurrence
            let place = switch entry.place {
            case .booked: words.booked
            case .waitlisted(let n): words.waitlisted.replacingOccurrences(of: "{n}", with: String(n))
            }
            return Row(id: "\(o.id.classID)-\(o.id.date)", date: o.id.date.description, meets: o.start.date.description, day: longDate(o.start.date, names),
                       time: clock(o.start), title: o.title, place: place, classID: o.id.classID, member: member.id)
        }
        none = bookings.isEmpty
    }
}

/// Any answer that is not the page asked for: what went wrong, and what to do.
struct ErrorPage {
    let frame: Frame
    let status: Int
    let heading: String
    let problem: String
    let remedy: String
    /// A class that was full, with the form that joins its waiting list instead (none or one).
    let waitlist: [Waitlist]

    struct Waitlist {
        let member: String
        let classID: String
        let date: String
    }
}
