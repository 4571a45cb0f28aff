import CalendarCore
import Foundation

/// The one owner of a ``SchedulingBook`` that many tasks share: the gym's front desk.
///
/// Named `Scheduler` until issue 30, a name every app that also imports
/// Combine (whose `Scheduler` protocol is in scope) had to qualify; the old
/// name went with the other renamed shims before 0.5.0 (see `CHANGELOG.md`).
///
/// Every change runs on the actor, one at a time, against the current book,
/// so capacity is never exceeded and no two sessions clash however many
/// tasks book at once; requests are served in the order the actor takes
/// them, and that order is the waitlist's. Coaches, clients and members
/// reach the book through desks that carry their ID, so a coach's desk
/// cannot touch another coach's clients or sessions, nor a member's desk
/// another's bookings. The front desk's own work (coaches, members,
/// classes) has methods here; ``perform(_:)`` runs anything else.
///
/// ```swift
/// let desk = FrontDesk(book: book)
/// let marta = try await desk.member("marta")
/// switch try await marta.book(classID: "yoga", on: date, whenFull: .joinWaitlist) {
/// case .confirmed: print("booked")
/// case .waitlisted(let position): print("number \(position) on the waitlist")
/// }
/// ```
public actor FrontDesk {
    /// The book as it is now; a value, so reading it never races a change.
    public private(set) var book: SchedulingBook

    /// Shares a book.
    /// - Parameter book: the book to share.
    public init(book: SchedulingBook) {
        self.book = book
    }

    /// Runs a change (or a read) on the book, alone.
    ///
    /// The closure may throw any error: its type is the one `perform`
    /// throws, so `try await scheduler.perform { try $0.addCoach(coach) }`
    /// compiles as it reads, and a closure declared `throws(SchedulingError)`
    /// keeps the typed error.
    ///
    /// The book is changed in place: each of its methods checks everything
    /// before it changes anything, so one that throws leaves the book as it
    /// was. A body that makes several changes and then throws keeps the ones
    /// made before. (Working on a copy would make every change copy the whole
    /// book: O(n) per booking.)
    /// - Parameter body: the work, given the book to read and change.
    /// - Returns: what the body returns.
    public func perform<T: Sendable, Failure: Error>(_ body: @Sendable (inout SchedulingBook) throws(Failure) -> T) throws(Failure) -> T {
        try body(&book)
    }

    /// The desk of a coach: their clients and sessions, nobody else's.
    /// - Parameter id: the coach.
    /// - Throws: ``SchedulingError/unknownCoach(_:)``.
    public func coach(_ id: String) throws(SchedulingError) -> CoachDesk {
        _ = try book.coach(id)
        return CoachDesk(coachID: id, scheduler: self)
    }

    /// The desk of a client: their own sessions, read-only.
    /// - Parameter id: the client.
    /// - Throws: ``SchedulingError/noSuchClient(_:)``.
    public func client(_ id: String) throws(SchedulingError) -> ClientDesk {
        _ = try book.client(id)
        return ClientDesk(clientID: id, scheduler: self)
    }

    /// The desk of a member: their bookings, nobody else's.
    /// - Parameter id: the member.
    /// - Throws: ``SchedulingError/unknownMember(_:)``.
    public func member(_ id: String) throws(SchedulingError) -> MemberDesk {
        _ = try book.member(id)
        return MemberDesk(memberID: id, scheduler: self)
    }

    /// Adds a coach (see ``SchedulingBook/addCoach(_:)``).
    /// - Parameter coach: the coach.
    /// - Returns: the desk of the new coach.
    @discardableResult
    public func addCoach(_ coach: Coach) throws(SchedulingError) -> CoachDesk {
        try book.addCoach(coach)
        return CoachDesk(coachID: coach.id, scheduler: self)
    }

    /// Removes a coach who has no clients (see ``SchedulingBook/removeCoach(_:)``).
    /// - Parameter id: the coach.
    public func removeCoach(_ id: String) throws(SchedulingError) {
        try book.removeCoach(id)
    }

    /// Adds a member (see ``SchedulingBook/addMember(_:)``).
    /// - Parameter member: the member.
    /// - Returns: the desk of the new member.
    @discardableResult
    public func addMember(_ member: Member) throws(SchedulingError) -> MemberDesk {
        try book.addMember(member)
        return MemberDesk(memberID: member.id, scheduler: self)
    }

    /// Removes a member and their places (see ``SchedulingBook/removeMember(_:now:)``).
    /// - Parameters:
    ///   - id: the member.
    ///   - now: the time of the request.
    /// - Returns: for each occurrence they were in, whether they held a place and who got it.
    @discardableResult
    public func removeMember(_ id: String, now: Date = Date()) throws(SchedulingError) -> [ClassOccurrence.ID: Cancellation] {
        try book.removeMember(id, now: now)
    }

    /// Adds a weekly class (see ``SchedulingBook/addClass(_:)``).
    /// - Parameter series: the class.
    public func addClass(_ series: ClassSeries) throws(SchedulingError) {
        try book.addClass(series)
    }

    /// One week of the timetable with places left (see ``SchedulingBook/timetable(weekOf:firstWeekday:member:)``).
    /// - Parameters:
    ///   - date: any date in the week.
    ///   - firstWeekday: the day a week starts on.
    public func timetable(weekOf date: LocalDate, firstWeekday: Weekday = .monday) -> [TimetableDate] {
        (try? book.timetable(weekOf: date, firstWeekday: firstWeekday)) ?? []
    }
}

