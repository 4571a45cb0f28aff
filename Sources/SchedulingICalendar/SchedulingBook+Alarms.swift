import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit

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
    /// The book keeps no `VALARM`, so `defaults` is what rings (the app's
    /// setting, such as one hour before every booked class);
    /// ``alarms(member:from:to:defaults:remindersIn:)`` also rings the
    /// reminders the calendar's records hold.
    /// - Parameters:
    ///   - memberID: the member.
    ///   - from: the start of the window.
    ///   - to: its end (exclusive).
    ///   - defaults: the alarms every booked class has.
    /// - Throws: `SchedulingError.unknownMember(_:)`.
    public func alarms(member memberID: String, from: Date, to: Date, defaults: [Alarm]) throws(SchedulingError) -> AlarmReport {
        // The member's schedule draws waitlist places too (TENTATIVE); a
        // place not held is not a class to go to.
        let held = try memberItems(member: memberID, heldOnly: true)
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

    /// The moments a member's reminders go off, as
    /// ``alarms(member:from:to:defaults:)``, with the reminders the
    /// calendar's records of their classes hold: the `VALARM`s of the
    /// occurrence's own instance, else of its class. (RFC 5545 §3.8.4.4 makes
    /// an instance a whole component, which rings only its own; but a booked
    /// occurrence's instance is the book's, written to hold its members, and
    /// a reminder the gym sets on the class later is meant for them too.)
    /// A reminder set in another program rings here too.
    /// - Parameters:
    ///   - memberID: the member.
    ///   - from: the start of the window.
    ///   - to: its end (exclusive).
    ///   - defaults: the alarms every booked class with none of its own has.
    ///   - calendar: the calendar the book was read from.
    /// - Throws: `SchedulingError.unknownMember(_:)`.
    public func alarms(member memberID: String, from: Date, to: Date, defaults: [Alarm], remindersIn calendar: ICalendar) throws(SchedulingError) -> AlarmReport {
        // Each class's reminders, and its instances' own by date: found once, not once per booking.
        var classes: [String: (reminders: Reminders, instances: [LocalDate: Reminders])] = [:]
        for item in calendar.items where item.properties.contains(where: { $0.name == Names.capacity }) {
            let id = item.properties.first { $0.name == Names.classPart }?.value ?? item.uid
            if item.uid == id || classes[id] == nil { classes[id, default: (Reminders(), [:])].reminders = item.reminders }
            for o in item.overrides where o.item.hasAlarms { classes[id, default: (Reminders(), [:])].instances[bookWall(o.recurrenceID).date] = o.item.reminders }
        }
        let held = try memberItems(member: memberID, heldOnly: true).map { item in
            // Her dates of a class ring the class's reminders, or a date's own.
            guard let classID = item.properties.first(where: { $0.name == Names.classID })?.value,
                  let keys = classOccurrences(exportedAs: item) else { return item }
            var item = item
            item.reminders = classes[classID]?.reminders ?? Reminders()
            for (instance, key) in zip([item.start] + item.recurrenceDates, keys) {
                guard let records = classes[key.classID] else { continue }
                let own = records.instances[key.date] ?? records.reminders
                if let i = item.overrides.firstIndex(where: { $0.recurrenceID == instance }) {
                    item.overrides[i].item.reminders = own
                } else if own != item.reminders {
                    // A date whose reminders are not the series': an instance of its own.
                    var single = item
                    (single.start, single.recurrenceDates, single.overrides, single.reminders) = (instance, [], [], own)
                    item.overrides.append(RecurrenceOverride(recurrenceID: instance, item: single))
                }
            }
            return item
        }
        return Schedule(items: held, onBookZone: timeZone).alarms(from: from, to: to, floatingZone: timeZone, defaults: defaults)
    }

    /// The moments a coach's reminders go off, as
    /// ``alarms(coach:from:to:defaults:)``, with the reminders the
    /// calendar's records of their sessions hold (a `VALARM` the coach set
    /// on one in Apple Calendar, say); `defaults` for the others.
    /// - Parameters:
    ///   - coachID: the coach.
    ///   - from: the start of the window.
    ///   - to: its end (exclusive).
    ///   - defaults: the alarms every session with none of its own has.
    ///   - calendar: the calendar the book was read from.
    /// - Throws: `SchedulingError.unknownCoach(_:)`.
    public func alarms(coach coachID: String, from: Date, to: Date, defaults: [Alarm], remindersIn calendar: ICalendar) throws(SchedulingError) -> AlarmReport {
        let sessions = try sessions(coach: coachID)
        let ids = Set(sessions.map(\.id))
        var reminders: [String: Reminders] = [:]
        for item in calendar.items where ids.contains(item.uid) { reminders[item.uid] = item.reminders }
        let items = sessions.map { session in
            var item = calendarItem(for: session)
            item.reminders = reminders[session.id] ?? Reminders()
            return item
        }
        return Schedule(items: items, onBookZone: timeZone).alarms(from: from, to: to, floatingZone: timeZone, defaults: defaults)
    }
}

/// An item's reminders, as one value a class's dates and a member's copy of
/// them share: its alarms and the `VALARM`s it keeps unread.
struct Reminders: Hashable {
    var alarms: [Alarm] = []
    var unreadable: [UnreadableAlarm] = []
}

extension CalendarItem {
    /// The item's reminders (``CalendarItem/alarms`` and ``CalendarItem/unreadableAlarms``).
    var reminders: Reminders {
        get { Reminders(alarms: alarms, unreadable: unreadableAlarms) }
        set { (alarms, unreadableAlarms) = (newValue.alarms, newValue.unreadable) }
    }
}
