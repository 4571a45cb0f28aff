import CalendarCore

/// A weekly class on the gym's timetable, with a number of places.
///
/// In a calendar file it is one weekly recurring event (SchedulingICalendar
/// writes it). An occurrence is known by its series and its *original date*
/// (``ClassOccurrence/ID``), so bookings stay with it when the series' time
/// changes or the one occurrence moves.
public struct ClassSeries: Hashable, Sendable, Codable, Identifiable {
    /// The series' ID (its iCalendar `UID`).
    public var id: String
    /// The class's name.
    public var title: String
    /// The days it meets, Monday first, each once.
    public var weekdays: [Weekday] {
        didSet { weekdays = Array(Set(weekdays)).sorted() }
    }
    /// When it starts, on the gym's clocks.
    public var time: TimeOfDay
    /// How long it lasts, in whole minutes up to 24 hours.
    public var duration: Duration
    /// How many members it takes.
    public var capacity: Int
    /// The room or gym.
    public var location: String?
    /// Who teaches it.
    public var instructor: String?
    /// Its colour in the views.
    public var color: ItemColor?
    /// The first date it may meet.
    public var firstDate: LocalDate
    /// The last date it may meet; `nil` for no end.
    public var lastDate: LocalDate?
    /// Occurrences that are cancelled or moved, by original date.
    public var changes: [LocalDate: OccurrenceChange]
    /// The class whose earlier dates this series holds, when it was made by
    /// changing that class from a date on (`zumba` for
    /// `zumba-until-20261209`, ``SchedulingBook/changeClass(_:from:_:)``):
    /// the class keeps its ID for every date, so booking `zumba` on one of
    /// these dates books this series' occurrence.
    public var partOf: String?
    /// What the class is, for people choosing one (`DESCRIPTION`).
    public var description: String?
    /// A page about it (`URL`): an absolute `http` or `https` URL.
    public var url: String?
    /// A picture of it (RFC 7986's `IMAGE`): an absolute `http` or `https` URL.
    public var image: String?

    /// Creates a series.
    /// - Parameters:
    ///   - id: the series' ID.
    ///   - title: the class's name.
    ///   - weekdays: the days it meets.
    ///   - time: when it starts, on the gym's clocks.
    ///   - duration: how long it lasts.
    ///   - capacity: how many members it takes.
    ///   - location: the room or gym.
    ///   - instructor: who teaches it.
    ///   - color: its colour in the views.
    ///   - firstDate: the first date it may meet.
    ///   - lastDate: the last date it may meet, if any.
    ///   - changes: occurrences cancelled or moved, by original date.
    ///   - partOf: the class whose earlier dates it holds, if any.
    ///   - description: what the class is, if said.
    ///   - url: a page about it, if any.
    ///   - image: a picture of it, if any.
    public init(
        id: String, title: String, weekdays: [Weekday], time: TimeOfDay, duration: Duration, capacity: Int,
        location: String? = nil, instructor: String? = nil, color: ItemColor? = nil,
        firstDate: LocalDate, lastDate: LocalDate? = nil, changes: [LocalDate: OccurrenceChange] = [:], partOf: String? = nil,
        description: String? = nil, url: String? = nil, image: String? = nil
    ) {
        self.partOf = partOf
        self.description = description
        self.url = url
        self.image = image
        self.id = id
        self.title = title
        self.weekdays = Array(Set(weekdays)).sorted()
        self.time = time
        self.duration = duration
        self.capacity = capacity
        self.location = location
        self.instructor = instructor
        self.color = color
        self.firstDate = firstDate
        self.lastDate = lastDate
        self.changes = changes
    }

    /// Whether the series meets on a date (cancelled occurrences included).
    public func meets(on date: LocalDate) -> Bool {
        date >= firstDate && (lastDate.map { date <= $0 } ?? true) && weekdays.contains(date.weekday)
    }

    /// "Mondays and Wednesdays at 18:30 from 2026-09-07", for messages.
    var meetingText: String {
        let days = weekdays.map { $0.name + "s" }
        let list = days.count <= 1 ? days.joined() : days.dropLast().joined(separator: ", ") + " and " + (days.last ?? "")
        let until = lastDate.map { " until \($0)" } ?? ""
        return "\(list.isEmpty ? "on no day" : list) at \(time) from \(firstDate)\(until)"
    }

    func validate() throws(SchedulingError) {
        if id.isEmpty { throw .invalid(field: .id, reason: "the class has no ID") }
        if title.trimmingSpaces.isEmpty { throw .invalid(field: .title, reason: "the class has no title; give it a name") }
        if weekdays.isEmpty { throw .invalid(field: .weekdays, reason: "the class meets on no day; give at least one weekday") }
        try SchedulingBook.checkLength(duration, "a class")
        if capacity < 1 { throw .invalid(field: .capacity, reason: "a class takes at least one member, not \(capacity)") }
        if time.minutes >= 1440 { throw .invalid(field: .time, reason: "a class starts before 24:00") }
        for (field, link) in [(SchedulingError.Field.url, url), (.image, image)] {
            if let link, !Self.isWebAddress(link) {
                throw .invalid(field: field, reason: "‘\(link)’ is not a web address; give an absolute one, such as https://gym.example/yoga")
            }
        }
        if let last = lastDate, last < firstDate {
            throw .invalid(field: .lastDate, reason: "the last date \(last) is before the first, \(firstDate)")
        }
        for (date, change) in changes {
            guard meets(on: date) else {
                throw .invalid(field: .changes, reason: "\(title) does not meet on \(date), so that occurrence cannot change")
            }
            if case .moved(_, let d) = change { try SchedulingBook.checkLength(d, "a class") }
        }
    }
}

