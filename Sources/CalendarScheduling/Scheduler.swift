import CalendarCore
import Foundation

/// The one owner of a ``SchedulingBook`` that many tasks share.
///
/// Every change runs on the actor, one at a time, against the current book,
/// so capacity is never exceeded and no two sessions clash however many
/// tasks book at once; requests are served in the order the actor takes
/// them, and that order is the waitlist's. Coaches and members reach the
/// book through desks that carry their ID, so a coach's desk cannot touch
/// another coach's clients or sessions, nor a member's desk another's
/// bookings.
///
/// ```swift
/// let scheduler = Scheduler(book: book)
/// let marta = try await scheduler.member("marta")
/// switch try await marta.book(classID: "yoga", on: date, now: .now, whenFull: .joinWaitlist) {
/// case .confirmed: print("booked")
/// case .waitlisted(let position): print("number \(position) on the waitlist")
/// }
/// ```
public actor Scheduler {
    /// The book as it is now; a value, so reading it never races a change.
    public private(set) var book: SchedulingBook

    /// Shares a book.
    public init(book: SchedulingBook) {
        self.book = book
    }

    /// Runs a change (or a read) on the book, alone.
    ///
    /// The book is changed in place: each of its methods checks everything
    /// before it changes anything, so one that throws leaves the book as it
    /// was. A body that makes several changes and then throws keeps the ones
    /// made before. (Working on a copy would make every change copy the whole
    /// book: O(n) per booking.)
    public func perform<T: Sendable>(_ body: @Sendable (inout SchedulingBook) throws(SchedulingError) -> T) throws(SchedulingError) -> T {
        try body(&book)
    }

    /// The desk of a coach: their clients and sessions, nobody else's.
    /// - Throws: ``SchedulingError/unknownCoach(_:)``.
    public func coach(_ id: String) throws(SchedulingError) -> CoachDesk {
        _ = try book.coach(id)
        return CoachDesk(coachID: id, scheduler: self)
    }

    /// The desk of a member: their bookings, nobody else's.
    /// - Throws: ``SchedulingError/unknownMember(_:)``.
    public func member(_ id: String) throws(SchedulingError) -> MemberDesk {
        _ = try book.member(id)
        return MemberDesk(memberID: id, scheduler: self)
    }
}

/// What one coach can do: every call is scoped to their own clients and sessions.
public struct CoachDesk: Sendable {
    /// The coach.
    public let coachID: String
    let scheduler: Scheduler

    /// Adds a client of this coach.
    @discardableResult
    public func addClient(id: String, name: String, email: String? = nil) async throws(SchedulingError) -> Client {
        let client = Client(id: id, coachID: coachID, name: name, email: email)
        try await scheduler.perform { book throws(SchedulingError) in try book.addClient(client) }
        return client
    }

    /// This coach's clients, by name.
    public func clients() async throws(SchedulingError) -> [Client] {
        let coach = coachID
        return try await scheduler.perform { book throws(SchedulingError) in try book.clients(coach: coach) }
    }

    /// Books a session with one of this coach's clients; see ``SchedulingBook/addSession(id:coach:client:start:minutes:location:notes:color:workoutType:)``.
    @discardableResult
    public func addSession(id: String? = nil, client: String, start: LocalDateTime, minutes: Int, location: String? = nil, notes: String? = nil) async throws(SchedulingError) -> Session {
        let coach = coachID
        return try await scheduler.perform { book throws(SchedulingError) in
            try book.addSession(id: id, coach: coach, client: client, start: start, minutes: minutes, location: location, notes: notes)
        }
    }

    /// Moves one of this coach's sessions.
    @discardableResult
    public func moveSession(_ id: String, to start: LocalDateTime, minutes: Int? = nil) async throws(SchedulingError) -> Session {
        let coach = coachID
        return try await scheduler.perform { book throws(SchedulingError) in try book.moveSession(id, coach: coach, to: start, minutes: minutes) }
    }

    /// One of this coach's clients' sessions, newest first (``SchedulingBook/history(client:coach:limit:)``):
    /// another coach's client is refused as an unknown one.
    public func history(client: String, limit: Int = .max) async throws(SchedulingError) -> [Session] {
        let coach = coachID
        return try await scheduler.perform { book throws(SchedulingError) in try book.history(client: client, coach: coach, limit: limit) }
    }

    /// Settles one of this coach's sessions (completed, cancelled, no-show).
    @discardableResult
    public func setStatus(_ status: SessionStatus, ofSession id: String) async throws(SchedulingError) -> Session {
        let coach = coachID
        return try await scheduler.perform { book throws(SchedulingError) in try book.setStatus(status, ofSession: id, coach: coach) }
    }

    /// This coach's sessions, by start.
    public func sessions() async throws(SchedulingError) -> [Session] {
        let coach = coachID
        return try await scheduler.perform { book throws(SchedulingError) in try book.sessions(coach: coach) }
    }

    /// This coach's next scheduled sessions from `now`.
    public func upcomingSessions(after now: Date, limit: Int = 10) async throws(SchedulingError) -> [Session] {
        let coach = coachID
        return try await scheduler.perform { book throws(SchedulingError) in try book.upcomingSessions(coach: coach, after: now, limit: limit) }
    }

    /// This coach's free slots; see ``SchedulingBook/freeSlots(coach:from:through:minutes:step:notBefore:)``.
    public func freeSlots(from first: LocalDate, through last: LocalDate, minutes: Int, step: Int? = nil, notBefore: Date? = nil) async throws(SchedulingError) -> [FreeSlot] {
        let coach = coachID
        return try await scheduler.perform { book throws(SchedulingError) in
            try book.freeSlots(coach: coach, from: first, through: last, minutes: minutes, step: step, notBefore: notBefore)
        }
    }
}

/// What one member can do: book, cancel and see their own schedule.
public struct MemberDesk: Sendable {
    /// The member.
    public let memberID: String
    let scheduler: Scheduler

    /// Books a place; see ``SchedulingBook/book(member:classID:on:now:whenFull:)``.
    @discardableResult
    public func book(classID: String, on date: LocalDate, now: Date, whenFull: WhenFull = .refuse) async throws(SchedulingError) -> BookingOutcome {
        let member = memberID
        return try await scheduler.perform { book throws(SchedulingError) in
            try book.book(member: member, classID: classID, on: date, now: now, whenFull: whenFull)
        }
    }

    /// Gives up a place or a place in the queue; see ``SchedulingBook/cancelBooking(member:classID:on:now:)``.
    @discardableResult
    public func cancel(classID: String, on date: LocalDate, now: Date) async throws(SchedulingError) -> Cancellation {
        let member = memberID
        return try await scheduler.perform { book throws(SchedulingError) in try book.cancelBooking(member: member, classID: classID, on: date, now: now) }
    }

    /// The occurrences this member holds a place in.
    public func bookings() async throws(SchedulingError) -> [ClassOccurrence] {
        let member = memberID
        return try await scheduler.perform { book throws(SchedulingError) in try book.bookings(member: member) }
    }

    /// This member's booked classes as a schedule for the views.
    public func schedule() async throws(SchedulingError) -> Schedule {
        let member = memberID
        return try await scheduler.perform { book throws(SchedulingError) in try book.memberSchedule(member: member) }
    }
}
