import CalendarCore
import CalendarScheduling
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
    /// One member's dates of each class, under the class's UID her invitations
    /// carry (`SchedulingBook.memberSchedule(member:)`); nobody else's name.
    case member(String)
    /// One coach's sessions with their clients; no other coach's clients.
    case coach(String)
    /// One client's sessions with her coach, as her invitations name them
    /// (`SchedulingBook.clientSchedule(client:coach:)`): not the coach's
    /// notes, nobody else's name.
    case client(String, coach: String)
}

/// What a book writes into a calendar: items and the directory's components.
///
/// SchedulingICalendar puts it into an ICalendarKit calendar, which writes
/// it as `.ics` text; the form is described in
/// `SchedulingBook.init(timeZone:items:components:)`.
public struct SchedulingContent: Hashable, Sendable {
    /// Classes (with each booked occurrence's members as `ATTENDEE`s of its
    /// `RECURRENCE-ID` instance), sessions or a member's bookings, as calendar items.
    public var items: [CalendarItem]
    /// Coaches, clients and members, each a `VJOURNAL`; only in a full export.
    public var components: [ContentComponent]

    /// Creates content.
    public init(items: [CalendarItem], components: [ContentComponent]) {
        self.items = items
        self.components = components
    }
}

/// The iCalendar names of the book's records: the `X-` properties and
/// parameters (RFC 5545 §3.8.8.2, §3.2) it adds to standard components, the
/// categories that mark its directory's journals, and (read only, from files
/// written before the book was standard iCalendar) its `X-HORARI-*` components.
enum Names {
    static let capacity = "X-HORARI-CAPACITY"
    static let instructor = "X-HORARI-INSTRUCTOR"
    /// On the earlier dates of a class changed from a date on (`zumba-until-20261209`): the class's ID (`ClassSeries.partOf`).
    static let partOf = "X-HORARI-PART-OF"
    /// On a yearly part of a class's series (`ID@YEAR`): the class's ID.
    static let classPart = "X-HORARI-CLASS-PART"
    static let coach = "X-HORARI-COACH"
    static let client = "X-HORARI-CLIENT"
    static let member = "X-HORARI-MEMBER"
    static let roster = "X-HORARI-ROSTER"
    static let sessionStatus = "X-HORARI-SESSION-STATUS"
    /// When a session was marked completed (UTC).
    static let completed = "X-HORARI-COMPLETED"
    /// The repeating session a session is one of (`Session.series`).
    static let series = "X-HORARI-SERIES"
    static let name = "X-HORARI-NAME"
    static let email = "X-HORARI-EMAIL"
    static let buffer = "X-HORARI-BUFFER"
    static let hours = "X-HORARI-HOURS"
    static let dateHours = "X-HORARI-DATE-HOURS"
    static let dayParameter = "X-HORARI-DAY"
    static let classID = "X-HORARI-CLASS"
    /// A client's ID where its journal's `UID` names the coach too (`client:tom/lucy`).
    static let scopedID = "X-HORARI-ID"
    static let date = "X-HORARI-DATE"
    static let booked = "X-HORARI-BOOKED"
    static let waiting = "X-HORARI-WAITING"
    static let color = "X-HORARI-COLOR"
    static let waitlistPosition = "X-HORARI-WAITLIST-POSITION"
    /// The form-1 components (read only).
    static let components: Set<String> = [coach, client, member, roster]
    /// The component a directory record is.
    static let journal = "VJOURNAL"
    /// `CATEGORIES` of a directory journal, and the prefix of its `UID`.
    static let memberCategory = "horari-member", coachCategory = "horari-coach", clientCategory = "horari-client"
    /// `ATTENDEE` parameters of a booked member: the member's ID, a waiting place.
    static let memberParameter = "X-HORARI-MEMBER", positionParameter = "X-HORARI-WAITLIST-POSITION"
    /// On a roster's `ATTENDEE`: the `SEQUENCE` of the last invitation the member was sent (Notices.swift).
    static let toldParameter = "X-HORARI-SEQUENCE"
    /// On a session's `ATTENDEE`: when the client gave the answer its `PARTSTAT` holds (their reply's `DTSTAMP`, UTC).
    static let answeredParameter = "X-HORARI-ANSWERED"

