import CalendarCore
import CalendarScheduling
import ICalendarKit

// A change of one class occurrence made on a calendar of a few resources —
// the class (its own event and the date's yearly part), the members the
// change names, those on the occurrence's roster — rather than on the whole
// gym, so that a booking on a CalDAV collection costs the same in a gym of
// ten members as in one of ten thousand. The store reads those resources
// (`CalendarStore.update(holding:alsoHolding:…)`); what the resources are,
// and how the book is read from them and written back, is the mapping's, so
// it lives here (issue 29: the CLI used to do this itself).

extension ICalendar {
    /// The UIDs whose resources a change of one occurrence of a class needs
    /// first: the class's own event, the date's yearly part
    /// (`SchedulingBook.classPartUID(_:year:)`) and the members' records.
    ///
    /// - Parameters:
    ///   - classID: the class.
    ///   - date: the occurrence's date by the series.
    ///   - members: the members the change names (the one it books, say).
    package static func resources(forOccurrenceOf classID: String, on date: LocalDate, members: [String]) -> Set<String> {
        Set([classID, SchedulingBook.classPartUID(classID, year: date.year)] + members.map(memberRecordUID))
    }

    /// The UID of a member's record (`member:ID`).
    package static func memberRecordUID(_ id: String) -> String { "member:" + id }

    /// The records (`member:ID`) of the members on the roster of a class's
    /// occurrence: the attendees of its instances within a day of the date
    /// (its own is one of them, whatever zone its `RECURRENCE-ID` is written in).
    package func rosterMemberRecords(of classID: String, near date: LocalDate) -> Set<String> {
        var out: Set<String> = []
        let part = SchedulingBook.classPartUID(classID, year: date.year)
        for item in items where item.uid == classID || item.uid == part {
            for o in item.overrides where abs(o.recurrenceID.localDate.days(to: date)) <= 1 {
                for line in o.item.properties where line.name == "ATTENDEE" {
                    if let id = line.parameter("X-HORARI-MEMBER") { out.insert(Self.memberRecordUID(id)) }
                }
            }
        }
        return out
    }

    /// Changes one occurrence of a class on a calendar that holds only the
    /// resources ``resources(forOccurrenceOf:on:members:)`` and
    /// ``rosterMemberRecords(of:near:)`` name, and writes the book back in
    /// yearly parts (``setScheduling(_:splittingClassesBefore:)``).
    ///
    /// The book is read from the class and this occurrence's roster: the
    /// class's other rosters, whose members were not read, are set aside and
    /// put back as they were, each on the event that holds its date after
    /// the change — the year's part, or the class's own event from its first
    /// date. The split may not be the one read: the first change of a new
    /// year makes last year's part, and a clock a little behind another
    /// desk's at New Year joins one.
    ///
    /// - Parameters:
    ///   - classID: the class.
    ///   - date: the occurrence's date by the series.
    ///   - defaultTimeZone: the book's zone when the calendar names none.
    ///   - year: the current year on the book's clock, from which earlier years are parts.
    ///   - body: the change, on a book of the records read.
    /// - Returns: what `body` returns, or `nil` when the change must be made
    ///   on the whole calendar (the class is not among the resources, a
    ///   record cannot be read alone, a roster's date is within a day of New
    ///   Year); the calendar may then have been changed, and must be dropped.
    package mutating func changeOccurrence<T>(
        of classID: String, on date: LocalDate, defaultTimeZone: String, year: (SchedulingBook) throws -> Int,
        _ body: (inout SchedulingBook) throws -> T
    ) throws -> T? {
        let part = SchedulingBook.classPartUID(classID, year: date.year)
        let ofClass = { (item: CalendarItem) in item.uid == classID || item.uid == part }
        let aside = { (o: RecurrenceOverride) in
            abs(o.recurrenceID.localDate.days(to: date)) > 1 && o.item.properties.contains { $0.name == "ATTENDEE" }
        }
        var kept: [RecurrenceOverride] = []
        for i in items.indices where ofClass(items[i]) {
            kept += items[i].overrides.filter(aside)
            items[i].overrides.removeAll(where: aside)
        }
        // A part the book cannot read alone (an attendee tied by email, say): the whole calendar decides.
        guard items.contains(where: { $0.uid == classID }),
              var book = try? schedulingBook(defaultTimeZone: defaultTimeZone) else { return nil }
        let result = try body(&book)
        setScheduling(book, splittingClassesBefore: try year(book))
        for roster in kept {
            guard let i = eventHolding(roster.recurrenceID.localDate, of: classID) else { return nil }
            items[i].overrides.append(roster)
        }
        for i in items.indices where ofClass(items[i]) || items[i].uid.hasPrefix(classID + "@") {
            items[i].overrides.sort { $0.recurrenceID.icalValue < $1.recurrenceID.icalValue }
        }
        return result
    }

    /// The index of the event of a class that holds a date: `ID@YEAR`, its
    /// yearly part, else the class's own event when the date is on or after
    /// its start. `nil` within a day of New Year, where a `RECURRENCE-ID`
    /// written in another zone may belong to either year.
    private func eventHolding(_ date: LocalDate, of classID: String) -> Int? {
        let neighbours = [date.adding(days: -1), date.adding(days: 1)]
        guard neighbours.allSatisfy({ $0.year == date.year }) else { return nil }
        let partUID = SchedulingBook.classPartUID(classID, year: date.year)
        if let part = items.firstIndex(where: { $0.uid == partUID }) { return part }
        return items.firstIndex { $0.uid == classID && $0.start.localDate <= date }
    }
}
