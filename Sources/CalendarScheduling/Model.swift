import CalendarCore
import Foundation

/// A time of day to the minute, from 00:00 to 24:00 (24:00 only ends a range).
public struct TimeOfDay: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Minutes since midnight, 0…1440.
    public let minutes: Int

    /// Creates a time of day.
    /// - Throws: ``SchedulingError/invalid(field:reason:)`` outside 00:00…24:00.
    public init(hour: Int, minute: Int = 0) throws(SchedulingError) {
        guard (0...24).contains(hour), (0...59).contains(minute), hour * 60 + minute <= 1440 else {
            throw .invalid(field: .time, reason: "\(clockText(hour, minute)) is not a time of day; use 00:00 to 24:00")
        }
        minutes = hour * 60 + minute
    }

    /// Reads "HH:MM" (or "H:MM").
    /// - Throws: ``SchedulingError/invalid(field:reason:)`` naming the text.
    public init(parsing text: some StringProtocol) throws(SchedulingError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]), parts[1].count == 2 else {
            throw .invalid(field: .time, reason: "‘\(text)’ is not a time; write it as HH:MM, for example 18:30")
        }
        try self.init(hour: h, minute: m)
    }

    /// The hour, 0…24.
    public var hour: Int { minutes / 60 }
    /// The minute, 0…59.
    public var minute: Int { minutes % 60 }

    /// "HH:MM".
    public var description: String { clockText(hour, minute) }

    /// Earlier times first.
    public static func < (a: TimeOfDay, b: TimeOfDay) -> Bool { a.minutes < b.minutes }

    /// The wall time at this time of day on a date (24:00 is the next midnight).
    package func on(_ date: LocalDate) -> LocalDateTime {
        LocalDateTime(localSeconds: Int64(date.dayNumber) * 86_400 + Int64(minutes) * 60)
    }
}

/// A stretch of one day, from a start to a later end (end exclusive).
public struct TimeRange: Hashable, Sendable, Codable, CustomStringConvertible {
    /// When it starts.
    public let start: TimeOfDay
    /// When it ends; later than the start.
    public let end: TimeOfDay

    /// Creates a range.
    /// - Throws: ``SchedulingError/invalid(field:reason:)`` when it does not end after it starts.
    public init(_ start: TimeOfDay, _ end: TimeOfDay) throws(SchedulingError) {
        guard start < end else {
            throw .invalid(field: .hours, reason: "\(start)-\(end) ends before it starts; write the earlier time first")
        }
        self.start = start
        self.end = end
    }

    /// Reads "HH:MM-HH:MM".
    /// - Throws: ``SchedulingError/invalid(field:reason:)`` naming the text.
    public init(parsing text: some StringProtocol) throws(SchedulingError) {
        let parts = text.split(separator: "-")
        guard parts.count == 2 else {
            throw .invalid(field: .hours, reason: "‘\(text)’ is not a range; write it as HH:MM-HH:MM, for example 09:00-13:00")
        }
        try self.init(TimeOfDay(parsing: parts[0]), TimeOfDay(parsing: parts[1]))
    }

    /// "HH:MM-HH:MM".
    public var description: String { "\(start)-\(end)" }
}

/// When a coach works: hours for each weekday, and dates that differ (a day
/// off is a date with no hours).
///
/// ```swift
/// var hours = WorkingHours()
/// try hours.set([TimeRange(parsing: "09:00-13:00"), TimeRange(parsing: "16:00-20:00")], on: [.monday, .wednesday])
/// hours.exceptions[try LocalDate(year: 2026, month: 12, day: 24)] = []   // a day off
/// ```
public struct WorkingHours: Hashable, Sendable, Codable {
    /// The hours of each weekday; a weekday that is missing is not worked.
    public private(set) var weekly: [Weekday: [TimeRange]]
    /// One-off dates whose hours replace the weekday's; empty means a day off.
    public var exceptions: [LocalDate: [TimeRange]]

    /// No hours at all.
    public init() {
        weekly = [:]
        exceptions = [:]
    }

    /// Sets the hours of some weekdays.
    /// - Throws: ``SchedulingError/invalid(field:reason:)`` when ranges overlap.
    public mutating func set(_ ranges: [TimeRange], on weekdays: [Weekday]) throws(SchedulingError) {
        let sorted = try Self.checked(ranges)
        for day in weekdays { weekly[day] = sorted.isEmpty ? nil : sorted }
    }

    /// Sets the hours of one date, replacing its weekday's; no ranges is a day off.
    /// - Throws: ``SchedulingError/invalid(field:reason:)`` when ranges overlap.
    public mutating func set(_ ranges: [TimeRange], onDate date: LocalDate) throws(SchedulingError) {
        exceptions[date] = try Self.checked(ranges)
    }

