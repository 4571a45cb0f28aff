import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit

// The client's own calendar (issue 44, 2).
//
// Remote Trainer is built for clients first: a client subscribes to her
// sessions with her coach and is reminded of them. Her calendar holds each
// of her sessions with that coach as her invitation names it — the UID the
// book sends it out under (`s-anna-1126@DOMAIN`), the title "Training with
// COACH", the coach as ORGANIZER and her as ATTENDEE, the session's SEQUENCE
// — so a calendar that imports her feed and her invitations shows each
// session once. Like the invitation it leaves out the coach's notes (the
// coach's own, as in every message the book sends, issue 28), the coach's
// other clients and the book's own properties; a cancelled session stays,
// `STATUS:CANCELLED`, so her calendar strikes it rather than forgetting it.

extension SchedulingBook {
    /// A client's sessions with her coach as her own calendar shows them:
    /// oldest first, each as her invitation to it names it, cancelled ones
    /// `STATUS:CANCELLED`; never the coach's notes or another client.
    ///
    /// ```swift
    /// let feed = ICalendar(items: try book.clientSchedule(client: "anna", coach: "marc").items)
    /// ```
    /// - Parameters:
    ///   - clientID: the client.
    ///   - coachID: her coach (client IDs are each coach's own).
    /// - Throws: `SchedulingError.unknownClient(_:coach:)` for a client who
    ///   is not this coach's, `SchedulingError.unknownCoach(_:)`.
    public func clientSchedule(client clientID: String, coach coachID: String) throws(SchedulingError) -> Schedule {
        Schedule(items: try history(client: clientID, coach: coachID).reversed().map(clientItem(for:)), onBookZone: timeZone)
    }

    /// The moments a client's reminders go off: for her sessions with her
    /// coach still to be held, never a cancelled one or one she declined. The book keeps no
    /// reminder of hers (a `VALARM` on a session is the coach's), so
    /// `defaults` is what rings: the app's setting.
    ///
    /// ```swift
    /// let dayBefore = try Alarm(.before(.hours(24)), message: "Training tomorrow")
    /// let due = try book.alarms(client: "anna", coach: "marc", from: now, to: nextWeek, defaults: [dayBefore])
    /// ```
    /// - Parameters:
    ///   - clientID: the client.
    ///   - coachID: her coach.
    ///   - from: the start of the window.
    ///   - to: its end (exclusive).
    ///   - defaults: the alarms every session has.
    /// - Throws: as ``clientSchedule(client:coach:)``.
    public func alarms(client clientID: String, coach coachID: String, from: Date, to: Date, defaults: [Alarm]) throws(SchedulingError) -> AlarmReport {
        // Not one she declined: she said she will not come.
        let held = try history(client: clientID, coach: coachID).reversed().filter { $0.status == .scheduled && $0.answer != .declined }.map(clientItem(for:))
        return Schedule(items: held, onBookZone: timeZone).alarms(from: from, to: to, floatingZone: timeZone, defaults: defaults)
    }

    /// ``alarms(client:coach:from:to:defaults:)`` over a `DateInterval` (its end excluded).
    /// - Parameters:
    ///   - clientID: the client.
    ///   - coachID: her coach.
    ///   - window: when.
    ///   - defaults: the alarms every session has.
    /// - Throws: as ``clientSchedule(client:coach:)``.
    public func alarms(client clientID: String, coach coachID: String, in window: DateInterval, defaults: [Alarm]) throws(SchedulingError) -> AlarmReport {
        try alarms(client: clientID, coach: coachID, from: window.start, to: window.end, defaults: defaults)
    }

    /// One session as its client's calendar holds it.
    func clientItem(for session: Session) -> CalendarItem {
        let coach = people.coachesByID[session.coachID], client = people.clientsByKey[ClientKey(session)]
        let coachName = coach?.name ?? session.coachID
        var attendee: [ContentLine.Parameter] = [.init(name: "CN", values: [client?.name ?? session.clientID])]
        if let answer = session.answer { attendee.append(.init(name: "PARTSTAT", values: [answer.rawValue])) }
        // The organizer her invitations name: the coach, or the gym for a coach with no address
        // (SchedulingNotice.sender(gym:)); never the book's own ID of a coach.
        let organizer: ContentLine
        if let email = coach?.email, !email.isEmpty {
            organizer = ContentLine(name: "ORGANIZER", parameters: [.init(name: "CN", values: [coachName])], value: "mailto:" + email)
        } else if let gym = gymAddress {
            organizer = ContentLine(name: "ORGANIZER", parameters: [.init(name: "CN", values: [gym.name])], value: "mailto:" + gym.email)
        } else {
            organizer = ContentLine(name: "ORGANIZER", parameters: [.init(name: "CN", values: [coachName])], value: "urn:x-horari:coach")
        }
        let people = [
            organizer,
            ContentLine(name: "ATTENDEE", parameters: attendee, value: Self.address(client?.email, "client", session.clientID)),
        ]
        return CalendarItem(
            uid: exchangeUID(session.id), title: "Training with \(coachName)",
            start: session.isLaterOfRepeatedTime ? .utc(LocalDateTime(localSeconds: instant(of: session))) : .zoned(session.start, timeZone.identifier),
            end: .lasting(session.duration), color: color(of: session), location: session.location,
            categories: session.workoutType.map { [$0] } ?? [],
            status: session.status == .cancelled ? .cancelled : .confirmed, sequence: session.sequence, properties: ContentLines(people))
    }
}