    /// A directory journal's `UID`: `member:marta` for the category `horari-member`.
    static func uid(_ category: String, _ id: String) -> String { uidPrefix(category) + id }
    /// `member:` for the category `horari-member`.
    static func uidPrefix(_ category: String) -> String { String(category.dropFirst("horari-".count)) + ":" }
}

extension SchedulingBook {
    /// Whether an item is one the book writes (a class or a session), and so
    /// is replaced, not kept, when the book is saved.
    public static func isSchedulingItem(_ item: CalendarItem) -> Bool {
        item.properties.contains { $0.name == Names.capacity || $0.name == Names.client }
    }

    /// Whether a component is one of the book's records: a directory
    /// journal (`CATEGORIES:horari-member`…), or a record of the book's
    /// earlier form (`X-HORARI-MEMBER`…).
    public static func isSchedulingComponent(_ component: ContentComponent) -> Bool {
        Names.components.contains(component.name.uppercased()) || journalCategory(component) != nil
    }

    /// What an export for an audience contains.
    /// - Throws: `SchedulingError.unknownMember(_:)` or `SchedulingError.unknownCoach(_:)`.
    public func content(for audience: ExportAudience) throws(SchedulingError) -> SchedulingContent {
        switch audience {
        case .publicTimetable:
            // The default names no person: an instructor is staff, and
            // staff are named only when the gym says so.
            let items = classes.map { series in
                var item = sentOut(calendarItem(for: series))
                item.properties.removeAll { $0.name == Names.instructor }
                return item
            }
            return SchedulingContent(items: items, components: [])
        case .publicTimetableNamingInstructors:
            return SchedulingContent(items: classes.map { sentOut(calendarItem(for: $0)) }, components: [])
        case .member(let id):
            return SchedulingContent(items: try memberSchedule(member: id).items, components: [])
        case .coach(let id):
            // The coach and their own clients come along, so that the export
            // reads back as that coach's book (a backup a coach keeps, or a
            // calendar of their own); no other coach, client or member does.
            let records = [journal(for: try coach(id))] + (try clients(coach: id)).map(journal(for:))
            return SchedulingContent(items: try sessions(coach: id).map(calendarItem(for:)), components: records)
        case .client(let id, let coach):
            return SchedulingContent(items: try clientSchedule(client: id, coach: coach).items, components: [])
        case .everything:
            return backupContent()
        }
    }

    /// A class as the public timetable sends it out: under its UID
    /// `exchangeUID(_:)`, its instances too.
    private func sentOut(_ item: CalendarItem) -> CalendarItem {
        var item = item
        item.uid = exchangeUID(item.uid)
        for i in item.overrides.indices { item.overrides[i].item.uid = item.uid }
        return item
    }

    /// Everything in the book, to restore it from: what ``content(for:)``
    /// gives ``ExportAudience/everything``, which names no one and so cannot fail.
    ///
    /// Standard iCalendar only, so that a calendar server keeps all of it
    /// (Docs/SchedulingICalendar.md): each class with its booked occurrences'
    /// members as `ATTENDEE`s (``calendarItem(for:withRosters:)``), each
    /// session, and coaches, clients and members as `VJOURNAL`s.
    public func backupContent() -> SchedulingContent {
        let sessions = coachSessions.byStart(coachSessions.sessionsByID.values).map(\.session)
        var components = coaches.map(journal(for:))
        components += people.clientsByKey.values.sorted { ($0.id, $0.coachID) < ($1.id, $1.coachID) }.map(journal(for:))
        components += members.map(journal(for:))
        return SchedulingContent(items: classes.map { calendarItem(for: $0, withRosters: true) } + sessions.map(calendarItem(for:)), components: components)
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
        calendarItem(for: series, withRosters: false)
    }

