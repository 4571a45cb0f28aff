import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit

// A notice as the iTIP message (RFC 5546) a calendar program reads.
//
// One VEVENT, named by the UID the book sends it out under (`uid`: the
// session's ID, or a class occurrence as its series' UID and RECURRENCE-ID,
// RFC 5546 §3.2.2.1 "an instance of a recurring event"; `ID@DOMAIN` for a
// book with a UID domain, SchedulingBook+UIDs.swift), with the notice's SEQUENCE. It names
// the organizer and the one recipient: never another client or member, and
// never the coach's notes (the exports' privacy, issue 28). A zoned time
// carries its TZID, and the exporter writes a VTIMEZONE for it.

extension SchedulingNotice {
    /// The iTIP message (`METHOD:REQUEST` or `METHOD:CANCEL`) that tells the
    /// recipient's calendar of the change.
    ///
    /// - Parameters:
    ///   - zone: the book's clocks (`SchedulingBook.timeZone`), which the notice's times are on.
    ///   - gym: who sends a class's messages (its `ORGANIZER`), and a
    ///     session's when its coach has no e-mail address.
    /// - Returns: the calendar; `nil` when there is no organizer to name
    ///   (a class with no `gym`).
    public func iTIPCalendar(timeZone zone: ZoneRules, gym: Person?) -> ICalendar? {
        guard let organizer = sender(gym: gym) else { return nil }
        let attendeeParameters: [ContentLine.Parameter] = [
            .init(name: "CN", values: [recipient.name]), .init(name: "ROLE", values: ["REQ-PARTICIPANT"]),
        ] + (method == .request ? [.init(name: "PARTSTAT", values: ["NEEDS-ACTION"]), .init(name: "RSVP", values: ["TRUE"])] : [])
        let people = [
            ContentLine(name: "ORGANIZER", parameters: [.init(name: "CN", values: [organizer.name])], value: "mailto:" + organizer.email),
            ContentLine(name: "ATTENDEE", parameters: attendeeParameters, value: "mailto:" + recipient.email),
        ]
        let status: ItemStatus = method == .cancel ? .cancelled : .confirmed
        var item: CalendarItem
        switch subject {
        case .session(let s):
            // The second of two equal wall times is written as its UTC instant, as the book stores it.
            var start = CalendarTime.zoned(s.start, zone.identifier)
            if s.isLaterOfRepeatedTime, case .repeated(_, let later) = zone.reading(ofWall: s.start.localSeconds) {
                start = .utc(LocalDateTime(localSeconds: later))
            }
            item = CalendarItem(uid: uid, title: "Training with \(organizerName(organizer))", start: start, end: .lasting(s.duration),
                                location: s.location, status: status, sequence: sequence, properties: ContentLines(people))
        case .classPlace(let p):
            var notes: String?
            if case .closed(let why) = reason { notes = "The gym is closed: \(why)." }
            // The instance alone (RFC 5546 §3.2.2.1): a series with no master, one override.
            let instance = CalendarItem(uid: uid, title: p.occurrence.title, start: .zoned(p.occurrence.start, zone.identifier),
                                        end: .lasting(p.occurrence.duration), notes: notes, location: p.location, status: status, sequence: sequence,
                                        properties: ContentLines(people))
            item = CalendarItem(uid: instance.uid, title: instance.title, start: instance.start, end: instance.end,
                                overrides: [RecurrenceOverride(recurrenceID: .zoned(p.originalStart, zone.identifier), item: instance)], hasMaster: false)
        }
        var calendar = ICalendar(items: [item])
        calendar.method = method.rawValue
        return calendar
    }

