import CalendarCore
import Foundation

/// Whom an export of the book is for, and so what it may contain.
public enum ExportAudience: Hashable, Sendable {
    /// Everything, to restore the book from: coaches, clients, members,
    /// classes, sessions, bookings and waitlists.
    case everything
    /// The class timetable with its capacities, naming no one: no sessions,
    /// no member, client or coach records, and no instructor.
    case publicTimetable
    /// The public timetable with each class's instructor
    /// (`X-HORARI-INSTRUCTOR`), for a gym whose staff agreed to be named.
    case publicTimetableNamingInstructors
    /// One member's booked occurrences, each as its own event; nobody else's name.
    case member(String)
    /// One coach's sessions with their clients; no other coach's clients.
    case coach(String)
}

/// What a book writes into a calendar: items and `X-HORARI-*` components.
///
/// SchedulingICalendar puts it into an ICalendarKit calendar, which writes
/// it as `.ics` text; the names it uses are listed in
/// ``SchedulingBook/init(timeZone:items:components:)``.
public struct SchedulingContent: Hashable, Sendable {
    /// Classes, sessions or a member's bookings, as calendar items.
    public var items: [CalendarItem]
    /// The records iCalendar has no component for (coaches, clients,
    /// members, rosters), as `X-HORARI-*` components; only in a full export.
    public var components: [ContentComponent]

    /// Creates content.
    public init(items: [CalendarItem], components: [ContentComponent]) {
        self.items = items
        self.components = components
    }
}

/// The iCalendar names of the book's records. Each is an `X-` name (RFC 5545
/// §3.8.8.2, §3.6 `x-comp`), which every client keeps or ignores.
enum Names {
    static let capacity = "X-HORARI-CAPACITY"
    static let instructor = "X-HORARI-INSTRUCTOR"
    static let coach = "X-HORARI-COACH"
    static let client = "X-HORARI-CLIENT"
    static let member = "X-HORARI-MEMBER"
    static let roster = "X-HORARI-ROSTER"
    static let sessionStatus = "X-HORARI-SESSION-STATUS"
    static let name = "X-HORARI-NAME"
    static let email = "X-HORARI-EMAIL"
    static let buffer = "X-HORARI-BUFFER"
    static let hours = "X-HORARI-HOURS"
    static let dateHours = "X-HORARI-DATE-HOURS"
    static let dayParameter = "X-HORARI-DAY"
    static let classID = "X-HORARI-CLASS"
    static let date = "X-HORARI-DATE"
    static let booked = "X-HORARI-BOOKED"
    static let waiting = "X-HORARI-WAITING"
    static let color = "X-HORARI-COLOR"
    static let waitlistPosition = "X-HORARI-WAITLIST-POSITION"
    static let components: Set<String> = [coach, client, member, roster]
}

extension SchedulingBook {
    /// Whether an item is one the book writes (a class or a session), and so
    /// is replaced, not kept, when the book is saved.
    public static func isSchedulingItem(_ item: CalendarItem) -> Bool {
        item.properties.contains { $0.name == Names.capacity || $0.name == Names.client }
    }

    /// Whether a component is one of the book's records.
    public static func isSchedulingComponent(_ component: ContentComponent) -> Bool {
        Names.components.contains(component.name.uppercased())
    }

    /// What an export for an audience contains.
    /// - Throws: ``SchedulingError/unknownMember(_:)`` or ``SchedulingError/unknownCoach(_:)``.
    public func content(for audience: ExportAudience) throws(SchedulingError) -> SchedulingContent {
        switch audience {
        case .publicTimetable:
            // The default names no person: an instructor is staff, and
            // staff are named only when the gym says so.
            let items = classes.map { series in
                var item = calendarItem(for: series)
                item.properties.removeAll { $0.name == Names.instructor }
                return item
            }
            return SchedulingContent(items: items, components: [])
        case .publicTimetableNamingInstructors:
            return SchedulingContent(items: classes.map(calendarItem(for:)), components: [])
        case .member(let id):
            return SchedulingContent(items: try memberSchedule(member: id).items, components: [])
        case .coach(let id):
            return SchedulingContent(items: try sessions(coach: id).map(calendarItem(for:)), components: [])
        case .everything:
            return backupContent()
        }
    }