    /// A class series as one recurring event (`calendarItem(for:)`) and,
    /// `withRosters`, each booked occurrence's roster: its members as
    /// `ATTENDEE`s of the occurrence's `RECURRENCE-ID` instance, a place
    /// held `PARTSTAT=ACCEPTED`, a place on the waitlist `PARTSTAT=TENTATIVE`
    /// with its position (`X-HORARI-WAITLIST-POSITION=2`), each with the
    /// member's ID (`X-HORARI-MEMBER=marta`) and name (`CN`). Any calendar
    /// shows who is booked; the book reads its rosters back from them.
    /// The series' own `SEQUENCE` is the highest one its members were told
    /// of a date that keeps no instance (a cancelled or closed one), so a
    /// later invitation is numbered above it even after the date reopens.
    /// - Parameters:
    ///   - series: the class.
    ///   - withRosters: whether to write who booked (a backup does; the public timetable does not).
    public func calendarItem(for series: ClassSeries, withRosters: Bool) -> CalendarItem {
        let original = { (date: LocalDate) in CalendarTime.zoned(series.time.on(date), timeZone.identifier) }
        let until = series.lastDate.map { CalendarTime.utc(LocalDateTime(localSeconds: instant(series.time.on($0)))) }
        let rule = RecurrenceRule(frequency: .weekly, until: until, byDay: series.weekdays.map { .init($0) })
        var properties = [ContentLine(name: Names.capacity, value: String(series.capacity))]
        properties += optional(Names.instructor, series.instructor)
        properties += optional(Names.partOf, series.partOf)
        properties += Self.detailLines(of: series)
        // A closed date is an EXDATE like a cancelled one: every calendar hides it.
        var closed = Set(series.changes.filter { $0.value == .cancelled }.keys)
        for c in closures {
            // One moved off the closed date takes place: its instance is written, not excluded.
            closed.formUnion(series.meetingDates(in: c).filter { series.changes[$0] == nil || series.changes[$0] == .cancelled })
        }
        var dates = Set(series.changes.keys)
        if withRosters { dates.formUnion(classTimetable.rosters.keys.filter { $0.classID == series.id }.map(\.date)) }
        let overrides = dates.subtracting(closed).sorted().compactMap { date -> RecurrenceOverride? in
            var start = series.time.on(date), duration = series.duration
            switch series.changes[date] {
            case .cancelled?:
                return nil  // an EXDATE
            case .moved(let to, let length)?:
                (start, duration) = (to, length)
            case nil:
                break
            }
            let roster = withRosters ? classTimetable.rosters[ClassOccurrence.ID(classID: series.id, date: date)] : nil
            let attendees = roster.map(attendeeLines(for:)) ?? []
            // An instance no one is on any more is kept while its SEQUENCE
            // says its members were told of it (Notices.swift).
            let sequence = roster?.sequence ?? 0
            guard series.changes[date] != nil || !attendees.isEmpty || sequence > 0 else { return nil }
            // The instance is a whole component of its own (RFC 5545
            // §3.8.4.4): it repeats the series' colour, or calendars draw
            // it without one.
            let item = CalendarItem(uid: series.id, title: series.title, start: .zoned(start, timeZone.identifier), end: .lasting(duration),
                                    notes: series.description, color: series.color,
                                    location: series.location, sequence: sequence, properties: ContentLines(Self.detailLines(of: series) + attendees))
            return RecurrenceOverride(recurrenceID: original(date), item: item)
        }
        let cancelled = closed.sorted().map(original)
        return CalendarItem(
            uid: series.id, title: series.title, start: original(series.firstDate), end: .lasting(series.duration), notes: series.description,
            color: series.color, recurrenceRules: [rule], exceptionDates: cancelled, overrides: overrides, location: series.location,
            sequence: seriesSequence(ofClass: series.id), properties: ContentLines(properties))
    }

    /// The lines of a class's event that are its page and picture, as the
    /// book reads them: the first `URL` that is a web address
    /// (`ClassSeries.isWebAddress`), and the first `IMAGE` that is one
    /// written as the book writes it (`VALUE=URI` or no parameter). Any
    /// other — a `mailto:` URL, an `IMAGE;VALUE=BINARY`, a second picture,
    /// one with `DISPLAY` — is another program's, kept as written.
    static func detailLinesRead(from properties: ContentLines) -> (url: ContentLine?, image: ContentLine?) {
        let url = properties.first { $0.name == "URL" && ClassSeries.isWebAddress($0.value) }
        let image = properties.first { line in
            line.name == "IMAGE" && ClassSeries.isWebAddress(line.value)
                && line.parameters.allSatisfy { $0.name == "VALUE" && $0.values.map { $0.uppercased() } == ["URI"] }
        }
        return (url, image)
    }

