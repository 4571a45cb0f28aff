import CalendarCore
import Foundation

/// The coaches' sessions with their clients: each coach's timeline, with
/// clashes, statuses, the history and the free slots between them.
///
/// One aspect of a ``SchedulingBook`` (``SchedulingBook/coachSessions``),
/// read through it; the book changes it, after checking a new or moved
/// session against its coach's clients, hours and buffer and the book's
/// policy. Every read names the coach (or the client) whose sessions it
/// returns, and none returns another's.
package struct CoachSessions: Sendable {
    /// The clocks the sessions' wall times are on.
    let zone: ZoneRules
    package private(set) var sessionsByID: [String: Session] = [:]
    /// Per coach, the sessions that hold their time, by start.
    private(set) var timelines: [String: Timeline] = [:]
    /// Per coach, the time they are busy elsewhere (FreeBusy.swift): merged, by start; not saved.
    package internal(set) var elsewhere: [String: [FreeBusyPeriod]] = [:]

    init(zone: ZoneRules) { self.zone = zone }
}

// MARK: - Reading

extension CoachSessions {
    /// One of the coach's sessions.
    /// - Parameters:
    ///   - id: the session.
    ///   - coachID: its coach.
    /// - Throws: ``SchedulingError/unknownSession(_:coach:)``, also for another coach's session.
    package func session(_ id: String, coach coachID: String) throws(SchedulingError) -> Session {
        guard let s = sessionsByID[id], s.coachID == coachID else { throw .unknownSession(id, coach: coachID) }
        return s
    }

    /// The coach's sessions (of one of their clients, if named), by start.
    /// - Parameters:
    ///   - coachID: the coach.
    ///   - clientID: one of the coach's clients, or `nil` for all.
    package func sessions(coach coachID: String, client clientID: String? = nil) -> [Session] {
        byStart(sessionsByID.values.filter { $0.coachID == coachID && (clientID == nil || $0.clientID == clientID) }).map(\.session)
    }

    /// A client's sessions, by start, whatever their status.
    /// - Parameter client: the client (of their coach).
    package func sessions(of client: Client) -> [Session] {
        byStart(sessionsByID.values.filter { ClientKey($0) == ClientKey(client) }).map(\.session)
    }

    /// Sessions with their start instants, by start then ID; each instant is
    /// computed once, not in every comparison.
    package func byStart(_ sessions: some Sequence<Session>) -> [(start: Int64, session: Session)] {
        sessions.map { (zone.instant(of: $0), $0) }.sorted { ($0.start, $0.session.id) < ($1.start, $1.session.id) }
    }

    /// The coach's next scheduled sessions that start at or after `now`, soonest first.
    /// - Parameters:
    ///   - coachID: the coach.
    ///   - now: the instant to look from.
    ///   - limit: the most to return.
    package func upcomingSessions(coach coachID: String, after now: Date, limit: Int = 10) -> [Session] {
        guard let line = timelines[coachID], limit > 0 else { return [] }
        let from = line.firstIndex(startingAtOrAfter: SchedulingBook.seconds(now))
        return line.entries[from...].lazy.compactMap { sessionsByID[$0.id] }.filter { $0.status == .scheduled }.prefix(limit).map { $0 }
    }

    /// The coach's sessions that started before `now`, whatever their status, newest first.
    /// - Parameters:
    ///   - coachID: the coach.
    ///   - now: the instant to look back from.
    ///   - limit: the most to return.
    package func pastSessions(coach coachID: String, before now: Date, limit: Int = 50) -> [Session] {
        let t = SchedulingBook.seconds(now)
        let past = byStart(sessionsByID.values.filter { $0.coachID == coachID }).filter { $0.start < t }
        return past.reversed().prefix(max(0, limit)).map(\.session)
    }

    /// The session in the way of one that would hold [start, end) (the
    /// coach's buffer counts), the earliest if several, ignoring `ignoring`.
    func clash(with session: Session, start: Int64, end: Int64, buffer: Int64, ignoring: Session?) -> SessionClash? {
        // A client has one coach, so the coach's timeline holds every session
        // of the client too: one search finds both kinds of clash.
        guard let hit = timelines[session.coachID]?.overlapping(start, end, buffer: buffer).first(where: { $0.id != ignoring?.id }),
              let existing = sessionsByID[hit.id] else { return nil }
        return SessionClash(existing: existing, reason: existing.clientID == session.clientID ? .client : .coach, buffer: .seconds(buffer),
                            end: zone.wall(hit.end))
    }
}

// MARK: - Free slots

