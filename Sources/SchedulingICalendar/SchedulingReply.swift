import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit

// An answer coming back (iTIP REPLY, RFC 5546 §3.2.3): read from the
// calendar a client's or member's program sent, checked against what the
// book sent them, and applied.
//
// The checks, each a refusal that changes nothing:
// - the method is REPLY (COUNTER and REFRESH are iTIP too, but the book does
//   not renegotiate times: they are refused as not supported, by name);
// - one event, with exactly one ATTENDEE (§3.2.3: "MUST include ... the
//   replying Attendee" and only them);
// - its UID and RECURRENCE-ID name a session still to come (scheduled, not
//   over) or a class occurrence of the book: the RECURRENCE-ID is the
//   occurrence's original start, the instant its invitation named (in any
//   zone), never a date, another time or RANGE=THISANDFUTURE (one
//   invitation, one occurrence);
// - its ORGANIZER is the one the book sent as (the coach, or the gym): a
//   reply naming another organizer was not an answer to this book;
// - its ATTENDEE is the person the book invited, by the address on record
//   (a session's client, once a message was made for the session; a member
//   on the occurrence's roster who was sent one);
// - its SEQUENCE is not older than the book's (§2.1.5): an answer to an
//   earlier time is not an answer to this one.
// - its DTSTAMP is readable (RFC 5545 §3.8.7.2 makes it REQUIRED with a METHOD)
//   and not later than the desk's now by more than ``SchedulingReply.clockSkew``:
//   a stamp from the future would otherwise outrank every real answer after it;
// - of two answers to the same version of a session, the one made later
//   (DTSTAMP, §2.1.5) stands, in whatever order they are imported: a desk
//   importing a folder of answers reads them in file-name order, not in the
//   order they were made. (A member's decline gives up the place; an
//   earlier acceptance read after it finds no place held, and is refused.)

/// An answer read from an iTIP `REPLY`.
public struct SchedulingReply: Hashable, Sendable {
    /// The UID of what it answers.
    public var uid: String
    /// The instance it answers, for a class occurrence.
    public var recurrenceID: CalendarTime?
    /// The `SEQUENCE` it answers.
    public var sequence: Int
    /// Who answers, their address (without `mailto:`).
    public var attendee: String
    /// What they answer.
    public var answer: AttendeeAnswer
    /// The organizer it names, their address.
    public var organizer: String
    /// When the answer was made (its `DTSTAMP`): of two answers to the same
    /// version, the later one stands (RFC 5546 §2.1.5). Always there: a reply
    /// without a readable one is refused when read (``ReplyError/noStamp``).
    public var stamp: Date?

    /// How far ahead of the desk's clock a reply's `DTSTAMP` may be (a
    /// phone's clock a little fast): 15 minutes. Further is refused
    /// (``ReplyError/stampInFuture(stamped:now:)``), since a stamp from the
    /// future would outrank every real answer made after it.
    public static let clockSkew: TimeInterval = 15 * 60

