import CalendarCore
import CalendarScheduling
import ICalendarKit

/// The scheduling book in a calendar file, and its four exports.
///
/// A calendar file holds the book's records beside ordinary events and
/// tasks: classes and sessions as `VEVENT`s, coaches, clients, members and
/// rosters as `X-HORARI-*` components (see
/// `SchedulingBook.init(timeZone:items:components:)`).
///
/// ```swift
/// try CalendarFile.update(url) { calendar in  // CalendarStore: the file, under its lock
///     var book = try calendar.schedulingBook()
///     try book.book(member: "marta", classID: "yoga", on: date, now: .now)
///     calendar.setScheduling(book)
/// }
/// let timetable = ICalendarExporter().export(try ICalendar(book, for: .publicTimetable))
/// ```
extension ICalendar {
    /// A calendar holding what an audience may see of a book.
    ///
    /// - `.publicTimetable`: the classes with their capacities; no one's name,
    ///   not even an instructor's (`.publicTimetableNamingInstructors` adds them).
    /// - `.member(id)`: that member's booked occurrences only.
    /// - `.coach(id)`: that coach's sessions only.
    /// - `.everything`: the whole book, which ``schedulingBook(defaultTimeZone:)`` reads back.
    ///
    /// Every export but `.everything` is a feed people subscribe to, and
    /// says how often to read it again (`ICalendar.refreshInterval`,
    /// RFC 7986's `REFRESH-INTERVAL` and `X-PUBLISHED-TTL`); `.everything`
    /// is a backup, and says nothing of the kind.
    ///
    /// - Parameters:
    ///   - book: the book to write.
    ///   - audience: whom the calendar is for, and so what it may contain.
    ///   - name: the calendar's name (`X-WR-CALNAME`), if any.
    ///   - refreshInterval: how often a subscriber should read a feed again
    ///     (an hour by default, `ICalendar.defaultRefreshInterval`);
    ///     `nil` for none. Not written for `.everything`.
    /// - Throws: `SchedulingError` for an unknown member or coach.
    public init(_ book: SchedulingBook, for audience: ExportAudience, name: String? = nil,
                refreshInterval: Duration? = ICalendar.defaultRefreshInterval) throws(SchedulingError) {
        self.init(name: name)
        let content = try book.content(for: audience)
        items = content.items
        components = content.components
        properties = [ContentLine(name: Self.bookZoneProperty, value: book.timeZone.identifier)]
        if audience == .everything {
            writeClassBookingPolicy(book.classPolicy)
            writeGymRules(of: book)
        } else {
            self.refreshInterval = refreshInterval
        }
    }

    /// The scheduling book kept in this calendar (an empty one if it keeps
    /// none), with the class booking rules the calendar records
    /// (``classBookingPolicy()``).
    ///
    /// - Parameter defaultTimeZone: the book's zone when the calendar names
    ///   none (`X-HORARI-TIMEZONE`, else Google's `X-WR-TIMEZONE`); UTC if `nil`.
    /// - Throws: `SchedulingError` naming a record, or a booking rule, that cannot be read.
    public func schedulingBook(defaultTimeZone: String? = nil) throws(SchedulingError) -> SchedulingBook {
        let rules = try bookZone(defaultTimeZone: defaultTimeZone)
        var book = try SchedulingBook(
            timeZone: rules, items: items.filter(SchedulingBook.isSchedulingItem),
            components: components.filter(SchedulingBook.isSchedulingComponent))
        book.classPolicy = try classBookingPolicy()
        try readGymRules(into: &book)
        return book
    }

    /// Replaces the calendar's scheduling records (and booking rules) with a
    /// book's, keeping every other item, component and property as it was.
    ///
    /// - Parameter book: the book whose records (its backup, as
    ///   ``init(_:for:name:refreshInterval:)`` writes for `.everything`) the calendar keeps.
    public mutating func setScheduling(_ book: SchedulingBook) {
        setScheduling(book, content: book.backupContent())
    }

    /// Replaces the calendar's scheduling records with a book's, each class
    /// that met before `year` in yearly parts
    /// (`SchedulingBook.backupContent(splittingClassesBefore:)`): for a
    /// calendar kept one resource per UID, a folder or a CalDAV collection,
    /// where a class's one resource would otherwise hold its whole history.
    ///
    /// - Parameters:
    ///   - book: the book.
    ///   - year: the current year on the book's clock.
    public mutating func setScheduling(_ book: SchedulingBook, splittingClassesBefore year: Int) {
        let others = Set(items.lazy.filter { !SchedulingBook.isSchedulingItem($0) }.map(\.uid))
        setScheduling(book, content: book.backupContent(splittingClassesBefore: year, besides: others))
    }

    private mutating func setScheduling(_ book: SchedulingBook, content: SchedulingContent) {
        let content = keepingWhatTheBookDoesNotWrite(content)
        items = items.filter { !SchedulingBook.isSchedulingItem($0) } + content.items
        components = components.filter { !SchedulingBook.isSchedulingComponent($0) } + content.components
        setBookZone(book.timeZone.identifier)
        writeClassBookingPolicy(book.classPolicy)
        writeGymRules(of: book)
    }
}

