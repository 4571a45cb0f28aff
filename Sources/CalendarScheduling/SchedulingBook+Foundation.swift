import CalendarCore
import Foundation

// The book's values in Foundation's terms: a session's end and its instants,
// free slots and class occurrences as `DateInterval`s, and the windows the
// book reads (free slots, class occurrences) given as a `DateInterval`.
//
// A session holds its start on the book's wall clock and its length; its end
// is an instant `duration` after the start, which on the night the clocks
// change is not `start + duration` on the wall (a 60-minute session from
// 02:30 on the night Madrid's clocks go back ends at the second 02:30). So the
// end is read on a zone's clocks — the book's, through ``SchedulingBook/end(of:)``,
// or any zone through ``Session/end(in:)`` — never guessed from the wall time.

extension Session {
    /// The instants the session covers, on a zone's clocks (the book's, for the book's sessions).
    ///
    /// - Parameter zone: the zone whose clocks ``start`` is on.
    public func dateInterval(in zone: ZoneRules) -> DateInterval {
        let start = zone.instant(of: self)
        return DateInterval(start: Date(timeIntervalSince1970: TimeInterval(start)),
                            end: Date(timeIntervalSince1970: TimeInterval(start + duration.components.seconds)))
    }

    /// When the session ends, on a zone's clocks: ``duration`` after its start.
    ///
    /// ```swift
    /// let ends = session.end(in: book.timeZone)   // 19:00 for 18:00 + 60 minutes
    /// ```
    ///
    /// - Parameter zone: the zone whose clocks ``start`` is on.
    /// - Returns: the wall time of the instant it ends; on the night the
    ///   clocks go back, that wall time may read earlier than the start's.
    public func end(in zone: ZoneRules) -> LocalDateTime {
        zone.wall(zone.instant(of: self) + duration.components.seconds)
    }
}

extension FreeSlot {
    /// The instants the slot covers.
    public var dateInterval: DateInterval {
        DateInterval(start: startDate, end: Date(timeIntervalSince1970: TimeInterval(endSeconds)))
    }
}

extension ClassOccurrence {
    /// The instants the occurrence covers, from its start for its ``duration``.
    public var dateInterval: DateInterval {
        let start = Date(timeIntervalSince1970: TimeInterval(startSeconds))
        return DateInterval(start: start, duration: duration.timeInterval)
    }
}

extension SchedulingBook {
    /// When a session ends, on the book's clocks.
    ///
    /// - Parameter session: one of the book's sessions.
    public func end(of session: Session) -> LocalDateTime { session.end(in: timeZone) }

    /// The instants a session covers, read on the book's clocks.
    ///
    /// - Parameter session: one of the book's sessions.
    public func dateInterval(of session: Session) -> DateInterval { session.dateInterval(in: timeZone) }

    /// A coach's free slots that lie wholly inside an interval of instants.
    ///
    /// The same slots as ``freeSlots(coach:from:through:length:step:alignedTo:notBefore:)``
    /// over the book's dates the interval touches, without those that start
    /// before `interval.start` or end after `interval.end`.
    ///
    /// - Parameters:
    ///   - coachID: the coach.
    ///   - interval: the window.
    ///   - length: each slot's length, in whole minutes.
    ///   - step: the time between the starts of offered slots (default: `length`).
    ///   - grid: a grid every start is rounded up to, on the wall clock.
    /// - Throws: ``SchedulingError/unknownCoach(_:)``, a length, step or grid outside 1 minute to 24 hours.
    public func freeSlots(
        coach coachID: String, in interval: DateInterval, length: Duration, step: Duration? = nil, alignedTo grid: Duration? = nil
    ) throws(SchedulingError) -> [FreeSlot] {
        let (first, last) = days(of: interval)
        let end = interval.end.clampedEpochSecondsRoundedUp
        return try freeSlots(coach: coachID, from: first, through: last, length: length, step: step, alignedTo: grid, notBefore: interval.start)
            .filter { $0.endSeconds <= end }
    }

    /// The occurrences of one class or of all that start inside an interval of instants, by start.
    ///
    /// - Parameters:
    ///   - classID: the class, or `nil` for every class.
    ///   - interval: the window of starts; its end is exclusive.
    public func occurrences(classID: String? = nil, in interval: DateInterval) -> [ClassOccurrence] {
        let (first, last) = days(of: interval)
        let (a, b) = (interval.start.clampedEpochSeconds, interval.end.clampedEpochSecondsRoundedUp)
        return occurrences(classID: classID, from: first, through: last).filter { $0.startSeconds >= a && $0.startSeconds < b }
    }

    /// The book's dates an interval touches, first and last.
    func days(of interval: DateInterval) -> (LocalDate, LocalDate) {
        (LocalDate(interval.start, in: timeZone), LocalDate(interval.end, in: timeZone))
    }
}

extension CoachDesk {
    /// This coach's free slots that lie wholly inside an interval of instants.
    ///
    /// - Parameters:
    ///   - interval: the window.
    ///   - length: each slot's length.
    ///   - step: the time between slot starts (default: `length`).
    ///   - alignedTo: a wall-clock grid every start is rounded up to.
    public func freeSlots(in interval: DateInterval, length: Duration, step: Duration? = nil, alignedTo: Duration? = nil) async throws(SchedulingError) -> [FreeSlot] {
        try await run { book, coach throws(SchedulingError) in
            try book.freeSlots(coach: coach, in: interval, length: length, step: step, alignedTo: alignedTo)
        }
    }
}