    /// Reads the reply in a calendar.
    /// - Parameter calendar: a calendar as a mail program's invitation answer holds it.
    /// - Throws: ``ReplyError`` for anything but one answer of one person.
    public init(reading calendar: ICalendar) throws(ReplyError) {
        let method = calendar.method?.uppercased() ?? ""
        switch method {
        case "REPLY": break
        case "COUNTER", "REFRESH", "DECLINECOUNTER", "ADD":
            throw .notSupported(method)
        default:
            throw .notAReply(method.isEmpty ? nil : method)
        }
        // The answer's event: read as an item, or kept as written when it has
        // no DTSTART (an iTIP message may leave it out: RFC 5546 §4.2.2).
        typealias Event = (uid: String, recurrenceID: CalendarTime?, thisAndFuture: Bool, sequence: Int, stamp: CalendarTime?, properties: [ContentLine])
        var events: [Event] = calendar.items.flatMap { item in
            (item.hasMaster ? [(item.uid, nil, false, item.sequence, item.timestamp, Array(item.properties))] : [])
                + item.overrides.map { ($0.item.uid, $0.recurrenceID, $0.thisAndFuture, $0.item.sequence, $0.item.timestamp, Array($0.item.properties)) }
        }
        for c in calendar.components where c.name == "VEVENT" {
            let line = { (name: String) in c.properties.first { $0.name == name } }
            let recurrenceID = line("RECURRENCE-ID").flatMap { try? CalendarTime(icalValue: $0.value, tzid: $0.parameter("TZID")) }
            events.append((line("UID")?.value ?? "", recurrenceID, line("RECURRENCE-ID")?.parameter("RANGE")?.uppercased() == "THISANDFUTURE",
                           line("SEQUENCE").flatMap { Int($0.value.trimmingCharacters(in: .whitespaces)) } ?? 0,
                           line("DTSTAMP").flatMap { try? CalendarTime(icalValue: $0.value) }, Array(c.properties)))
        }
        guard events.count == 1, let event = events.first else { throw .events(events.count) }
        // A place is answered one occurrence at a time: the book sends one invitation an occurrence.
        if event.thisAndFuture { throw .thisAndFuture }
        let attendees = event.properties.filter { $0.name == "ATTENDEE" }
        guard attendees.count == 1, let attendee = attendees.first else { throw .attendees(attendees.count) }
        guard let address = Self.address(attendee.value) else { throw .notAnAddress(attendee.value) }
        guard let organizer = event.properties.first(where: { $0.name == "ORGANIZER" }).flatMap({ Self.address($0.value) }) else { throw .noOrganizer }
        let partstat = attendee.parameter("PARTSTAT")?.uppercased() ?? "NEEDS-ACTION"
        guard let answer = AttendeeAnswer(rawValue: partstat) else { throw .noAnswer(partstat) }
        self.uid = event.uid
        self.recurrenceID = event.recurrenceID
        self.sequence = event.sequence
        self.attendee = address
        self.answer = answer
        self.organizer = organizer
        guard let stamp = event.stamp.flatMap({ try? $0.instant(floatingZone: .utc) }) else { throw .noStamp }
        self.stamp = stamp
    }

    static func address(_ value: String) -> String? {
        guard value.lowercased().hasPrefix("mailto:") else { return nil }
        let a = value.dropFirst(7).trimmingCharacters(in: .whitespaces)
        return a.contains("@") ? a : nil
    }
}

/// A reply the book cannot take, and why; nothing was changed.
public enum ReplyError: HorariError, Hashable, Sendable {
    /// The calendar is another iTIP method, or none.
    case notAReply(String?)
    /// A method the book does not answer (`COUNTER`, `REFRESH`).
    case notSupported(String)
    /// Not exactly one event.
    case events(Int)
    /// Not exactly one `ATTENDEE`.
    case attendees(Int)
    /// The attendee is not an e-mail address.
    case notAnAddress(String)
    /// No `ORGANIZER`.
    case noOrganizer
    /// A `PARTSTAT` that is no answer (`NEEDS-ACTION`, `DELEGATED`).
    case noAnswer(String)
    /// No session or class occurrence has this UID (and RECURRENCE-ID).
    case unknownEvent(uid: String, instance: String?)
    /// The reply names another organizer than the book sent as.
    case otherOrganizer(named: String, expected: String)
    /// The attendee was not invited to it.
    case notInvited(String, to: String)
    /// A member answers for an occurrence they hold no place in (given up already, or never booked).
    case holdsNoPlace(String, in: String)
    /// Several members invited to the occurrence share the address that answers.
    case ambiguous(String, [String])
    /// The reply answers an older version.
    case olderSequence(Int, current: Int)
    /// The reply answers the current version, but was made before the answer already recorded.
    case olderAnswer(stamped: Date, recorded: Date)
    /// The book refused the change the answer asks for (a place given up after the cut-off).
    case refused(SchedulingError)
    /// No `DTSTAMP`, or one that is not a date-time: when the answer was made is unknown.
    case noStamp
    /// A `DTSTAMP` later than the desk's now by more than ``SchedulingReply/clockSkew``.
    case stampInFuture(stamped: Date, now: Date)
    /// The reply answers an occurrence and every later one (`RANGE=THISANDFUTURE`).
    case thisAndFuture
    /// The session it answers is no longer to come: done, missed, cancelled, or over.
    case sessionOver(String, status: String)

