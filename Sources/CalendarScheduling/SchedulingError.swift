import CalendarCore

/// Why the scheduling book refused a request.
///
/// Every case carries what a person needs to act on it, and ``description``
/// says it in a sentence. A refusal never changes the book.
///
/// ```swift
/// do { try book.book(member: "marta", classID: "yoga", on: date, now: now) }
/// catch .classFull(let title, _, let capacity, let waiting) { … }
/// ```
public enum SchedulingError: HorariError, Hashable, Sendable {
    /// No coach has this ID.
    case unknownCoach(String)
    /// The coach has no client with this ID. Another coach's client gets the
    /// same answer: a coach's scope does not reveal what lies outside it.
    case unknownClient(String, coach: String)
    /// No coach has a client with this ID (a question asked without a coach's scope).
    case noSuchClient(String)
    /// More than one coach has a client by this ID, so the request must name the coach.
    case clientNeedsCoach(String)
    /// The coach has no session with this ID (also when it is another coach's).
    case unknownSession(String, coach: String)
    /// No member has this ID.
    case unknownMember(String)
    /// No class series has this ID.
    case unknownClass(String)
    /// An ID that is already taken by another record of the same kind.
    case duplicateID(String, kind: String)
    /// A value the book cannot take, with the field and the reason. The
    /// description is the reason, a sentence that names what it refuses; for
    /// a property read from a file it starts with the property's name.
    case invalid(field: Field, reason: String)
    /// The session would overlap another of the same coach or client (buffer included).
    case clash(SessionClash)
    /// Only a scheduled session can be moved or have its status changed.
    case sessionNotScheduled(String, status: SessionStatus)
    /// The session has not started yet, so it cannot be marked completed or a no-show.
    case sessionNotStarted(String, start: LocalDateTime)
    /// The class does not meet on that date.
    case notAnOccurrence(classID: String, title: String, date: LocalDate, meets: String)
    /// The occurrence would be moved onto another occurrence of the same class.
    case occurrenceOverlaps(classID: String, title: String, date: LocalDate, other: LocalDate, otherStart: LocalDateTime, otherDuration: Duration)
    /// That occurrence of the class is cancelled.
    case occurrenceCancelled(classID: String, title: String, date: LocalDate)
    /// That occurrence has already started.
    case occurrenceInPast(classID: String, title: String, date: LocalDate, start: LocalDateTime)
    /// The member already holds a place in that occurrence.
    case alreadyBooked(member: String, title: String, date: LocalDate)
    /// The member is already waiting for a place in that occurrence.
    case alreadyWaitlisted(member: String, title: String, date: LocalDate, position: Int)
    /// Every place is taken and the member did not ask to wait.
    case classFull(title: String, date: LocalDate, capacity: Int, waiting: Int)
    /// The member holds no place, and is not waiting, in that occurrence.
    case notBooked(member: String, title: String, date: LocalDate)
    /// The coach still has clients; remove them (and so their sessions) first.
    case coachHasClients(String, clients: Int)
    /// The book's ``SchedulingPolicy`` refused the time: outside the coach's
    /// hours, in the past, too soon, or a wall time the clocks skip.
    case refusedByPolicy(PolicyRefusal)
    /// The ``ClassBookingPolicy`` opens bookings only so many days ahead:
    /// the occurrence's bookings open on `opens`.
    case beyondBookingWindow(title: String, date: LocalDate, days: Int, opens: LocalDate)
    /// The ``ClassBookingPolicy`` refuses giving up a place this close to
    /// the start (a waiting place can always be given up).
    case cancellationTooLate(member: String, title: String, date: LocalDate, start: LocalDateTime, cutoff: Duration)
    /// The member holds as many places in that week as the
    /// ``ClassBookingPolicy`` allows.
    case weeklyLimitReached(member: String, limit: Int, weekOf: LocalDate)
    /// The gym is closed on that date (``SchedulingBook/close(_:now:)``):
    /// `what` (a class's title, or "a session") cannot take place, be
    /// booked, moved or cancelled there.
    case gymClosed(what: String, date: LocalDate, closure: GymClosure)
    /// `what` (a class's title, or "a session") lies outside the gym's
    /// ``SchedulingBook/openingHours`` `when` ("on Sundays", "on
    /// 2026-12-24"), which are `hours` then (none: closed all day).
    case outsideOpeningHours(what: String, when: String, start: String, end: String, hours: [TimeRange])
    /// The coach is busy elsewhere then, by their own calendar
    /// (``SchedulingBook/setBusyElsewhere(_:coach:)``): from `start` to
    /// `end` on the book's clocks, with `buffer` kept free on each side.
    case busyElsewhere(coach: String, start: LocalDateTime, end: LocalDateTime, buffer: Duration)