/// What one coach can do: every call is scoped to their own clients and sessions.
public struct CoachDesk: Sendable {
    /// The coach.
    public let coachID: String
    let scheduler: FrontDesk

    package func run<T: Sendable>(_ body: @escaping @Sendable (inout SchedulingBook, String) throws(SchedulingError) -> T) async throws(SchedulingError) -> T {
        let coach = coachID
        return try await scheduler.perform { book throws(SchedulingError) in try body(&book, coach) }
    }

    /// The coach's own record.
    public func coach() async throws(SchedulingError) -> Coach {
        try await run { book, coach throws(SchedulingError) in try book.coach(coach) }
    }

    /// Adds a client of this coach.
    /// - Parameters:
    ///   - id: the client's ID, unique in the book.
    ///   - name: the client's name.
    ///   - email: an e-mail address.
    ///   - color: the colour of the client's sessions.
    @discardableResult
    public func addClient(id: String, name: String, email: String? = nil, color: ItemColor? = nil) async throws(SchedulingError) -> Client {
        let client = Client(id: id, coachID: coachID, name: name, email: email, color: color)
        try await run { book, _ throws(SchedulingError) in try book.addClient(client) }
        return client
    }

    /// One of this coach's clients; another coach's is unknown here.
    /// - Parameter id: the client.
    public func client(_ id: String) async throws(SchedulingError) -> Client {
        try await run { book, coach throws(SchedulingError) in try book.client(id, coach: coach) }
    }

    /// Replaces one of this coach's clients' name, e-mail and colour.
    /// - Parameter client: the client's new details (same ID).
    public func updateClient(_ client: Client) async throws(SchedulingError) {
        try await run { book, coach throws(SchedulingError) in try book.updateClient(client, coach: coach) }
    }

    /// Removes one of this coach's clients and their sessions (see ``SchedulingBook/removeClient(_:coach:)``).
    /// - Parameter id: the client.
    /// - Returns: the sessions removed with them.
    @discardableResult
    public func removeClient(_ id: String) async throws(SchedulingError) -> [Session] {
        try await run { book, coach throws(SchedulingError) in try book.removeClient(id, coach: coach) }
    }

    /// This coach's clients, by name.
    public func clients() async throws(SchedulingError) -> [Client] {
        try await run { book, coach throws(SchedulingError) in try book.clients(coach: coach) }
    }