extension CoachSessions {
    /// The coach's free slots of a length between two dates (both included);
    /// see ``SchedulingBook/freeSlots(coach:from:through:length:step:alignedTo:notBefore:)``.
    /// - Parameters:
    ///   - coach: the coach, with their hours and buffer.
    ///   - first: the first date.
    ///   - last: the last date (included).
    ///   - length: each slot's length, in whole minutes.
    ///   - step: the time between the starts of offered slots (default: `length`).
    ///   - grid: a grid every start is rounded up to, on the wall clock.
    ///   - notBefore: leave out slots that start before this instant.
    /// - Throws: a length, step or grid outside 1 minute to 24 hours.
    package func freeSlots(
        coach: Coach, from first: LocalDate, through last: LocalDate, length: Duration, step: Duration? = nil,
        alignedTo grid: Duration? = nil, notBefore: Date? = nil
    ) throws(SchedulingError) -> [FreeSlot] {
        try SchedulingBook.checkLength(length, "a slot")
        try SchedulingBook.checkLength(step ?? length, "a step")
        if let grid { try SchedulingBook.checkLength(grid, "an alignment") }
        let offer = SlotOffer(zone: zone, length: length.components.seconds, stride: (step ?? length).components.seconds,
                              grid: grid?.components.seconds, earliest: notBefore.map(SchedulingBook.seconds) ?? .min)
        let buffer = coach.buffer.components.seconds
        let line = timelines[coach.id] ?? Timeline()
        var slots: [FreeSlot] = []
        var day = first.dayNumber
        while day <= last.dayNumber {
            let date = LocalDate(dayNumber: day)
            for range in coach.workingHours.hours(on: date) {
                let open = zone.instant(range.start.on(date)), close = zone.instant(range.end.on(date))
                var cursor = open
                var taken = line.overlapping(open, close, buffer: buffer).map { (start: $0.start, end: $0.end) }
                taken += busyElsewhere(coach.id, open, close, buffer: buffer).map { (start: $0.start, end: $0.end) }
                for busy in taken.sorted(by: { $0.start < $1.start }) {
                    if busy.start - buffer > cursor { offer.slots(cursor, busy.start - buffer, into: &slots) }
                    cursor = max(cursor, busy.end + buffer)
                }
                if cursor < close { offer.slots(cursor, close, into: &slots) }
            }
            day += 1
        }
        return slots
    }
}

/// How a free stretch is cut into slots.
private struct SlotOffer {
    let zone: ZoneRules
    let length: Int64
    let stride: Int64
    let grid: Int64?
    let earliest: Int64

    /// Appends the slots that fit whole in [from, to).
    func slots(_ from: Int64, _ to: Int64, into slots: inout [FreeSlot]) {
        var t = from
        if let g = grid {
            // Round the wall reading up to the grid; the offset is the same
            // for the seconds of rounding (a change of clocks inside them
            // is not a case a coach's day meets).
            let w = zone.wall(atInstant: t)
            let r = ((w % g) + g) % g
            if r != 0 { t += g - r }
        }
        while t + length <= to {
            if t >= earliest {
                slots.append(FreeSlot(start: zone.wall(t), end: zone.wall(t + length), startSeconds: t, endSeconds: t + length))
            }
            t += stride
        }
    }
}

// MARK: - Changing

extension CoachSessions {
    /// Refuses an ID another session has.
    func checkNew(_ id: String) throws(SchedulingError) {
        guard sessionsByID[id] == nil else { throw .duplicateID(id, kind: "session") }
    }

    /// Stores a session that holds [start, end), in place of `old` if given,
    /// unless a session is in its way.
    /// - Parameter elsewhere: whether the coach's busy time elsewhere counts
    ///   (not for a session logged after the fact: their own calendar holds
    ///   that very workout, most likely).
    mutating func place(_ session: Session, start: Int64, end: Int64, buffer: Int64, replacing old: Session?, elsewhere: Bool = true) throws(SchedulingError) {
        if let clash = clash(with: session, start: start, end: end, buffer: buffer, ignoring: old) { throw .clash(clash) }
        if elsewhere, let busy = busyElsewhere(session.coachID, start, end, buffer: buffer).first {
            throw .busyElsewhere(coach: session.coachID, start: zone.wall(busy.start), end: zone.wall(busy.end), buffer: .seconds(buffer))
        }
        if let old { timelines[old.coachID]?.remove(id: old.id, start: zone.instant(of: old)) }
        sessionsByID[session.id] = session
        timelines[session.coachID, default: Timeline()].insert(.init(start: start, end: end, id: session.id))
    }