    /// What went wrong and what to do about it, in one sentence.
    public var description: String {
        let (problem, remedy) = sentence
        return remedy.map { "\(problem); \($0)" } ?? problem
    }

    /// What to do about it, where there is something to do: the part of
    /// ``description`` after the problem.
    public var recoverySuggestion: String? { sentence.remedy }

    /// The case's number (Docs/Errors.md): stable from release to release; a new case takes a new number.
    public var errorCode: Int {
        switch self {
        case .unknownCoach: 1
        case .unknownClient: 2
        case .noSuchClient: 3
        case .clientNeedsCoach: 4
        case .unknownSession: 5
        case .unknownMember: 6
        case .unknownClass: 7
        case .duplicateID: 8
        case .invalid: 9
        case .clash: 10
        case .sessionNotScheduled: 11
        case .sessionNotStarted: 12
        case .notAnOccurrence: 13
        case .occurrenceOverlaps: 14
        case .occurrenceCancelled: 15
        case .occurrenceInPast: 16
        case .alreadyBooked: 17
        case .alreadyWaitlisted: 18
        case .classFull: 19
        case .notBooked: 20
        case .coachHasClients: 21
        case .refusedByPolicy: 22
        case .beyondBookingWindow: 23
        case .cancellationTooLate: 24
        case .weeklyLimitReached: 25
        case .gymClosed: 26
        case .outsideOpeningHours: 27
        case .busyElsewhere: 28
        }
    }

    /// The problem, and what to do about it when there is something to do.
    private var sentence: (problem: String, remedy: String?) {
        switch self {
        case .unknownCoach(let id):
            ("there is no coach ‘\(id)’", "add the coach first")
        case .unknownClient(let id, let coach):
            ("coach ‘\(coach)’ has no client ‘\(id)’", "add the client to this coach first")
        case .noSuchClient(let id):
            ("there is no client ‘\(id)’", nil)
        case .clientNeedsCoach(let id):
            ("more than one coach has a client ‘\(id)’", "say which coach (client IDs are each coach's own)")
        case .unknownSession(let id, let coach):
            ("coach ‘\(coach)’ has no session ‘\(id)’", nil)
        case .unknownMember(let id):
            ("there is no member ‘\(id)’", "add the member first")
        case .unknownClass(let id):
            ("there is no class ‘\(id)’", nil)
        case .duplicateID(let id, let kind):
            ("a \(kind) with ID ‘\(id)’ already exists", "choose another ID")
        case .invalid(let field, let reason):
            // A record's field is named by the reason's own words; a file's
            // property (upper case, `X-HORARI-BUFFER`) is named before it, as
            // the reader needs it to find the line (issue 43, 11).
            (field.rawValue.first?.isUppercase == true ? "\(field): \(reason)" : reason, nil)
        case .clash(let clash):
            (clash.description, nil)
        case .sessionNotScheduled(let id, let status):
            status == .cancelled
                ? ("session ‘\(id)’ is cancelled", "only a scheduled session can change (book a new one for that time)")
                : ("session ‘\(id)’ is \(status.rawValue)", "only a scheduled session can change")
        case .sessionNotStarted(let id, let start):
            ("session ‘\(id)’ starts \(start.dayTimeText)", "it can be marked completed or no-show once it has started")
        case .notAnOccurrence(_, let title, let date, let meets):
            ("\(title) does not meet on \(date.weekday.name) \(date)", "it meets \(meets)")
        case .occurrenceOverlaps(_, let title, let date, let other, let start, let length):
            ("\(title) of \(date) cannot move there: the \(title) of \(other) is on then (\(start.spanText(lasting: length))), and a member booked on both would hold two places at one time", "pick another time")
        case .occurrenceCancelled(_, let title, let date):
            ("\(title) on \(date) is cancelled", nil)
        case .occurrenceInPast(_, let title, let date, let start):
            ("\(title) on \(date) started at \(start.timeText)", "book a later date")
        case .alreadyBooked(let member, let title, let date):
            ("member ‘\(member)’ already has a place in \(title) on \(date)", nil)
        case .alreadyWaitlisted(let member, let title, let date, let position):
            ("member ‘\(member)’ is already number \(position) on the waitlist for \(title) on \(date)", nil)
        case .classFull(let title, let date, let capacity, let waiting):
            ("\(title) on \(date) is full (\(capacity) of \(capacity) places taken, \(waiting) waiting)", "join the waitlist or pick another date")
        case .notBooked(let member, let title, let date):
            ("member ‘\(member)’ has no place in \(title) on \(date) and is not waiting for one", nil)
        case .coachHasClients(let coach, let clients):
            ("coach ‘\(coach)’ still has \(clients) client\(clients == 1 ? "" : "s")", "remove them (and their sessions) or keep the coach")
        case .refusedByPolicy(let refusal):
            (refusal.description, nil)
        case .beyondBookingWindow(let title, let date, let days, let opens):
            ("\(title) on \(date) is more than \(days) day\(days == 1 ? "" : "s") ahead, as far as places can be booked", "its bookings open on \(opens)")
        case .cancellationTooLate(let member, let title, let date, let start, let cutoff):
            ("member ‘\(member)’ cannot give up the place in \(title) on \(date) (at \(start.timeText)): places cannot be given up within \(Self.hoursText(cutoff)) of the start",
             "come to the class, or ask the front desk")
        case .weeklyLimitReached(let member, let limit, let weekOf):
            ("member ‘\(member)’ already holds \(limit) place\(limit == 1 ? "" : "s") in the week of \(weekOf), the most a member may", "give one up to book another")
        case .gymClosed(let what, let date, let closure):
            ("\(what) cannot take place on \(date): the gym is closed \(closure.datesText) (\(closure.reason))", "pick a date when it is open")
        case .outsideOpeningHours(let what, let when, let start, let end, let hours):
            ("\(what) \(when) from \(start) to \(end) is outside the gym's opening hours (\(when): \(hours.isEmpty ? "closed" : hours.map(\.description).joined(separator: ", ")))",
             hours.isEmpty ? "pick a day the gym is open" : "pick a time within them")
        case .busyElsewhere(let coach, let start, let end, let buffer):
            ("coach ‘\(coach)’ is busy elsewhere \(start.spanText(to: end)) (their own calendar)"
             + (buffer > .zero ? ", and keeps \(buffer.wholeMinutes) minutes free around it" : ""),
             "pick a time when they are free (sessions free lists them)")
        }
    }
}

