import CalendarCore
import Foundation

extension SchedulingBook {
    /// Reads a book back from what ``content(for:)`` wrote for
    /// ``ExportAudience/everything``, ignoring every other item and component.
    ///
    /// | record | iCalendar |
    /// |---|---|
    /// | class | `VEVENT` with `X-HORARI-CAPACITY`, `RRULE:FREQ=WEEKLY;BYDAY=…`, changed instances by `RECURRENCE-ID` |
    /// | session | `VEVENT` with `X-HORARI-COACH`, `X-HORARI-CLIENT`, `X-HORARI-SESSION-STATUS` |
    /// | coach | `X-HORARI-COACH` component: `UID`, `X-HORARI-NAME`, `X-HORARI-EMAIL`, `X-HORARI-BUFFER`, `X-HORARI-HOURS;X-HORARI-DAY=MO:09:00-13:00 16:00-20:00`, `X-HORARI-DATE-HOURS:20261224` (a day off) |
    /// | client | `X-HORARI-CLIENT` component: `UID`, `X-HORARI-COACH`, `X-HORARI-NAME`, `X-HORARI-EMAIL` |
    /// | member | `X-HORARI-MEMBER` component: `UID`, `X-HORARI-NAME`, `X-HORARI-EMAIL` |
    /// | roster | `X-HORARI-ROSTER` component: `X-HORARI-CLASS`, `X-HORARI-DATE`, then `X-HORARI-BOOKED` and `X-HORARI-WAITING` in order |
    ///
    /// Records are taken as they are: sessions that overlap (a file edited by
    /// hand) are kept, not dropped; the rules apply to the next change.
    /// - Throws: ``SchedulingError/invalid(field:reason:)`` naming the record that cannot be read.
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
            /// The item (a class or a session) with this `UID`.
            case item(uid: String)
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
        var book = SchedulingBook(timeZone: timeZone)
        var problems: [RecordProblem] = []
        func refused(_ record: RecordProblem.Record, _ error: SchedulingError, _ repair: String) {
            problems.append(RecordProblem(severity: .error, record: record, message: error.description, repair: repair, underlying: error))
        }
        var positions: [String: Int] = [:]
        var byName: [String: [(record: RecordProblem.Record, component: ContentComponent)]] = [:]
        for c in components {
            let name = c.name.uppercased()
            let index = positions[name, default: 0]
            positions[name] = index + 1
            byName[name, default: []].append((.component(name: name, index: index), c))
        }
        // A record that needs one the reading left out goes too; the repair
        // says so, so that a person can mend the first record instead.
        var unreadable: (coaches: Set<String>, clients: Set<String>) = ([], [])
        for (record, c) in byName[Names.coach] ?? [] {
            do throws(SchedulingError) { try book.addCoach(book.readCoach(c)) } catch {
                if let id = c.value("UID") { unreadable.coaches.insert(id) }
                refused(record, error, "the coach’s record is removed")
            }
        }
        for (record, c) in byName[Names.client] ?? [] {
            do throws(SchedulingError) {
                try book.addClient(Client(id: try Self.required(c, "UID"), coachID: try Self.required(c, Names.coach), name: try Self.required(c, Names.name),
                                          email: c.value(Names.email), color: try Self.color(c)))
            } catch {
                if let id = c.value("UID") { unreadable.clients.insert(id) }
                let coach = c.value(Names.coach).flatMap { unreadable.coaches.contains($0) ? $0 : nil }
                refused(record, error, "the client’s record is removed" + (coach.map { " (its coach ‘\($0)’ cannot be read: mend that record to keep both)" } ?? ""))
            }
        }
        for (record, c) in byName[Names.member] ?? [] {
            do throws(SchedulingError) {
                try book.addMember(Member(id: try Self.required(c, "UID"), name: try Self.required(c, Names.name), email: c.value(Names.email)))
            } catch { refused(record, error, "the member’s record is removed") }
        }
        for item in items where item.properties.contains(where: { $0.name == Names.capacity }) {
            do throws(SchedulingError) { try book.addClass(book.readClass(item)) } catch { refused(.item(uid: item.uid), error, "the class is removed") }
        }
        for item in items where item.properties.contains(where: { $0.name == Names.client }) {
            do throws(SchedulingError) { try book.restore(book.readSession(item)) } catch {
                let client = item.properties.first { $0.name == Names.client }?.value
                let cause = client.flatMap { unreadable.clients.contains($0) ? " (its client ‘\($0)’ cannot be read: mend that record to keep both)" : nil }
                refused(.item(uid: item.uid), error, "the session is removed" + (cause ?? ""))
            }
        }
        for (record, c) in byName[Names.roster] ?? [] {
            book.readRoster(c, record, &problems)
        }
        for (key, roster) in book.rosters.sorted(by: { ($0.key.classID, $0.key.date) < ($1.key.classID, $1.key.date) }) {
            guard let s = book.classesByID[key.classID], roster.confirmed.count > s.capacity else { continue }
            let index = (byName[Names.roster] ?? []).firstIndex { $0.component.value(Names.classID) == key.classID && $0.component.value(Names.date) == key.date.basicISO }
            problems.append(RecordProblem(
                severity: .warning, record: index.map { .component(name: Names.roster, index: $0) } ?? .item(uid: key.classID),
                message: "\(key.classID) on \(key.date) holds \(roster.confirmed.count) bookings for \(s.capacity) places (a capacity lowered after they booked, or a hand edit); no one else gets a place until \(roster.confirmed.count - s.capacity + 1) cancel",
                repair: nil, underlying: nil))
        }
        return (book, problems)
    }

    private static func required(_ c: ContentComponent, _ name: String) throws(SchedulingError) -> String {
        guard let v = c.value(name), !v.isEmpty else {
            throw .invalid(field: .property(name), reason: "a \(c.name) record\(c.value("UID").map { " (UID \($0))" } ?? "") has no \(name)")
        }
        return v
    }

    private func readCoach(_ c: ContentComponent) throws(SchedulingError) -> Coach {
        let id = try Self.required(c, "UID")
        var hours = WorkingHours()
        for line in c.properties where line.name == Names.hours {
            let days = (line.parameter(Names.dayParameter) ?? "").split(separator: ",").compactMap { Weekday(icalCode: $0) }
            guard !days.isEmpty else { throw .invalid(field: .property(Names.hours), reason: "coach ‘\(id)’: hours without a weekday (\(Names.dayParameter)=MO…SU)") }
            try hours.set(line.value.split(separator: " ").map { r throws(SchedulingError) in try TimeRange(parsing: r) }, on: days)
        }
        for line in c.properties where line.name == Names.dateHours {
            let words = line.value.split(separator: " ")
            guard let first = words.first, let date = try? CalendarTime(icalValue: first).localDate else {
                throw .invalid(field: .property(Names.dateHours), reason: "coach ‘\(id)’: ‘\(line.value)’ does not start with a date (YYYYMMDD)")
            }
            try hours.set(words.dropFirst().map { r throws(SchedulingError) in try TimeRange(parsing: r) }, onDate: date)
        }
        guard let buffer = Int(c.value(Names.buffer) ?? "0") else {
            throw .invalid(field: .property(Names.buffer), reason: "coach ‘\(id)’: the buffer is not a number of minutes")
        }
        return Coach(id: id, name: try Self.required(c, Names.name), email: c.value(Names.email), workingHours: hours, buffer: .minutes(buffer),
                     color: try Self.color(c))
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
        for o in item.overrides {
            let date = bookWall(o.recurrenceID).date
            changes[date] = o.isCancelled ? .cancelled : .moved(to: bookWall(o.item.start), duration: try Self.length(o.item, what))
        }
        let time = try TimeOfDay(hour: start.hour, minute: start.minute)
        return ClassSeries(
            id: item.uid, title: item.title, weekdays: weekdays, time: time, duration: try Self.length(item, what), capacity: capacity,
            location: item.location, instructor: item.properties.first { $0.name == Names.instructor }?.value, color: item.color,
            firstDate: start.date, lastDate: lastDate, changes: changes)
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
        if case .utc = item.start, let t = try? item.start.epochSeconds(floatingIn: zone) { (start, later) = reading(t) }
        var session = Session(id: item.uid, coachID: coach, clientID: client, start: start, duration: try Self.length(item, what), location: item.location, notes: item.notes, status: status,
                              isLaterOfRepeatedTime: later, workoutType: item.categories.first)
        // `COLOR` holds the colour the session is shown in; it is the
        // session's own unless it is the one it would take from its client
        // or coach anyway (then it follows theirs).
        if let shown = item.color, shown != color(of: session) { session.color = shown }
        return session
    }

    /// A time as a wall time on the book's clocks: a UTC time or one zoned
    /// elsewhere (a file edited in another calendar) is converted through its
    /// instant; a floating time or a date is read as on the book's clocks.
    private func bookWall(_ t: CalendarTime) -> LocalDateTime {
        switch t {
        case .utc, .zoned:
            if case .zoned(let w, let z) = t, z == timeZone.identifier { return w }
            return (try? t.epochSeconds(floatingIn: zone)).map(wall) ?? t.wallTime
        case .floating, .date:
            return t.wallTime
        }
    }

    /// Stores a session as read, with no clash check.
    mutating func restore(_ s: Session) throws(SchedulingError) {
        _ = try client(s.clientID, coach: s.coachID)
        guard sessionsByID[s.id] == nil else { throw .duplicateID(s.id, kind: "session") }
        try Self.checkLength(s.duration, "session ‘\(s.id)’")
        sessionsByID[s.id] = s
        if s.holdsTime {
            let start = instant(of: s)
            timelines[s.coachID, default: Timeline()].insert(.init(start: start, end: start + s.duration.components.seconds, id: s.id))
        }
    }

    /// Reads a roster, leaving out what the book refuses and saying so in `problems`.
    private mutating func readRoster(_ c: ContentComponent, _ record: RecordProblem.Record, _ problems: inout [RecordProblem]) {
        func refused(_ error: SchedulingError, _ repair: String, saying message: String? = nil) {
            problems.append(RecordProblem(severity: .error, record: record, message: message ?? error.description, repair: repair, underlying: error))
        }
        let key: ClassOccurrence.ID
        do throws(SchedulingError) {
            let classID = try Self.required(c, Names.classID)
            guard let date = try? CalendarTime(icalValue: try Self.required(c, Names.date)).localDate else {
                throw .invalid(field: .property(Names.date), reason: "a roster of class ‘\(classID)’ has a date that is not YYYYMMDD")
            }
            key = try occurrenceKey(classID, date)
        } catch {
            refused(error, "the roster is removed")
            return
        }
        // A second roster of the occurrence would replace the first, and the
        // first one's members would be lost at the next save: it joins it.
        let second = rosters[key] != nil
        if second {
            refused(.invalid(field: .property(Names.date), reason: "the occurrence \(key) has two rosters; keep one, with every member in it"),
                    "its members join the first roster, booked after its bookings and waiting after its waiting list")
        }
        var roster = rosters[key] ?? Roster()
        // Places held first, then the waitlist, as the book writes them: a
        // member listed in both keeps the place.
        for line in c.properties.filter({ $0.name == Names.booked }) + c.properties.filter({ $0.name == Names.waiting }) {
            let id = line.value
            guard membersByID[id] != nil else {
                refused(.unknownMember(id), "the booking of ‘\(id)’ is removed",
                        saying: "the roster of \(key.classID) on \(key.date) \(line.name == Names.booked ? "books" : "has on its waiting list") ‘\(id)’, who is not a member")
                continue
            }
            guard occurrencesByMember[id, default: []].insert(key).inserted else {
                refused(.invalid(field: .property(line.name), reason: "member ‘\(id)’ appears twice in the roster of \(key)"), "the second mention is removed")
                continue
            }
            if line.name == Names.booked { roster.confirmed.append(id) } else { roster.waitlist.append(id) }
        }
        if !roster.isEmpty { rosters[key] = roster }
    }

    /// Stores who holds the places of an occurrence and who waits, as read
    /// (a file or JSON), refusing unknown members, a member listed twice and
    /// a second roster of the occurrence.
    mutating func restoreRoster(classID: String, date: LocalDate, booked: [String], waiting: [String]) throws(SchedulingError) {
        let key = try occurrenceKey(classID, date)
        guard rosters[key] == nil else {
            throw .invalid(field: .property(Names.date), reason: "the occurrence \(key) has two rosters; keep one, with every member in it")
        }
        for id in booked + waiting {
            _ = try member(id)
            guard occurrencesByMember[id]?.insert(key).inserted ?? true else {
                throw .invalid(field: .property(Names.booked), reason: "member ‘\(id)’ appears twice in the roster of \(key)")
            }
            occurrencesByMember[id, default: []].insert(key)
        }
        let roster = Roster(confirmed: booked, waitlist: waiting)
        if !roster.isEmpty { rosters[key] = roster }
    }
}

extension ContentComponent {
    /// The value of the first property with a name.
    func value(_ name: String) -> String? { properties.first { $0.name == name }?.value }
}
