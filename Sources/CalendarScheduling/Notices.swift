import CalendarCore
import Foundation

// Who must be told what, after a change of the book.
//
// The messages are found by comparing the book before a change with the
// book after it (`recordNotices(since:now:)`), not by each change saying what
// it did: every way a book changes — a booking, a closure, a class ended,
// a member removed, a record merged from another desk — is told the same
// way, and a change added later is told without anyone remembering to. The
// comparison skips what did not change (a series, a roster, a session equal
// in both books), so its cost follows the change, plus one pass over the
// keys.
//
// SEQUENCE (RFC 5546 §2.1.4, §2.1.5): a calendar takes a message about an
// event only if its SEQUENCE is higher than the one it holds, or equal with
// a later DTSTAMP. Every message raises the sequence of what it is about —
// a session's own, or the occurrence's (one number for the occurrence,
// shared by its members, kept when its last member leaves) — so a member who
// books, cancels and books again is told 1, 2, 3, and Google Calendar, which
// keeps a cancelled event cancelled against an equal SEQUENCE, shows the
// third. A number is raised only for a change a message is due for (sent or
// not: one to a person with no address, or one a caller leaves out, raises
// it all the same); what calls for no message needs no newer number.

/// A message a change of the book owes one person: the iTIP method
/// (RFC 5546) and what it is about, as values. `SchedulingICalendar`
/// writes it as iCalendar, `ICalendarKit` as e-mail (iMIP, RFC 6047).
public struct SchedulingNotice: Hashable, Sendable, Codable {
    /// What the message asks of the recipient's calendar.
    public enum Method: String, Hashable, Sendable, Codable {
        /// Add the event, or update it (iTIP `REQUEST`).
        case request = "REQUEST"
        /// Remove it (iTIP `CANCEL`).
        case cancel = "CANCEL"
    }

    /// Why the message is sent, for the line a person reads.
    public enum Reason: Hashable, Sendable, Codable {
        /// A session was booked, or a place in a class.
        case booked
        /// A waitlisted member got a place.
        case promoted
        /// Its time, length or place changed.
        case changed
        /// It was called off (a session cancelled, a place given up, an occurrence cancelled).
        case cancelled
        /// The gym is closed that day.
        case closed(reason: String)
        /// The class no longer meets that day (ended, or moved off the timetable).
        case ended
        /// The record was removed from the book (a client, a member, a session).
        case removed
    }

    /// A person as the message names them.
    public struct Person: Hashable, Sendable, Codable {
        /// Their ID in the book.
        public var id: String
        /// Their name.
        public var name: String
        /// Their e-mail address.
        public var email: String

        /// Creates a person.
        public init(id: String, name: String, email: String) {
            self.id = id
            self.name = name
            self.email = email
        }
    }

    /// What the message is about.
    public enum Subject: Hashable, Sendable, Codable {
        /// A coach's session with a client, as it stands after the change
        /// (as it stood before, for one removed).
        case session(Session)
        /// A member's place in one occurrence of a class.
        case classPlace(ClassPlace)
    }

    /// One occurrence of a class as a member's calendar shows it.
    public struct ClassPlace: Hashable, Sendable, Codable {
        /// The occurrence: its class, date, time and length.
        public var occurrence: ClassOccurrence
        /// Where the class meets.
        public var location: String?
        /// Who teaches it.
        public var instructor: String?
        /// When the occurrence meets by its series (its `RECURRENCE-ID`), on the book's clocks.
        public var originalStart: LocalDateTime
    }

    /// `REQUEST` or `CANCEL`.
    public var method: Method
    /// Why.
    public var reason: Reason
    /// Who receives it: a client, or a member.
    public var recipient: Person
    /// Who sends it: the coach, for a session; `nil` for a class, which the gym sends.
    public var organizer: Person?
    /// What it is about.
    public var subject: Subject
    /// The `SEQUENCE` it carries.
    public var sequence: Int

    /// The book's ``SchedulingBook/uidDomain`` when the notice was made.
    public var uidDomain: String?

