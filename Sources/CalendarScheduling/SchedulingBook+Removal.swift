import CalendarCore
import Foundation

// Removing records, and the scoped readings a client's and a member's own
// apps need. The rules for what goes with a record:
//
// | removed | what happens |
// |---|---|
// | a session | it is gone (unlike a cancelled one, which stays in the history) |
// | a client | their sessions go with them, and are returned |
// | a coach | refused while they have clients: a coach's clients are theirs alone, so the app decides where they go (remove them first) |
// | a member | every place and waitlist place they hold goes; a place in an occurrence still to come passes to the first member waiting |

extension SchedulingBook {
    /// Removes one of a coach's clients and every session they had.
    /// - Parameters:
    ///   - id: the client.
    ///   - coachID: their coach.
    /// - Returns: the client's sessions that were removed, by start.
    /// - Throws: ``SchedulingError/unknownClient(_:coach:)``, also for another coach's client.
    @discardableResult
    public mutating func removeClient(_ id: String, coach coachID: String) throws(SchedulingError) -> [Session] {
        let client = try self.client(id, coach: coachID)
        let theirs = coachSessions.sessions(of: client)
        for s in theirs { _ = try coachSessions.remove(s.id, coach: coachID) }
        people.removeClient(ClientKey(client))
        return theirs
    }

    /// Removes a coach who has no clients left.
    /// - Parameter id: the coach.
    /// - Throws: ``SchedulingError/coachHasClients(_:clients:)`` while they
    ///   have clients, ``SchedulingError/unknownCoach(_:)``.
    public mutating func removeCoach(_ id: String) throws(SchedulingError) {
        try people.removeCoach(id)
        coachSessions.forgetCoach(id)
    }

    /// Removes a member, giving up every place and waitlist place they hold.
    ///
    /// A place in an occurrence that has not started by `now` goes to the
    /// first member waiting, as a cancellation's does; places in occurrences
    /// that have started are simply removed.
    /// - Parameters:
    ///   - id: the member.
    ///   - now: the time of the request.
    /// - Returns: for each occurrence they were in, whether they held a place
    ///   and who got it.
    /// - Throws: ``SchedulingError/unknownMember(_:)``.
    @discardableResult
    public mutating func removeMember(_ id: String, now: Date = Date()) throws(SchedulingError) -> [ClassOccurrence.ID: Cancellation] {
        _ = try member(id)
        var result: [ClassOccurrence.ID: Cancellation] = [:]
        for key in (occurrencesByMember[id] ?? []).sorted() {
            if let o = try? occurrence(key), o.startSeconds > Self.seconds(now) {
                result[key] = try cancelBooking(member: id, classID: key.classID, on: key.date, now: now)
            } else if var roster = rosters[key] {
                let held = roster.confirmed.contains(id)
                roster.confirmed.removeAll { $0 == id }
                roster.waitlist.removeAll { $0 == id }
                rosters[key] = roster.isEmpty ? nil : roster
                result[key] = Cancellation(heldPlace: held, promoted: nil)
            }
        }
        occurrencesByMember[id] = nil
        people.removeMember(id)
        return result
    }

    /// A client's own sessions, by start, whatever their status.
    /// - Parameter clientID: the client.
    /// - Throws: ``SchedulingError/noSuchClient(_:)``.
    public func sessions(client clientID: String) throws(SchedulingError) -> [Session] {
        coachSessions.sessions(of: try client(clientID))
    }

    /// Everything a member is in, by start: each occurrence with their
    /// place (held, or their position on the waitlist) and its places left.
    /// - Parameter memberID: the member.
    /// - Throws: ``SchedulingError/unknownMember(_:)``.
    public func agenda(member memberID: String) throws(SchedulingError) -> [MemberBooking] {
        try memberOccurrences(memberID).compactMap { o in place(of: memberID, in: o.id).map { MemberBooking(occurrence: o, place: $0) } }
    }

    /// One week of the timetable, each date's occurrences with their places
    /// left and, for a member, their own place in each.
    /// - Parameters:
    ///   - date: any date in the week.
    ///   - firstWeekday: the day a week starts on.
    ///   - memberID: the member whose places to show, if any.
    /// - Throws: ``SchedulingError/unknownMember(_:)``.
    public func timetable(weekOf date: LocalDate, firstWeekday: Weekday = .monday, member memberID: String? = nil) throws(SchedulingError) -> [TimetableDate] {
        if let memberID { _ = try member(memberID) }
        let first = date.adding(days: -((date.weekday.rawValue - firstWeekday.rawValue + 7) % 7))
        let found = occurrences(from: first, through: first.adding(days: 6))
        return (0..<7).map { i in
            let day = first.adding(days: i)
            let entries = found.filter { $0.start.date == day }.map { o in
                TimetableEntry(occurrence: o, series: classesByID[o.id.classID], place: memberID.flatMap { place(of: $0, in: o.id) })
            }
            return TimetableDate(date: day, entries: entries)
        }
    }

    /// A member's place in an occurrence, if they have one.
    func place(of memberID: String, in key: ClassOccurrence.ID) -> MemberPlace? {
        guard let roster = rosters[key] else { return nil }
        if roster.confirmed.contains(memberID) { return .booked }
        return roster.waitlist.firstIndex(of: memberID).map { .waitlisted(position: $0 + 1) }
    }
}

/// A member's place in one occurrence.
public enum MemberPlace: Hashable, Sendable, Codable {
    /// They hold a place.
    case booked
    /// They wait; 1 is next.
    case waitlisted(position: Int)

    /// Decodes `{"kind": "booked"}` or `{"kind": "waitlisted", "position": 2}`.
    /// - Parameter decoder: the decoder.
    public init(from decoder: any Decoder) throws {
        self = try PlaceForm.decode(decoder, held: "booked").map { .waitlisted(position: $0) } ?? .booked
    }

    /// Encodes the place with a `kind`.
    /// - Parameter encoder: the encoder.
    public func encode(to encoder: any Encoder) throws {
        let position: Int? = if case .waitlisted(let p) = self { p } else { nil }
        try PlaceForm.encode(waitlisted: position, held: "booked", to: encoder)
    }
}

/// An occurrence a member is in, and their place in it.
public struct MemberBooking: Hashable, Sendable, Codable {
    /// The occurrence, with its capacity and places left.
    public var occurrence: ClassOccurrence
    /// Their place: held, or a position on the waitlist.
    public var place: MemberPlace
}

/// One dated entry of a week's timetable.
public struct TimetableEntry: Hashable, Sendable, Codable {
    /// The occurrence, with its capacity, places taken and left, and waiting.
    public var occurrence: ClassOccurrence
    /// Where it meets.
    public var location: String?
    /// Who teaches it.
    public var instructor: String?
    /// Its colour.
    public var color: ItemColor?
    /// The member's own place in it, when the timetable was asked for a member.
    public var place: MemberPlace?

    init(occurrence: ClassOccurrence, series: ClassSeries?, place: MemberPlace?) {
        self.occurrence = occurrence
        location = series?.location
        instructor = series?.instructor
        color = series?.color
        self.place = place
    }
}

/// One date of a week's timetable.
public struct TimetableDate: Hashable, Sendable, Codable {
    /// The date.
    public var date: LocalDate
    /// Its occurrences by start, cancelled ones too.
    public var entries: [TimetableEntry]
}