    /// Books a session with one of this coach's clients; see ``SchedulingBook/addSession(id:coach:client:start:duration:location:notes:color:workoutType:now:)``.
    /// - Parameters:
    ///   - id: the session's ID; one is made up when `nil`.
    ///   - client: the client.
    ///   - start: the start on the book's clocks.
    ///   - duration: the length.
    ///   - location: where.
    ///   - notes: the coach's notes.
    ///   - color: the session's own colour.
    ///   - workoutType: the kind of workout.
    ///   - now: the time of the request, for the book's policy.
    @discardableResult
    public func addSession(
        id: String? = nil, client: String, start: LocalDateTime, duration: Duration, location: String? = nil, notes: String? = nil,
        color: ItemColor? = nil, workoutType: String? = nil, now: Date = Date()
    ) async throws(SchedulingError) -> Session {
        try await run { book, coach throws(SchedulingError) in
            try book.addSession(id: id, coach: coach, client: client, start: start, duration: duration, location: location, notes: notes,
                                color: color, workoutType: workoutType, now: now)
        }
    }

    /// Books a session with one of this coach's clients on every date a rule
    /// gives, each date booked or refused with why; see
    /// ``SchedulingBook/addRepeatingSession(series:coach:client:start:isLaterOfRepeatedTime:duration:repeating:location:notes:color:workoutType:now:)``.
    /// - Parameters:
    ///   - series: the series' ID; one is made up when `nil`.
    ///   - client: the client.
    ///   - start: the first session's start on the book's clocks.
    ///   - duration: each session's length.
    ///   - rule: how it repeats; it must end within a year.
    ///   - location: where.
    ///   - notes: the coach's notes.
    ///   - color: the sessions' own colour.
    ///   - workoutType: the kind of workout.
    ///   - now: the time of the request, for the book's policy.
    @discardableResult
    public func addRepeatingSession(
        series: String? = nil, client: String, start: LocalDateTime, duration: Duration, repeating rule: RecurrenceRule,
        location: String? = nil, notes: String? = nil, color: ItemColor? = nil, workoutType: String? = nil, now: Date = Date()
    ) async throws(SchedulingError) -> [RepeatedSession] {
        try await run { book, coach throws(SchedulingError) in
            try book.addRepeatingSession(series: series, coach: coach, client: client, start: start, duration: duration, repeating: rule,
                                         location: location, notes: notes, color: color, workoutType: workoutType, now: now)
        }
    }

    /// Moves one session of a repeating session and every later one by the
    /// same shift; see ``SchedulingBook/moveSessions(from:coach:to:isLaterOfRepeatedTime:duration:now:)``.
    /// - Parameters:
    ///   - id: the first session to move.
    ///   - start: its new start.
    ///   - duration: the new length of each (`nil` keeps each one's).
    ///   - now: the time of the request, for the book's policy.
    @discardableResult
    public func moveSessions(from id: String, to start: LocalDateTime, duration: Duration? = nil, now: Date = Date()) async throws(SchedulingError) -> [RepeatedSession] {
        try await run { book, coach throws(SchedulingError) in try book.moveSessions(from: id, coach: coach, to: start, duration: duration, now: now) }
    }

    /// Cancels one session of a repeating session and every later one; see
    /// ``SchedulingBook/cancelSessions(from:coach:now:)``.
    /// - Parameters:
    ///   - id: the first session to cancel.
    ///   - now: the time of the request.
    @discardableResult
    public func cancelSessions(from id: String, now: Date = Date()) async throws(SchedulingError) -> [Session] {
        try await run { book, coach throws(SchedulingError) in try book.cancelSessions(from: id, coach: coach, now: now) }
    }

    /// Books a session in a free slot, at its instant (the later of two equal wall times stays the later).
    /// - Parameters:
    ///   - slot: a slot from ``freeSlots(from:through:length:step:alignedTo:notBefore:)``.
    ///   - client: the client.
    ///   - location: where.
    ///   - notes: the coach's notes.
    ///   - now: the time of the request, for the book's policy.
    @discardableResult
    public func addSession(in slot: FreeSlot, client: String, location: String? = nil, notes: String? = nil, now: Date = Date()) async throws(SchedulingError) -> Session {
        try await run { book, coach throws(SchedulingError) in
            try book.addSession(coach: coach, client: client, startingAt: slot.startDate, duration: slot.duration, location: location, notes: notes, now: now)
        }
    }