    /// Stores a session as read, with no clash check.
    mutating func restore(_ s: Session) throws(SchedulingError) {
        try checkNew(s.id)
        try SchedulingBook.checkLength(s.duration, "session ‘\(s.id)’")
        sessionsByID[s.id] = s
        if s.holdsTime {
            let start = zone.instant(of: s)
            timelines[s.coachID, default: Timeline()].insert(.init(start: start, end: start + s.duration.components.seconds, id: s.id))
        }
    }

    /// Sets the sequence of a session (Notices.swift); it changes nothing a clash check reads.
    /// - Parameter askedAgain: whether the client is asked anew (their last answer no longer holds).
    mutating func setSequence(_ sequence: Int, ofSession id: String, askedAgain: Bool) {
        sessionsByID[id]?.sequence = sequence
        if askedAgain {
            sessionsByID[id]?.answer = nil
            sessionsByID[id]?.answeredAt = nil
        }
    }

    /// Records the client's answer (Notices.swift); it changes nothing a clash check reads.
    mutating func setAnswer(_ answer: AttendeeAnswer, at time: Date?, ofSession id: String) {
        sessionsByID[id]?.answer = answer
        sessionsByID[id]?.answeredAt = time
    }

    mutating func edit(_ id: String, coach coachID: String, location: String?, notes: String?) throws(SchedulingError) -> Session {
        var s = try session(id, coach: coachID)
        s.location = location
        s.notes = notes
        sessionsByID[id] = s
        return s
    }

    mutating func style(_ id: String, coach coachID: String, color: ItemColor?, workoutType: String?) throws(SchedulingError) -> Session {
        var s = try session(id, coach: coachID)
        try SchedulingBook.checkColor(color)
        s.color = color
        s.workoutType = workoutType
        sessionsByID[id] = s
        return s
    }

    mutating func setStatus(_ status: SessionStatus, ofSession id: String, coach coachID: String, now: Date, completedAt: Date?) throws(SchedulingError) -> Session {
        var s = try session(id, coach: coachID)
        if let completedAt {
            guard status == .completed else {
                throw .invalid(field: .completedAt, reason: "only a completed session has a time it was completed; session ‘\(id)’ is being marked \(status.rawValue)")
            }
            try checkCompletedAt(completedAt, of: s, now: now)
        }
        switch status {
        case .scheduled:
            guard s.status != .scheduled else { return s }
            guard s.status != .cancelled else { throw .sessionNotScheduled(id, status: s.status) }
        case .completed where s.status == .completed && completedAt != nil:
            // A completed session's time is corrected (issue 44, 3): only its completedAt changes.
            break
        case .completed, .noShow:
            guard s.status == .scheduled else { throw .sessionNotScheduled(id, status: s.status) }
            guard SchedulingBook.seconds(now) >= zone.instant(of: s) else { throw .sessionNotStarted(id, start: s.start) }
        case .cancelled:
            guard s.status == .scheduled else { throw .sessionNotScheduled(id, status: s.status) }
            timelines[coachID]?.remove(id: id, start: zone.instant(of: s))
        }
        s.status = status
        // The moment it was marked: "when the client last trained" reads it.
        s.completedAt = status == .completed ? completedAt ?? now : nil
        sessionsByID[id] = s
        return s
    }

    /// Refuses a time a session was completed at that is before it started
    /// or after now.
    /// - Parameter what: the session as the reason names it.
    func checkCompletedAt(_ at: Date, of s: Session, now: Date, what: String? = nil) throws(SchedulingError) {
        let t = SchedulingBook.seconds(at), start = zone.instant(of: s)
        let what = what ?? "session ‘\(s.id)’"
        guard t >= start else {
            throw .invalid(field: .completedAt, reason: "\(what) started at \(Self.said(s.start)); it cannot have been completed before that, at \(Self.said(zone.wall(t))) (\(zone.identifier) time)")
        }
        guard t <= SchedulingBook.seconds(now) else {
            throw .invalid(field: .completedAt, reason: "\(what) cannot have been completed at \(Self.said(zone.wall(t))), which is still to come (now is \(Self.said(zone.wall(SchedulingBook.seconds(now)))), \(zone.identifier) time)")
        }
    }

    /// A wall time as a reason says it: `2026-11-17 19:45`.
    static func said(_ wall: LocalDateTime) -> String {
        "\(wall.date) \(wall.hour < 10 ? "0" : "")\(wall.hour):\(wall.minute < 10 ? "0" : "")\(wall.minute)"
    }

    mutating func remove(_ id: String, coach coachID: String) throws(SchedulingError) -> Session {
        let s = try session(id, coach: coachID)
        if s.holdsTime { timelines[coachID]?.remove(id: id, start: zone.instant(of: s)) }
        sessionsByID[id] = nil
        return s
    }

