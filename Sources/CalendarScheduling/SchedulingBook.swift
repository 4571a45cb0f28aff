import CalendarCore
import Foundation

/// The scheduling records of one gym: coaches with their clients and
/// sessions, members, and classes with their bookings and waitlists.
///
/// A value with the rules in its methods: every change either keeps every
/// rule or throws a ``SchedulingError`` and leaves the book as it was. A
/// coach's data is reached only through calls that name the coach, and none
/// of them returns or changes another coach's clients or sessions — to a
/// coach, another coach's client does not exist. Share a book between tasks
/// through ``Scheduler``; save it with the calendar file through
/// SchedulingICalendar (`calendar.setScheduling(book)`).
///
/// All wall times are on the clocks of the book's ``timeZone``. A book is
/// `Codable` (its JSON form is described in the CalendarScheduling article
/// "Saving a book"), so an app can keep it without iCalendar.
///
/// ```swift
/// var book = SchedulingBook(timeZone: try .named("Europe/Madrid"))
/// try book.addCoach(Coach(id: "marc", name: "Marc Soler"))
/// try book.addClient(Client(id: "anna", coachID: "marc", name: "Anna Puig"))
/// let session = try book.addSession(coach: "marc", client: "anna", start: "2026-11-26T18:00", duration: .minutes(60))
/// ```
public struct SchedulingBook: Sendable {
    /// The zone whose clocks the book's wall times are on.
    public let timeZone: ZoneRules
    package var zone: ZoneRules { timeZone }
    /// The rules every new or moved session must keep besides clashes;
    /// `nil` (the default) for none.
    public var policy: SchedulingPolicy?

    /// The coaches with their hours, their clients, and the members.
    public internal(set) var people = PeopleDirectory()
    package var sessionsByID: [String: Session] = [:]
    /// Per coach, the sessions that hold their time, by start.
    var timelines: [String: Timeline] = [:]
    package var classesByID: [String: ClassSeries] = [:]
    package var rosters: [ClassOccurrence.ID: Roster] = [:]
    /// Per member, the occurrences they hold a place in or wait for.
    package var occurrencesByMember: [String: Set<ClassOccurrence.ID>] = [:]

    /// Creates an empty book on a zone's clocks.
    /// - Parameters:
    ///   - timeZone: the zone, such as `try .named("Europe/Madrid")` or `.of(TimeZone.current)`.
    ///   - policy: the rules new sessions must keep, if any.
    public init(timeZone: ZoneRules, policy: SchedulingPolicy? = nil) {
        self.timeZone = timeZone
        self.policy = policy
    }

    /// The Unix seconds of a wall time on the book's clocks (RFC 5545 rules for gaps and folds).
    package func instant(_ wall: LocalDateTime) -> Int64 { zone.instant(forWall: wall.localSeconds) }

    /// The Unix seconds a session starts at: its wall time's first instant,
    /// or the second where the session says so.
    package func instant(of session: Session) -> Int64 {
        if session.isLaterOfRepeatedTime, case .repeated(_, let later) = zone.reading(ofWall: session.start.localSeconds) { return later }
        return instant(session.start)
    }

    /// The wall time on the book's clocks at an instant, and whether it is the
    /// second of two equal wall times.
    package func reading(_ instant: Int64) -> (wall: LocalDateTime, isLater: Bool) {
        let w = wall(instant)
        return (w, self.instant(w) != instant)
    }

    /// The wall time on the book's clocks at Unix seconds.
    package func wall(_ instant: Int64) -> LocalDateTime { LocalDateTime(localSeconds: zone.wall(atInstant: instant)) }

    static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }

    static func newID(_ prefix: String) -> String {
        prefix + "-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
    }

    static func checkID(_ id: String, _ kind: String) throws(SchedulingError) {
        guard !id.isEmpty, !id.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw .invalid(field: .id, reason: "‘\(id)’ is not a usable \(kind) ID; use letters, digits and dashes, without spaces")
        }
    }

    static func checkName(_ name: String, _ kind: String) throws(SchedulingError) {
        if name.trimmingSpaces.isEmpty { throw .invalid(field: .name, reason: "the \(kind) has no name") }
    }
}