extension SchedulingError {
    /// A field of a record, named by a type rather than a string.
    public struct Field: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The field's name (an iCalendar property's name for a record read from a file).
        public let rawValue: String
        /// Names a field.
        /// - Parameter rawValue: the name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The name.
        public var description: String { rawValue }

        /// A record's ID.
        public static let id = Field(rawValue: "id")
        /// A person's name.
        public static let name = Field(rawValue: "name")
        /// A person's e-mail address.
        public static let email = Field(rawValue: "email")
        /// A class's title.
        public static let title = Field(rawValue: "title")
        /// A time of day or a start.
        public static let time = Field(rawValue: "time")
        /// Working hours.
        public static let hours = Field(rawValue: "hours")
        /// A length (a session's, a class's, a slot's or a step).
        public static let duration = Field(rawValue: "duration")
        /// A coach's buffer.
        public static let buffer = Field(rawValue: "buffer")
        /// A class's places.
        public static let capacity = Field(rawValue: "capacity")
        /// A colour.
        public static let color = Field(rawValue: "color")
        /// A class's changed occurrences.
        public static let changes = Field(rawValue: "changes")
        /// A class's weekdays.
        public static let weekdays = Field(rawValue: "weekdays")
        /// A class's last date.
        public static let lastDate = Field(rawValue: "lastDate")
        /// A session's status.
        public static let status = Field(rawValue: "status")
        /// A session's start.
        public static let start = Field(rawValue: "start")
        /// When a session was completed (``Session/completedAt``).
        public static let completedAt = Field(rawValue: "completedAt")
        /// How a repeating session repeats (its `RRULE`).
        public static let rule = Field(rawValue: "rule")
        /// The book's time zone.
        public static let timeZone = Field(rawValue: "timeZone")
        /// How many days ahead a class can be booked (``ClassBookingPolicy``).
        public static let bookingWindow = Field(rawValue: "bookingWindow")
        /// How late a place can be given up (``ClassBookingPolicy``).
        public static let cancellationCutoff = Field(rawValue: "cancellationCutoff")
        /// How many places a member may hold in a week (``ClassBookingPolicy``).
        public static let weeklyLimit = Field(rawValue: "weeklyLimit")
        /// The dates of a closure (``GymClosure``).
        public static let closure = Field(rawValue: "closure")
        /// Why the gym is closed (``GymClosure/reason``).
        public static let reason = Field(rawValue: "reason")
        /// The gym's opening hours.
        public static let openingHours = Field(rawValue: "openingHours")
        /// A page about a class (``ClassSeries/url``).
        public static let url = Field(rawValue: "url")
        /// A picture of a class (``ClassSeries/image``).
        public static let image = Field(rawValue: "image")
        /// A property of a record read from a file.
        /// - Parameter name: the property's name, as the file writes it.
        public static func property(_ name: String) -> Field { Field(rawValue: name) }
    }
}

/// A session that cannot be booked because another one is in the way.
public struct SessionClash: Hashable, Sendable, CustomStringConvertible {
    /// Whose time the two sessions share.
    public enum Reason: String, Hashable, Sendable {
        /// The same client is in both (a client has one coach, so the coach too).
        case client
        /// The coach is in both, with different clients.
        case coach
    }

