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
/// through ``FrontDesk``; save it with the calendar file through
/// SchedulingICalendar (`calendar.setScheduling(book)`).
///
/// Every verb of the gym is a method of the book, and only of the book
/// (a store's `change { book in … }` makes it one transaction): the coaches,
/// clients and members, the sessions and the classes with their rosters are
/// kept inside, where the book keeps the rules that cross them.
///
/// All wall times are on the clocks of the book's ``timeZone``. A book is
/// `Codable` (its JSON form is described in the CalendarScheduling article
/// "Saving a book"), so an app can keep it without iCalendar.
///
/// ```swift
/// var book = SchedulingBook(timeZone: try .named("Europe/Madrid"))
/// try book.addCoach(Coach(id: "marc", name: "Marc Soler"))
/// try book.addClient(Client(id: "anna", coachID: "marc", name: "Anna Puig"))
/// let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18, the request's time
/// let session = try book.addSession(coach: "marc", client: "anna", start: "2026-11-26T18:00", duration: .seconds(3600), now: now)
/// ```
public struct SchedulingBook: Sendable {
    /// The zone whose clocks the book's wall times are on.
    public let timeZone: ZoneRules
    package var zone: ZoneRules { timeZone }
    /// The rules every new or moved session must keep besides clashes: by
    /// default `SchedulingPolicy()` (within the coach's hours, not in the
    /// past, never at a wall time the clocks skip); `nil` for none, as a
    /// back-office tool importing old sessions needs. Every store keeps it
    /// with the book (in iCalendar, `X-HORARI-SESSION-POLICY`).
    public var policy: SchedulingPolicy?
    /// The rules every member's booking and giving up of a class place must
    /// keep: a booking window, a cancellation cut-off, a weekly limit;
    /// `nil` (the default) for none.
    public var classPolicy: ClassBookingPolicy?
    /// When the gym is open, by weekday (and dates that differ): every new
    /// class and moved occurrence, and every new or moved session, must lie
    /// inside one stretch of it (``SchedulingError/outsideOpeningHours(what:when:start:end:hours:)``);
    /// `nil` (the default) for no limit. Set it with
    /// ``setOpeningHours(_:now:)``, which refuses hours that would leave a
    /// class, a moved occurrence or a session still to come outside them.
    public package(set) var openingHours: WorkingHours? {
        // No hours at all is no limit, as `nil` is (and reads back so from a calendar).
        didSet { if openingHours?.isUnset == true { openingHours = nil } }
    }

    /// What makes the UIDs the book sends out globally unique: a class or
    /// session is sent as `ID@DOMAIN` (``exchangeUID(_:)``). A new book
    /// draws one (``newUIDDomain()``); `nil` for a book written before books
    /// had one, which keeps sending bare IDs. Set it with ``setUIDDomain(_:)``.
    public internal(set) var uidDomain: String?

    /// The gym's own name and address, kept with the book: who a class's
    /// messages are from, and whom an answer about a class must name as
    /// organizer, when a change names no sender (``telling(now:_:)``
    /// returns it as ``Told/gym``). `nil` (the default) for none. Set it
    /// with ``setGymAddress(name:email:)``.
    public internal(set) var gymAddress: SchedulingNotice.Person?

    /// The coaches with their hours, their clients, and the members.
    package internal(set) var people = PeopleDirectory()
    /// The coaches' sessions with their clients.
    package internal(set) var coachSessions: CoachSessions
    /// The classes with their occurrences, rosters and waitlists.
    package internal(set) var classTimetable: ClassTimetable

    /// Creates an empty book on a zone's clocks, with a fresh ``uidDomain``.
    /// - Parameters:
    ///   - timeZone: the zone, such as `try .named("Europe/Madrid")` or `.of(TimeZone.current)`.
    ///   - policy: the rules new and moved sessions must keep; by default
    ///     every rule of ``SchedulingPolicy/init(withinWorkingHours:notInPast:minimumNotice:refuseSkippedTimes:)``,
    ///     `nil` for none.
    public init(timeZone: ZoneRules, policy: SchedulingPolicy? = SchedulingPolicy()) {
        self.timeZone = timeZone
        self.policy = policy
        uidDomain = Self.newUIDDomain()
        coachSessions = CoachSessions(zone: timeZone)
        classTimetable = ClassTimetable(zone: timeZone)
    }

    /// The Unix seconds of a wall time on the book's clocks (RFC 5545 rules for gaps and folds).
    package func instant(_ wall: LocalDateTime) -> Int64 { zone.instant(wall) }

    /// The Unix seconds a session starts at: its wall time's first instant,
    /// or the second where the session says so.
    package func instant(of session: Session) -> Int64 { zone.instant(of: session) }

    /// The wall time on the book's clocks at an instant, and whether it is the
    /// second of two equal wall times.
    package func reading(_ instant: Int64) -> (wall: LocalDateTime, isLater: Bool) { zone.reading(instant) }

    /// The wall time on the book's clocks at Unix seconds.
    package func wall(_ instant: Int64) -> LocalDateTime { zone.wall(instant) }

