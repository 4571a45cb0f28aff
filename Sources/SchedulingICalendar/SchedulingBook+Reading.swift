import CalendarCore
import CalendarScheduling
import Foundation

extension SchedulingBook {
    /// Reads a book back from what ``content(for:)`` wrote for
    /// ``ExportAudience/everything``, ignoring every other item and component.
    ///
    /// The book is standard iCalendar, so that a calendar server keeps all
    /// of it (servers drop components they do not know; the repository's
    /// Docs/SchedulingICalendar.md says why each record has the form it has):
    ///
    /// | record | iCalendar |
    /// |---|---|
    /// | class | `VEVENT` with `X-HORARI-CAPACITY`, `RRULE:FREQ=WEEKLY;BYDAY=…`, cancelled dates as `EXDATE`, moved ones as `RECURRENCE-ID` instances |
    /// | roster | the occurrence's `RECURRENCE-ID` instance of its class, its members as `ATTENDEE;CN=…;PARTSTAT=ACCEPTED;X-HORARI-MEMBER=marta`, the waitlist `PARTSTAT=TENTATIVE;X-HORARI-WAITLIST-POSITION=1`, in order |
    /// | session | `VEVENT` with `ORGANIZER` (the coach), `ATTENDEE` (the client), `X-HORARI-COACH`, `X-HORARI-CLIENT`, `X-HORARI-SESSION-STATUS` |
    /// | coach | `VJOURNAL`, `UID:coach:ID`, `CATEGORIES:horari-coach`, `SUMMARY` (the name), `ORGANIZER` (the email), `X-HORARI-BUFFER`, `X-HORARI-HOURS;X-HORARI-DAY=MO:09:00-13:00 16:00-20:00`, `X-HORARI-DATE-HOURS:20261224` (a day off), `X-HORARI-COLOR` |
    /// | client | `VJOURNAL`, `UID:client:ID`, `CATEGORIES:horari-client`, `SUMMARY`, `ATTENDEE` (the email), `RELATED-TO;RELTYPE=PARENT:coach:ID` |
    /// | member | `VJOURNAL`, `UID:member:ID`, `CATEGORIES:horari-member`, `SUMMARY`, `ATTENDEE` (the email) |
    ///
    /// The book's earlier form is still read: coaches, clients and members as
    /// `X-HORARI-COACH`/`X-HORARI-CLIENT`/`X-HORARI-MEMBER` components, each
    /// roster an `X-HORARI-ROSTER` component (`X-HORARI-CLASS`,
    /// `X-HORARI-DATE`, `X-HORARI-BOOKED`, `X-HORARI-WAITING`); saving the
    /// book writes the form above.
    ///
    /// Records are taken as they are: sessions that overlap (a file edited by
    /// hand) are kept, not dropped; the rules apply to the next change.
    /// - Throws: `SchedulingError.invalid(field:reason:)` naming the record that cannot be read.
    /// - Parameters:
    ///   - timeZone: the book's zone.
    ///   - items: the calendar's items; those that are not a class or a session are ignored.
    ///   - components: the calendar's other components; those that are not the book's records are ignored.
    public init(timeZone: ZoneRules, items: [CalendarItem], components: [ContentComponent]) throws(SchedulingError) {
        let read = Self.reading(timeZone: timeZone, items: items, components: components)
        if let first = read.problems.first(where: { $0.severity == .error }), let error = first.underlying { throw error }
        self = read.book
    }

    /// One inconsistency in a book's records: a record the book refuses (an
    /// error: its commands fail until it is repaired) or a state it allows
    /// but that needs a look (a warning).
    public struct RecordProblem: Hashable, Sendable, CustomStringConvertible {
        /// Which record a problem is in.
        public enum Record: Hashable, Sendable {
            /// The `index`-th component named `name` among the calendar's
            /// components, counted from 0 in file order.
            case component(name: String, index: Int)
            /// The item (a class or a session) or directory journal with this `UID`.
            case item(uid: String)
            /// The `RECURRENCE-ID` instance of the class with this `UID` on
            /// this date: a roster.
            case instance(uid: String, date: LocalDate)
        }