    /// Forgets a removed coach's timeline (empty: they had no clients left).
    mutating func forgetCoach(_ id: String) { timelines[id] = nil }
}

/// One coach's time-holding sessions, sorted by start, for clash and free-slot
/// searches in O(log n + k) rather than over every session.
struct Timeline: Sendable {
    struct Entry: Sendable {
        var start: Int64
        var end: Int64
        var id: String
    }

    private(set) var entries: [Entry] = []
    /// The longest entry ever held: entries that can reach a time start at most this much before it.
    private(set) var longest: Int64 = 0

    /// The index of the first entry that starts at or after `t`.
    func firstIndex(startingAtOrAfter t: Int64) -> Int {
        var lo = 0, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if entries[mid].start < t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The entries that overlap [start, end) once each is widened by `buffer` on both sides.
    func overlapping(_ start: Int64, _ end: Int64, buffer: Int64) -> some Sequence<Entry> {
        let from = firstIndex(startingAtOrAfter: start - buffer - longest)
        return entries[from...].lazy.prefix { $0.start < end + buffer }.filter { start < $0.end + buffer }
    }

    mutating func insert(_ e: Entry) {
        let i = firstIndex(startingAtOrAfter: e.start)
        entries.insert(e, at: i)
        longest = max(longest, e.end - e.start)
    }

    mutating func remove(id: String, start: Int64) {
        var i = firstIndex(startingAtOrAfter: start)
        while i < entries.count, entries[i].start == start {
            if entries[i].id == id {
                entries.remove(at: i)
                return
            }
            i += 1
        }
    }
}

// MARK: - The book's calls on its sessions, forwarded

extension SchedulingBook {
    /// Records a client's answer to the invitation to one of their sessions
    /// (an iTIP `REPLY`, read by `SchedulingICalendar`): the coach sees it
    /// (``Session/answer``); a declined session keeps its time until the
    /// coach cancels or moves it.
    /// - Parameters:
    ///   - answer: accepted, declined or tentative.
    ///   - id: the session.
    ///   - coachID: its coach.
    ///   - time: when the client answered (their reply's `DTSTAMP`), if known (``Session/answeredAt``).
    /// - Returns: the session with the answer.
    /// - Throws: ``SchedulingError/unknownSession(_:coach:)``.
    public mutating func recordAnswer(_ answer: AttendeeAnswer, ofSession id: String, coach coachID: String, answeredAt time: Date? = nil) throws(SchedulingError) -> Session {
        _ = try coachSessions.session(id, coach: coachID)
        coachSessions.setAnswer(answer, at: time, ofSession: id)
        return try coachSessions.session(id, coach: coachID)
    }

    /// Changes a session's place, notes or both (its time through ``moveSession(_:coach:to:duration:now:)``).
    /// - Parameters:
    ///   - id: the session.
    ///   - coachID: its coach.
    ///   - location: the new place (`nil` for none).
    ///   - notes: the new notes (`nil` for none).
    /// - Throws: ``SchedulingError/unknownSession(_:coach:)``.
    @discardableResult
    public mutating func editSession(_ id: String, coach coachID: String, location: String?, notes: String?) throws(SchedulingError) -> Session {
        try coachSessions.edit(id, coach: people.coach(coachID).id, location: location, notes: notes)
    }

    /// Sets a session's own colour (`nil`: the client's, else the coach's) and workout type.
    /// - Parameters:
    ///   - id: the session.
    ///   - coachID: its coach.
    ///   - color: its own colour, not of the red family.
    ///   - workoutType: the kind of workout.
    /// - Throws: ``SchedulingError/unknownSession(_:coach:)``, or a colour of the red family.
    @discardableResult
    public mutating func styleSession(_ id: String, coach coachID: String, color: ItemColor?, workoutType: String?) throws(SchedulingError) -> Session {
        try coachSessions.style(id, coach: people.coach(coachID).id, color: color, workoutType: workoutType)
    }