    /// The ID of what it is about: the session's, or the class's.
    public var recordID: String {
        switch subject {
        case .session(let s): s.id
        case .classPlace(let p): p.occurrence.id.classID
        }
    }

    /// The iCalendar UID of what it is about: ``recordID`` as the book sends
    /// it out (`yoga@DOMAIN`, ``SchedulingBook/exchangeUID(_:domain:)``).
    public var uid: String { SchedulingBook.exchangeUID(recordID, domain: uidDomain) }
}

/// What a change owed people who have no e-mail address: they were not
/// sent a message, and the desk may tell them another way.
public struct UntoldChange: Hashable, Sendable, Codable {
    /// The client or member.
    public var personID: String
    /// Their name.
    public var name: String
    /// What they were not told (as the notice would have said).
    public var method: SchedulingNotice.Method
    /// The session's ID or the occurrence (`yoga@2026-12-02`).
    public var about: String

    /// Creates a record of a change someone was not told of.
    public init(personID: String, name: String, method: SchedulingNotice.Method, about: String) {
        self.personID = personID
        self.name = name
        self.method = method
        self.about = about
    }
}

/// The messages a change owes, and who could not be sent one.
public struct ChangeNotices: Hashable, Sendable, Codable {
    /// One message per person and thing changed, in a stable order.
    public var notices: [SchedulingNotice] = []
    /// The people the change concerned who have no e-mail address.
    public var untold: [UntoldChange] = []

    /// Creates an empty list.
    public init() {}
}

extension SchedulingBook {
    /// The messages a change owes people, found by comparing the book as it
    /// was before the change (`before`) with this one; raises the
    /// `SEQUENCE` of each session and occurrence a message is about, so
    /// call it once per change, before the book is saved.
    ///
    /// ```swift
    /// let before = book
    /// try book.cancelBooking(member: "marta", classID: "yoga", on: date, now: now)
    /// let told = book.recordNotices(since: before)   // CANCEL to Marta, REQUEST to whoever was promoted
    /// ```
    ///
    /// A client is told of their sessions (booked, moved, cancelled,
    /// removed; not a session marked completed); a member of their places
    /// (booked, promoted, given up or lost, the occurrence moved, cancelled
    /// or closed). A waitlisted member is not told until promoted. Each
    /// message names only its recipient and the organizer, never another
    /// member. People with no e-mail address are listed in
    /// ``ChangeNotices/untold``.
    ///
    /// With `now`, a session or occurrence that ended before it is not
    /// told of (removing a member of three years does not mail them 150
    /// cancellations); its `SEQUENCE` is raised all the same.
    /// - Parameters:
    ///   - before: the book before the change.
    ///   - now: the time of the change; `nil` tells of the past too.
    /// - Returns: the messages, sessions first, then classes by occurrence.
    public mutating func recordNotices(since before: SchedulingBook, now: Date? = nil) -> ChangeNotices {
        var told = ChangeNotices()
        let cutoff = now.map(Self.seconds) ?? .min
        recordSessionNotices(since: before, notEndedBefore: cutoff, into: &told)
        recordClassNotices(since: before, notEndedBefore: cutoff, into: &told)
        return told
    }

    // MARK: Sessions