        /// How serious a problem is.
        public enum Severity: String, Hashable, Sendable {
            /// A state the book allows that a person should look at; nothing to repair.
            case warning
            /// The book refuses the record; a repair removes what it cannot read.
            case error
        }

        /// Error or warning.
        public var severity: Severity
        /// The record.
        public var record: Record
        /// What is wrong, for a person.
        public var message: String
        /// What ``SchedulingBook/reading(timeZone:items:components:)`` did
        /// about it, and so what saving its book does; `nil` for a warning.
        public var repair: String?
        /// The error the book's strict reading throws for it.
        let underlying: SchedulingError?

        /// `message`, and the repair where there is one.
        public var description: String { repair.map { "\(message); a repair: \($0)" } ?? message }
    }

    /// Reads a book's records as far as they make sense, and says what does not.
    ///
    /// Where ``init(timeZone:items:components:)`` throws at the first record
    /// it cannot take, this reads on: a record that cannot be read (a class
    /// without a capacity, a client of an unknown coach, a roster of a class
    /// that does not meet that day) is left out; a roster's booking of
    /// someone who is not a member, or of a member listed twice, is dropped;
    /// a second roster of one occurrence joins the first. Each is an error
    /// in `problems`, with what was done. A roster with more bookings than
    /// places (a capacity lowered after they booked, or a hand edit) is kept
    /// as it is, since the book allows it, and is a warning.
    ///
    /// Saving the book this returns (`ICalendar.setScheduling(_:)`) is the
    /// repair `horari validate --repair` makes.
    /// - Parameters:
    ///   - timeZone: the book's zone.
    ///   - items: the calendar's items; those that are not a class or a session are ignored.
    ///   - components: the calendar's other components; those that are not the book's records are ignored.
    /// - Returns: the book, and its problems in the order of the records.
    public static func reading(timeZone: ZoneRules, items: [CalendarItem], components: [ContentComponent])
        -> (book: SchedulingBook, problems: [RecordProblem]) {
        // A class written in yearly parts is read as the one series it is.
        let (items, partProblems) = joiningClassParts(items)
        var book = SchedulingBook(timeZone: timeZone)
        var problems: [RecordProblem] = partProblems
        let byName = recordsByName(components)
        let unreadableClients = book.readDirectory(byName, &problems)
        book.readClassesAndSessions(items, unreadableClients: unreadableClients, &problems)
        for item in items where item.properties.contains(where: { $0.name == Names.capacity }) && book.classTimetable.classesByID[item.uid] != nil {
            book.restoreSeriesSequence(item.sequence, ofClass: item.uid)
            for o in item.overrides where o.item.sequence > 0 || o.item.properties.contains(where: { $0.name == "ATTENDEE" }) {
                let date = book.bookWall(o.recurrenceID).date
                book.readRoster(book.roster(of: o, classID: item.uid, date: date), .instance(uid: item.uid, date: date), &problems)
            }
        }
        for (record, c) in byName[Names.roster] ?? [] {
            book.readRoster(c, record, &problems)
        }
        problems += book.overbooked(rosterRecords: byName[Names.roster] ?? [])
        return (book, problems)
    }

    /// A book's records among a calendar's components, by the record's
    /// name: a directory journal as the record it stands for, any other
    /// component by its name and its place among those of that name.
    private static func recordsByName(_ components: [ContentComponent]) -> [String: [(record: RecordProblem.Record, component: ContentComponent)]] {
        var positions: [String: Int] = [:]
        var byName: [String: [(record: RecordProblem.Record, component: ContentComponent)]] = [:]
        for c in components {
            let name = c.name.uppercased()
            if name == Names.journal, let (kind, form1) = Self.journalRecord(c) {
                byName[kind, default: []].append((.item(uid: c.value("UID") ?? ""), form1))
                continue
            }
            let index = positions[name, default: 0]
            positions[name] = index + 1
            byName[name, default: []].append((.component(name: name, index: index), c))
        }
        return byName
    }

