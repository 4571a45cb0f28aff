import CalendarCore
import Foundation

// Repeating sessions (issue 44, 1): a client who trains every Tuesday. The
// rule (an RRULE) is expanded when the series is booked, and each date is a
// session of its own (`Session.series` names the series), under every rule a
// session keeps — the coach's clients, hours, buffer and busy time, the
// client's other sessions, closures, the policy — booked or refused by date
// in one change, as a standing booking is. So one date is moved, cancelled,
// answered, completed or missed alone, with its own invitation and history,
// and "this and following" is a change of the series' sessions from a date.
// Docs/SchedulingICalendar.md says why a series of sessions rather than one
// recurring event.

/// What booking, moving or cancelling a repeating session did on one date.
public struct RepeatedSession: Hashable, Sendable {
    /// What happened to the date.
    public enum Outcome: Hashable, Sendable {
        /// Booked, moved or cancelled as asked: the session as it stands.
        case done(Session)
        /// Not done, and why: a clash, outside the coach's hours, the gym
        /// closed, too soon by the policy; the session (if any) is as it was.
        case refused(SchedulingError)
    }

    /// The date's session: the ID it was booked under (or would have been),
    /// or the one moved or left as it was.
    public var id: String
    /// When the date's session starts (as asked, for a refused one; its
    /// new start, for one moved).
    public var start: LocalDateTime
    /// How long it lasts (as asked, for a refused one).
    public var duration: Duration
    /// What happened.
    public var outcome: Outcome

    /// Creates a date's report.
    /// - Parameters:
    ///   - id: the date's session.
    ///   - start: when it starts.
    ///   - duration: how long it lasts.
    ///   - outcome: what happened.
    public init(id: String, start: LocalDateTime, duration: Duration, outcome: Outcome) {
        self.id = id
        self.start = start
        self.duration = duration
        self.outcome = outcome
    }

    /// The session, when it was done.
    public var session: Session? {
        if case .done(let session) = outcome { return session }
        return nil
    }
}

extension SchedulingBook {
    /// The most sessions a repeating session books at once, and the most
    /// days its last may be after its first: a year (a standing booking's span).
    public static let repeatingSessionMaxDays = 366

    /// Books a session of the coach with a client on every date a rule gives
    /// (`FREQ=WEEKLY;COUNT=8`), each as
    /// ``addSession(id:coach:client:start:duration:location:notes:color:workoutType:now:)``
    /// books one: a date that cannot be booked is reported with why, and the
    /// others are booked. Each session's ID is the series' with its date
    /// (`anna-tue-20261201`; with its time too when the rule meets twice a
    /// day), and ``Session/series`` names the series.
    ///
    /// ```swift
    /// let dates = try book.addRepeatingSession(series: "anna-tue", coach: "marc", client: "anna",
    ///                                          start: "2026-12-01T18:00", duration: .seconds(3600),
    ///                                          repeating: try RecurrenceRule(parsing: "FREQ=WEEKLY;COUNT=8"), now: now)
    /// print(dates.compactMap(\.session).count)   // 8, or fewer with the refused dates' reasons
    /// ```
    /// - Parameters:
    ///   - series: the series' ID; one is made up when `nil`.
    ///   - coachID: the coach.
    ///   - clientID: the coach's client.
    ///   - start: the first session's start, on the book's clocks; the rule
    ///     repeats it on the book's clocks (RFC 5545 §3.8.5.3: the first date
    ///     is this one, even where the rule itself would not give it). A wall
    ///     time the clocks skip on a date is refused as the book's ``policy``
    ///     says, as for one session.
    ///   - isLaterOfRepeatedTime: whether `start` is the second of two equal
    ///     wall times (the night the clocks go back); the later dates take
    ///     the first, as RFC 5545 reads a repeated wall time.
    ///   - duration: each session's length.
    ///   - rule: how it repeats. It must end (`COUNT`, or `UNTIL`: a date
    ///     means through that day on the book's clocks), give a date after
    ///     the first, repeat no more often than every minute, and book at
    ///     most ``repeatingSessionMaxDays`` sessions, the last within
    ///     ``repeatingSessionMaxDays`` days of the first.
    ///   - location: where.
    ///   - notes: the coach's notes, on each.
    ///   - color: the sessions' own colour.
    ///   - workoutType: the kind of workout.
    ///   - now: the time of the request, for the book's ``policy``.
    /// - Returns: each date the rule gives, in order.
    /// - Throws: an unknown coach or client, a series ID in use, a length,
    ///   colour or ID that no session may have, or a rule that does not end
    ///   in time (``SchedulingError/Field/rule``). Nothing is booked then.
    public mutating func addRepeatingSession(
        series: String? = nil, coach coachID: String, client clientID: String, start: LocalDateTime, isLaterOfRepeatedTime: Bool = false,
        duration: Duration, repeating rule: RecurrenceRule, location: String? = nil, notes: String? = nil, color: ItemColor? = nil,
        workoutType: String? = nil, now: Date = Date()
    ) throws(SchedulingError) -> [RepeatedSession] {
        let seriesID = series ?? Self.newID("series")
        try Self.checkID(seriesID, "series")
        _ = try client(clientID, coach: coachID)
        try Self.checkLength(duration, "a session")
        try Self.checkColor(color)
        if coachSessions.sessionsByID.values.contains(where: { $0.series == seriesID }) {
            throw .duplicateID(seriesID, kind: "series")
        }
        let walls = try repetitions(of: rule, from: start)
        // IDs by date, with the time where the rule meets more than once a day.
        var perDay: [LocalDate: Int] = [:]
        for wall in walls { perDay[wall.date, default: 0] += 1 }
        var dates: [RepeatedSession] = []
        for (i, wall) in walls.enumerated() {
            let id = seriesID + "-" + Self.compact(wall, withTime: perDay[wall.date, default: 0] > 1)
            var session = Session(id: id, coachID: coachID, clientID: clientID, start: wall, duration: duration, location: location, notes: notes,
                                  isLaterOfRepeatedTime: i == 0 && isLaterOfRepeatedTime, color: color, workoutType: workoutType)
            session.series = seriesID
            do {
                dates.append(RepeatedSession(id: id, start: wall, duration: duration, outcome: .done(try add(session, now: now))))
            } catch {
                dates.append(RepeatedSession(id: id, start: wall, duration: duration, outcome: .refused(error)))
            }
        }
        return dates
    }