    private mutating func recordSessionNotices(since before: SchedulingBook, notEndedBefore cutoff: Int64, into told: inout ChangeNotices) {
        let old = before.coachSessions.sessionsByID, new = coachSessions.sessionsByID
        // One pass over the IDs to find what changed; only that is sorted.
        var changed = old.keys.filter { new[$0] != old[$0] }
        changed += new.keys.filter { old[$0] == nil }
        for id in changed.sorted() {
            let was = old[id], now = new[id]
            var due: [(SchedulingNotice.Method, SchedulingNotice.Reason, Session, SchedulingBook)] = []
            switch (was, now) {
            // A new session is an invitation only when it is to be held: one logged after the fact is not (issue 44, 3).
            case (nil, let s?) where s.status == .scheduled:
                due.append((.request, .booked, s, self))
            case (let s?, nil) where s.status == .scheduled:
                due.append((.cancel, .removed, s, before))
            case (let a?, let b?) where a.clientID != b.clientID:
                if a.status == .scheduled { due.append((.cancel, .cancelled, a, before)) }
                if b.holdsTime { due.append((.request, .booked, b, self)) }
            case (let a?, let b?):
                if a.holdsTime, !b.holdsTime {
                    due.append((.cancel, .cancelled, b, self))
                } else if !a.holdsTime, b.holdsTime {
                    due.append((.request, .booked, b, self))
                } else if b.status == .scheduled,
                          (a.start, a.isLaterOfRepeatedTime, a.duration, a.location) != (b.start, b.isLaterOfRepeatedTime, b.duration, b.location) {
                    due.append((.request, .changed, b, self))
                }
            default:
                break
            }
            guard !due.isEmpty else { continue }
            let sequence = max(was?.sequence ?? 0, now?.sequence ?? 0) + 1
            if now != nil { coachSessions.setSequence(sequence, ofSession: id, askedAgain: due.contains { $0.0 == .request }) }
            for (method, reason, s, book) in due where book.instant(of: s) + s.duration.components.seconds > cutoff {
                var session = s
                session.sequence = sequence
                let coach = book.people.coachesByID[s.coachID], client = book.people.clientsByKey[ClientKey(s)]
                guard let email = Self.address(client?.email) else {
                    told.untold.append(UntoldChange(personID: s.clientID, name: client?.name ?? s.clientID, method: method, about: s.id))
                    continue
                }
                let organizer = coach.flatMap { c in Self.address(c.email).map { SchedulingNotice.Person(id: c.id, name: c.name, email: $0) } }
                told.notices.append(SchedulingNotice(
                    method: method, reason: reason, recipient: .init(id: s.clientID, name: client?.name ?? s.clientID, email: email),
                    organizer: organizer, subject: .session(session), sequence: sequence, uidDomain: uidDomain))
            }
        }
    }

    // MARK: Classes