    /// What is wrong, and what to do.
    public var description: String {
        switch self {
        case .notAReply(let m?): "this is a METHOD:\(m) message, not a REPLY; import it into a calendar with `horari import` without a book, or ask the sender for their answer"
        case .notAReply(nil): "this calendar has no METHOD:REPLY; it is not an answer to an invitation"
        case .notSupported(let m): "METHOD:\(m) is not supported: the book sends invitations and takes answers (REPLY); answer a \(m) by hand"
        case .events(let n): "a reply answers one event; this one holds \(n)"
        case .attendees(let n): "a reply names the one person answering as its ATTENDEE; this one names \(n)"
        case .notAnAddress(let v): "the ATTENDEE ‘\(v)’ is not a mailto: address"
        case .noOrganizer: "the reply names no ORGANIZER; it cannot be matched to an invitation"
        case .noAnswer(let p): "PARTSTAT=\(p) is no answer; a reply says ACCEPTED, DECLINED or TENTATIVE"
        case .unknownEvent(let uid, let instance?): "no class occurrence \(uid) at \(instance) is in the book; the reply is for another calendar, or the class has changed"
        case .unknownEvent(let uid, nil): "no session ‘\(uid)’ is in the book; the reply is for another calendar"
        case .otherOrganizer(let named, let expected): "the reply names \(named) as organizer, but this book sends as \(expected); it answers an invitation this book did not send (or sent under another address: then give that one, --gym 'Name <\(named)>')"
        case .notInvited(let who, let to): "\(who) was not invited to \(to); only the person invited may answer"
        case .holdsNoPlace(let name, let occurrence): "\(name) holds no place in \(occurrence) they were invited to (given up already, waiting, or never booked)"
        case .ambiguous(let address, let members): "\(address) is the address of \(members.joined(separator: " and ")), both invited; the answer cannot say whose it is — change it at the desk (horari cancel --member …)"
        case .olderSequence(let got, let current): "the reply answers version \(got) of the invitation, but it is at version \(current): the time or place changed since; wait for their answer to the new one"
        case .olderAnswer(let stamped, let recorded):
            "the reply was made at \(SchedulingBook.utcText(stamped)), before the answer already recorded (made at \(SchedulingBook.utcText(recorded))); the later answer stands"
        case .refused(let e): e.description
        case .noStamp: "the reply has no DTSTAMP that can be read, so when the answer was made is unknown; ask them to answer again from their calendar program"
        case .stampInFuture(let stamped, let now):
            "the reply says it was made at \(SchedulingBook.utcText(stamped)), later than now (\(SchedulingBook.utcText(now))) by more than a clock can be wrong; check the machine's clock, or ask them to answer again"
        case .thisAndFuture:
            "the reply answers an occurrence and every later one (RANGE=THISANDFUTURE), but each occurrence has a place and an invitation of its own; ask them to answer each invitation"
        case .sessionOver(let id, let status):
            "session ‘\(id)’ is \(status), so an answer to its invitation changes nothing; change it at the desk if something is wrong (horari sessions mark)"
        }
    }

    /// What to do: the part of the sentence after its semicolon; for a
    /// refusal, the book's own suggestion.
    public var recoverySuggestion: String? {
        if case .refused(let e) = self { return e.recoverySuggestion }
        return remedy(of: description)
    }

    /// The case's number (Docs/Errors.md): stable from release to release; a new case takes a new number.
    public var errorCode: Int {
        switch self {
        case .notAReply: 1
        case .notSupported: 2
        case .events: 3
        case .attendees: 4
        case .notAnAddress: 5
        case .noOrganizer: 6
        case .noAnswer: 7
        case .unknownEvent: 8
        case .otherOrganizer: 9
        case .notInvited: 10
        case .holdsNoPlace: 11
        case .ambiguous: 12
        case .olderSequence: 13
        case .refused: 14
        case .olderAnswer: 15
        case .noStamp: 16
        case .stampInFuture: 17
        case .thisAndFuture: 18
        case .sessionOver: 19
        }
    }