    /// Moves one of this coach's sessions.
    /// - Parameters:
    ///   - id: the session.
    ///   - start: the new start.
    ///   - duration: the new length (`nil` keeps it).
    ///   - now: the time of the request, for the book's policy.
    @discardableResult
    public func moveSession(_ id: String, to start: LocalDateTime, duration: Duration? = nil, now: Date = Date()) async throws(SchedulingError) -> Session {
        try await run { book, coach throws(SchedulingError) in try book.moveSession(id, coach: coach, to: start, duration: duration, now: now) }
    }

    /// Changes one of this coach's sessions' place, notes, colour and workout type (its time through ``moveSession(_:to:duration:now:)``).
    /// - Parameters:
    ///   - id: the session.
    ///   - change: edits a copy of the session; only its location, notes, colour and workout type are kept.
    /// - Returns: the session as it now is.
    @discardableResult
    public func editSession(_ id: String, _ change: @escaping @Sendable (inout Session) -> Void) async throws(SchedulingError) -> Session {
        try await run { book, coach throws(SchedulingError) in
            var s = try book.session(id, coach: coach)
            change(&s)
            try book.styleSession(id, coach: coach, color: s.color, workoutType: s.workoutType)
            return try book.editSession(id, coach: coach, location: s.location, notes: s.notes)
        }
    }

    /// Settles one of this coach's sessions (completed, cancelled, no-show),
    /// or undoes a mark (see ``SchedulingBook/setStatus(_:ofSession:coach:now:completedAt:)``).
    /// - Parameters:
    ///   - status: the new status.
    ///   - id: the session.
    ///   - now: the current time, which a completed or no-show session must have reached.
    ///   - completedAt: for `.completed`, when it really ended, if not `now`.
    @discardableResult
    public func setStatus(_ status: SessionStatus, ofSession id: String, now: Date, completedAt: Date? = nil) async throws(SchedulingError) -> Session {
        try await run { book, coach throws(SchedulingError) in try book.setStatus(status, ofSession: id, coach: coach, now: now, completedAt: completedAt) }
    }

    /// Records a training of this coach's that already took place, as
    /// completed (see ``SchedulingBook/logSession(id:coach:client:start:duration:location:notes:color:workoutType:completedAt:now:)``).
    /// - Parameters:
    ///   - id: the session's ID; one is made up when `nil`.
    ///   - client: the coach's client.
    ///   - start: when it started, on the book's clocks.
    ///   - duration: how long it lasted.
    ///   - location: where.
    ///   - notes: the coach's notes.
    ///   - color: its own colour.
    ///   - workoutType: the kind of workout.
    ///   - completedAt: when it was completed; by default when it ended.
    ///   - now: the time of the request: the session must have ended by then.
    @discardableResult
    public func logSession(
        id: String? = nil, client: String, start: LocalDateTime, duration: Duration, location: String? = nil, notes: String? = nil,
        color: ItemColor? = nil, workoutType: String? = nil, completedAt: Date? = nil, now: Date = Date()
    ) async throws(SchedulingError) -> Session {
        try await run { book, coach throws(SchedulingError) in
            try book.logSession(id: id, coach: coach, client: client, start: start, duration: duration, location: location, notes: notes,
                                color: color, workoutType: workoutType, completedAt: completedAt, now: now)
        }
    }

    /// Removes one of this coach's sessions for good (see ``SchedulingBook/removeSession(_:coach:)``).
    /// - Parameter id: the session.
    @discardableResult
    public func removeSession(_ id: String) async throws(SchedulingError) -> Session {
        try await run { book, coach throws(SchedulingError) in try book.removeSession(id, coach: coach) }
    }

