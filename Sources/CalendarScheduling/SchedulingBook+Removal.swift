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
        let result = try classTimetable.release(member: id, now: now)
        people.removeMember(id)
        return result
    }

    /// A client's own sessions, by start, whatever their status.
    /// - Parameter clientID: the client.
    /// - Throws: ``SchedulingError/noSuchClient(_:)``.
    public func sessions(client clientID: String) throws(SchedulingError) -> [Session] {
        coachSessions.sessions(of: try client(clientID))
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
        return classTimetable.week(of: date, firstWeekday: firstWeekday, member: memberID)
    }
}