    /// The sentence, the suggestion and, for a refusal, the book's error inside.
    public var errorUserInfo: [String: Any] {
        if case .refused(let e) = self { return foundationUserInfo(underlying: e) }
        return foundationUserInfo(underlying: nil)
    }
}

/// What an answer did.
public struct ReplyOutcome: Hashable, Sendable, Codable {
    /// Who answered: a client's or a member's ID.
    public var personID: String
    /// Their name.
    public var name: String
    /// What they answered.
    public var answer: AttendeeAnswer
    /// The session's ID, or the occurrence it answers.
    public var about: String
    /// For a member who declined: whether they gave up a place (else they left the waitlist, or held none).
    public var gaveUpPlace: Bool
    /// The member who moved up from the waitlist into the place, if any.
    public var promoted: String?
}

extension SchedulingBook {
    /// Applies an answer: a client's is recorded on their session (the
    /// coach sees it declined); a member who declines gives up their place
    /// in the occurrence and the first waiting moves up; an accepted or
    /// tentative place is recorded as it stands (the place is held already).
    ///
    /// ``applyTelling(_:gym:now:)`` also returns the messages it owes (the promotion's invitation).
    /// - Parameters:
    ///   - reply: the answer.
    ///   - gym: who sends the gym's messages: a class's answer names them
    ///     as organizer; `nil` for the address the book keeps (`SchedulingBook.gymAddress`).
    ///   - now: when it is applied (a place's cut-off is checked against it).
    /// - Returns: what it did.
    /// - Throws: ``ReplyError``; nothing is changed.
    public mutating func apply(_ reply: SchedulingReply, gym: SchedulingNotice.Person?, now: Date) throws(ReplyError) -> ReplyOutcome {
        let gym = gym ?? gymAddress
        guard let stamp = reply.stamp else { throw .noStamp }
        guard stamp.timeIntervalSince(now) <= SchedulingReply.clockSkew else { throw .stampInFuture(stamped: stamp, now: now) }
        if let recurrenceID = reply.recurrenceID {
            return try applyToClass(reply, recurrenceID: recurrenceID, gym: gym, now: now)
        }
        // `s-anna@DOMAIN` as this book sends it out, or a bare ID (SchedulingBook+UIDs.swift).
        guard let session = coachSessions.sessionsByID[recordID(fromUID: reply.uid)] else { throw .unknownEvent(uid: reply.uid, instance: nil) }
        let coach = people.coachesByID[session.coachID], client = people.clientsByKey[ClientKey(session)]
        let expected = Self.address(coach?.email) ?? gym?.email ?? ""
        guard reply.organizer.caseInsensitiveCompare(expected) == .orderedSame else { throw .otherOrganizer(named: reply.organizer, expected: expected) }
        // The client, invited: a session no message was ever made for (its SEQUENCE still 0) invited no one (issue 41, 11).
        guard let email = client?.email, email.caseInsensitiveCompare(reply.attendee) == .orderedSame, session.sequence > 0 else {
            throw .notInvited(reply.attendee, to: "session ‘\(session.id)’")
        }
        // Only a session still to come is answered: a reply about one done, missed or cancelled, or over, changes nothing.
        guard session.status == .scheduled else { throw .sessionOver(session.id, status: session.status.rawValue) }
        let ends = instant(of: session) + session.duration.components.seconds
        guard Int64(now.timeIntervalSince1970.rounded(.down)) < ends else {
            throw .sessionOver(session.id, status: "over (it ended at \(wall(ends)))")
        }
        guard reply.sequence >= session.sequence else { throw .olderSequence(reply.sequence, current: session.sequence) }
        // Two answers to one version: the later one stands, whichever is read last (§2.1.5).
        if let stamped = reply.stamp, let recorded = session.answeredAt, stamped < recorded { throw .olderAnswer(stamped: stamped, recorded: recorded) }
        do { _ = try recordAnswer(reply.answer, ofSession: session.id, coach: session.coachID, answeredAt: reply.stamp) } catch { throw .refused(error) }
        return ReplyOutcome(personID: session.clientID, name: client?.name ?? session.clientID, answer: reply.answer, about: session.id, gaveUpPlace: false, promoted: nil)
    }