    /// A class's page and picture: `URL` (RFC 5545 §3.8.4.6) and
    /// `IMAGE;VALUE=URI` (RFC 7986 §5.10), on the series and on each of
    /// its instances, which are whole components of their own.
    static func detailLines(of series: ClassSeries) -> [ContentLine] {
        var lines: [ContentLine] = []
        if let url = series.url { lines.append(ContentLine(name: "URL", value: url)) }
        if let image = series.image { lines.append(ContentLine(name: "IMAGE", parameters: [.init(name: "VALUE", values: ["URI"])], value: image)) }
        return lines
    }

    /// An instant as iCalendar's UTC form, to the second: `20261125T070000Z`.
    static func utcText(_ time: Date) -> String {
        CalendarTime.utc(LocalDateTime(localSeconds: Int64(time.timeIntervalSince1970.rounded(.down)))).icalValue
    }

    /// A session as an event: the coach as `ORGANIZER`, the client as
    /// `ATTENDEE`, `STATUS` `CONFIRMED` or `CANCELLED`, the colour it is shown
    /// in as `COLOR` (`color(of:)`), the workout type as `CATEGORIES`, and
    /// the book's own status and IDs in `X-HORARI-*` properties.
    public func calendarItem(for session: Session) -> CalendarItem {
        let coach = people.coachesByID[session.coachID], client = people.clientsByKey[ClientKey(session)]
        var properties = [
            ContentLine(name: "ORGANIZER", parameters: coach.map { [.init(name: "CN", values: [$0.name])] } ?? [], value: Self.address(coach?.email, "coach", session.coachID)),
            ContentLine(
                name: "ATTENDEE",
                // The client's answer, once one came back, is the attendee's PARTSTAT (RFC 5545 §3.2.12).
                parameters: (client.map { [ContentLine.Parameter(name: "CN", values: [$0.name])] } ?? []) + [.init(name: "ROLE", values: ["REQ-PARTICIPANT"])]
                    + (session.answer.map { [ContentLine.Parameter(name: "PARTSTAT", values: [$0.rawValue])] } ?? [])
                    + (session.answeredAt.map { [ContentLine.Parameter(name: Names.answeredParameter, values: [Self.utcText($0)])] } ?? []),
                value: Self.address(client?.email, "client", session.clientID)),
        ]
        properties += [
            ContentLine(name: Names.coach, value: session.coachID), ContentLine(name: Names.client, value: session.clientID),
            ContentLine(name: Names.sessionStatus, value: session.status.rawValue),
        ]
        // RFC 5545's COMPLETED belongs to VTODO (§3.8.2.1); a session is a VEVENT.
        if let done = session.completedAt { properties.append(ContentLine(name: Names.completed, value: Self.utcText(done))) }
        if let series = session.series { properties.append(ContentLine(name: Names.series, value: TextEscaping.escaped(series))) }
        return CalendarItem(
            uid: session.id, title: "Training: \(client?.name ?? session.clientID)",
            start: session.isLaterOfRepeatedTime ? .utc(LocalDateTime(localSeconds: instant(of: session))) : .zoned(session.start, timeZone.identifier),
            end: .lasting(session.duration), notes: session.notes, color: color(of: session), location: session.location,
            categories: session.workoutType.map { [$0] } ?? [],
            status: session.status == .cancelled ? .cancelled : .confirmed, sequence: session.sequence, properties: ContentLines(properties))
    }