    /// One of this coach's sessions.
    /// - Parameter id: the session.
    public func session(_ id: String) async throws(SchedulingError) -> Session {
        try await run { book, coach throws(SchedulingError) in try book.session(id, coach: coach) }
    }

    /// This coach's sessions, by start.
    public func sessions() async throws(SchedulingError) -> [Session] {
        try await run { book, coach throws(SchedulingError) in try book.sessions(coach: coach) }
    }

    /// This coach's next scheduled sessions from `now`.
    /// - Parameters:
    ///   - now: the instant to look from.
    ///   - limit: the most to return.
    public func upcomingSessions(after now: Date = Date(), limit: Int = 10) async throws(SchedulingError) -> [Session] {
        try await run { book, coach throws(SchedulingError) in try book.upcomingSessions(coach: coach, after: now, limit: limit) }
    }

    /// This coach's sessions that started before `now`, newest first, whatever their status.
    /// - Parameters:
    ///   - now: the instant to look back from.
    ///   - limit: the most to return.
    public func pastSessions(before now: Date = Date(), limit: Int = 50) async throws(SchedulingError) -> [Session] {
        try await run { book, coach throws(SchedulingError) in try book.pastSessions(coach: coach, before: now, limit: limit) }
    }

    /// One of this coach's clients' sessions, newest first (``SchedulingBook/history(client:coach:limit:)``):
    /// another coach's client is refused as an unknown one.
    /// - Parameters:
    ///   - client: the client.
    ///   - limit: the most to return.
    public func history(client: String, limit: Int = .max) async throws(SchedulingError) -> [Session] {
        try await run { book, coach throws(SchedulingError) in try book.history(client: client, coach: coach, limit: limit) }
    }

    /// This coach's free slots; see ``SchedulingBook/freeSlots(coach:from:through:length:step:alignedTo:notBefore:)``.
    /// - Parameters:
    ///   - first: the first date.
    ///   - last: the last date (included).
    ///   - length: each slot's length.
    ///   - step: the time between slot starts (default: `length`).
    ///   - alignedTo: a wall-clock grid every start is rounded up to.
    ///   - notBefore: leave out slots before this instant.
    public func freeSlots(
        from first: LocalDate, through last: LocalDate, length: Duration, step: Duration? = nil, alignedTo: Duration? = nil, notBefore: Date? = nil
    ) async throws(SchedulingError) -> [FreeSlot] {
        try await run { book, coach throws(SchedulingError) in
            try book.freeSlots(coach: coach, from: first, through: last, length: length, step: step, alignedTo: alignedTo, notBefore: notBefore)
        }
    }
}

/// What one client can see: their own sessions, and nothing of anyone else's.
public struct ClientDesk: Sendable {
    /// The client.
    public let clientID: String
    let scheduler: FrontDesk

    package func run<T: Sendable>(_ body: @escaping @Sendable (SchedulingBook, String) throws(SchedulingError) -> T) async throws(SchedulingError) -> T {
        let client = clientID
        return try await scheduler.perform { book throws(SchedulingError) in try body(book, client) }
    }

    /// The client's own record.
    public func client() async throws(SchedulingError) -> Client {
        try await run { book, id throws(SchedulingError) in try book.client(id) }
    }

    /// The client's sessions, by start, whatever their status.
    public func sessions() async throws(SchedulingError) -> [Session] {
        try await run { book, id throws(SchedulingError) in try book.sessions(client: id) }
    }

    /// The client's next scheduled sessions from `now`.
    /// - Parameters:
    ///   - now: the instant to look from.
    ///   - limit: the most to return.
    public func upcomingSessions(after now: Date = Date(), limit: Int = 10) async throws(SchedulingError) -> [Session] {
        let t = SchedulingBook.seconds(now)
        return try await run { book, id throws(SchedulingError) in
            Array(try book.sessions(client: id).filter { $0.status == .scheduled && book.instant(of: $0) >= t }.prefix(max(0, limit)))
        }
    }