/// Who holds the places of one occurrence, and who waits, in order.
package struct Roster: Hashable, Sendable {
    package var confirmed: [String] = []
    package var waitlist: [String] = []
    package init(confirmed: [String] = [], waitlist: [String] = []) {
        self.confirmed = confirmed
        self.waitlist = waitlist
    }
    package var isEmpty: Bool { confirmed.isEmpty && waitlist.isEmpty }
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

// MARK: - Coaches, clients and sessions

extension SchedulingBook {
    /// Refuses a colour of the red family, which marks days with several items.
    static func checkColor(_ color: ItemColor?) throws(SchedulingError) {
        guard let color, let why = ReservedRedFamily().refusal(of: color) else { return }
        throw .invalid(field: .color, reason: why)
    }

    /// Books a session of the coach with one of their clients.
    ///
    /// - Parameters:
    ///   - id: the session's ID; one is made up when `nil`.
    ///   - coachID: the coach, who must have `clientID` as a client.
    ///   - clientID: the client.
    ///   - start: the start on the book's clocks.
    ///   - duration: the length, in whole minutes up to 24 hours.
    ///   - location: where, if anywhere in particular (a gym).
    ///   - notes: anything the coach wants to keep with it.
    ///   - color: the session's own colour (not of the red family); `nil`
    ///     takes the client's, else the coach's.
    ///   - workoutType: the kind of workout, such as "Strength".
    ///   - now: the time of the request, for the book's ``policy``.
    /// - Returns: the session as booked.
    /// - Throws: ``SchedulingError/clash(_:)`` naming the session in the way
    ///   (the coach's buffer counts), ``SchedulingError/refusedByPolicy(_:)``,
    ///   or an unknown coach or client, a taken ID, an impossible length.
    @discardableResult
    public mutating func addSession(
        id: String? = nil, coach coachID: String, client clientID: String, start: LocalDateTime, duration: Duration,
        location: String? = nil, notes: String? = nil, color: ItemColor? = nil, workoutType: String? = nil, now: Date = Date()
    ) throws(SchedulingError) -> Session {
        try add(Session(id: id ?? Self.newID("session"), coachID: coachID, clientID: clientID, start: start, duration: duration, location: location, notes: notes,
                        color: color, workoutType: workoutType), now: now)
    }

    /// Books a session at an instant — a ``FreeSlot``'s `startDate`, say —
    /// so that the second of two equal wall times (the night the clocks go
    /// back) is booked as that, not as the first; otherwise as
    /// ``addSession(id:coach:client:start:duration:location:notes:color:workoutType:now:)``.
    /// - Parameters:
    ///   - id: the session's ID; one is made up when `nil`.
    ///   - coachID: the coach.
    ///   - clientID: the coach's client.
    ///   - instant: when it starts.
    ///   - duration: the length.
    ///   - location: where.
    ///   - notes: the coach's notes.
    ///   - color: the session's own colour.
    ///   - workoutType: the kind of workout.
    ///   - now: the time of the request, for the book's ``policy``.
    @discardableResult
    public mutating func addSession(
        id: String? = nil, coach coachID: String, client clientID: String, startingAt instant: Date, duration: Duration,
        location: String? = nil, notes: String? = nil, color: ItemColor? = nil, workoutType: String? = nil, now: Date = Date()
    ) throws(SchedulingError) -> Session {
        let (wall, later) = reading(Self.seconds(instant))
        return try add(Session(id: id ?? Self.newID("session"), coachID: coachID, clientID: clientID, start: wall, duration: duration,
                               location: location, notes: notes, isLaterOfRepeatedTime: later, color: color, workoutType: workoutType), now: now)
    }

    /// Checks a new session's ID and client, then places it (clashes checked).
    private mutating func add(_ session: Session, now: Date) throws(SchedulingError) -> Session {
        try Self.checkID(session.id, "session")
        _ = try client(session.clientID, coach: session.coachID)
        guard sessionsByID[session.id] == nil else { throw .duplicateID(session.id, kind: "session") }
        try Self.checkColor(session.color)
        try place(session, ignoring: nil, now: now)
        return session
    }

    /// Refuses a length that is not whole minutes from 1 minute to 24 hours.
    package static func checkLength(_ d: Duration, _ what: String) throws(SchedulingError) {
        let s = d.components.seconds
        guard s >= 60, s <= 86_400, s % 60 == 0, d.components.attoseconds == 0 else {
            throw .invalid(field: .duration, reason: "\(what) lasts whole minutes from 1 minute to 24 hours, not \(ISOText.duration(d))")
        }
    }

    /// Checks a session against the policy and the coach's timeline, and stores it.
    private mutating func place(_ session: Session, ignoring: Session?, now: Date) throws(SchedulingError) {
        try Self.checkLength(session.duration, "a session")
        let start = instant(of: session)
        let end = start + session.duration.components.seconds
        try enforcePolicy(session, start: start, end: end, now: now)
        let buffer = people.coachesByID[session.coachID]?.buffer.components.seconds ?? 0
        // A client has one coach, so the coach's timeline holds every session
        // of the client too: one search finds both kinds of clash. The
        // earliest session in the way is named.
        if let hit = timelines[session.coachID]?.overlapping(start, end, buffer: buffer).first(where: { $0.id != ignoring?.id }),
            let existing = sessionsByID[hit.id]
        {
            throw .clash(SessionClash(existing: existing, reason: existing.clientID == session.clientID ? .client : .coach, buffer: .seconds(buffer)))
        }
        if let old = ignoring {
            let oldStart = instant(of: old)
            timelines[old.coachID]?.remove(id: old.id, start: oldStart)
        }
        sessionsByID[session.id] = session
        timelines[session.coachID, default: Timeline()].insert(.init(start: start, end: end, id: session.id))
    }

    /// Moves a scheduled session to another time (and length), checking clashes and the policy as for a new one.
    /// - Parameters:
    ///   - id: the session.
    ///   - coachID: its coach.
    ///   - start: the new start on the book's clocks.
    ///   - duration: the new length (`nil` keeps it).
    ///   - now: the time of the request, for the book's ``policy``.
    /// - Throws: ``SchedulingError/clash(_:)``, ``SchedulingError/unknownSession(_:coach:)``,
    ///   ``SchedulingError/sessionNotScheduled(_:status:)``, ``SchedulingError/refusedByPolicy(_:)``.
    @discardableResult
    public mutating func moveSession(_ id: String, coach coachID: String, to start: LocalDateTime, duration: Duration? = nil, now: Date = Date()) throws(SchedulingError) -> Session {
        try move(id, coach: coachID, to: (start, false), duration: duration, now: now)
    }

    /// Moves a scheduled session to an instant (see ``addSession(id:coach:client:startingAt:duration:location:notes:color:workoutType:now:)``).
    /// - Parameters:
    ///   - id: the session.
    ///   - coachID: its coach.
    ///   - instant: the new start.
    ///   - duration: the new length (`nil` keeps it).
    ///   - now: the time of the request, for the book's ``policy``.
    @discardableResult
    public mutating func moveSession(_ id: String, coach coachID: String, toInstant instant: Date, duration: Duration? = nil, now: Date = Date()) throws(SchedulingError) -> Session {
        try move(id, coach: coachID, to: reading(Self.seconds(instant)), duration: duration, now: now)
    }

    /// Moves a scheduled session to a wall time (the second of two equal ones where `start.isLater`).
    private mutating func move(_ id: String, coach coachID: String, to start: (wall: LocalDateTime, isLater: Bool), duration: Duration?, now: Date) throws(SchedulingError) -> Session {
        let old = try session(id, coach: coachID)
        guard old.status == .scheduled else { throw .sessionNotScheduled(id, status: old.status) }
        var new = old
        (new.start, new.isLaterOfRepeatedTime) = start
        new.duration = duration ?? old.duration
        try place(new, ignoring: old, now: now)
        return new
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
        var s = try session(id, coach: coachID)
        s.location = location
        s.notes = notes
        sessionsByID[id] = s
        return s
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
        var s = try session(id, coach: coachID)
        try Self.checkColor(color)
        s.color = color
        s.workoutType = workoutType
        sessionsByID[id] = s
        return s
    }

    /// The colour a session is shown in: its own, else its client's, else its coach's.
    public func color(of session: Session) -> ItemColor? {
        session.color ?? people.clientsByKey[ClientKey(session)]?.color ?? people.coachesByID[session.coachID]?.color
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
    /// - Throws: ``SchedulingError/unknownSession(_:coach:)``,
    ///   ``SchedulingError/sessionNotScheduled(_:status:)`` when it was already
    ///   settled (or, for `.scheduled`, cancelled),
    ///   ``SchedulingError/sessionNotStarted(_:start:)`` for a mark before its start.
    @discardableResult
    public mutating func setStatus(_ status: SessionStatus, ofSession id: String, coach coachID: String, now: Date) throws(SchedulingError) -> Session {
        var s = try session(id, coach: coachID)
        switch status {
        case .scheduled:
            guard s.status != .scheduled else { return s }
            guard s.status != .cancelled else { throw .sessionNotScheduled(id, status: s.status) }
        case .completed, .noShow:
            guard s.status == .scheduled else { throw .sessionNotScheduled(id, status: s.status) }
            guard Self.seconds(now) >= instant(of: s) else { throw .sessionNotStarted(id, start: s.start) }
        case .cancelled:
            guard s.status == .scheduled else { throw .sessionNotScheduled(id, status: s.status) }
            let start = instant(of: s)
            timelines[coachID]?.remove(id: id, start: start)
        }
        s.status = status
        sessionsByID[id] = s
        return s
    }

    /// One of the coach's sessions.
    /// - Throws: ``SchedulingError/unknownSession(_:coach:)``, also for another coach's session.
    public func session(_ id: String, coach coachID: String) throws(SchedulingError) -> Session {
        _ = try coach(coachID)
        guard let s = sessionsByID[id], s.coachID == coachID else { throw .unknownSession(id, coach: coachID) }
        return s
    }

    /// The coach's sessions (of one client, if named), by start.
    /// - Throws: ``SchedulingError/unknownCoach(_:)``, ``SchedulingError/unknownClient(_:coach:)``.
    public func sessions(coach coachID: String, client clientID: String? = nil) throws(SchedulingError) -> [Session] {
        _ = try coach(coachID)
        if let clientID { _ = try client(clientID, coach: coachID) }
        return byStart(sessionsByID.values.filter { $0.coachID == coachID && (clientID == nil || $0.clientID == clientID) }).map(\.session)
    }

    /// Sessions with their start instants, by start then ID; each instant is
    /// computed once, not in every comparison.
    package func byStart(_ sessions: some Sequence<Session>) -> [(start: Int64, session: Session)] {
        sessions.map { (instant(of: $0), $0) }.sorted { ($0.start, $0.session.id) < ($1.start, $1.session.id) }
    }

    /// The coach's next scheduled sessions that start at or after `now`, soonest first.
    /// - Throws: ``SchedulingError/unknownCoach(_:)``.
    public func upcomingSessions(coach coachID: String, after now: Date, limit: Int = 10) throws(SchedulingError) -> [Session] {
        _ = try coach(coachID)
        guard let line = timelines[coachID], limit > 0 else { return [] }
        let from = line.firstIndex(startingAtOrAfter: Self.seconds(now))
        return line.entries[from...].lazy.compactMap { sessionsByID[$0.id] }.filter { $0.status == .scheduled }.prefix(limit).map { $0 }
    }

    /// The coach's sessions that started before `now`, whatever their status, newest first.
    /// - Throws: ``SchedulingError/unknownCoach(_:)``.
    public func pastSessions(coach coachID: String, before now: Date, limit: Int = 50) throws(SchedulingError) -> [Session] {
        _ = try coach(coachID)
        let t = Self.seconds(now)
        let past = byStart(sessionsByID.values.filter { $0.coachID == coachID }).filter { $0.start < t }
        return past.reversed().prefix(max(0, limit)).map(\.session)
    }

    /// A client's sessions, newest first, whatever their status: the history
    /// a remote-training app shows its client.
    ///
    /// Scoped to a coach, only that coach's clients answer: another coach's
    /// client gets the same ``SchedulingError/unknownClient(_:coach:)`` as one
    /// that does not exist.
    ///
    /// - Parameters:
    ///   - clientID: the client.
    ///   - coachID: the coach asking, or `nil` for the client's own view.
    ///   - limit: the most sessions to return.
    /// - Throws: ``SchedulingError/unknownClient(_:coach:)`` within a coach's
    ///   scope, ``SchedulingError/noSuchClient(_:)`` without one,
    ///   ``SchedulingError/unknownCoach(_:)``.
    public func history(client clientID: String, coach coachID: String? = nil, limit: Int = .max) throws(SchedulingError) -> [Session] {
        let client: Client
        if let coachID { client = try self.client(clientID, coach: coachID) } else { client = try self.client(clientID) }
        let mine = byStart(sessionsByID.values.filter { ClientKey($0) == ClientKey(client) })
        return mine.reversed().prefix(max(0, limit)).map(\.session)
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
        let coach = try coach(coachID)
        try Self.checkLength(length, "a slot")
        try Self.checkLength(step ?? length, "a step")
        if let grid { try Self.checkLength(grid, "an alignment") }
        let slotLength = length.components.seconds, stride = (step ?? length).components.seconds
        let gridSeconds = grid?.components.seconds
        let buffer = coach.buffer.components.seconds
        let earliest = notBefore.map(Self.seconds) ?? .min
        let line = timelines[coachID] ?? Timeline()
        var slots: [FreeSlot] = []
        func offer(_ from: Int64, _ to: Int64) {
            var t = from
            if let g = gridSeconds {
                // Round the wall reading up to the grid; the offset is the same
                // for the seconds of rounding (a change of clocks inside them
                // is not a case a coach's day meets).
                let w = zone.wall(atInstant: t)
                let r = ((w % g) + g) % g
                if r != 0 { t += g - r }
            }
            while t + slotLength <= to {
                if t >= earliest {
                    slots.append(FreeSlot(start: wall(t), end: wall(t + slotLength), startSeconds: t, endSeconds: t + slotLength))
                }
                t += stride
            }
        }
        var day = first.dayNumber
        while day <= last.dayNumber {
            let date = LocalDate(dayNumber: day)
            for range in coach.workingHours.hours(on: date) {
                let open = instant(range.start.on(date)), close = instant(range.end.on(date))
                var cursor = open
                for busy in line.overlapping(open, close, buffer: buffer) {
                    if busy.start - buffer > cursor { offer(cursor, busy.start - buffer) }
                    cursor = max(cursor, busy.end + buffer)
                }
                if cursor < close { offer(cursor, close) }
            }
            day += 1
        }
        return slots
    }
}