    /// The hours worked on a date, earliest first.
    public func hours(on date: LocalDate) -> [TimeRange] {
        exceptions[date] ?? weekly[date.weekday] ?? []
    }

    private static func checked(_ ranges: [TimeRange]) throws(SchedulingError) -> [TimeRange] {
        let sorted = ranges.sorted { $0.start < $1.start }
        for (a, b) in zip(sorted, sorted.dropFirst()) where b.start < a.end {
            throw .invalid(field: .hours, reason: "\(a) and \(b) overlap; give each stretch of the day once")
        }
        return sorted
    }
}

/// A personal trainer, who works with their own clients.
public struct Coach: Hashable, Sendable, Codable, Identifiable {
    /// The coach's ID, unique in the book.
    public var id: String
    /// The name clients see.
    public var name: String
    /// An e-mail address (the `ORGANIZER` of their sessions in iCalendar).
    public var email: String?
    /// When the coach works, for ``SchedulingBook/freeSlots(coach:from:through:length:step:alignedTo:notBefore:)``
    /// and a ``SchedulingPolicy`` that keeps sessions within it.
    public var workingHours: WorkingHours
    /// The time the coach keeps free between two sessions, in whole minutes (0 to 24 hours).
    public var buffer: Duration
    /// The colour of the coach's sessions that have none of their own and
    /// whose client has none (``SchedulingBook/color(of:)``).
    public var color: ItemColor?

    /// Creates a coach.
    /// - Parameters:
    ///   - id: the coach's ID, unique in the book.
    ///   - name: the name clients see.
    ///   - email: an e-mail address.
    ///   - workingHours: when the coach works.
    ///   - buffer: the time kept free between two sessions.
    ///   - color: the colour of the coach's sessions.
    public init(id: String, name: String, email: String? = nil, workingHours: WorkingHours = WorkingHours(), buffer: Duration = .zero,
                color: ItemColor? = nil) {
        self.id = id
        self.name = name
        self.email = email
        self.workingHours = workingHours
        self.buffer = buffer
        self.color = color
    }
}

/// A person who trains with one coach.
public struct Client: Hashable, Sendable, Codable, Identifiable {
    /// The client's ID, unique in the book.
    public var id: String
    /// The coach the client belongs to.
    public var coachID: String
    /// The client's name.
    public var name: String
    /// An e-mail address, where the book's exports reach them.
    public var email: String?
    /// The colour of the client's sessions that have none of their own
    /// (``SchedulingBook/color(of:)``).
    public var color: ItemColor?

    /// Creates a client of a coach.
    public init(id: String, coachID: String, name: String, email: String? = nil, color: ItemColor? = nil) {
        self.id = id
        self.coachID = coachID
        self.name = name
        self.email = email
        self.color = color
    }
}

/// A gym member, who books places in classes.
public struct Member: Hashable, Sendable, Codable, Identifiable {
    /// The member's ID, unique in the book.
    public var id: String
    /// The member's name.
    public var name: String
    /// An e-mail address.
    public var email: String?

    /// Creates a member.
    public init(id: String, name: String, email: String? = nil) {
        self.id = id
        self.name = name
        self.email = email
    }
}

/// Where a session stands.
public enum SessionStatus: String, CaseIterable, Hashable, Sendable, Codable {
    /// Booked and still to happen (or happened, not yet marked).
    case scheduled
    /// It took place.
    case completed
    /// Called off; its time is free again.
    case cancelled
    /// The client did not come.
    case noShow = "no-show"
}

/// A training session of a coach with one of their clients.
public struct Session: Hashable, Sendable, Codable, Identifiable {
    /// The session's ID, unique in the book.
    public var id: String
    /// The coach who runs it.
    public var coachID: String
    /// The client who trains.
    public var clientID: String
    /// When it starts, on the book's wall clock.
    public var start: LocalDateTime
    /// Whether ``start`` is the *second* of the two times the clocks show
    /// twice on the night they go back (02:30 CET after 02:30 CEST). A wall
    /// time alone stands for the first (RFC 5545 §3.3.5).
    public var isLaterOfRepeatedTime: Bool
    /// How long it lasts, in whole minutes (1 minute to 24 hours).
    public var duration: Duration
    /// Where (a gym, a park…).
    public var location: String?
    /// The coach's notes.
    public var notes: String?
    /// Where it stands.
    public var status: SessionStatus
    /// The session's own colour; `nil` takes the client's, else the coach's
    /// (``SchedulingBook/color(of:)``).
    public var color: ItemColor?
    /// The kind of workout, free text such as "Strength" (written as `CATEGORIES`).
    public var workoutType: String?
    /// When it was completed: the `completedAt` given to
    /// ``SchedulingBook/setStatus(_:ofSession:coach:now:completedAt:)`` (else
    /// its `now`), or to ``SchedulingBook/logSession(id:coach:client:start:duration:location:notes:color:workoutType:completedAt:now:)``
    /// (else when the session ended); `nil` for a session not completed, or
    /// completed before the book kept the time.
    public var completedAt: Date?
    /// How many of its changes the client was told of (`SEQUENCE`, RFC 5546
    /// §2.1.4): ``SchedulingBook/recordNotices(since:now:)`` raises it with each
    /// message, so that the client's calendar takes the newest.
    public var sequence: Int
    /// The client's answer to the last invitation they were sent
    /// (``SchedulingBook/recordAnswer(_:ofSession:coach:answeredAt:)``); `nil`
    /// until one comes back, and again once the session changes and they are asked anew.
    public var answer: AttendeeAnswer? = nil
    /// When the client gave ``answer`` (their reply's `DTSTAMP`), when known:
    /// of two answers to the same invitation, the later one stands, in
    /// whatever order the mail brings them in (RFC 5546 §2.1.5).
    public var answeredAt: Date? = nil
    /// The repeating session it is one of (``SchedulingBook/addRepeatingSession(series:coach:client:start:isLaterOfRepeatedTime:duration:repeating:location:notes:color:workoutType:now:)``),
    /// by the series' ID; `nil` for a session booked alone.
    public var series: String? = nil

