import CalendarCore

/// Records stored as read, checked as records and not as bookings: a
/// session from any form a book is kept in, a roster from the JSON form.
extension SchedulingBook {
    /// Stores a session as read, with no clash check.
    package mutating func restore(_ s: Session) throws(SchedulingError) {
        _ = try client(s.clientID, coach: s.coachID)
        try coachSessions.restore(s)
    }

    /// Stores who holds the places of an occurrence and who waits, as the
    /// JSON form reads them, refusing unknown members, a member listed twice
    /// and a second roster of the occurrence (naming the JSON roster's
    /// `date` and `booked` fields).
    mutating func restoreRoster(classID: String, date: LocalDate, booked: [String], waiting: [String]) throws(SchedulingError) {
        let key = try occurrenceKey(classID, date)
        guard rosters[key] == nil else {
            throw .invalid(field: SchedulingError.Field(rawValue: "date"), reason: "the occurrence \(key) has two rosters; keep one, with every member in it")
        }
        for id in booked + waiting {
            _ = try member(id)
            guard occurrencesByMember[id]?.insert(key).inserted ?? true else {
                throw .invalid(field: SchedulingError.Field(rawValue: "booked"), reason: "member ‘\(id)’ appears twice in the roster of \(key)")
            }
            occurrencesByMember[id, default: []].insert(key)
        }
        let roster = Roster(confirmed: booked, waitlist: waiting)
        if !roster.isEmpty { rosters[key] = roster }
    }
}
