import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit

/// Changes to one class occurrence of the book in a calendar file that read
/// and write only the records they touch, so that a booking costs about the
/// same in a file with twenty years of rosters as in a new one.
///
/// ``changeOccurrence(classID:on:members:in:exporterFor:whileWaiting:_:)``
/// outlines the file (ICalendarKit's `ICalendarOutline`: its top-level
/// components, not parsed), parses the calendar's own properties, its `VTIMEZONE`s, the
/// class's `VEVENT`s, the occurrence's roster and the members it names,
/// makes the change on a book of just those records, and splices the
/// records that changed back into the file's bytes: a roster replaced,
/// added at its place among the rosters (by date, then class) or removed,
/// and the class's `VEVENT`s when the change moved or cancelled the
/// occurrence. Everything else stays byte for byte; the file is written
/// atomically under its lock, as `CalendarFile.update` writes.
///
/// Where the file is in the form `ICalendarExporter` writes, the result is
/// the file the whole-file change (load, `schedulingBook()`, the change,
/// `setScheduling(_:)`, save) writes with the same
/// exporter, but for records it did not change: those keep the bytes they
/// had, where the whole-file change writes every record of the book afresh
/// (a new `DTSTAMP`, say). The records it does not read are not checked
/// either: a broken record elsewhere in the file is left for the commands
/// that read it to report.
///
/// When the change cannot be made that way — the file is not in outline
/// form, names no `X-HORARI-TIMEZONE`, holds two rosters of the occurrence,
/// the records it needs do not read cleanly, or `body` changes anything but
/// the occurrence's class and roster — it writes nothing and returns `nil`,
/// and the caller makes the change on the whole file.
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
    private static let zoneProperty = ICalendar.bookZoneProperty
    private static let member = "X-HORARI-MEMBER", roster = "X-HORARI-ROSTER"
    private static let classProperty = "X-HORARI-CLASS", dateProperty = "X-HORARI-DATE"
    private static let booked = "X-HORARI-BOOKED", waiting = "X-HORARI-WAITING"
    private static let records: Set<String> = ["X-HORARI-COACH", "X-HORARI-CLIENT", member, roster]

    /// Changes one occurrence of a class — its roster, and the class's
    /// changed occurrences — reading and writing only the records it touches
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
        return try CalendarFile.splice(url, indexing: ["UID", classProperty, dateProperty], whileWaiting: whileWaiting) { outline in
            try change(key, members: members, outline, exporterFor: exporterFor, body)
        }
    }

    private static func change<T>(
        _ key: ClassOccurrence.ID, members wanted: [String], _ outline: ICalendarOutline,
        exporterFor: (ICalendar) throws -> ICalendarExporter, _ body: (inout SchedulingBook) throws -> T
    ) throws -> (result: T, splice: ICalendarSplice)? {
        guard outline.calendarValues[zoneProperty]?.count == 1 else { return nil }
        // An ID written with an escape is read back through the importer:
        // every record whose ID has one is taken in case it is the one wanted.
        let maybe = { (id: String, wanted: String) in id == wanted || escaped(id) }
        var selected: [ICalendarOutline.Component] = [], classEvents: [ICalendarOutline.Component] = []
        var rosters: [(component: ICalendarOutline.Component, id: ClassOccurrence.ID)] = []
        var memberComponents: [ICalendarOutline.Component] = []
        var lastRecord: ICalendarOutline.Component?
        for c in outline.components {
            switch c.name {
            case "VTIMEZONE":
                selected.append(c)
            case "VEVENT", "VTODO":
                var uids = 0, match = false
                for p in c.indexed where p.name == "UID" {
                    uids += 1
                    match = match || maybe(p.value, key.classID)
                }
                if match { selected.append(c) }
                if c.name == "VEVENT", uids == 1, c.value("UID") == key.classID { classEvents.append(c) }
            case member:
                memberComponents.append(c)
            case roster:
                // Every roster's key as written, for where a new one goes.
                var classID: String?, date: String?, once = true
                for p in c.indexed {
                    if p.name == classProperty {
                        once = once && classID == nil
                        classID = p.value
                    } else if p.name == dateProperty {
                        once = once && date == nil
                        date = p.value
                    }
                }
                guard once, let classID, !escaped(classID), let day = date.flatMap(basicDate) else { return nil }
                rosters.append((c, ClassOccurrence.ID(classID: classID, date: day)))
            default: break
            }
            if records.contains(c.name) { lastRecord = c }
        }
        let touched = rosters.filter { $0.id == key }.map(\.component)
        guard touched.count <= 1 else { return nil }
        var memberIDs = Set(wanted)
        for r in touched { memberIDs.formUnion(outline.values(booked, in: r) + outline.values(waiting, in: r)) }
        selected += memberComponents.filter { c in c.indexed.contains { $0.name == "UID" && (memberIDs.contains($0.value) || escaped($0.value)) } }
        selected += touched
        selected.sort { $0.range.lowerBound < $1.range.lowerBound }

        // The records, read as the whole file is read.
        guard let imported = try? ICalendarImporter().importCalendar(from: Data(outline.calendarText(including: selected))),
            !imported.hasErrors, imported.calendar.rejected.isEmpty,
            let book = try? imported.calendar.schedulingBook()
        else { return nil }
        var changed = book
        let result = try body(&changed)
        let before = book.backupContent(), after = changed.backupContent()
        var calendar = imported.calendar
        calendar.setScheduling(changed)
        let exporter = try exporterFor(calendar)

        var splice = ICalendarSplice()
        // Items: only the class may change (a moved or cancelled occurrence).
        guard before.items.map(\.uid) == after.items.map(\.uid) else { return nil }
        for (old, new) in zip(before.items, after.items) where old != new {
            guard new.uid == key.classID, let first = classEvents.first, let text = written(ICalendar(items: [new]), exporter) else { return nil }
            splice.replace(first, with: text)
            for c in classEvents.dropFirst() { splice.remove(c) }
        }
        // Components: only the occurrence's roster may change.
        let rosterOf = { (c: ContentComponent) -> ClassOccurrence.ID? in
            guard c.name == roster, let day = c.properties.first(where: { $0.name == dateProperty }).flatMap({ basicDate($0.value) }),
                let id = c.properties.first(where: { $0.name == classProperty })?.value
            else { return nil }
            return ClassOccurrence.ID(classID: id, date: day)
        }
        let others = { (content: SchedulingContent) in content.components.filter { rosterOf($0) != key } }
        guard others(before) == others(after) else { return nil }
        let old = before.components.first { rosterOf($0) == key }, new = after.components.first { rosterOf($0) == key }
        if old != new {
            switch (touched.first, new) {
            case (let c?, let new?):
                guard let text = written(ICalendar(components: [new]), exporter) else { return nil }
                splice.replace(c, with: text)
            case (let c?, nil):
                splice.remove(c)
            case (nil, let new?):
                guard let text = written(ICalendar(components: [new]), exporter) else { return nil }
                if let next = rosters.first(where: { key < $0.id }) {
                    splice.insert(text, before: next.component)
                } else if let last = rosters.last?.component ?? lastRecord {
                    splice.insert(text, after: last)
                } else {
                    return nil
                }
            case (nil, nil):
                return nil
            }
        }
        return (result, splice)
    }

    /// The components of a calendar as `exporter` writes them, without the
    /// calendar around them or the `VTIMEZONE`s it adds.
    private static func written(_ calendar: ICalendar, _ exporter: ICalendarExporter) -> [UInt8]? {
        let bytes = exporter.exportData(calendar).withUnsafeBytes { Array($0) }
        guard let outline = ICalendarOutline(bytes: bytes) else { return nil }
        return outline.components.filter { $0.name != "VTIMEZONE" }.flatMap { bytes[$0.range] }
    }

    /// A date written `YYYYMMDD`, as the book writes a roster's.
    private static func basicDate(_ text: String) -> LocalDate? {
        var fields = (0, 0, 0), count = 0
        for b in text.utf8 {
            guard (0x30...0x39).contains(b), count < 8 else { return nil }
            let d = Int(b - 0x30)
            switch count {
            case 0..<4: fields.0 = fields.0 * 10 + d
            case 4..<6: fields.1 = fields.1 * 10 + d
            default: fields.2 = fields.2 * 10 + d
            }
            count += 1
        }
        guard count == 8 else { return nil }
        return try? LocalDate(year: fields.0, month: fields.1, day: fields.2)
    }

    /// Whether a value as written holds an escape (`\,`, `\;`…), and so may
    /// read as another text than its bytes.
    private static func escaped(_ text: String) -> Bool { text.utf8.contains(0x5C) }
}
