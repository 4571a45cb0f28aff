import CalendarCore
import Foundation

// A coach's free and busy time (issue 32, 4 and 5).
//
// Out: `freeBusy(coach:in:)` — the sessions that hold time, each widened by
// the coach's buffer, are BUSY; the hours they do not work are
// BUSY-UNAVAILABLE (RFC 5545 §3.2.9: "the time interval is busy and that
// the interval can not be scheduled"); the time they are busy elsewhere is
// BUSY. The periods are merged per kind, and no BUSY-UNAVAILABLE period
// lies under a BUSY one: each instant is said once.
//
// In: `setBusyElsewhere(_:coach:)` — the time a coach's own calendar holds
// (read by ICalendarKit: events, recurring ones too, on their own zones, or
// a VFREEBUSY). It is the caller's to give for each request, and is not
// saved: a personal calendar changes without the book knowing, and a book
// that kept a copy would book against stale time. Free slots leave it out,
// and a session that would touch it (with the buffer) is refused.

extension SchedulingBook {
    /// Sets the time a coach is busy elsewhere, by their own calendar, for
    /// this book's free slots and clash checks; not saved with the book.
    ///
    /// `FREE` periods are ignored; the others are merged.
    /// - Parameters:
    ///   - periods: the busy time.
    ///   - coachID: the coach.
    /// - Throws: ``SchedulingError/unknownCoach(_:)``.
    public mutating func setBusyElsewhere(_ periods: [FreeBusyPeriod], coach coachID: String) throws(SchedulingError) {
        _ = try coach(coachID)
        let busy = FreeBusyPeriod.merged(periods.filter { $0.kind != .free }.map { FreeBusyPeriod(start: $0.start, end: $0.end, kind: .busy) })
        coachSessions.elsewhere[coachID] = busy.isEmpty ? nil : busy
    }

    /// The time a coach is busy elsewhere (``setBusyElsewhere(_:coach:)``), merged, by start.
    /// - Parameter coachID: the coach.
    public func busyElsewhere(coach coachID: String) -> [FreeBusyPeriod] { coachSessions.elsewhere[coachID] ?? [] }

    /// A coach's free and busy time over an interval, as a `VFREEBUSY` says
    /// it: their sessions with the buffer on each side and the time they are
    /// busy elsewhere `BUSY`, the hours they do not work
    /// `BUSY-UNAVAILABLE`, merged per kind and clipped to the interval;
    /// what is said of no instant is free.
    /// - Parameters:
    ///   - coachID: the coach.
    ///   - interval: the window.
    /// - Throws: ``SchedulingError/unknownCoach(_:)``.
    public func freeBusy(coach coachID: String, in interval: DateInterval) throws(SchedulingError) -> [FreeBusyPeriod] {
        let coach = try coach(coachID)
        let from = interval.start.clampedEpochSeconds, to = interval.end.clampedEpochSecondsRoundedUp
        let buffer = coach.buffer.components.seconds
        var busy = coachSessions.busy(coach: coachID, from: from, to: to, buffer: buffer)
        busy += coachSessions.busyElsewhere(coachID, from, to, buffer: 0)
        busy = FreeBusyPeriod.merged(busy.map { FreeBusyPeriod(start: max($0.start, from), end: min($0.end, to), kind: .busy) })
        // The hours not worked, day by day on the book's clocks.
        var unavailable: [FreeBusyPeriod] = []
        let (first, last) = days(of: interval)
        var day = first.dayNumber
        while day <= last.dayNumber {
            let date = LocalDate(dayNumber: day)
            var cursor = Self.seconds(date.start(in: timeZone))
            for range in coach.workingHours.hours(on: date) {
                let open = timeZone.instant(range.start.on(date))
                if open > cursor { unavailable.append(FreeBusyPeriod(start: cursor, end: open, kind: .busyUnavailable)) }
                cursor = max(cursor, timeZone.instant(range.end.on(date)))
            }
            let midnight = Self.seconds(date.adding(days: 1).start(in: timeZone))
            if midnight > cursor { unavailable.append(FreeBusyPeriod(start: cursor, end: midnight, kind: .busyUnavailable)) }
            day += 1
        }
        unavailable = unavailable.compactMap { p in
            let clipped = FreeBusyPeriod(start: max(p.start, from), end: min(p.end, to), kind: p.kind)
            return clipped.end > clipped.start ? clipped : nil
        }
        return FreeBusyPeriod.merged(busy + FreeBusyPeriod.subtracting(busy, from: unavailable))
    }
}

extension CoachSessions {
    /// The coach's sessions that hold time in [from, to), widened by the buffer.
    func busy(coach coachID: String, from: Int64, to: Int64, buffer: Int64) -> [FreeBusyPeriod] {
        (timelines[coachID] ?? Timeline()).overlapping(from, to, buffer: buffer).map {
            FreeBusyPeriod(start: $0.start - buffer, end: $0.end + buffer, kind: .busy)
        }
    }

    /// The coach's busy time elsewhere within `buffer` of [from, to).
    func busyElsewhere(_ coachID: String, _ from: Int64, _ to: Int64, buffer: Int64) -> [FreeBusyPeriod] {
        (elsewhere[coachID] ?? []).filter { $0.start < to + buffer && from < $0.end + buffer }
    }
}