extension ICalendar {
    /// A book's records as this calendar's own records of them hold them: what
    /// another program added to a class or a session that the book does not
    /// keep — a reminder (`VALARM`), a property of its own (`ATTACH`, a
    /// session's `URL`, an `X-` of another client) — stays on it when the
    /// book writes it again. (A class's `URL` and `IMAGE` are the book's,
    /// `ClassSeries.url` and `ClassSeries.image`: one taken away stays away.)
    ///
    /// The book writes its records whole from what it knows, so a coach's
    /// reminder set in Apple Calendar on a session was dropped by the next
    /// booking. What the book writes itself (`ATTENDEE`, `ORGANIZER`, its
    /// `X-HORARI-*`) is the book's, and is never brought back. An instance
    /// the book writes anew repeats its series' reminders, as it repeats its
    /// colour: an instance is a whole component of its own (RFC 5545
    /// §3.8.4.4), and one without them would not ring.
    /// - Parameter content: the book's records (`SchedulingBook.backupContent()`).
    /// - Returns: the records, each with what this calendar's record of it holds besides.
    package func keepingWhatTheBookDoesNotWrite(_ content: SchedulingContent) -> SchedulingContent {
        var ours: [String: CalendarItem] = [:]
        for item in items where SchedulingBook.isSchedulingItem(item) { ours[item.uid] = item }
        guard !ours.isEmpty else { return content }
        var kept = content
        kept.items = content.items.map { item in
            guard let old = ours[item.uid] else { return item }
            var item = item
            let isClass = item.properties.contains { $0.name == Names.capacity }
            Self.keepForeign(of: old, in: &item, ofAClass: isClass)
            let classReminders = item.reminders
            let instances = Dictionary(old.overrides.map { ($0.recurrenceID, $0) }, uniquingKeysWith: { a, _ in a })
            item.overrides = item.overrides.map { o in
                var o = o
                if let was = instances[o.recurrenceID] {
                    Self.keepForeign(of: was.item, in: &o.item, ofAClass: isClass)
                } else if !o.item.hasAlarms {
                    // A new instance holds its members; it rings as its class does.
                    o.item.reminders = classReminders
                }
                return o
            }
            return item
        }
        return kept
    }

    /// Properties another program writes in place of a field the book
    /// writes (Apple's structured location, `GEO`, Outlook's HTML
    /// description, a colour): kept, they would show the old room or notes
    /// after the book changed them.
    private static let shadowingFields: Set<String> = ["GEO", "X-APPLE-STRUCTURED-LOCATION", "X-ALT-DESC", "COLOR", "X-APPLE-CALENDAR-COLOR"]

    /// Puts on `item` the subcomponents and properties of `old` the book does
    /// not write. A reminder at a moment of its own (`TRIGGER;VALUE=DATE-TIME`)
    /// stays only while the item keeps its time: it was set for that time.
    /// On a class (or its instance), `URL` and `IMAGE` are told apart line
    /// by line, not by name: the lines the book read as its page and picture
    /// (`ClassSeries.url`, `.image`) are not brought back, so one it took away
    /// stays away, while another program's (a `mailto:` page, a second
    /// picture) stays beside the book's.
    private static func keepForeign(of old: CalendarItem, in item: inout CalendarItem, ofAClass isClass: Bool) {
        if item.components.isEmpty, !item.hasAlarms {
            let moved = old.start != item.start
            item.components = old.components
            item.unreadableAlarms = old.unreadableAlarms
            item.alarms = old.alarms.filter { alarm in
                guard moved, case .absolute = alarm.trigger else { return true }
                return false
            }
        }
        let byLine: Set<String> = isClass ? ["URL", "IMAGE"] : []
        let read = isClass ? SchedulingBook.detailLinesRead(from: old.properties) : (url: nil, image: nil)
        let besides = [read.url, read.image].compactMap { $0 }
        let written = Set(item.properties.map(\.name)).subtracting(byLine)
        let bookOwn: Set<String> = ["ATTENDEE", "ORGANIZER"]
        item.properties.append(contentsOf: old.properties.filter { p in
            !p.name.hasPrefix("X-HORARI-") && !bookOwn.contains(p.name) && !shadowingFields.contains(p.name) && !written.contains(p.name)
                && !besides.contains(p) && !(byLine.contains(p.name) && item.properties.contains(p))
        })
    }
}

extension ICalendar {
    /// Takes out the items that stand for an occurrence of one of `book`'s
    /// classes, as a member's export writes them (`yoga/20261123`, with
    /// `X-HORARI-CLASS` and `X-HORARI-DATE`), and returns those occurrences.
    ///
    /// Call it on a calendar about to be merged into the gym's: such an item
    /// is a view of the class's occurrence, which the gym's calendar holds
    /// already, so the occurrence merges into its class instead of becoming a
    /// second series (a member's export imported back showed Yoga twice on
    /// her days, and turned them red). Who holds a place stays as the gym's
    /// book says: an export is not a booking. Items naming a class the book
    /// does not keep are left in, so a member's export imports into her own
    /// calendar as ordinary events.
    ///
    /// Read the target's book only when ``holdsClassOccurrences``: most
    /// imported files hold none, and a gym's book is not free to read.
    ///
    /// - Parameter book: the scheduling book of the calendar merged into.
    /// - Returns: the class occurrences taken out, in the order they were.
    public mutating func removeClassOccurrences(of book: SchedulingBook) -> [ClassOccurrence.ID] {
        guard holdsClassOccurrences else { return [] }
        var taken: [ClassOccurrence.ID] = []
        items.removeAll { item in
            guard let ids = book.classOccurrences(exportedAs: item) else { return false }
            taken += ids
            return true
        }
        return taken
    }
}

extension ICalendar {
    /// Whether any item is a class occurrence as a member's export writes it
    /// (`SchedulingBook.isClassOccurrenceExport(_:)`).
    public var holdsClassOccurrences: Bool { items.contains(where: SchedulingBook.isClassOccurrenceExport) }
}
