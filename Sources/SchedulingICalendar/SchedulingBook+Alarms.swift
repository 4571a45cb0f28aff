import CalendarCore
import CalendarScheduling
import Foundation

extension SchedulingBook {
    /// The moments a member's reminders go off: for their own booked classes
    /// only — places they hold, not places on a waitlist, nobody else's
    /// bookings, no cancelled or closed date.
    ///
    /// ```swift
    /// let hourBefore = try Alarm(.before(.hours(1)), message: "Class in an hour")
    /// let due = try book.alarms(member: "marta", from: now, to: nextWeek, defaults: [hourBefore])
    /// ```
    ///
    /// A booked class carries no `VALARM` of its own, so `defaults` is what
    /// rings (the app's setting, such as one hour before every booked class).
    /// - Parameters:
    ///   - memberID: the member.
    ///   - from: the start of the window.
    ///   - to: its end (exclusive).
    ///   - defaults: the alarms every booked class has.
    /// - Throws: `SchedulingError.unknownMember(_:)`.
    public func alarms(member memberID: String, from: Date, to: Date, defaults: [Alarm]) throws(SchedulingError) -> AlarmReport {
        // The member's schedule draws waitlist places too (TENTATIVE); a
        // place not held is not a class to go to.
        let held = try memberSchedule(member: memberID).items.filter { $0.status == .confirmed }
        return Schedule(items: held, onBookZone: timeZone).alarms(from: from, to: to, floatingZone: timeZone, defaults: defaults)
    }

    /// The moments a coach's reminders go off: for their own sessions only,
    /// never a cancelled one, and never another coach's.
    /// - Parameters:
    ///   - coachID: the coach.
    ///   - from: the start of the window.
    ///   - to: its end (exclusive).
    ///   - defaults: the alarms every session has.
    /// - Throws: `SchedulingError.unknownCoach(_:)`.
    public func alarms(coach coachID: String, from: Date, to: Date, defaults: [Alarm]) throws(SchedulingError) -> AlarmReport {
        try coachSchedule(coach: coachID).alarms(from: from, to: to, floatingZone: timeZone, defaults: defaults)
    }

    /// ``alarms(member:from:to:defaults:)`` over a `DateInterval` (its end excluded).
    /// - Parameters:
    ///   - memberID: the member.
    ///   - window: when.
    ///   - defaults: the alarms every booked class has.
    /// - Throws: `SchedulingError.unknownMember(_:)`.
    public func alarms(member memberID: String, in window: DateInterval, defaults: [Alarm]) throws(SchedulingError) -> AlarmReport {
        try alarms(member: memberID, from: window.start, to: window.end, defaults: defaults)
    }

    /// ``alarms(coach:from:to:defaults:)`` over a `DateInterval` (its end excluded).
    /// - Parameters:
    ///   - coachID: the coach.
    ///   - window: when.
    ///   - defaults: the alarms every session has.
    /// - Throws: `SchedulingError.unknownCoach(_:)`.
    public func alarms(coach coachID: String, in window: DateInterval, defaults: [Alarm]) throws(SchedulingError) -> AlarmReport {
        try alarms(coach: coachID, from: window.start, to: window.end, defaults: defaults)
    }
}