    /// Everything in the book, to restore it from: what ``content(for:)``
    /// gives ``ExportAudience/everything``, which names no one and so cannot fail.
    public func backupContent() -> SchedulingContent {
        let sessions = byStart(sessionsByID.values).map(\.session)
        var components = coaches.map(component(for:))
        components += clientsByID.values.sorted { $0.id < $1.id }.map(component(for:))
        components += members.map { m in
            ContentComponent(name: Names.member, properties: [ContentLine(name: "UID", value: m.id), ContentLine(name: Names.name, value: m.name)] + optional(Names.email, m.email))
        }
        components += rosters.keys.sorted().compactMap { key in
            guard let r = rosters[key] else { return nil }
            return ContentComponent(name: Names.roster, properties: [
                ContentLine(name: Names.classID, value: key.classID), ContentLine(name: Names.date, value: key.date.basicISO),
            ] + r.confirmed.map { ContentLine(name: Names.booked, value: $0) } + r.waitlist.map { ContentLine(name: Names.waiting, value: $0) })
        }
        return SchedulingContent(items: classes.map(calendarItem(for:)) + sessions.map(calendarItem(for:)), components: components)
    }

    /// A class series as one recurring event: weekly on its days, with its
    /// capacity in `X-HORARI-CAPACITY`, each cancelled occurrence as an
    /// `EXDATE` and each moved one as a `RECURRENCE-ID` instance.
    ///
    /// A cancelled occurrence is an `EXDATE` alone, as Google writes one: a
    /// client that does not read `RECURRENCE-ID` instances (calcurse) shows
    /// a cancelled instance (`STATUS:CANCELLED`) as one more event, and
    /// every reader hides an excluded date. A moved occurrence cannot be
    /// excluded too: recurring-ical-events then drops the moved instance
    /// with it (RFC 5545 leaves an instance of an excluded date undecided),
    /// so calcurse shows it at both times.
    public func calendarItem(for series: ClassSeries) -> CalendarItem {
        let original = { (date: LocalDate) in CalendarTime.zoned(series.time.on(date), timeZone.identifier) }
        let until = series.lastDate.map { CalendarTime.utc(LocalDateTime(localSeconds: instant(series.time.on($0)))) }
        let rule = RecurrenceRule(frequency: .weekly, until: until, byDay: series.weekdays.map { .init($0) })
        var properties = [ContentLine(name: Names.capacity, value: String(series.capacity))]
        properties += optional(Names.instructor, series.instructor)
        let overrides = series.changes.keys.sorted().compactMap { date -> RecurrenceOverride? in
            guard let change = series.changes[date] else { return nil }
            switch change {
            case .cancelled:
                return nil  // an EXDATE
            case .moved(let to, let duration):
                // The moved instance is a whole component of its own (RFC 5545
                // §3.8.4.4): it repeats the series' colour, or calendars draw
                // it without one.
                let item = CalendarItem(uid: series.id, title: series.title, start: .zoned(to, timeZone.identifier), end: .lasting(duration), color: series.color, location: series.location)
                return RecurrenceOverride(recurrenceID: original(date), item: item)
            }
        }
        let cancelled = series.changes.filter { $0.value == .cancelled }.keys.sorted().map(original)
        return CalendarItem(
            uid: series.id, title: series.title, start: original(series.firstDate), end: .lasting(series.duration),
            color: series.color, recurrenceRules: [rule], exceptionDates: cancelled, overrides: overrides, location: series.location,
            properties: ContentLines(properties))
    }

    /// A session as an event: the coach as `ORGANIZER`, the client as
    /// `ATTENDEE`, `STATUS` `CONFIRMED` or `CANCELLED`, the colour it is shown
    /// in as `COLOR` (``color(of:)``), the workout type as `CATEGORIES`, and
    /// the book's own status and IDs in `X-HORARI-*` properties.
    public func calendarItem(for session: Session) -> CalendarItem {
        let coach = coachesByID[session.coachID], client = clientsByID[session.clientID]
        var properties = [
            ContentLine(name: "ORGANIZER", parameters: coach.map { [.init(name: "CN", values: [$0.name])] } ?? [], value: Self.address(coach?.email, "coach", session.coachID)),
            ContentLine(
                name: "ATTENDEE",
                parameters: (client.map { [ContentLine.Parameter(name: "CN", values: [$0.name])] } ?? []) + [.init(name: "ROLE", values: ["REQ-PARTICIPANT"])],
                value: Self.address(client?.email, "client", session.clientID)),
        ]
        properties += [
            ContentLine(name: Names.coach, value: session.coachID), ContentLine(name: Names.client, value: session.clientID),
            ContentLine(name: Names.sessionStatus, value: session.status.rawValue),
        ]
        return CalendarItem(
            uid: session.id, title: "Training: \(client?.name ?? session.clientID)",
            start: session.isLaterOfRepeatedTime ? .utc(LocalDateTime(localSeconds: instant(of: session))) : .zoned(session.start, timeZone.identifier),
            end: .lasting(session.duration), notes: session.notes, color: color(of: session), location: session.location,
            categories: session.workoutType.map { [$0] } ?? [],
            status: session.status == .cancelled ? .cancelled : .confirmed, properties: ContentLines(properties))
    }