    static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }

    static func newID(_ prefix: String) -> String {
        prefix + "-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
    }

    static func checkID(_ id: String, _ kind: String) throws(SchedulingError) {
        guard !id.isEmpty, !id.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw .invalid(field: .id, reason: "‘\(id)’ is not a usable \(kind) ID; use letters, digits and dashes, without spaces")
        }
        // An ID is written in iCalendar parameter values (X-HORARI-MEMBER=…), which can hold no
        // double quote (RFC 5545 §3.1: neither paramtext nor quoted-string allows DQUOTE), nor a
        // control character: such an ID came back as another one, and the book no longer read.
        guard !id.unicodeScalars.contains(where: { $0 == "\"" || $0.properties.generalCategory == .control }) else {
            throw .invalid(field: .id, reason: "‘\(id)’ is not a usable \(kind) ID: it holds a double quote or a control character; use letters, digits and dashes")
        }
    }

    static func checkName(_ name: String, _ kind: String) throws(SchedulingError) {
        if name.trimmingSpaces.isEmpty { throw .invalid(field: .name, reason: "the \(kind) has no name") }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .invalid(field: .name, reason: "the \(kind)'s name has a line break or another control character; give it on one line")
        }
        // Mail programs decode RFC 2047 words in a To: header: such a name would end the line there (issue 41, 12).
        if EncodedWords.standForAControlCharacter(name) {
            throw .invalid(field: .name, reason: "the \(kind)'s name holds an encoded word (=?…?=) that stands for a line break or another control character; give the name as plain text on one line")
        }
    }

    /// Refuses an e-mail address a message cannot go to: a coach's,
    /// client's or member's is one bare address, `name@example.com` (the
    /// person's name goes in the record's name), the address every message
    /// to them is written to. `nil` or empty is none. The book checks every
    /// new and changed record with it; an app checks what a person typed
    /// with it before making the record.
    /// - Parameters:
    ///   - email: the address as typed.
    ///   - kind: whose it is, for the message: `"member"`, `"coach"`, `"client"`.
    /// - Throws: ``SchedulingError/invalid(field:reason:)`` for `.email`.
    public static func checkEmail(_ email: String?, of kind: String) throws(SchedulingError) {
        try checkEmail(email, kind, asRead: false)
    }

    /// As ``checkEmail(_:of:)``; `asRead`, for a record read back (a
    /// calendar's, the JSON form's), refuses only a line break or another
    /// control character, which written into a message's header could add a
    /// header of its own (issue 32): records are taken as they are, and a
    /// message goes only to an address `IMIPMessage` can write (any other
    /// is listed as not told). A calendar's records are read with control
    /// characters made spaces (SchedulingICalendar), not refused.
    static func checkEmail(_ email: String?, _ kind: String, asRead: Bool = false) throws(SchedulingError) {
        guard let email, !email.isEmpty else { return }
        let shown = email.debugDescription.dropFirst().dropLast().prefix(60)
        if email.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .invalid(field: .email, reason: "the \(kind)'s e-mail address ‘\(shown)’ has a line break or another control character; write it as name@example.com")
        }
        guard asRead || MailAddress.isOne(email) else {
            throw .invalid(field: .email, reason: "the \(kind)'s e-mail address ‘\(shown)’ is not one address a message can go to; write it as name@example.com\(email.contains("<") || email.contains(" ") ? " (the name goes in the record's name)" : "")")
        }
    }

    /// Refuses a colour of the red family, which marks days with several items.
    static func checkColor(_ color: ItemColor?) throws(SchedulingError) {
        guard let color, let why = ReservedRedFamily().refusal(of: color) else { return }
        throw .invalid(field: .color, reason: why)
    }

    /// Refuses a length that is not whole minutes from 1 minute to 24 hours.
    package static func checkLength(_ d: Duration, _ what: String) throws(SchedulingError) {
        let s = d.components.seconds
        guard s >= 60, s <= 86_400, s % 60 == 0, d.components.attoseconds == 0 else {
            throw .invalid(field: .duration, reason: "\(what) lasts whole minutes from 1 minute to 24 hours, not \(ISOText.duration(d))")
        }
    }
}

// MARK: - Sessions, checked against their coach's clients, hours and buffer

extension SchedulingBook {
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
    mutating func add(_ session: Session, now: Date) throws(SchedulingError) -> Session {
        try Self.checkID(session.id, "session")
        _ = try client(session.clientID, coach: session.coachID)
        try coachSessions.checkNew(session.id)
        try Self.checkColor(session.color)
        try place(session, ignoring: nil, now: now)
        return session
    }