    /// Marks a scheduled session completed, cancelled or a no-show, or
    /// undoes a mark (`.scheduled`).
    ///
    /// A session is completed, or its client did not show, only once it has
    /// started: marked days ahead, it vanished from the coach's upcoming
    /// sessions (issue 28, 6). A mark is undone by setting `.scheduled`
    /// again; a cancelled session freed its time, which another session may
    /// hold now, so it is booked anew rather than undone.
    ///
    /// - Parameters:
    ///   - status: the new status.
    ///   - id: the session.
    ///   - coachID: the coach whose session it is.
    ///   - now: the current time, which a completed or no-show session must have reached.
    ///   - completedAt: for `.completed`, when the session really ended, if
    ///     not `now` (a training marked the next morning): from its start
    ///     to `now`. ``Session/completedAt`` keeps it; history shows it. A
    ///     session completed already takes a corrected time this way.
    /// - Throws: ``SchedulingError/unknownSession(_:coach:)``,
    ///   ``SchedulingError/sessionNotScheduled(_:status:)`` when it was already
    ///   settled (or, for `.scheduled`, cancelled),
    ///   ``SchedulingError/sessionNotStarted(_:start:)`` for a mark before its start,
    ///   ``SchedulingError/invalid(field:reason:)`` (``SchedulingError/Field/completedAt``)
    ///   for a `completedAt` before the start, after `now`, or with another status.
    @discardableResult
    public mutating func setStatus(_ status: SessionStatus, ofSession id: String, coach coachID: String, now: Date, completedAt: Date? = nil) throws(SchedulingError) -> Session {
        try coachSessions.setStatus(status, ofSession: id, coach: people.coach(coachID).id, now: now, completedAt: completedAt)
    }

    /// Removes one of a coach's sessions for good (its time is free again).
    ///
    /// Cancel it with ``setStatus(_:ofSession:coach:now:completedAt:)`` instead to keep it in
    /// the client's history.
    /// - Parameters:
    ///   - id: the session.
    ///   - coachID: its coach.
    /// - Returns: the session that was removed.
    /// - Throws: ``SchedulingError/unknownSession(_:coach:)``.
    @discardableResult
    public mutating func removeSession(_ id: String, coach coachID: String) throws(SchedulingError) -> Session {
        try coachSessions.remove(id, coach: people.coach(coachID).id)
    }

    /// One of the coach's sessions.
    /// - Parameters:
    ///   - id: the session.
    ///   - coachID: its coach.
    /// - Throws: ``SchedulingError/unknownSession(_:coach:)``, also for another coach's session.
    public func session(_ id: String, coach coachID: String) throws(SchedulingError) -> Session {
        try coachSessions.session(id, coach: people.coach(coachID).id)
    }

    /// The coach's next scheduled sessions that start at or after `now`, soonest first.
    /// - Parameters:
    ///   - coachID: the coach.
    ///   - now: the instant to look from.
    ///   - limit: the most to return.
    /// - Throws: ``SchedulingError/unknownCoach(_:)``.
    public func upcomingSessions(coach coachID: String, after now: Date, limit: Int = 10) throws(SchedulingError) -> [Session] {
        coachSessions.upcomingSessions(coach: try people.coach(coachID).id, after: now, limit: limit)
    }

    /// The coach's sessions that started before `now`, whatever their status, newest first.
    /// - Parameters:
    ///   - coachID: the coach.
    ///   - now: the instant to look back from.
    ///   - limit: the most to return.
    /// - Throws: ``SchedulingError/unknownCoach(_:)``.
    public func pastSessions(coach coachID: String, before now: Date, limit: Int = 50) throws(SchedulingError) -> [Session] {
        coachSessions.pastSessions(coach: try people.coach(coachID).id, before: now, limit: limit)
    }

    /// The coach's free slots of a length between two dates (both included).
    ///
    /// Free time is the coach's working hours on each date (a date's
    /// exception, or its weekday's hours) minus every session that holds
    /// time, widened by the coach's buffer on both sides. Each free stretch
    /// offers slots that fit whole, `step` apart (by default the slot's
    /// length); with `alignedTo`, every slot starts on a multiple of it
    /// counted from the wall clock's midnight (`.minutes(15)`: :00, :15,
    /// :30, :45), so a stretch that opens at 17:55 offers 18:00, not 17:55.
    ///
    /// - Parameters:
    ///   - coachID: the coach.
    ///   - first: the first date.
    ///   - last: the last date (included).
    ///   - length: each slot's length, in whole minutes.
    ///   - step: the time between the starts of offered slots (default: `length`).
    ///   - grid: a grid every start is rounded up to, on the wall clock.
    ///   - notBefore: leave out slots that start before this instant (pass `now`).
    /// - Throws: ``SchedulingError/unknownCoach(_:)``, a length, step or grid outside 1 minute to 24 hours.
    public func freeSlots(
        coach coachID: String, from first: LocalDate, through last: LocalDate, length: Duration, step: Duration? = nil,
        alignedTo grid: Duration? = nil, notBefore: Date? = nil
    ) throws(SchedulingError) -> [FreeSlot] {
        try coachSessions.freeSlots(coach: people.coach(coachID), from: first, through: last, length: length, step: step, alignedTo: grid, notBefore: notBefore)
    }
}
