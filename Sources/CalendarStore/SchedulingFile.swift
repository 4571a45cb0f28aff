import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit
import SchedulingICalendar

/// Changes to one class occurrence of the book in a calendar file that read
/// and write only the records they touch, so that a booking costs about the
/// same in a file with twenty years of rosters as in a new one.
///
/// ``changeOccurrence(classID:on:members:in:exporterFor:whileWaiting:_:)``
/// outlines the file (ICalendarKit's `ICalendarOutline`: its top-level
/// components, not parsed), parses the calendar's own properties, its
/// `VTIMEZONE`s, the class's series (its master `VEVENT`), the instances
/// written within a day of the occurrence (its roster is one of them, when it
/// has one) and the journals of the members they name, makes the change on a
/// book of just those records, and splices the records that changed back
/// into the file's bytes: the occurrence's instance replaced, added in date
/// order among the class's instances, or removed, and the series when the
/// change cancelled the occurrence. Everything else stays byte for byte; the
/// file is written atomically under its lock, as `CalendarFile.update` writes.
///
/// Where the file is in the form `ICalendarExporter` writes, the result is
/// the file the whole-file change (load, `schedulingBook()`, the change,
/// `setScheduling(_:)`, save) writes with the same exporter, but for records
/// it did not change: those keep the bytes they had, where the whole-file
/// change writes every record of the book afresh (a new `DTSTAMP`, say). The
/// records it does not read are not checked either: a broken record
/// elsewhere in the file is left for the commands that read it to report.
///
/// When the change cannot be made that way — the file is not in outline
/// form, names no `X-HORARI-TIMEZONE`, still holds the book's earlier form
/// (`X-HORARI-*` components, which the whole-file change migrates), the
/// records it needs do not read cleanly, `body` moves the occurrence (which
/// is checked against every other occurrence of its class), or `body` changes
/// anything but the occurrence — it writes nothing and returns `nil`, and the
/// caller makes the change on the whole file.
///
/// ```swift
/// let date = try LocalDate(year: 2026, month: 11, day: 30)
/// let booking = { (book: inout SchedulingBook) throws in
///     try book.book(member: "marta", classID: "yoga", on: date, now: .now)
/// }
/// let outcome = try SchedulingFile.changeOccurrence(
///     classID: "yoga", on: date, members: ["marta"], in: url, exporterFor: { _ in ICalendarExporter() }, booking
/// ) ?? CalendarFile.update(url) { calendar in
///     var book = try calendar.schedulingBook()
///     let outcome = try booking(&book)
///     calendar.setScheduling(book)
///     return outcome
/// }
/// ```
public enum SchedulingFile {
    /// Changes one occurrence of a class — its roster, and whether it is
    /// cancelled or moved — reading and writing only the records it touches
    /// (see ``SchedulingFile``).
    ///
    /// The book `body` gets holds the class, the occurrence's roster, the
    /// members it names and `members`, and nothing else: no other roster,
    /// member, class, coach, client or session. `body` may be run and its
    /// result dropped (when `nil` is returned), so it must change nothing
    /// but the book.
    ///
    /// - Parameters:
    ///   - classID: the class whose occurrence changes.
    ///   - date: the occurrence's date by the series (its identity, even if moved).
    ///   - members: the members `body` needs besides those on the roster
    ///     (the one it books, say).
    ///   - url: the calendar file.
    ///   - exporterFor: the exporter the changed records are written with,
    ///     given a calendar of the file's own properties and zones and the
    ///     records read, as changed.
    ///   - whileWaiting: called once when another process has held the
    ///     file's lock for a second; the call then goes on waiting.
    ///   - body: the change.
    /// - Returns: what `body` returns, or `nil` when nothing was written
    ///   because the change must be made on the whole file.
    /// - Throws: what `body` or `exporterFor` throws (nothing is written
    ///   then), or `ICalendarError` when the file cannot be read or written.
    public static func changeOccurrence<T>(
        classID: String, on date: LocalDate, members: [String] = [], in url: URL,
        exporterFor: (ICalendar) throws -> ICalendarExporter, whileWaiting: (() -> Void)? = nil,
        _ body: (inout SchedulingBook) throws -> T
    ) throws -> T? {
        let key = ClassOccurrence.ID(classID: classID, date: date)
        return try CalendarFile.splice(url, indexing: OccurrenceSplice.indexing, whileWaiting: whileWaiting) { outline in
            try OccurrenceSplice.change(key, members: members, outline, exporterFor: exporterFor, body)
        }
    }
}