    /// A record the reading left out, as a problem with its repair.
    private static func refusal(_ record: RecordProblem.Record, _ error: SchedulingError, _ repair: String) -> RecordProblem {
        RecordProblem(severity: .error, record: record, message: error.description, repair: repair, underlying: error)
    }

    /// Reads the coaches, clients and members. A record that needs one the
    /// reading left out goes too; the repair says so, so that a person can
    /// mend the first record instead.
    /// - Returns: the IDs of the clients that could not be read.
    private mutating func readDirectory(
        _ byName: [String: [(record: RecordProblem.Record, component: ContentComponent)]], _ problems: inout [RecordProblem]
    ) -> Set<String> {
        var unreadable: (coaches: Set<String>, clients: Set<String>) = ([], [])
        for (record, c) in byName[Names.coach] ?? [] {
            do throws(SchedulingError) { try addCoach(readCoach(c), asRead: true) } catch {
                if let id = c.value("UID") { unreadable.coaches.insert(id) }
                problems.append(Self.refusal(record, error, "the coach’s record is removed"))
            }
        }
        for (record, c) in byName[Names.client] ?? [] {
            do throws(SchedulingError) {
                try addClient(Client(id: try Self.required(c, "UID"), coachID: try Self.required(c, Names.coach), name: Self.oneLine(try Self.required(c, Names.name)),
                                     email: Self.readAddress(c.value(Names.email)), color: try Self.color(c)), asRead: true)
            } catch {
                if let id = c.value("UID") { unreadable.clients.insert(id) }
                let coach = c.value(Names.coach).flatMap { unreadable.coaches.contains($0) ? $0 : nil }
                problems.append(Self.refusal(record, error, "the client’s record is removed" + (coach.map { " (its coach ‘\($0)’ cannot be read: mend that record to keep both)" } ?? "")))
            }
        }
        for (record, c) in byName[Names.member] ?? [] {
            do throws(SchedulingError) {
                try addMember(Member(id: try Self.required(c, "UID"), name: Self.oneLine(try Self.required(c, Names.name)), email: Self.readAddress(c.value(Names.email))), asRead: true)
            } catch { problems.append(Self.refusal(record, error, "the member’s record is removed")) }
        }
        return unreadable.clients
    }

    /// Reads the classes, then the sessions (a session of a client the
    /// reading left out says so in its repair).
    private mutating func readClassesAndSessions(_ items: [CalendarItem], unreadableClients: Set<String>, _ problems: inout [RecordProblem]) {
        for item in items where item.properties.contains(where: { $0.name == Names.capacity }) {
            do throws(SchedulingError) { try addClass(readClass(item)) } catch {
                let rosters = item.overrides.filter { $0.item.properties.contains { $0.name == "ATTENDEE" } }.count
                problems.append(Self.refusal(.item(uid: item.uid), error, "the class is removed" + (rosters == 0 ? "" : ", with the rosters of its \(rosters) booked occurrence\(rosters == 1 ? "" : "s")")))
            }
        }
        for item in items where item.properties.contains(where: { $0.name == Names.client }) {
            do throws(SchedulingError) { try restore(readSession(item)) } catch {
                let client = item.properties.first { $0.name == Names.client }?.value
                let cause = client.flatMap { unreadableClients.contains($0) ? " (its client ‘\($0)’ cannot be read: mend that record to keep both)" : nil }
                problems.append(Self.refusal(.item(uid: item.uid), error, "the session is removed" + (cause ?? "")))
            }
        }
    }

