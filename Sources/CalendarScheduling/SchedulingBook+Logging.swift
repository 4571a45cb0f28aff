import CalendarCore
import Foundation

// Trainings recorded after the fact (issue 44, 3).
//
// Gorilla Coach's hands-free mode records a workout once it is over, and a
// coach who trained a client with no phone at hand logs it that evening.
// Booking such a session was refused (a start in the past), and marking one
// completed always recorded "now". A logged session is a record of what took
// place: it must have ended by the time it is logged, it is completed from
// the start (by default when it ended), and it may not overlap another
// session of the coach or of the client, which would record one person in
// two places at once. The rules for booking time still to come — the
// coach's buffer and hours, the gym's hours and closures, the notice — do
// not apply to the past, and nobody is invited to it.

extension SchedulingBook {
    /// Records a training that already took place, with no session booked
    /// for it, as completed.
    ///
    /// ```swift
    /// var book = SchedulingBook(timeZone: try .named("Europe/Madrid"))
    /// try book.addCoach(Coach(id: "marc", name: "Marc Soler"))
    /// try book.addClient(Client(id: "anna", coachID: "marc", name: "Anna Puig"))
    /// let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18 12:06 in Madrid
    /// let logged = try book.logSession(coach: "marc", client: "anna", start: "2026-11-17T19:00", duration: .seconds(2700),
    ///                                  workoutType: "Strength", now: now)
    /// print(logged.status)  // completed
    /// ```
    /// - Parameters:
    ///   - id: the session's ID; one is made up when `nil`.
    ///   - coachID: the coach, who must have `clientID` as a client.
    ///   - clientID: the client.
    ///   - start: when it started, on the book's clocks.
    ///   - duration: how long it lasted, in whole minutes up to 24 hours.
    ///   - location: where.
    ///   - notes: what the coach keeps with it (the results, say).
    ///   - color: its own colour (not of the red family).
    ///   - workoutType: the kind of workout.
    ///   - completedAt: when it was completed; by default when it ended.
    ///     From its start to `now`.
    ///   - now: the time of the request: the session must have ended by then.
    /// - Returns: the session as recorded, ``SessionStatus/completed``.
    /// - Throws: ``SchedulingError/invalid(field:reason:)`` for a session
    ///   that has not ended by `now` (``SchedulingError/Field/start``) or a
    ///   `completedAt` outside its start to `now`;
    ///   ``SchedulingError/clash(_:)`` naming a session of the coach or the
    ///   client it overlaps (cancelled ones aside; the coach's buffer and
    ///   their busy time elsewhere do not count); a start the clocks
    ///   skipped; an unknown coach or client, a taken ID, an impossible
    ///   length. The book is left as it was.
    @discardableResult
    public mutating func logSession(
        id: String? = nil, coach coachID: String, client clientID: String, start: LocalDateTime, duration: Duration,
        location: String? = nil, notes: String? = nil, color: ItemColor? = nil, workoutType: String? = nil,
        completedAt: Date? = nil, now: Date = Date()
    ) throws(SchedulingError) -> Session {
        try log(Session(id: id ?? Self.newID("session"), coachID: coachID, clientID: clientID, start: start, duration: duration,
                        location: location, notes: notes, color: color, workoutType: workoutType), completedAt: completedAt, now: now)
    }

    /// Records a training that already took place, starting at an instant
    /// (the second of two equal wall times, the night the clocks go back,
    /// as that); otherwise as
    /// ``logSession(id:coach:client:start:duration:location:notes:color:workoutType:completedAt:now:)``.
    /// - Parameters:
    ///   - id: the session's ID; one is made up when `nil`.
    ///   - coachID: the coach.
    ///   - clientID: the coach's client.
    ///   - instant: when it started.
    ///   - duration: how long it lasted.
    ///   - location: where.
    ///   - notes: the coach's notes.
    ///   - color: its own colour.
    ///   - workoutType: the kind of workout.
    ///   - completedAt: when it was completed; by default when it ended.
    ///   - now: the time of the request: the session must have ended by then.
    @discardableResult
    public mutating func logSession(
        id: String? = nil, coach coachID: String, client clientID: String, startingAt instant: Date, duration: Duration,
        location: String? = nil, notes: String? = nil, color: ItemColor? = nil, workoutType: String? = nil,
        completedAt: Date? = nil, now: Date = Date()
    ) throws(SchedulingError) -> Session {
        let (wall, later) = reading(Self.seconds(instant))
        return try log(Session(id: id ?? Self.newID("session"), coachID: coachID, clientID: clientID, start: wall, duration: duration,
                               location: location, notes: notes, isLaterOfRepeatedTime: later, color: color, workoutType: workoutType),
                       completedAt: completedAt, now: now)
    }

    /// Checks a logged session and places it, completed.
    private mutating func log(_ session: Session, completedAt: Date?, now: Date) throws(SchedulingError) -> Session {
        var session = session
        let (coachID, start, duration) = (session.coachID, session.start, session.duration)
        try Self.checkID(session.id, "session")
        _ = try client(session.clientID, coach: people.coach(coachID).id)
        try coachSessions.checkNew(session.id)
        try Self.checkColor(session.color)
        try Self.checkLength(session.duration, "a session")
        let begins = instant(of: session), ends = begins + duration.components.seconds
        let asked = Self.seconds(now)
        guard ends <= asked else {
            let when = begins > asked ? "has not started" : "is still going on"
            throw .invalid(field: .start, reason: "a logged session is one that took place; this one (\(CoachSessions.said(start)), \(duration.components.seconds / 60) min) \(when) at \(CoachSessions.said(wall(asked))) (\(timeZone.identifier) time); a session still to come is booked, not logged")
        }
        // A wall time the clocks skipped never happened, in the past as in the future.
        if case .skipped = timeZone.reading(ofWall: start.localSeconds) {
            throw .invalid(field: .start, reason: "\(CoachSessions.said(start)) does not exist in \(timeZone.identifier): the clocks skipped it; give the time the session really started")
        }
        session.status = .completed
        session.completedAt = Date(timeIntervalSince1970: TimeInterval(ends))
        if let completedAt {
            try coachSessions.checkCompletedAt(completedAt, of: session, now: now, what: "the logged session")
            session.completedAt = completedAt
        }
        try coachSessions.place(session, start: begins, end: ends, buffer: 0, replacing: nil, elsewhere: false)
        return session
    }
}