extension ClassSeries {
    /// Whether a text is an absolute `http` or `https` URL with a host, in
    /// the ASCII a URI is written in and nothing a content line cannot
    /// carry: what a page or a picture of a class may be (a `javascript:`,
    /// `mailto:` or `file:` one, or a relative one, is not).
    ///
    /// - Parameter text: the address.
    public static func isWebAddress(_ text: String) -> Bool {
        let lower = text.lowercased()
        guard text.utf8.count <= 2048, lower.hasPrefix("https://") || lower.hasPrefix("http://") else { return false }
        // URIs are ASCII (RFC 3986); no space, control character, quote, angle bracket or backslash.
        guard text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && !"\"<>\\^`{|}".unicodeScalars.contains($0) }) else { return false }
        let afterScheme = text.drop { $0 != "/" }.dropFirst(2)
        let authority = afterScheme.prefix { !"/?#".contains($0) }
        // The host: after any user information, before any port.
        let host = (authority.split(separator: "@", omittingEmptySubsequences: false).last ?? "").prefix { $0 != ":" }
        return !host.isEmpty && host.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "[" || $0 == "]" }
    }
}

/// How one occurrence of a class differs from its series.
public enum OccurrenceChange: Hashable, Sendable, Codable {
    /// It does not take place.
    case cancelled
    /// It takes place at another time (and length) on the gym's clocks.
    case moved(to: LocalDateTime, duration: Duration)
}

/// One dated meeting of a class, with its places.
public struct ClassOccurrence: Hashable, Sendable, Codable, Identifiable {
    /// What names an occurrence for good: its series and original date.
    public struct ID: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
        /// The series.
        public var classID: String
        /// The date it meets by the series' rule (before any move).
        public var date: LocalDate

        /// Creates an occurrence identity.
        public init(classID: String, date: LocalDate) {
            self.classID = classID
            self.date = date
        }

        /// By date, then series.
        public static func < (a: ID, b: ID) -> Bool { (a.date, a.classID) < (b.date, b.classID) }

        /// "yoga@2026-11-23".
        public var description: String { "\(classID)@\(date)" }
    }

    /// Its identity.
    public var id: ID
    /// The class's name.
    public var title: String
    /// When it starts, on the gym's clocks (after any move).
    public var start: LocalDateTime
    /// How long it lasts.
    public var duration: Duration
    /// When it starts, in Unix seconds.
    public var startSeconds: Int64
    /// Whether it is cancelled.
    public var isCancelled: Bool
    /// Whether it was moved from the series' time.
    public var isMoved: Bool
    /// Places in all.
    public var capacity: Int
    /// Places taken.
    public var booked: Int
    /// Members waiting for a place.
    public var waiting: Int
    /// The closure that cancels it, when the gym is closed that day
    /// (``SchedulingBook/close(_:now:)``); `nil` otherwise.
    public var closure: GymClosure? = nil

    /// Places still free.
    public var placesLeft: Int { max(0, capacity - booked) }
}

/// What a member's request to book got.
public enum BookingOutcome: Hashable, Sendable, Codable {
    /// A place is theirs.
    case confirmed
    /// The class is full; they are this number on the waitlist (1 is next).
    case waitlisted(position: Int)
}

/// What to do when a member books a full occurrence.
public enum WhenFull: Hashable, Sendable, Codable {
    /// Refuse with ``SchedulingError/classFull(title:date:capacity:waiting:)``.
    case refuse
    /// Put the member on the waitlist.
    case joinWaitlist
}

/// Members who lost a place, or their place in the queue, when an occurrence
/// went away (series deleted or edited, occurrence cancelled).
public struct AffectedBookings: Hashable, Sendable, Codable {
    /// The occurrence that went away.
    public var occurrence: ClassOccurrence.ID
    /// Members who held a place, in booking order.
    public var confirmed: [String]
    /// Members who were waiting, in queue order.
    public var waitlisted: [String]

    /// Creates a report.
    public init(occurrence: ClassOccurrence.ID, confirmed: [String], waitlisted: [String]) {
        self.occurrence = occurrence
        self.confirmed = confirmed
        self.waitlisted = waitlisted
    }
}

/// The outcome of cancelling a booking.
public struct Cancellation: Hashable, Sendable, Codable {
    /// Whether the member held a place (rather than waiting for one).
    public var heldPlace: Bool
    /// The member who got the freed place from the waitlist, if any.
    public var promoted: String?

    /// Creates an outcome.
    public init(heldPlace: Bool, promoted: String?) {
        self.heldPlace = heldPlace
        self.promoted = promoted
    }
}

/// A day of the weekly timetable.
public struct TimetableDay: Hashable, Sendable, Codable {
    /// The weekday.
    public var weekday: Weekday
    /// The classes that meet on it, by start time, then title.
    public var classes: [ClassSeries]
}

extension String {
    var trimmingSpaces: Substring {
        let s = drop { $0.isWhitespace }
        return s.dropLast(s.reversed().prefix { $0.isWhitespace }.count)
    }
}