    /// A warning for each occurrence holding more bookings than places,
    /// naming its roster record when it was written as one.
    private func overbooked(rosterRecords: [(record: RecordProblem.Record, component: ContentComponent)]) -> [RecordProblem] {
        classTimetable.rosters.sorted(by: { ($0.key.classID, $0.key.date) < ($1.key.classID, $1.key.date) }).compactMap { key, roster in
            guard let s = classTimetable.classesByID[key.classID], roster.confirmed.count > s.capacity else { return nil }
            let index = rosterRecords.firstIndex { $0.component.value(Names.classID) == key.classID && $0.component.value(Names.date) == key.date.basicISO }
            return RecordProblem(
                severity: .warning, record: index.map { .component(name: Names.roster, index: $0) } ?? .instance(uid: key.classID, date: key.date),
                message: "\(key.classID) on \(key.date) holds \(roster.confirmed.count) bookings for \(s.capacity) places (a capacity lowered after they booked, or a hand edit); no one else gets a place until \(roster.confirmed.count - s.capacity + 1) cancel",
                repair: nil, underlying: nil)
        }
    }

    private static func required(_ c: ContentComponent, _ name: String) throws(SchedulingError) -> String {
        guard let v = c.value(name), !v.isEmpty else {
            throw .invalid(field: .property(name), reason: "a \(c.name) record\(c.value("UID").map { " (UID \($0))" } ?? "") has no \(name)")
        }
        return v
    }

    private func readCoach(_ c: ContentComponent) throws(SchedulingError) -> Coach {
        let id = try Self.required(c, "UID")
        let hours = try Self.hours(in: c.properties, weekly: Names.hours, dates: Names.dateHours, of: "coach ‘\(id)’")
        guard let buffer = Int(c.value(Names.buffer) ?? "0") else {
            throw .invalid(field: .property(Names.buffer), reason: "coach ‘\(id)’: the buffer is not a number of minutes")
        }
        return Coach(id: id, name: Self.oneLine(try Self.required(c, Names.name)), email: Self.readAddress(c.value(Names.email)), workingHours: hours,
                     buffer: .minutes(buffer), color: try Self.color(c))
    }