    private mutating func applyToClass(_ reply: SchedulingReply, recurrenceID: CalendarTime, gym: SchedulingNotice.Person?, now: Date) throws(ReplyError) -> ReplyOutcome {
        let date = bookWall(recurrenceID).date
        // The class's own ID answers for its earlier dates too, after a change from a date on (issue 41, 1).
        let classID = recordID(fromUID: reply.uid)
        let key = (try? classTimetable.occurrenceKey(classID, date)) ?? ClassOccurrence.ID(classID: classID, date: date)
        // The occurrence its invitation named: the class's original start that
        // day (RECURRENCE-ID, RFC 5545 §3.8.4.4), the same instant, not a date
        // or another time of the same day (issue 41, 11).
        guard let series = classTimetable.classesByID[key.classID], series.meets(on: date), !recurrenceID.isDate,
              let asked = try? recurrenceID.epochSeconds(floatingZone: zone),
              let original = try? CalendarTime.zoned(series.time.on(date), timeZone.identifier).epochSeconds(floatingZone: zone), asked == original else {
            throw .unknownEvent(uid: reply.uid, instance: String(describing: reply.recurrenceID?.icalValue ?? ""))
        }
        let expected = gym?.email ?? "the gym"
        guard reply.organizer.caseInsensitiveCompare(expected) == .orderedSame else { throw .otherOrganizer(named: reply.organizer, expected: expected) }
        let roster = classTimetable.rosters[key]
        // Only a member who was sent an invitation to the occurrence answers
        // it (one waiting was sent none); two members of one address (a
        // family) cannot be told apart by the answer, which is refused.
        let invited = (roster?.confirmed ?? []).filter { roster?.told[$0] != nil }.compactMap { people.membersByID[$0] }
            .filter { $0.email?.caseInsensitiveCompare(reply.attendee) == .orderedSame }
        guard invited.count < 2 else { throw .ambiguous(reply.attendee, invited.map(\.id)) }
        guard let member = invited.first else {
            if let known = people.membersByID.values.first(where: { $0.email?.caseInsensitiveCompare(reply.attendee) == .orderedSame }) {
                throw .holdsNoPlace(known.name, in: "\(series.title) on \(date)")
            }
            throw .notInvited(reply.attendee, to: "\(series.title) on \(date)")
        }
        let current = roster?.told[member.id] ?? 0
        guard reply.sequence >= current else { throw .olderSequence(reply.sequence, current: current) }
        var outcome = ReplyOutcome(personID: member.id, name: member.name, answer: reply.answer, about: key.description, gaveUpPlace: false, promoted: nil)
        guard reply.answer == .declined else { return outcome }
        do {
            let cancellation = try cancelBooking(member: member.id, classID: key.classID, on: date, now: now)
            (outcome.gaveUpPlace, outcome.promoted) = (cancellation.heldPlace, cancellation.promoted)
        } catch {
            throw .refused(error)
        }
        return outcome
    }

    /// Applies an answer (``apply(_:gym:now:)``) and returns the messages it
    /// owes: a decline that frees a place invites the first waiting. The one
    /// who answered is not sent a cancellation of what they declined themselves.
    /// - Parameters:
    ///   - reply: the answer.
    ///   - gym: who sends the gym's messages; `nil` for the address the book keeps (`SchedulingBook.gymAddress`).
    ///   - now: when it is applied.
    /// - Returns: what it did, the notices, the book's clocks.
    /// - Throws: ``ReplyError``; nothing is changed.
    public mutating func applyTelling(_ reply: SchedulingReply, gym: SchedulingNotice.Person?, now: Date) throws(ReplyError) -> Told<ReplyOutcome> {
        var told = try telling(now: now) { book throws(ReplyError) in try book.apply(reply, gym: gym, now: now) }
        told.notices.notices.removeAll { $0.method == .cancel && $0.recipient.id == told.result.personID && $0.recordID == recordID(fromUID: reply.uid) }
        return told
    }
}