    /// A member's classes as the views draw them and other calendars import
    /// them: one item per class, under the UID the book sends the class out
    /// under (`exchangeUID(_:)`, CalendarScheduling), whose dates (`RDATE`) are the ones she
    /// holds a place in or waits for, each named by the `RECURRENCE-ID` her
    /// invitation to it carries (the class's start that day, RFC 5546
    /// §3.2.2.1); so a calendar that imports her export and her invitations
    /// shows each class once (issue 41, 2). A place held is `CONFIRMED`
    /// (`PARTSTAT=ACCEPTED`); a date the class moved is an instance of its
    /// own; a place on the waitlist is a `TENTATIVE` instance
    /// (`PARTSTAT=TENTATIVE`), its position in `X-HORARI-WAITLIST-POSITION`
    /// and its title ("Yoga (waitlist 2)").
    ///
    /// A date is written as an instance only where it differs: calcurse,
    /// which reads no `RECURRENCE-ID`, shows an instance beside its date.
    /// - Parameter memberID: the member.
    /// - Throws: `SchedulingError.unknownMember(_:)`.
    public func memberSchedule(member memberID: String) throws(SchedulingError) -> Schedule {
        Schedule(items: try memberItems(member: memberID, heldOnly: false), onBookZone: timeZone)
    }

    /// A member's classes as ``memberSchedule(member:)`` writes them; with
    /// `heldOnly`, only the places she holds (not those she waits for).
    func memberItems(member memberID: String, heldOnly: Bool) throws(SchedulingError) -> [CalendarItem] {
        let member = try member(memberID)
        func attendee(_ partstat: String) -> ContentLine {
            ContentLine(name: "ATTENDEE", parameters: [.init(name: "CN", values: [member.name]), .init(name: "PARTSTAT", values: [partstat])], value: Self.address(member.email, "member", member.id))
        }
        var items: [String: CalendarItem] = [:], order: [String] = []
        for entry in try agenda(member: memberID) {
            let o = entry.occurrence
            guard let part = classTimetable.classesByID[o.id.classID] else { continue }
            if heldOnly, case .waitlisted = entry.place { continue }
            // A class changed from a date on keeps its own ID for its earlier dates (issue 41, 1).
            let classID = part.partOf ?? part.id
            let series = classTimetable.classesByID[classID] ?? part
            let uid = exchangeUID(classID)
            let original = CalendarTime.zoned(part.time.on(o.id.date), timeZone.identifier)
            if items[uid] == nil {
                order.append(uid)
                items[uid] = CalendarItem(
                    uid: uid, title: series.title, start: original, end: .lasting(series.duration), notes: series.description, color: series.color, location: series.location,
                    status: .confirmed, properties: ContentLines(Self.detailLines(of: series) + [attendee("ACCEPTED"), ContentLine(name: Names.classID, value: classID)]))
            } else {
                items[uid]?.recurrenceDates.append(original)
            }
            // A date as the series has it is written once, as the series;
            // one that differs (moved, waitlisted, of a part) is an instance.
            var waiting: Int?
            if case .waitlisted(let position) = entry.place { waiting = position }
            guard waiting != nil || o.title != series.title || o.start != part.time.on(o.id.date) || o.duration != series.duration
                || part.location != series.location || part.color != series.color else { continue }
            var properties = [attendee(waiting == nil ? "ACCEPTED" : "TENTATIVE"), ContentLine(name: Names.classID, value: o.id.classID),
                              ContentLine(name: Names.date, value: o.id.date.basicISO)]
            if let waiting { properties.append(ContentLine(name: Names.waitlistPosition, value: String(waiting))) }
            let instance = CalendarItem(uid: uid, title: waiting.map { o.title + " (waitlist \($0))" } ?? o.title, start: .zoned(o.start, timeZone.identifier),
                                        end: .lasting(o.duration), notes: series.description, color: part.color, location: part.location,
                                        status: waiting == nil ? .confirmed : .tentative, properties: ContentLines(Self.detailLines(of: series) + properties))
            items[uid]?.overrides.append(RecurrenceOverride(recurrenceID: original, item: instance))
        }
        return order.compactMap { items[$0] }
    }

    /// The class occurrence an item of a member's export stands for, as it
    /// was written before issue 41, 2 (one event an occurrence,
    /// `X-HORARI-CLASS` and `X-HORARI-DATE`), when it names a class of this
    /// book; `nil` for any other item. See ``classOccurrences(exportedAs:)``
    /// for every form.
    ///
    /// Such an item is a view of the occurrence, not an event of its own:
    /// importing a member's export back into the gym merges it into its
    /// class rather than adding a second Yoga on her days (issue 28, 4).
    /// - Parameter item: an item read from a calendar.
    /// - Returns: the occurrence's ID, or `nil`.
    public func classOccurrence(exportedAs item: CalendarItem) -> ClassOccurrence.ID? {
        guard !item.isRecurring, item.hasMaster, let classID = item.properties.first(where: { $0.name == Names.classID })?.value,
              classTimetable.classesByID[classID] != nil, let text = item.properties.first(where: { $0.name == Names.date })?.value,
              let date = try? CalendarTime(icalValue: text).localDate else { return nil }
        return ClassOccurrence.ID(classID: classID, date: date)
    }

