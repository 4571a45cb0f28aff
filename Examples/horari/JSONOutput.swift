import CalendarCore
import CalendarScheduling
import Foundation

// The book's records as schema 1 of `Docs/horari.schema.json` has them: the
// library's values hold wall times on the book's clock, and programs want
// instants with their offset on the clock they asked for.

/// A session in `sessions list` and `sessions history`.
struct SessionJSON: Encodable {
    let uid: String
    let coach: String
    let client: String
    let clientName: String
    let start: String
    let end: String
    let minutes: Int
    let status: String
    let color: ItemColor?
    let workoutType: String?
    let location: String?
    let notes: String?
    let completedAt: String?
    let series: String?

    init(_ s: Session, book: SchedulingBook, clock: BookClock) {
        series = s.series
        let t = clock.instant(s.start, later: s.isLaterOfRepeatedTime)
        let e = t + s.duration.components.seconds
        (uid, coach, client) = (s.id, s.coachID, s.clientID)
        clientName = (try? book.client(s.clientID, coach: s.coachID).name) ?? s.clientID
        start = ISOText.instant(wall: clock.display.wall(t), seconds: t)
        end = ISOText.instant(wall: clock.display.wall(e), seconds: e)
        (minutes, status, color, workoutType, location, notes) = (s.duration.wholeMinutes, s.status.rawValue, book.color(of: s), s.workoutType, s.location, s.notes)
        completedAt = s.completedAt.map { done in
            let d = Int64(done.timeIntervalSince1970.rounded(.down))
            return ISOText.instant(wall: clock.display.wall(d), seconds: d)
        }
    }
}

/// The body of `sessions list` and `sessions history`.
struct SessionsJSON: Encodable {
    let sessions: [SessionJSON]
}

/// A weekly class in `classes timetable`.
struct ClassJSON: Encodable {
    let uid: String
    let title: String
    let weekdays: [String]
    let time: String
    let minutes: Int
    let capacity: Int
    let color: ItemColor?
    let location: String?
    let instructor: String?
    let firstDate: LocalDate
    let lastDate: LocalDate?
    let description: String?
    let url: String?
    let image: String?

    init(_ c: ClassSeries) {
        (uid, title, weekdays, time, minutes, capacity) = (c.id, c.title, c.weekdays.map(\.icalCode), c.time.description, c.duration.wholeMinutes, c.capacity)
        (color, location, instructor, firstDate, lastDate) = (c.color, c.location, c.instructor, c.firstDate, c.lastDate)
        (description, url, image) = (c.description, c.url, c.image)
    }
}

/// A dated class in `classes timetable --week`.
struct ClassOccurrenceJSON: Encodable {
    let uid: String
    let date: LocalDate
    let title: String
    let start: String
    let end: String
    let capacity: Int
    let booked: Int
    let waiting: Int
    let placesLeft: Int
    let cancelled: Bool
    let moved: Bool
    /// Why the gym is closed that day, when it is (the occurrence is cancelled).
    let closedFor: String?

    init(_ o: ClassOccurrence, clock: BookClock) {
        (uid, date, title) = (o.id.classID, o.id.date, o.title)
        (start, end) = clock.instants(of: o)
        (capacity, booked, waiting, placesLeft, cancelled, moved) = (o.capacity, o.booked, o.waiting, o.placesLeft, o.isCancelled, o.isMoved)
        closedFor = o.closure?.reason
    }
}

/// The body of `classes timetable`: the weekly classes, or one week's dated ones.
struct TimetableJSON: Encodable {
    var classes: [ClassJSON]?
    var occurrences: [ClassOccurrenceJSON]?
}

/// Weekly hours as `coaches list` and `classes hours` print them: one entry
/// per open weekday, Monday first, its ranges as `HH:MM-HH:MM`.
struct WeeklyHoursJSON: Encodable {
    let weekday: String
    let ranges: [String]

    static func of(_ hours: WorkingHours?) -> [WeeklyHoursJSON] {
        Weekday.allCases.compactMap { day in
            hours?.weekly[day].map { WeeklyHoursJSON(weekday: day.icalCode, ranges: $0.map(\.description)) }
        }
    }
}

/// The body of `coaches list`.
struct CoachesJSON: Encodable {
    struct Coach: Encodable {
        let id: String
        let name: String
        let email: String?
        let bufferMinutes: Int
        let color: ItemColor?
        let hours: [WeeklyHoursJSON]
    }
    let coaches: [Coach]

    init(_ book: SchedulingBook) {
        coaches = book.coaches.map {
            Coach(id: $0.id, name: $0.name, email: $0.email, bufferMinutes: $0.buffer.wholeMinutes, color: $0.color, hours: WeeklyHoursJSON.of($0.workingHours))
        }
    }
}

/// The body of `clients list`: one coach's clients, each with the day they last trained.
struct ClientsJSON: Encodable {
    struct Client: Encodable {
        let id: String
        let name: String
        let email: String?
        let color: ItemColor?
        let lastTrained: LocalDate?
    }
    let coach: String
    let clients: [Client]
}

/// The body of `members list`.
struct MembersJSON: Encodable {
    struct Member: Encodable {
        let id: String
        let name: String
        let email: String?
    }
    let members: [Member]

    init(_ book: SchedulingBook) {
        members = book.members.map { Member(id: $0.id, name: $0.name, email: $0.email) }
    }
}

/// The body of `book --list`: a member's places, booked first, then waited for.
struct BookingsJSON: Encodable {
    struct Place: Encodable {
        let uid: String
        let title: String
        let date: LocalDate
        let start: String
        let end: String
        let state: String
        let position: Int?
    }
    let member: String
    let places: [Place]

    init(member: String, booked: [ClassOccurrence], waiting: [(ClassOccurrence, Int)], clock: BookClock) {
        func place(_ o: ClassOccurrence, _ position: Int?) -> Place {
            let (start, end) = clock.instants(of: o)
            return Place(uid: o.id.classID, title: o.title, date: o.id.date, start: start, end: end,
                         state: position == nil ? "booked" : "waitlist", position: position)
        }
        self.member = member
        places = booked.map { place($0, nil) } + waiting.map { place($0.0, $0.1) }
    }
}

/// The body of `classes hours`: the gym's opening hours, each open weekday;
/// an empty list is no opening hours (any time is taken).
struct OpeningHoursJSON: Encodable {
    let openingHours: [WeeklyHoursJSON]
}

/// The body of `sessions policy`: the rules new and moved sessions keep.
struct SessionPolicyJSON: Encodable {
    let withinWorkingHours: Bool
    let notInPast: Bool
    let minimumNoticeMinutes: Int
    let refuseSkippedTimes: Bool

    init(_ p: SchedulingPolicy) {
        (withinWorkingHours, notInPast, refuseSkippedTimes) = (p.withinWorkingHours, p.notInPast, p.refuseSkippedTimes)
        minimumNoticeMinutes = Int(p.minimumNotice.components.seconds / 60)
    }
}

/// The body of `classes policy`; a rule not set is left out.
struct PolicyJSON: Encodable {
    let bookingWindowDays: Int?
    let cancellationCutoffHours: Int?
    let weeklyLimit: Int?

    init(_ p: ClassBookingPolicy) {
        (bookingWindowDays, weeklyLimit) = (p.bookingWindowDays, p.weeklyLimit)
        cancellationCutoffHours = p.cancellationCutoff.map { Int($0.components.seconds / 3600) }
    }
}