    /// The notice as the e-mail that carries it (iMIP, RFC 6047), ready for
    /// a mailer: from the coach or the gym, to the recipient, the readable
    /// text and the iTIP message with its VTIMEZONE.
    ///
    /// ```swift
    /// for notice in told.notices.notices {
    ///     if let mail = try notice.email(timeZone: told.timeZone, gym: gym, date: Date()) {
    ///         try mail.data().write(to: outbox.appendingPathComponent(mail.fileName))
    ///     }
    /// }
    /// ```
    /// - Parameters:
    ///   - zone: the book's clocks (`Told.timeZone`).
    ///   - gym: who sends a class's messages.
    ///   - date: when it is written: its `Date:` header and the calendar's `DTSTAMP`.
    /// - Returns: the message; `nil` when there is no one to send it (a class with no `gym`).
    /// - Throws: `IMIPError` when an address on record is not one a message can go to.
    public func email(timeZone zone: ZoneRules, gym: Person?, date: Date) throws(IMIPError) -> IMIPMessage? {
        guard let sender = sender(gym: gym), let calendar = iTIPCalendar(timeZone: zone, gym: gym) else { return nil }
        let text = ICalendarExporter(options: .init(timestamp: date)).export(calendar)
        return try IMIPMessage(from: .init(name: sender.name, email: sender.email), to: .init(name: recipient.name, email: recipient.email),
                               subject: emailSubject(timeZone: zone), text: emailText(timeZone: zone, gym: gym),
                               method: method.rawValue, calendar: text, date: date)
    }

    /// Who the message is from: the coach of a session when they have an
    /// address, else the gym.
    public func sender(gym: Person?) -> Person? {
        if case .session = subject, let organizer { return organizer }
        return gym
    }

    private func organizerName(_ organizer: Person) -> String {
        if case .session(let s) = subject, self.organizer == nil { return s.coachID }
        return organizer.name
    }

    /// The e-mail's subject line: what happened, to what, when.
    /// - Parameter zone: the book's clocks.
    public func emailSubject(timeZone zone: ZoneRules) -> String {
        "\(headline): \(what) \(Self.when(start, zone))"
    }

    /// The e-mail's readable text, for a mail program that shows no invitation.
    /// - Parameters:
    ///   - zone: the book's clocks.
    ///   - gym: who sends a class's messages.
    public func emailText(timeZone zone: ZoneRules, gym: Person?) -> String {
        var lines = ["Hello \(recipient.name),", ""]
        let at = location.map { " at \($0)" } ?? ""
        switch (method, reason) {
        case (.request, .booked): lines.append("You are booked: \(what), \(Self.when(start, zone)) (\(length) min)\(at).")
        case (.request, .promoted): lines.append("A place came free and it is yours: \(what), \(Self.when(start, zone)) (\(length) min)\(at).")
        case (.request, _): lines.append("\(what) has changed; it is now \(Self.when(start, zone)) (\(length) min)\(at).")
        case (.cancel, .closed(let why)): lines.append("\(what), \(Self.when(start, zone)), will not take place: the gym is closed (\(why)).")
        case (.cancel, .ended): lines.append("\(what), \(Self.when(start, zone)), no longer takes place.")
        case (.cancel, _): lines.append("\(what), \(Self.when(start, zone)), is cancelled.")
        }
        lines += ["", "Times are \(zone.identifier).", "", "— \(sender(gym: gym)?.name ?? "")"]
        return lines.joined(separator: "\n") + "\n"
    }

    private var headline: String {
        switch (method, reason) {
        case (.request, .booked): "Booked"
        case (.request, .promoted): "A place for you"
        case (.request, _): "Changed"
        case (.cancel, .closed): "Closed"
        case (.cancel, _): "Cancelled"
        }
    }

    private var what: String {
        switch subject {
        case .session: "Training session"
        case .classPlace(let p): p.occurrence.title
        }
    }

    private var start: LocalDateTime {
        switch subject {
        case .session(let s): s.start
        case .classPlace(let p): p.occurrence.start
        }
    }

    private var length: Int {
        switch subject {
        case .session(let s): s.duration.wholeMinutes
        case .classPlace(let p): p.occurrence.duration.wholeMinutes
        }
    }

    private var location: String? {
        switch subject {
        case .session(let s): s.location
        case .classPlace(let p): p.location
        }
    }

    private static func when(_ t: LocalDateTime, _ zone: ZoneRules) -> String {
        let d = t.date
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        return "\(names[d.weekday.rawValue]) \(d) \(String(format: "%02d:%02d", t.hour, t.minute))"
    }
}