    /// Checks a session against the policy and the coach's hours and buffer,
    /// and places it on the coach's timeline unless a session is in its way.
    private mutating func place(_ session: Session, ignoring: Session?, now: Date) throws(SchedulingError) {
        try Self.checkLength(session.duration, "a session")
        try checkOpen("a session", on: session.start.date)
        try checkOpeningHours("a session", at: session.start, for: session.duration)
        let start = instant(of: session)
        let end = start + session.duration.components.seconds
        try enforcePolicy(session, start: start, end: end, now: now)
        let buffer = people.coachesByID[session.coachID]?.buffer.components.seconds ?? 0
        try coachSessions.place(session, start: start, end: end, buffer: buffer, replacing: ignoring)
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
    mutating func move(_ id: String, coach coachID: String, to start: (wall: LocalDateTime, isLater: Bool), duration: Duration?, now: Date) throws(SchedulingError) -> Session {
        let old = try session(id, coach: coachID)
        guard old.status == .scheduled else { throw .sessionNotScheduled(id, status: old.status) }
        var new = old
        (new.start, new.isLaterOfRepeatedTime) = start
        new.duration = duration ?? old.duration
        try place(new, ignoring: old, now: now)
        return new
    }

    /// The colour a session is shown in: its own, else its client's, else its coach's.
    public func color(of session: Session) -> ItemColor? {
        session.color ?? people.clientsByKey[ClientKey(session)]?.color ?? people.coachesByID[session.coachID]?.color
    }

    /// The coach's sessions (of one client, if named), by start.
    /// - Throws: ``SchedulingError/unknownCoach(_:)``, ``SchedulingError/unknownClient(_:coach:)``.
    public func sessions(coach coachID: String, client clientID: String? = nil) throws(SchedulingError) -> [Session] {
        _ = try coach(coachID)
        if let clientID { _ = try client(clientID, coach: coachID) }
        return coachSessions.sessions(coach: coachID, client: clientID)
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
        return coachSessions.sessions(of: client).reversed().prefix(max(0, limit)).map(\.self)
    }

    /// When a client last trained: their latest completed session (by its
    /// start), with the time it was marked completed; `nil` when none is.
    ///
    /// A coach's view of a client: "last trained Tuesday". Scheduled,
    /// cancelled and no-show sessions do not count.
    /// - Parameters:
    ///   - clientID: the client.
    ///   - coachID: the coach asking (only their own client), or `nil` for the client's own view.
    /// - Throws: as ``history(client:coach:limit:)``.
    public func lastTrained(client clientID: String, coach coachID: String? = nil) throws(SchedulingError) -> Session? {
        let client: Client
        if let coachID { client = try self.client(clientID, coach: coachID) } else { client = try self.client(clientID) }
        return coachSessions.sessions(of: client).last { $0.status == .completed }
    }
}

extension ZoneRules {
    /// The Unix seconds of a wall time on these clocks (RFC 5545 rules for gaps and folds).
    func instant(_ wall: LocalDateTime) -> Int64 { instant(forWall: wall.localSeconds) }

    /// The Unix seconds a session starts at: its wall time's first instant,
    /// or the second where the session says so.
    func instant(of session: Session) -> Int64 {
        if session.isLaterOfRepeatedTime, case .repeated(_, let later) = reading(ofWall: session.start.localSeconds) { return later }
        return instant(session.start)
    }

    /// The wall time at an instant, and whether it is the second of two equal wall times.
    func reading(_ instant: Int64) -> (wall: LocalDateTime, isLater: Bool) {
        let w = wall(instant)
        return (w, self.instant(w) != instant)
    }

    /// The wall time at Unix seconds.
    func wall(_ instant: Int64) -> LocalDateTime { LocalDateTime(localSeconds: wall(atInstant: instant)) }
}

// MARK: - Equality

extension SchedulingBook: Equatable {
    /// Whether two books hold the same records: the same zone, policies,
    /// gym address, coaches, clients, members, sessions, classes, rosters
    /// and waitlists.
    ///
    /// The indexes the book keeps to answer quickly are not compared; two
    /// books built by different paths to the same records are equal (a book
    /// and the same book read back from its calendar file, say).
    public static func == (a: SchedulingBook, b: SchedulingBook) -> Bool {
        a.timeZone == b.timeZone && a.policy == b.policy && a.classPolicy == b.classPolicy && a.openingHours == b.openingHours && a.gymAddress == b.gymAddress && a.people == b.people
            && a.coachSessions == b.coachSessions && a.classTimetable == b.classTimetable
    }
}

extension PeopleDirectory: Equatable {
    /// Whether two directories hold the same coaches, clients and members.
    package static func == (a: PeopleDirectory, b: PeopleDirectory) -> Bool {
        a.coachesByID == b.coachesByID && a.clientsByKey == b.clientsByKey && a.membersByID == b.membersByID
    }
}

extension CoachSessions: Equatable {
    /// Whether two records hold the same sessions on the same clocks.
    package static func == (a: CoachSessions, b: CoachSessions) -> Bool {
        a.zone == b.zone && a.sessionsByID == b.sessionsByID
    }
}

extension ClassTimetable: Equatable {
    /// Whether two timetables hold the same classes, with the same rosters and waitlists, on the same clocks.
    package static func == (a: ClassTimetable, b: ClassTimetable) -> Bool {
        a.zone == b.zone && a.classesByID == b.classesByID && a.closureList == b.closureList && a.seriesSequence == b.seriesSequence
            && a.rosters.filter { !$0.value.isEmpty } == b.rosters.filter { !$0.value.isEmpty }
    }
}