    /// The session that is in the way.
    public var existing: Session
    /// Why the two cannot both happen.
    public var reason: Reason
    /// The gap the coach keeps between sessions (zero for none).
    public var buffer: Duration
    /// The wall time the session in the way ends, on the book's clocks:
    /// its start plus its length but across a change of the clocks, where
    /// an hour's session that starts at 01:30 on the night they go back
    /// ends at 01:30 (`nil`: its start plus its length).
    public var end: LocalDateTime?

    /// Describes a clash.
    /// - Parameters:
    ///   - existing: the session in the way.
    ///   - reason: whose time the two share.
    ///   - buffer: the coach's buffer.
    ///   - end: the wall time it ends on the book's clocks.
    public init(existing: Session, reason: Reason, buffer: Duration, end: LocalDateTime? = nil) {
        self.existing = existing
        self.reason = reason
        self.buffer = buffer
        self.end = end
    }

    /// Equal when the session in the way, the reason and the buffer are
    /// (``end`` follows from the session and the book's zone).
    public static func == (a: SessionClash, b: SessionClash) -> Bool {
        (a.existing, a.reason, a.buffer) == (b.existing, b.reason, b.buffer)
    }

    /// Hashes the session in the way, the reason and the buffer.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(existing)
        hasher.combine(reason)
        hasher.combine(buffer)
    }

    /// Says which session is in the way and when.
    public var description: String {
        let who = reason == .client ? "client ‘\(existing.clientID)’" : "coach ‘\(existing.coachID)’"
        let bufferText = buffer > .zero ? " (with the coach's \(buffer.wholeMinutes)-minute buffer)" : ""
        return "the time clashes\(bufferText) with session ‘\(existing.id)’ of \(who), \(end.map { existing.start.spanText(to: $0) } ?? existing.start.spanText(lasting: existing.duration))\(clockNote); pick another time"
    }
}

extension SessionClash {
    /// What the span leaves to guess when the clocks change during the
    /// session: its length, and which way they go (an hour from 02:30 on
    /// the night they go back reads 02:30–02:30).
    private var clockNote: String {
        guard let end else { return "" }
        let wall = end.localSeconds - existing.start.localSeconds
        let length = Int64(existing.duration.components.seconds)
        guard wall != length else { return "" }
        return " (\(length / 60) minutes: the clocks go \(wall < length ? "back" : "forward") in between)"
    }
}

extension Weekday {
    /// The English name, for messages.
    var name: String {
        switch self {
        case .monday: "Monday"
        case .tuesday: "Tuesday"
        case .wednesday: "Wednesday"
        case .thursday: "Thursday"
        case .friday: "Friday"
        case .saturday: "Saturday"
        case .sunday: "Sunday"
        }
    }
}

/// "HH:MM", zero-padded (negative parts, only in messages about bad input, as they are).
func clockText(_ hour: Int, _ minute: Int) -> String {
    (0..<10 ~= hour ? "0" : "") + String(hour) + ":" + (0..<10 ~= minute ? "0" : "") + String(minute)
}

extension LocalDateTime {
    /// "HH:MM", for messages.
    var timeText: String { clockText(hour, minute) }

    /// "Mon 2026-11-30 10:00", as every message and command writes a time (issue 43, 12).
    var dayTimeText: String { date.dayText + " " + timeText }

    /// "Mon 2026-11-30 10:00–11:00" to `end`; "Mon 2026-11-30 23:30 – Tue 00:30"
    /// across midnight; "Mon 2026-11-30 22:00 – Wed 2026-12-02 08:00" over more days.
    func spanText(to end: LocalDateTime) -> String {
        if end.date == date || (end.date == date.adding(days: 1) && end.hour == 0 && end.minute == 0) { return dayTimeText + "–" + end.timeText }
        if end.date == date.adding(days: 1) { return dayTimeText + " – " + String(end.date.weekday.name.prefix(3)) + " " + end.timeText }
        return dayTimeText + " – " + end.dayTimeText
    }

    /// ``spanText(to:)`` for a length.
    func spanText(lasting length: Duration) -> String {
        spanText(to: LocalDateTime(localSeconds: localSeconds + length.components.seconds))
    }
}

extension LocalDate {
    /// "Mon 2026-11-30".
    var dayText: String { String(weekday.name.prefix(3)) + " \(self)" }
}

extension SchedulingError {
    /// "12 hours", "90 minutes", "1 hour".
    static func hoursText(_ d: Duration) -> String {
        let minutes = Int(d.components.seconds / 60)
        if minutes % 60 != 0 { return "\(minutes) minute\(minutes == 1 ? "" : "s")" }
        return "\(minutes / 60) hour\(minutes == 60 ? "" : "s")"
    }
}