    /// A name as read, its line breaks and other control characters made
    /// spaces: the book refuses them when typed (they could reach an
    /// e-mail's header), but a record written before that is read, not lost.
    static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    }

    /// An address as read: on one line, without the spaces around it.
    static func readAddress(_ text: String?) -> String? {
        text.map { oneLine($0).trimmingCharacters(in: .whitespaces) }
    }

    /// Hours as `weekly` lines (`X-HORARI-HOURS;X-HORARI-DAY=MO,TU:09:00-13:00
    /// 16:00-20:00`) and `dates` lines (`X-HORARI-DATE-HOURS:20261224`, a
    /// day off, or with ranges after the date): a coach's working hours, the
    /// gym's opening hours.
    /// - Parameter owner: whose hours, for messages ("coach ‘marc’", "the gym").
    static func hours(in lines: some Sequence<ContentLine>, weekly: String, dates: String, of owner: String) throws(SchedulingError) -> WorkingHours {
        var hours = WorkingHours()
        for line in lines where line.name == weekly {
            let days = (line.parameter(Names.dayParameter) ?? "").split(separator: ",").compactMap { Weekday(icalCode: $0) }
            guard !days.isEmpty else { throw .invalid(field: .property(weekly), reason: "\(owner): hours without a weekday (\(Names.dayParameter)=MO…SU)") }
            try hours.set(line.value.split(separator: " ").map { r throws(SchedulingError) in try TimeRange(parsing: r) }, on: days)
        }
        for line in lines where line.name == dates {
            let words = line.value.split(separator: " ")
            guard let first = words.first, let date = try? CalendarTime(icalValue: first).localDate else {
                throw .invalid(field: .property(dates), reason: "\(owner): ‘\(line.value.prefix(40))’ does not start with a date (YYYYMMDD)")
            }
            try hours.set(words.dropFirst().map { r throws(SchedulingError) in try TimeRange(parsing: r) }, onDate: date)
        }
        return hours
    }

    /// A coach's or client's `X-HORARI-COLOR`: a CSS name or `#rrggbb`.
    private static func color(_ c: ContentComponent) throws(SchedulingError) -> ItemColor? {
        guard let text = c.value(Names.color) else { return nil }
        if let rgb = ItemColor.RGB(hex: text) { return ItemColor(rgb: rgb) }
        guard let named = try? ItemColor.named(text) else {
            throw .invalid(field: .property(Names.color), reason: "\(c.name) ‘\(c.value("UID") ?? "")’: ‘\(text)’ is not a CSS colour name or #rrggbb")
        }
        return named
    }

    private func readClass(_ item: CalendarItem) throws(SchedulingError) -> ClassSeries {
        let what = "class ‘\(item.uid)’"
        guard let capacity = item.properties.first(where: { $0.name == Names.capacity }).flatMap({ Int($0.value) }) else {
            throw .invalid(field: .property(Names.capacity), reason: "\(what): the capacity is not a whole number")
        }
        guard item.recurrenceRules.count == 1, let rule = item.recurrenceRules.first, rule.frequency == .weekly, rule.interval == 1,
            rule.count == nil, rule.byDay.allSatisfy({ $0.ordinal == nil }),
            rule.byMonth.isEmpty, rule.byMonthDay.isEmpty, rule.byHour.isEmpty, rule.byMinute.isEmpty, rule.bySetPos.isEmpty,
            item.recurrenceDates.isEmpty, !item.start.isDate
        else {
            throw .invalid(field: .property("RRULE"), reason: "\(what) is not a weekly timetable entry (one RRULE:FREQ=WEEKLY;BYDAY=… on a timed start)")
        }
        let start = bookWall(item.start)
        let weekdays = rule.byDay.isEmpty ? [start.date.weekday] : rule.byDay.map(\.weekday)
        let lastDate = rule.until.map { until -> LocalDate in
            switch until {
            case .utc(let t): wall(t.localSeconds).date
            default: until.localDate
            }
        }
        var changes: [LocalDate: OccurrenceChange] = [:]
        // An EXDATE is a cancelled occurrence (the book writes one beside
        // each cancelled instance, for clients that read no instances; a
        // calendar may have only the EXDATE). An instance on the same date
        // says more, and wins: a moved one was moved, not cancelled.
        for date in item.exceptionDates { changes[bookWall(date).date] = .cancelled }
        let time = try TimeOfDay(hour: start.hour, minute: start.minute)
        let duration = try Self.length(item, what)
        for o in item.overrides {
            let date = bookWall(o.recurrenceID).date
            if o.isCancelled {
                changes[date] = .cancelled
                continue
            }
            // An instance at the series' own time and length only holds a roster.
            let to = bookWall(o.item.start), length = try Self.length(o.item, what)
            if to != time.on(date) || length != duration { changes[date] = .moved(to: to, duration: length) }
        }
        let details = SchedulingBook.detailLinesRead(from: item.properties)
        return ClassSeries(
            id: item.uid, title: item.title, weekdays: weekdays, time: time, duration: duration, capacity: capacity,
            location: item.location, instructor: item.properties.first { $0.name == Names.instructor }?.value, color: item.color,
            firstDate: start.date, lastDate: lastDate, changes: changes, partOf: item.properties.first { $0.name == Names.partOf }?.value,
            description: item.notes, url: details.url?.value, image: details.image?.value)
    }

    private static func length(_ item: CalendarItem, _ what: String) throws(SchedulingError) -> Duration {
        switch item.end {
        // Whole minutes, as the book counts lengths (seconds beyond them are dropped, as before).
        case .duration(let d): return .minutes(d.duration.wholeMinutes)
        case .at(let end): return .minutes(Int((end.wallTime.localSeconds - item.start.wallTime.localSeconds) / 60))
        case nil: throw .invalid(field: .property("DURATION"), reason: "\(what) has no end or duration")
        }
    }

    private func readSession(_ item: CalendarItem) throws(SchedulingError) -> Session {
        let what = "session ‘\(item.uid)’"
        let value = { (name: String) in item.properties.first { $0.name == name }?.value }
        guard let coach = value(Names.coach), let client = value(Names.client) else {
            throw .invalid(field: .property(Names.coach), reason: "\(what) names no coach or client")
        }
        let status = value(Names.sessionStatus).flatMap(SessionStatus.init(rawValue:)) ?? (item.status == .cancelled ? .cancelled : .scheduled)
        // A session at the second of two equal wall times is written as its
        // UTC instant (a zoned time would read as the first).
        var start = bookWall(item.start)
        var later = false
        if case .utc = item.start, let t = try? item.start.epochSeconds(floatingZone: zone) { (start, later) = reading(t) }
        var session = Session(id: item.uid, coachID: coach, clientID: client, start: start, duration: try Self.length(item, what), location: item.location, notes: item.notes, status: status,
                              isLaterOfRepeatedTime: later, workoutType: item.categories.first, sequence: max(0, item.sequence))
        let attendee = item.properties.first { $0.name == "ATTENDEE" }
        session.answer = attendee?.parameter("PARTSTAT").flatMap { AttendeeAnswer(rawValue: $0.uppercased()) }
        if session.answer != nil, let text = attendee?.parameter(Names.answeredParameter) {
            session.answeredAt = try? CalendarTime(icalValue: text).instant(floatingZone: .utc)
        }
        // `COLOR` holds the colour the session is shown in; it is the
        // session's own unless it is the one it would take from its client
        // or coach anyway (then it follows theirs).
        if let shown = item.color, shown != color(of: session) { session.color = shown }
        if let text = value(Names.completed) {
            guard status == .completed, case .utc? = try? CalendarTime(icalValue: text), let done = try? CalendarTime(icalValue: text).instant(floatingZone: .utc) else {
                throw .invalid(field: .property(Names.completed), reason: "\(what): \(Names.completed) ‘\(text.prefix(40))’ is not a UTC time such as 20261124T101500Z on a completed session")
            }
            session.completedAt = done
        }
        session.series = item.properties.first { $0.name == Names.series }.map { TextEscaping.unescape($0.valueText) }
        return session
    }

    /// A time as a wall time on the book's clocks: a UTC time or one zoned
    /// elsewhere (a file edited in another calendar) is converted through its
    /// instant; a floating time or a date is read as on the book's clocks.
    func bookWall(_ t: CalendarTime) -> LocalDateTime {
        switch t {
        case .utc, .zoned:
            if case .zoned(let w, let z) = t, z == timeZone.identifier { return w }
            return (try? t.epochSeconds(floatingZone: zone)).map(wall) ?? t.wallTime
        case .floating, .date:
            return t.wallTime
        }
    }

    /// A roster as written, either form: its class and date as text, and its
    /// members in order, each with whether they hold a place (a member the
    /// record could not tie to the book has a `nil` ID, with its text).
    struct RosterRecord {
        var classID: String?
        var date: String?
        var entries: [(id: String?, text: String, booked: Bool)]
        /// The instance's `SEQUENCE`: how many changes its members were told of.
        var sequence = 0
        /// The sequence of the last invitation each member was sent, by ID.
        var told: [String: Int] = [:]
    }

    /// A form-1 roster component as a ``RosterRecord``.
    private func roster(_ c: ContentComponent) -> RosterRecord {
        RosterRecord(classID: c.value(Names.classID), date: c.value(Names.date),
                     entries: c.properties.compactMap { line in
                         line.name == Names.booked || line.name == Names.waiting ? (line.value, line.value, line.name == Names.booked) : nil
                     })
    }

    /// A class instance's `ATTENDEE`s as a ``RosterRecord``: `PARTSTAT=TENTATIVE`
    /// waits (in `X-HORARI-WAITLIST-POSITION` order), `DECLINED` is no one, any
    /// other holds a place. Each is tied to a member by `X-HORARI-MEMBER`, else
    /// by its `urn:x-horari:member:ID` address, else by a member's email.
    func roster(of o: RecurrenceOverride, classID: String, date: LocalDate) -> RosterRecord {
        var held: [(id: String?, text: String, booked: Bool)] = [], waiting: [(position: Int, entry: (id: String?, text: String, booked: Bool))] = []
        var told: [String: Int] = [:]
        for line in o.item.properties where line.name == "ATTENDEE" {
            let partstat = line.parameter("PARTSTAT")?.uppercased()
            guard partstat != "DECLINED" else { continue }
            let id = memberID(of: line)
            let text = line.parameter("CN") ?? line.value
            if let id, let n = line.parameter(Names.toldParameter).flatMap({ Int($0) }), n > 0 { told[id] = n }
            if partstat == "TENTATIVE" {
                waiting.append((Int(line.parameter(Names.positionParameter) ?? "") ?? Int.max, (id, id ?? text, false)))
            } else {
                held.append((id, id ?? text, true))
            }
        }
        let ordered = waiting.enumerated().sorted { ($0.element.position, $0.offset) < ($1.element.position, $1.offset) }.map(\.element.entry)
        return RosterRecord(classID: classID, date: date.basicISO, entries: held + ordered, sequence: max(0, o.item.sequence), told: told)
    }

    /// The member an `ATTENDEE` line names, when it names one.
    private func memberID(of line: ContentLine) -> String? {
        if let id = line.parameter(Names.memberParameter) { return id }
        let prefix = "urn:x-horari:member:"
        if line.value.lowercased().hasPrefix(prefix) { return String(line.value.dropFirst(prefix.count)).removingPercentEncoding }
        if line.value.lowercased().hasPrefix("mailto:") {
            let email = line.value.dropFirst(7).lowercased()
            let found = people.membersByID.values.filter { $0.email?.lowercased() == email }
            if found.count == 1 { return found[0].id }
        }
        return nil
    }

    /// Reads a form-1 roster component.
    private mutating func readRoster(_ c: ContentComponent, _ record: RecordProblem.Record, _ problems: inout [RecordProblem]) {
        readRoster(roster(c), record, &problems)
    }

    /// Reads a roster, leaving out what the book refuses and saying so in `problems`.
    mutating func readRoster(_ r: RosterRecord, _ record: RecordProblem.Record, _ problems: inout [RecordProblem]) {
        func refused(_ error: SchedulingError, _ repair: String, saying message: String? = nil) {
            problems.append(RecordProblem(severity: .error, record: record, message: message ?? error.description, repair: repair, underlying: error))
        }
        let key: ClassOccurrence.ID
        do throws(SchedulingError) {
            guard let classID = r.classID, !classID.isEmpty else { throw .invalid(field: .property(Names.classID), reason: "a roster names no class") }
            guard let date = r.date.flatMap({ try? CalendarTime(icalValue: $0).localDate }) else {
                throw .invalid(field: .property(Names.date), reason: "a roster of class ‘\(classID)’ has a date that is not YYYYMMDD")
            }
            key = try classTimetable.occurrenceKey(classID, date)
        } catch {
            refused(error, "the roster is removed")
            return
        }
        // A second roster of the occurrence would replace the first, and the
        // first one's members would be lost at the next save: it joins it.
        if classTimetable.rosters[key] != nil {
            refused(.invalid(field: .property(Names.date), reason: "the occurrence \(key) has two rosters; keep one, with every member in it"),
                    "its members join the first roster, booked after its bookings and waiting after its waiting list")
        }
        var roster = classTimetable.rosters[key] ?? Roster()
        var listed = Set(roster.confirmed + roster.waitlist)
        // Places held first, then the waitlist, as the book writes them: a
        // member listed in both keeps the place.
        for entry in r.entries.filter(\.booked) + r.entries.filter({ !$0.booked }) {
            guard let id = entry.id, people.membersByID[id] != nil else {
                refused(.unknownMember(entry.id ?? entry.text), "the booking of ‘\(entry.text)’ is removed",
                        saying: "the roster of \(key.classID) on \(key.date) \(entry.booked ? "books" : "has on its waiting list") ‘\(entry.text)’, who is not a member")
                continue
            }
            guard listed.insert(id).inserted else {
                refused(.invalid(field: .property(entry.booked ? Names.booked : Names.waiting), reason: "member ‘\(id)’ appears twice in the roster of \(key)"), "the second mention is removed")
                continue
            }
            if entry.booked { roster.confirmed.append(id) } else { roster.waitlist.append(id) }
        }
        roster.sequence = max(roster.sequence, r.sequence)
        for (id, n) in r.told where listed.contains(id) { roster.told[id] = max(roster.told[id] ?? 0, n) }
        if !roster.isEmpty { setRoster(roster, of: key) }
    }

    /// A directory journal (form 2) as the form-1 component the rest of the
    /// reading takes, and its kind; `nil` for a journal that is not the book's.
    static func journalRecord(_ c: ContentComponent) -> (kind: String, component: ContentComponent)? {
        guard let category = journalCategory(c), let uid = c.value("UID") else { return nil }
        let kind: String, emailFrom: String
        switch category {
        case Names.coachCategory: (kind, emailFrom) = (Names.coach, "ORGANIZER")
        case Names.clientCategory: (kind, emailFrom) = (Names.client, "ATTENDEE")
        default: (kind, emailFrom) = (Names.member, "ATTENDEE")
        }
        let prefix = Names.uidPrefix(category)
        // A client's ID is in X-HORARI-ID where the UID names the coach too.
        let id = c.value(Names.scopedID) ?? (uid.hasPrefix(prefix) ? String(uid.dropFirst(prefix.count)) : uid)
        var lines = [ContentLine(name: "UID", value: id)]
        if let summary = c.value("SUMMARY") { lines.append(ContentLine(name: Names.name, value: unescaped(summary))) }
        if let address = c.value(emailFrom), address.lowercased().hasPrefix("mailto:") {
            lines.append(ContentLine(name: Names.email, value: String(address.dropFirst(7))))
        }
        if kind == Names.client, let parent = c.value("RELATED-TO") {
            let coachPrefix = Names.uidPrefix(Names.coachCategory)
            lines.append(ContentLine(name: Names.coach, value: parent.hasPrefix(coachPrefix) ? String(parent.dropFirst(coachPrefix.count)) : parent))
        }
        lines += c.properties.filter { $0.name.hasPrefix("X-HORARI-") && $0.name != Names.scopedID }
        return (kind, ContentComponent(name: kind, properties: ContentLines(lines)))
    }

    /// The book's category of a journal (`horari-member`…), if it is one of the book's.
    static func journalCategory(_ c: ContentComponent) -> String? {
        guard c.name.uppercased() == Names.journal else { return nil }
        for line in c.properties where line.name == "CATEGORIES" {
            for value in line.value.split(separator: ",") {
                let v = value.trimmingCharacters(in: .whitespaces).lowercased()
                if [Names.memberCategory, Names.coachCategory, Names.clientCategory].contains(v) { return v }
            }
        }
        return nil
    }

    /// A TEXT value as text (RFC 5545 §3.3.11), by CalendarCore's one reader of escapes.
    static func unescaped(_ text: String) -> String { TextEscaping.unescape(text[...]) }
}

extension ContentComponent {
    /// The value of the first property with a name.
    func value(_ name: String) -> String? { properties.first { $0.name == name }?.value }
}