    /// The sessions of a repeating session, by start, whatever their status.
    /// - Parameters:
    ///   - series: the series' ID.
    ///   - coachID: its coach.
    /// - Throws: ``SchedulingError/unknownCoach(_:)``; an unknown series is an empty list.
    public func sessions(series: String, coach coachID: String) throws(SchedulingError) -> [Session] {
        try sessions(coach: coachID).filter { $0.series == series }
    }

    /// Cancels one session of a repeating session and every later one
    /// still scheduled ("this and following"); the ones before stay.
    ///
    /// - Parameters:
    ///   - id: the first session to cancel, one of a series.
    ///   - coachID: its coach.
    ///   - now: the time of the request.
    /// - Returns: the sessions cancelled, by start.
    /// - Throws: ``SchedulingError/unknownSession(_:coach:)``,
    ///   ``SchedulingError/sessionNotScheduled(_:status:)`` for a first one
    ///   not scheduled, or ``SchedulingError/invalid(field:reason:)`` for a
    ///   session booked alone. Nothing is cancelled then.
    @discardableResult
    public mutating func cancelSessions(from id: String, coach coachID: String, now: Date = Date()) throws(SchedulingError) -> [Session] {
        let (first, following) = try thisAndFollowing(id, coach: coachID)
        var cancelled: [Session] = []
        for session in [first] + following where session.status == .scheduled {
            cancelled.append(try setStatus(.cancelled, ofSession: session.id, coach: coachID, now: now))
        }
        return cancelled
    }

    /// Moves one session of a repeating session to `start`, and every later
    /// one still scheduled by the same shift on the wall clock (from 18:00
    /// to 19:00 on Tuesdays, to Wednesdays, or a week on), each checked as
    /// ``moveSession(_:coach:to:duration:now:)`` checks one: a date that
    /// cannot move is reported and stays as it was. Moved later, the last
    /// moves first, so that a series moved on by its own step finds each
    /// date freed by the one before it.
    ///
    /// - Parameters:
    ///   - id: the first session to move, one of a series.
    ///   - coachID: its coach.
    ///   - start: its new start, on the book's clocks.
    ///   - isLaterOfRepeatedTime: whether `start` is the second of two equal
    ///     wall times; the others moved take the first.
    ///   - duration: the new length of each (`nil` keeps each one's).
    ///   - now: the time of the request, for the book's ``policy``.
    /// - Returns: each session, with its new start or why it stayed, by start.
    /// - Throws: as ``cancelSessions(from:coach:now:)``. Nothing is moved then.
    public mutating func moveSessions(from id: String, coach coachID: String, to start: LocalDateTime, isLaterOfRepeatedTime: Bool = false,
                                      duration: Duration? = nil, now: Date = Date()) throws(SchedulingError) -> [RepeatedSession] {
        let (first, following) = try thisAndFollowing(id, coach: coachID)
        if let duration { try Self.checkLength(duration, "a session") }
        // The shift on the wall clock: the same days and time of day for each.
        let shift = start.localSeconds - first.start.localSeconds
        let sessions = ([first] + following).filter { $0.status == .scheduled }
        var dates: [String: RepeatedSession] = [:]
        for session in shift > 0 ? sessions.reversed() : sessions {
            let moved = LocalDateTime(localSeconds: session.start.localSeconds + shift)
            let length = duration ?? session.duration
            do {
                let new = try move(session.id, coach: coachID, to: (moved, session.id == first.id && isLaterOfRepeatedTime), duration: duration, now: now)
                dates[session.id] = RepeatedSession(id: session.id, start: moved, duration: length, outcome: .done(new))
            } catch {
                dates[session.id] = RepeatedSession(id: session.id, start: moved, duration: length, outcome: .refused(error))
            }
        }
        return sessions.compactMap { dates[$0.id] }
    }