    /// The class occurrences an item of a member's export stands for
    /// (``memberSchedule(member:)``: her dates of a class of this book, by
    /// their `RECURRENCE-ID`s; or, as written before, one event an
    /// occurrence); `nil` unless every one is an occurrence of this book.
    /// - Parameter item: an item read from a calendar.
    public func classOccurrences(exportedAs item: CalendarItem) -> [ClassOccurrence.ID]? {
        guard Self.isClassOccurrenceExport(item), let classID = item.properties.first(where: { $0.name == Names.classID })?.value else { return nil }
        if Self.isOneOccurrenceExport(item) { return classOccurrence(exportedAs: item).map { [$0] } }
        var ids: [ClassOccurrence.ID] = []
        for instance in [item.start] + item.recurrenceDates {
            guard let key = try? classTimetable.occurrenceKey(classID, bookWall(instance).date) else { return nil }
            ids.append(key)
        }
        return ids
    }

    /// One event an occurrence: a member's export as written before issue 41, 2.
    static func isOneOccurrenceExport(_ item: CalendarItem) -> Bool {
        !item.isRecurring && item.overrides.isEmpty && item.properties.contains { $0.name == Names.date }
    }

    /// Whether an item is written as a member's export writes class
    /// occurrences: a series of a class (`X-HORARI-CLASS`, with no rule and
    /// no capacity: not a class of a book) whose dates are hers, or one
    /// event an occurrence (`X-HORARI-CLASS` and `X-HORARI-DATE`, the form
    /// before issue 41, 2); whatever book it came from: a check that needs
    /// no book, so that a caller reads one only when an incoming calendar
    /// holds such items.
    /// - Parameter item: an item read from a calendar.
    public static func isClassOccurrenceExport(_ item: CalendarItem) -> Bool {
        item.hasMaster && item.recurrenceRules.isEmpty && item.properties.contains { $0.name == Names.classID } && !isSchedulingItem(item)
    }

    /// A coach's sessions (cancelled ones too) as a schedule the views draw.
    /// - Throws: `SchedulingError.unknownCoach(_:)`.
    public func coachSchedule(coach coachID: String) throws(SchedulingError) -> Schedule {
        Schedule(items: try sessions(coach: coachID).map(calendarItem(for:)), onBookZone: timeZone)
    }

    /// A roster's members as `ATTENDEE` lines: places held, then the waitlist in order.
    private func attendeeLines(for roster: Roster) -> [ContentLine] {
        func line(_ id: String, _ partstat: String, _ position: Int?) -> ContentLine {
            let member = people.membersByID[id]
            // CUTYPE=INDIVIDUAL and ROLE=REQ-PARTICIPANT are RFC 5545's defaults
            // (§3.2.3, §3.2.16), left unsaid: twenty years of rosters are a
            // third smaller for it.
            var parameters: [ContentLine.Parameter] = [
                .init(name: "CN", values: [member?.name ?? id]), .init(name: "PARTSTAT", values: [partstat]), .init(name: Names.memberParameter, values: [id]),
            ]
            if let position { parameters.append(.init(name: Names.positionParameter, values: [String(position)])) }
            if let told = roster.told[id], told > 0 { parameters.append(.init(name: Names.toldParameter, values: [String(told)])) }
            return ContentLine(name: "ATTENDEE", parameters: parameters, value: Self.address(member?.email, "member", id))
        }
        return roster.confirmed.map { line($0, "ACCEPTED", nil) } + roster.waitlist.enumerated().map { line($1, "TENTATIVE", $0 + 1) }
    }

    static func address(_ email: String?, _ kind: String, _ id: String) -> String {
        if let email, !email.isEmpty { return "mailto:" + email }
        return "urn:x-horari:\(kind):" + (id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id)
    }