    /// Creates a session.
    /// - Parameters:
    ///   - id: the session's ID, unique in the book.
    ///   - coachID: the coach who runs it.
    ///   - clientID: the client who trains.
    ///   - start: when it starts, on the book's clocks.
    ///   - duration: how long it lasts.
    ///   - location: where.
    ///   - notes: the coach's notes.
    ///   - status: where it stands.
    ///   - isLaterOfRepeatedTime: whether `start` is the second of two equal wall times.
    ///   - color: its own colour.
    ///   - workoutType: the kind of workout.
    ///   - completedAt: when it was marked completed.
    ///   - sequence: how many of its changes the client was told of.
    public init(
        id: String, coachID: String, clientID: String, start: LocalDateTime, duration: Duration,
        location: String? = nil, notes: String? = nil, status: SessionStatus = .scheduled, isLaterOfRepeatedTime: Bool = false,
        color: ItemColor? = nil, workoutType: String? = nil, completedAt: Date? = nil, sequence: Int = 0
    ) {
        self.sequence = sequence
        self.completedAt = completedAt
        self.color = color
        self.workoutType = workoutType
        self.id = id
        self.coachID = coachID
        self.clientID = clientID
        self.start = start
        self.isLaterOfRepeatedTime = isLaterOfRepeatedTime
        self.duration = duration
        self.location = location
        self.notes = notes
        self.status = status
    }

    /// Whether it holds its time: everything but a cancelled session does.
    public var holdsTime: Bool { status != .cancelled }
}

/// What an invited person answered (iTIP `PARTSTAT` in a `REPLY`, RFC 5546 §3.2.3).
public enum AttendeeAnswer: String, CaseIterable, Hashable, Sendable, Codable {
    /// They will come.
    case accepted = "ACCEPTED"
    /// They will not.
    case declined = "DECLINED"
    /// They may.
    case tentative = "TENTATIVE"
}

/// A free stretch of a coach's working time, long enough for one session.
public struct FreeSlot: Hashable, Sendable, Codable {
    /// When it starts, on the book's wall clock.
    public var start: LocalDateTime
    /// When it ends, on the book's wall clock.
    public var end: LocalDateTime
    /// When it starts, in Unix seconds.
    public var startSeconds: Int64
    /// When it ends, in Unix seconds.
    public var endSeconds: Int64

    /// When it starts, as a `Date`.
    public var startDate: Date { Date(timeIntervalSince1970: TimeInterval(startSeconds)) }
    /// How long it is.
    public var duration: Duration { .seconds(endSeconds - startSeconds) }
}

extension TimeOfDay: ExpressibleByStringLiteral {
    /// A time of day written in the source as `"18:30"`.
    ///
    /// The literal type is `StaticString`, which only the compiler makes, so
    /// no text read at run time reaches this initialiser: text that is not a
    /// time is a mistake in the source and stops the program, naming it. Read
    /// outside text with ``init(parsing:)``.
    /// - Parameter value: `HH:MM`.
    public init(stringLiteral value: StaticString) {
        do { try self.init(parsing: value.description) } catch { preconditionFailure("TimeOfDay literal: \(error)") }
    }
}

extension TimeRange: ExpressibleByStringLiteral {
    /// A range written in the source as `"09:00-13:00"` (see ``TimeOfDay/init(stringLiteral:)``).
    /// - Parameter value: `HH:MM-HH:MM`.
    public init(stringLiteral value: StaticString) {
        do { try self.init(parsing: value.description) } catch { preconditionFailure("TimeRange literal: \(error)") }
    }
}
