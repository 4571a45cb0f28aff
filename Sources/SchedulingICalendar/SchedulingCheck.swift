import CalendarCore
import CalendarScheduling
import ICalendarKit

extension ICalendar {
    /// The scheduling book this calendar keeps, read as far as it makes
    /// sense, with every inconsistency among its records
    /// (`SchedulingBook.reading(timeZone:items:components:)`).
    ///
    /// `horari validate` prints the problems with their lines
    /// (`ICalendarSourceLines.line(of:)`); `horari validate --repair` saves the book
    /// returned here with ``setScheduling(_:)``, which leaves out what the
    /// book could not read.
    ///
    /// ```swift
    /// let read = try ICalendarImporter().importCalendar(contentsOf: url)
    /// let check = try read.calendar.schedulingCheck()
    /// for p in check.problems { print(read.sourceLines.line(of: p.record) ?? 0, p) }
    /// ```
    /// - Parameter defaultTimeZone: as for ``schedulingBook(defaultTimeZone:)``.
    /// - Throws: `SchedulingError` only when the calendar's own properties
    ///   that the whole book rests on cannot be read: its zone, its class
    ///   booking rules (``classBookingPolicy()``), the session policy
    ///   (``sessionPolicy()``), the gym's opening hours and closures
    ///   (``openingHours()``, ``gymClosures()``).
    public func schedulingCheck(defaultTimeZone: String? = nil) throws(SchedulingError) -> (book: SchedulingBook, problems: [SchedulingBook.RecordProblem]) {
        let rules = try bookZone(defaultTimeZone: defaultTimeZone)
        var check = SchedulingBook.reading(timeZone: rules, items: items.filter(SchedulingBook.isSchedulingItem),
                                           components: components.filter(SchedulingBook.isSchedulingComponent))
        check.book.classPolicy = try classBookingPolicy()
        try readGymRules(into: &check.book)
        return check
    }

    /// The zone of the book this calendar keeps.
    func bookZone(defaultTimeZone: String?) throws(SchedulingError) -> ZoneRules {
        let zone = properties.first { $0.name == Self.bookZoneProperty }?.value ?? timeZone ?? defaultTimeZone ?? "UTC"
        do { return try zones.rules(forTZID: zone) } catch {
            throw .invalid(field: .timeZone, reason: "‘\(zone)’ is not a time zone this system knows; use an IANA name such as Europe/Madrid")
        }
    }
}

extension ICalendarSourceLines {
    /// The line a record of the book begins on, when the text has it: a
    /// component by name and order (as `SchedulingBook.RecordProblem.Record.component(name:index:)`
    /// counts them), an item by `UID`, a changed instance by its date.
    /// - Parameter record: the record a problem names.
    public func line(of record: SchedulingBook.RecordProblem.Record) -> Int? {
        switch record {
        case .component(let name, let index): line(ofComponent: name, index: index)
        case .item(let uid): line(ofItem: uid)
        case .instance(let uid, let date): line(ofItem: uid, recurrenceDate: date.basicISO)
        }
    }

    /// The line of the calendar property a book's error names
    /// (`X-HORARI-CLOSURE`, `X-HORARI-WEEKLY-LIMIT`…, from
    /// ``ICalendar/schedulingCheck(defaultTimeZone:)``): the one holding the
    /// value the error quotes (‘…’), else the first of that name; `nil` for
    /// an error about anything else.
    /// - Parameter error: what reading the book's rules threw.
    public func line(of error: SchedulingError) -> Int? {
        guard case .invalid(let field, let reason) = error, field.rawValue.hasPrefix("X-") else { return nil }
        let quoted = reason.split(separator: "‘", maxSplits: 1).dropFirst().first.flatMap { $0.split(separator: "’", maxSplits: 1).first }.map(String.init)
        return line(ofCalendarProperty: field.rawValue, holding: quoted)
    }
}