    /// A session of a series, and the later ones of the same series.
    private func thisAndFollowing(_ id: String, coach coachID: String) throws(SchedulingError) -> (Session, [Session]) {
        let first = try session(id, coach: coachID)
        guard let series = first.series else {
            throw .invalid(field: .id, reason: "session ‘\(id)’ was booked alone, not as one of a repeating session; change it by itself")
        }
        guard first.status == .scheduled else { throw .sessionNotScheduled(id, status: first.status) }
        let start = instant(of: first)
        let later = coachSessions.byStart(coachSessions.sessions(coach: coachID).filter { $0.series == series && $0.id != id })
            .filter { $0.start > start }.map(\.session)
        return (first, later)
    }

    /// The wall times a rule gives from `start`, on the book's clocks: the
    /// times the rule produced (its recurrence IDs), so that one the clocks
    /// skip is refused or moved by the policy, as a single session's is.
    private func repetitions(of rule: RecurrenceRule, from start: LocalDateTime) throws(SchedulingError) -> [LocalDateTime] {
        let max = Self.repeatingSessionMaxDays
        var rule = rule
        switch rule.until {
        case nil:
            guard rule.count != nil else {
                throw .invalid(field: .rule, reason: "a repeating session needs an end: add COUNT (COUNT=8) or UNTIL (UNTIL=20270331, through that day), within a year of the first")
            }
        // RFC 5545 wants a UTC UNTIL under a zoned start; a date or a wall
        // time is what a person types: read on the book's clocks.
        case .date(let last)?:
            rule.until = .utc(LocalDateTime(localSeconds: instant(LocalDateTime(localSeconds: Int64(last.dayNumber + 1) * 86_400)) - 1))
        case .floating(let wall)?, .zoned(let wall, _)?:
            rule.until = .utc(LocalDateTime(localSeconds: instant(wall)))
        case .utc?:
            break
        }
        if rule.frequency == .secondly {
            throw .invalid(field: .rule, reason: "‘\(rule.icalValue)’ repeats by the second; a session repeats every minute at most")
        }
        if let until = rule.until, let last = try? until.epochSeconds(floatingZone: .utc), last < instant(start) {
            throw .invalid(field: .rule, reason: "‘\(rule.icalValue)’ ends before the first session, \(start.date) \(String(format: "%02d:%02d", start.hour, start.minute))")
        }
        let set = RecurrenceSet(start: .zoned(start, timeZone.identifier), rules: [rule])
        let instances: [RecurrenceSet.Instance]
        do throws(RecurrenceRuleError) { try set.validate() } catch {
            throw .invalid(field: .rule, reason: error.message)
        }
        do throws(RecurrenceError) {
            instances = try set.instances(limit: max + 1, floatingZone: timeZone)
        } catch {
            throw .invalid(field: .rule, reason: "‘\(rule.icalValue)’: \(error.message)")
        }
        let walls = instances.map(\.recurrenceID.wallTime)
        if walls.count > max {
            throw .invalid(field: .rule, reason: "‘\(rule.icalValue)’ books more than \(max) sessions; end it sooner and book the next part later")
        }
        if let last = walls.last, last.date.dayNumber - start.date.dayNumber > max {
            throw .invalid(field: .rule, reason: "‘\(rule.icalValue)’ runs to \(last.date), more than a year after the first session (\(max) days at most); end it sooner and book the next part later")
        }
        if walls.count == 1, rule.count.map({ $0 > 1 }) ?? true {
            throw .invalid(field: .rule, reason: "‘\(rule.icalValue)’ gives no date after the first; check its BYDAY, BYMONTHDAY or BYMONTH, and its end")
        }
        return walls
    }

    /// `20261201`, or `20261201T1800`.
    private static func compact(_ wall: LocalDateTime, withTime: Bool) -> String {
        withTime ? String(wall.basicISO.prefix(13)) : wall.date.basicISO
    }
}
