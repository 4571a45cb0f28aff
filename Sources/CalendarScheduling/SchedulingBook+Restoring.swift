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
    /// JSON form reads them (see `ClassTimetable.restoreRoster`).
    mutating func restoreRoster(classID: String, date: LocalDate, booked: [String], waiting: [String], sequence: Int = 0, told: [String: Int] = [:]) throws(SchedulingError) {
        try classTimetable.restoreRoster(classID: classID, date: date, booked: booked, waiting: waiting, sequence: sequence, told: told, people: people)
    }

    /// Stores a roster read from a calendar, whose members the reader checked.
    package mutating func setRoster(_ roster: Roster, of key: ClassOccurrence.ID) { classTimetable.setRoster(roster, of: key) }

    /// The sequence a class holds for its dates that keep no roster, as
    /// read (a calendar's series `SEQUENCE`; `ClassTimetable.seriesSequence`).
    package mutating func restoreSeriesSequence(_ sequence: Int, ofClass classID: String) {
        classTimetable.raiseSeriesSequence(sequence, of: classID)
    }

    /// The sequence a class holds for its dates that keep no roster (0 for none).
    package func seriesSequence(ofClass classID: String) -> Int { classTimetable.seriesSequence[classID] ?? 0 }
}