    private mutating func recordClassNotices(since before: SchedulingBook, notEndedBefore cutoff: Int64, into told: inout ChangeNotices) {
        let oldTimetable = before.classTimetable, newTimetable = classTimetable
        let sameClosures = oldTimetable.closureList == newTimetable.closureList
        // Only an occurrence someone held a place in, before or after, can
        // owe a message, and only one whose roster, class or closures
        // changed: one pass over the keys finds them, and only they are sorted.
        // The classes that changed, compared once each (a series holds its
        // moved and cancelled dates: comparing it again for each of its
        // rosters would cost a booking the whole class's history).
        let changedClasses = Set(oldTimetable.classesByID.keys).union(newTimetable.classesByID.keys)
            .filter { oldTimetable.classesByID[$0] != newTimetable.classesByID[$0] }
        func changed(_ key: ClassOccurrence.ID) -> Bool {
            !sameClosures || changedClasses.contains(key.classID) || oldTimetable.rosters[key]?.confirmed != newTimetable.rosters[key]?.confirmed
        }
        var keys = Set(oldTimetable.rosters.lazy.filter { !$0.value.confirmed.isEmpty && changed($0.key) }.map(\.key))
        keys.formUnion(newTimetable.rosters.lazy.filter { !$0.value.confirmed.isEmpty && changed($0.key) }.map(\.key))
        // A class changed "from a date on" keeps its earlier dates as a class
        // of its own (`yoga-until-20261129`, ClassTimetable+Changes.swift),
        // their rosters with them: the same people at the same times, told
        // nothing. (In iCalendar the earlier instances now have another UID;
        // a member's calendar keeps the ones it has, which are right.)
        let added = Set(newTimetable.classesByID.keys).subtracting(oldTimetable.classesByID.keys)
        var moved: Set<ClassOccurrence.ID> = []
        // The old rosters of the dates a new class has, by date: built only when a class was added.
        var oldByDate: [LocalDate: [ClassOccurrence.ID]] = [:]
        if !added.isEmpty {
            let dates = Set(keys.filter { added.contains($0.classID) }.map(\.date))
            for id in keys where dates.contains(id.date) && oldTimetable.rosters[id] != nil { oldByDate[id.date, default: []].append(id) }
        }
        for key in keys where added.contains(key.classID) {
            guard let roster = newTimetable.rosters[key], let part = newTimetable.classesByID[key.classID] else { continue }
            for id in oldByDate[key.date] ?? [] where id.classID != key.classID && oldTimetable.rosters[id]?.confirmed == roster.confirmed {
                guard let was = oldTimetable.classesByID[id.classID], newTimetable.classesByID[id.classID]?.meets(on: id.date) != true,
                      let before = Self.meeting(oldTimetable, was, id.date), let after = Self.meeting(newTimetable, part, key.date),
                      (before.start, before.duration) == (after.start, after.duration) else { continue }
                moved.formUnion([id, key])
            }
        }
        for key in keys.sorted() where !moved.contains(key) {
            let oldRoster = oldTimetable.rosters[key] ?? Roster(), newRoster = newTimetable.rosters[key] ?? Roster()
            let oldSeries = oldTimetable.classesByID[key.classID], newSeries = newTimetable.classesByID[key.classID]
            let was = oldSeries.flatMap { Self.meeting(oldTimetable, $0, key.date) }
            let now = newSeries.flatMap { Self.meeting(newTimetable, $0, key.date) }
            var due: [(SchedulingNotice.Method, SchedulingNotice.Reason, String)] = []
            let held = Set(oldRoster.confirmed)
            let meetsNow = now.map { !$0.isCancelled } ?? false
            if let now, meetsNow {
                for id in newRoster.confirmed where !held.contains(id) {
                    due.append((.request, oldRoster.waitlist.contains(id) ? .promoted : .booked, id))
                }
                if let was, (was.start, was.duration) != (now.start, now.duration) || oldSeries?.location != newSeries?.location {
                    // A new time of the series moves the instance's own identity
                    // (its RECURRENCE-ID, the series' time on the date): the
                    // member's calendar holds the old one, which is cancelled,
                    // and the new one is sent (RFC 5546 §3.2.2.1 names an instance by it).
                    let renamed = oldSeries.map { $0.time.on(key.date) } != newSeries.map { $0.time.on(key.date) }
                    for id in newRoster.confirmed where held.contains(id) {
                        if renamed { due.append((.cancel, .changed, id)) }
                        due.append((.request, .changed, id))
                    }
                }
            }
            let still = meetsNow ? Set(newRoster.confirmed) : []
            let gone: SchedulingNotice.Reason
            if let closure = now?.closure, now?.isCancelled == true {
                gone = .closed(reason: closure.reason)
            } else if now == nil {
                gone = .ended
            } else {
                gone = .cancelled  // the occurrence cancelled, or the member gave the place up
            }
            for id in oldRoster.confirmed where !still.contains(id) {
                due.append((.cancel, people.membersByID[id] == nil ? .removed : gone, id))
            }
            guard !due.isEmpty else { continue }
            // Above anything told of this occurrence, and of any of its class's
            // dates whose number the class now holds (seriesSequence).
            let sequence = max(oldRoster.sequence, newRoster.sequence, oldTimetable.seriesSequence[key.classID] ?? 0,
                               newTimetable.seriesSequence[key.classID] ?? 0) + 1
            classTimetable.setSequence(sequence, of: key, told: due.map { ($0.2, $0.0 == .request) })
            for (method, reason, id) in due where ((method == .request ? now : was) ?? was ?? now).map({ $0.startSeconds + $0.duration.components.seconds > cutoff }) ?? true {
                let member = people.membersByID[id] ?? before.people.membersByID[id]
                guard let occurrence = (method == .request ? now : was) ?? was ?? now,
                      let series = (method == .request ? newSeries : oldSeries) ?? oldSeries else { continue }
                // The earlier dates of a class changed from a date on answer to the class's own ID, as
                // their first invitations did: a later message about one is about the same event (issue 41, 1).
                let own = ClassOccurrence.ID(classID: series.partOf ?? key.classID, date: key.date)
                guard let email = Self.address(member?.email) else {
                    told.untold.append(UntoldChange(personID: id, name: member?.name ?? id, method: method, about: own.description))
                    continue
                }
                var shown = occurrence
                (shown.booked, shown.waiting) = (0, 0)  // a member is told of their place, not of how full the class is
                shown.id = own
                let place = SchedulingNotice.ClassPlace(occurrence: shown, location: series.location, instructor: series.instructor,
                                                        originalStart: series.time.on(key.date))
                told.notices.append(SchedulingNotice(method: method, reason: reason, recipient: .init(id: id, name: member?.name ?? id, email: email),
                                                     organizer: nil, subject: .classPlace(place), sequence: sequence, uidDomain: uidDomain))
            }
        }
    }