    /// The client's sessions, newest first, whatever their status.
    /// - Parameter limit: the most to return.
    public func history(limit: Int = .max) async throws(SchedulingError) -> [Session] {
        try await run { book, id throws(SchedulingError) in try book.history(client: id, limit: limit) }
    }
}

/// What one member can do: book, cancel and see their own schedule.
public struct MemberDesk: Sendable {
    /// The member.
    public let memberID: String
    let scheduler: FrontDesk

    package func run<T: Sendable>(_ body: @escaping @Sendable (inout SchedulingBook, String) throws(SchedulingError) -> T) async throws(SchedulingError) -> T {
        let member = memberID
        return try await scheduler.perform { book throws(SchedulingError) in try body(&book, member) }
    }

    /// Books a place; see ``SchedulingBook/book(member:classID:on:now:whenFull:)``.
    /// - Parameters:
    ///   - classID: the class.
    ///   - date: the occurrence's date.
    ///   - now: the time of the request.
    ///   - whenFull: refuse, or join the waitlist.
    @discardableResult
    public func book(classID: String, on date: LocalDate, now: Date = Date(), whenFull: WhenFull = .refuse) async throws(SchedulingError) -> BookingOutcome {
        try await run { book, member throws(SchedulingError) in try book.book(member: member, classID: classID, on: date, now: now, whenFull: whenFull) }
    }

    /// Books every date of a class in a range, each reported; see
    /// ``SchedulingBook/bookStanding(member:classID:from:through:now:whenFull:)``.
    /// - Parameters:
    ///   - classID: the class.
    ///   - first: the first date.
    ///   - last: the last date, included.
    ///   - now: the time of the request.
    ///   - whenFull: refuse a full date, or join its waitlist.
    @discardableResult
    public func bookStanding(classID: String, from first: LocalDate, through last: LocalDate, now: Date = Date(),
                             whenFull: WhenFull = .refuse) async throws(SchedulingError) -> [StandingDate] {
        try await run { book, member throws(SchedulingError) in
            try book.bookStanding(member: member, classID: classID, from: first, through: last, now: now, whenFull: whenFull)
        }
    }

    /// Gives up every date of a class from one on; see
    /// ``SchedulingBook/cancelStanding(member:classID:from:now:)``.
    /// - Parameters:
    ///   - classID: the class.
    ///   - first: the first date given up.
    ///   - now: the time of the request.
    @discardableResult
    public func cancelStanding(classID: String, from first: LocalDate, now: Date = Date()) async throws(SchedulingError) -> [StandingDate] {
        try await run { book, member throws(SchedulingError) in try book.cancelStanding(member: member, classID: classID, from: first, now: now) }
    }

    /// Gives up a place or a place in the queue; see ``SchedulingBook/cancelBooking(member:classID:on:now:)``.
    /// - Parameters:
    ///   - classID: the class.
    ///   - date: the occurrence's date.
    ///   - now: the time of the request.
    @discardableResult
    public func cancel(classID: String, on date: LocalDate, now: Date = Date()) async throws(SchedulingError) -> Cancellation {
        try await run { book, member throws(SchedulingError) in try book.cancelBooking(member: member, classID: classID, on: date, now: now) }
    }

    /// The occurrences this member holds a place in.
    public func bookings() async throws(SchedulingError) -> [ClassOccurrence] {
        try await run { book, member throws(SchedulingError) in try book.bookings(member: member) }
    }

    /// Everything this member is in, with their place or waitlist position (``SchedulingBook/agenda(member:)``).
    public func agenda() async throws(SchedulingError) -> [MemberBooking] {
        try await run { book, member throws(SchedulingError) in try book.agenda(member: member) }
    }

    /// One week of the timetable with places left and this member's own places.
    /// - Parameters:
    ///   - date: any date in the week.
    ///   - firstWeekday: the day a week starts on.
    public func timetable(weekOf date: LocalDate, firstWeekday: Weekday = .monday) async throws(SchedulingError) -> [TimetableDate] {
        try await run { book, member throws(SchedulingError) in try book.timetable(weekOf: date, firstWeekday: firstWeekday, member: member) }
    }
}