    /// A member's classes, each occurrence as its own event that the views
    /// draw and other calendars import: a place held is `CONFIRMED`
    /// (`PARTSTAT=ACCEPTED`); a place on the waitlist is `TENTATIVE`
    /// (`PARTSTAT=TENTATIVE`), its position in `X-HORARI-WAITLIST-POSITION`
    /// and its title ("Yoga (waitlist 2)").
    /// - Parameter memberID: the member.
    /// - Throws: ``SchedulingError/unknownMember(_:)``.
    public func memberSchedule(member memberID: String) throws(SchedulingError) -> Schedule {
        let member = try member(memberID)
        let items = try agenda(member: memberID).map { entry in
            let o = entry.occurrence
            let series = classesByID[o.id.classID]
            var title = o.title, status = ItemStatus.confirmed, partstat = "ACCEPTED"
            var properties: [ContentLine] = []
            if case .waitlisted(let position) = entry.place {
                (title, status, partstat) = (o.title + " (waitlist \(position))", .tentative, "TENTATIVE")
                properties.append(ContentLine(name: Names.waitlistPosition, value: String(position)))
            }
            return CalendarItem(
                uid: "\(o.id.classID)/\(o.id.date.basicISO)", title: title, start: .zoned(o.start, timeZone.identifier),
                end: .lasting(o.duration), color: series?.color, location: series?.location, status: status,
                properties: ContentLines([
                    ContentLine(name: "ATTENDEE", parameters: [.init(name: "CN", values: [member.name]), .init(name: "PARTSTAT", values: [partstat])], value: Self.address(member.email, "member", member.id)),
                    ContentLine(name: Names.classID, value: o.id.classID), ContentLine(name: Names.date, value: o.id.date.basicISO),
                ] + properties))
        }
        return Schedule(items: items, timeZone: timeZone)
    }

    /// A coach's sessions (cancelled ones too) as a schedule the views draw.
    /// - Throws: ``SchedulingError/unknownCoach(_:)``.
    public func coachSchedule(coach coachID: String) throws(SchedulingError) -> Schedule {
        Schedule(items: try sessions(coach: coachID).map(calendarItem(for:)), timeZone: timeZone)
    }

    static func address(_ email: String?, _ kind: String, _ id: String) -> String {
        if let email, !email.isEmpty { return "mailto:" + email }
        return "urn:x-horari:\(kind):" + (id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id)
    }

    private func optional(_ name: String, _ value: String?) -> [ContentLine] {
        value.map { [ContentLine(name: name, value: $0)] } ?? []
    }

    private func component(for coach: Coach) -> ContentComponent {
        var p = [ContentLine(name: "UID", value: coach.id), ContentLine(name: Names.name, value: coach.name)]
        p += optional(Names.email, coach.email)
        p.append(ContentLine(name: Names.buffer, value: String(coach.buffer.wholeMinutes)))
        p += optional(Names.color, coach.color?.description)
        for day in Weekday.allCases {
            if let ranges = coach.workingHours.weekly[day] {
                p.append(ContentLine(name: Names.hours, parameters: [.init(name: Names.dayParameter, values: [day.icalCode])], value: ranges.map(\.description).joined(separator: " ")))
            }
        }
        for date in coach.workingHours.exceptions.keys.sorted() {
            let ranges = coach.workingHours.exceptions[date] ?? []
            p.append(ContentLine(name: Names.dateHours, value: ([date.basicISO] + ranges.map(\.description)).joined(separator: " ")))
        }
        return ContentComponent(name: Names.coach, properties: ContentLines(p))
    }

    private func component(for client: Client) -> ContentComponent {
        ContentComponent(name: Names.client, properties: [
            ContentLine(name: "UID", value: client.id), ContentLine(name: Names.coach, value: client.coachID), ContentLine(name: Names.name, value: client.name),
        ] + optional(Names.email, client.email) + optional(Names.color, client.color?.description))
    }
}