    private func optional(_ name: String, _ value: String?) -> [ContentLine] {
        value.map { [ContentLine(name: name, value: $0)] } ?? []
    }

    /// A directory record as a `VJOURNAL` (RFC 5545 §3.6.3): calendar
    /// servers keep journals, and calendar apps do not show them. `UID` is
    /// `KIND:ID`, `CATEGORIES` the kind, `SUMMARY` the name; the email is the
    /// address of an `ORGANIZER` (a coach) or `ATTENDEE` (a client, a member),
    /// a client's coach a `RELATED-TO` (RFC 5545 §3.8.4.5) of the coach's
    /// journal; what iCalendar has no property for stays `X-HORARI-*`.
    private func journal(_ category: String, _ id: String, _ name: String, _ lines: [ContentLine]) -> ContentComponent {
        ContentComponent(name: Names.journal, properties: ContentLines([
            // No DTSTAMP: the exporter writes the save's, as for the book's items.
            ContentLine(name: "UID", value: Names.uid(category, id)), ContentLine(name: "SUMMARY", value: Self.textValue(name)), ContentLine(name: "CATEGORIES", value: category),
            ContentLine(name: "CLASS", value: "PRIVATE"),
        ] + lines))
    }

    private func journal(for coach: Coach) -> ContentComponent {
        var p = [ContentLine(name: "ORGANIZER", parameters: [.init(name: "CN", values: [coach.name])], value: Self.address(coach.email, "coach", coach.id))]
        p.append(ContentLine(name: Names.buffer, value: String(coach.buffer.wholeMinutes)))
        p += optional(Names.color, coach.color?.description)
        p += Self.lines(of: coach.workingHours, weekly: Names.hours, dates: Names.dateHours)
        return journal(Names.coachCategory, coach.id, coach.name, p)
    }

    /// Hours as the lines ``hours(in:weekly:dates:of:)`` reads.
    static func lines(of hours: WorkingHours, weekly: String, dates: String) -> [ContentLine] {
        var p: [ContentLine] = []
        for day in Weekday.allCases {
            if let ranges = hours.weekly[day] {
                p.append(ContentLine(name: weekly, parameters: [.init(name: Names.dayParameter, values: [day.icalCode])], value: ranges.map(\.description).joined(separator: " ")))
            }
        }
        for date in hours.exceptions.keys.sorted() {
            let ranges = hours.exceptions[date] ?? []
            p.append(ContentLine(name: dates, value: ([date.basicISO] + ranges.map(\.description)).joined(separator: " ")))
        }
        return p
    }

    /// A client's journal. Its `UID` is `client:ID` while one coach has a
    /// client by that ID, else `client:COACH/ID` with the ID in `X-HORARI-ID`
    /// (a `UID` is one calendar's, and client IDs are each coach's own).
    private func journal(for client: Client) -> ContentComponent {
        let shared = (people.coachIDsByClient[client.id]?.count ?? 0) > 1
        var record = journal(Names.clientCategory, shared ? client.coachID + "/" + client.id : client.id, client.name, [
            ContentLine(name: "RELATED-TO", parameters: [.init(name: "RELTYPE", values: ["PARENT"])], value: Names.uid(Names.coachCategory, client.coachID)),
            ContentLine(name: "ATTENDEE", parameters: [.init(name: "CN", values: [client.name])], value: Self.address(client.email, "client", client.id)),
        ] + optional(Names.color, client.color?.description))
        if shared { record.properties.append(ContentLine(name: Names.scopedID, value: client.id)) }
        return record
    }

    private func journal(for member: Member) -> ContentComponent {
        journal(Names.memberCategory, member.id, member.name, [
            ContentLine(name: "ATTENDEE", parameters: [.init(name: "CN", values: [member.name])], value: Self.address(member.email, "member", member.id)),
        ])
    }

    /// A text as an iCalendar TEXT value (RFC 5545 §3.3.11): backslash,
    /// comma, semicolon and line breaks escaped.
    static func textValue(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "\\": out += "\\\\"
            case ",": out += "\\,"
            case ";": out += "\\;"
            case "\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out
    }
}