    /// The occurrence of a series on a date, if the series meets then (cancelled or closed ones too).
    private static func meeting(_ timetable: ClassTimetable, _ series: ClassSeries, _ date: LocalDate) -> ClassOccurrence? {
        series.meets(on: date) ? timetable.makeOccurrence(series, date) : nil
    }

    /// An address a message can go to: one with an `@`, trimmed.
    package static func address(_ email: String?) -> String? {
        guard let e = email?.trimmingCharacters(in: .whitespaces), e.contains("@") else { return nil }
        return e
    }
}

extension ClassTimetable {
    /// Sets the sequence of an occurrence, keeping its roster even with no
    /// one on it, and what each member told was last sent (nothing, for one told their place is gone).
    ///
    /// An occurrence that does not take place (cancelled, closed, or no
    /// longer on its class's dates) keeps no roster: a calendar has no
    /// instance to hold its number (the date is an `EXDATE`, and an instance
    /// of an excluded date is one RFC 5545 leaves undecided), so the class
    /// holds it (``seriesSequence``).
    mutating func setSequence(_ sequence: Int, of key: ClassOccurrence.ID, told: [(member: String, invited: Bool)]) {
        guard let series = classesByID[key.classID] else { return }
        guard series.meets(on: key.date), series.changes[key.date] != .cancelled, closure(of: series, on: key.date) == nil else {
            raiseSeriesSequence(sequence, of: key.classID)
            return
        }
        rosters[key, default: Roster()].sequence = sequence
        for (member, invited) in told { rosters[key]?.told[member] = invited ? sequence : nil }
    }
}

/// What a change returned, with the messages it owes people.
public struct Told<Result: Sendable>: Sendable {
    /// What the change returned.
    public var result: Result
    /// The messages it owes, and who could not be sent one.
    public var notices: ChangeNotices
    /// The book's clocks, which the notices' times are on.
    public var timeZone: ZoneRules
    /// The gym's address the book keeps (``SchedulingBook/gymAddress``),
    /// as it stands after the change: who a class's messages are from when
    /// the change named no sender.
    public var gym: SchedulingNotice.Person?

    /// Creates the outcome of a change.
    /// - Parameters:
    ///   - result: what the change returned.
    ///   - notices: the messages it owes, and who could not be sent one.
    ///   - timeZone: the book's clocks.
    ///   - gym: the gym's address the book keeps, if any.
    public init(result: Result, notices: ChangeNotices, timeZone: ZoneRules, gym: SchedulingNotice.Person? = nil) {
        self.result = result
        self.notices = notices
        self.timeZone = timeZone
        self.gym = gym
    }
}

extension SchedulingBook {
    /// Makes a change and returns, with what it returned, the messages it
    /// owes (``recordNotices(since:now:)``).
    ///
    /// The book before the change is kept while it runs, so a change
    /// copies what it touches (a roster table, the sessions): O(n) for a
    /// book of n records, the cost of comparing them. A ``FrontDesk`` that
    /// tells no one changes in place and does not pay it.
    /// - Parameters:
    ///   - now: the time of the change: what ended before it is not told of (``recordNotices(since:now:)``).
    ///   - body: the change.
    /// - Returns: what `body` returned, the notices, and the book's clocks.
    public mutating func telling<T: Sendable, Failure: Error>(now: Date? = nil, _ body: (inout SchedulingBook) throws(Failure) -> T) throws(Failure) -> Told<T> {
        let before = self
        let result = try body(&self)
        return Told(result: result, notices: recordNotices(since: before, now: now), timeZone: timeZone, gym: gymAddress)
    }
}
