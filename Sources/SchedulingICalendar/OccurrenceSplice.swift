import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit

/// The change of one class occurrence as a splice of a calendar file's
/// text: which of its top-level components a change reads (the zones, the
/// class's series and the instances within a day of the occurrence, the
/// journals of the members they name), the book they hold, and the
/// components the change rewrites. CalendarStore's `SchedulingFile` applies
/// it to a file under its lock; the mapping of the book to iCalendar is this
/// module's, so the names are spelled here (Docs/Modules.md).
package enum OccurrenceSplice {
    /// The properties of a component the outline must index for ``change(_:members:_:exporterFor:_:)``.
    package static let indexing: Set<String> = ["UID", "RECURRENCE-ID", SchedulingRecordNames.classPart]

    private static let zoneProperty = ICalendar.bookZoneProperty

    /// The class's components in the outline: its series and its instances,
    /// each instance with the date its `RECURRENCE-ID` is written on.
    private struct ClassComponents {
        var master: ICalendarOutline.Component?
        var instances: [(component: ICalendarOutline.Component, date: LocalDate)] = []
    }

    /// The outline's components a change of `key` needs — the zones, the
    /// members' journals by `UID`, the class's series and instances — or
    /// `nil` when the whole file decides.
    private static func components(
        for key: ClassOccurrence.ID, in outline: ICalendarOutline
    ) -> (zones: [ICalendarOutline.Component], journals: [String: ICalendarOutline.Component], ofClass: ClassComponents)? {
        var zones: [ICalendarOutline.Component] = [], journals: [String: ICalendarOutline.Component] = [:]
        var ofClass = ClassComponents()
        // One pass over each component's indexed values, with no array made
        // for them: a 20-year gym file has 8,000 components.
        for c in outline.components {
            switch c.name {
            case "VTIMEZONE":
                zones.append(c)
            case "VEVENT", "VTODO":
                var uids = 0, isClass = true, ids = 0
                var firstID: String?
                for property in c.indexed {
                    switch property.name {
                    case "UID":
                        // An ID written with an escape may read as the class's: the whole file decides.
                        if escaped(property.value) { return nil }
                        uids += 1
                        if property.value != key.classID { isClass = false }
                    case SchedulingRecordNames.classPart:
                        // A class written in yearly parts (a folder's or a collection's, exported as one file): the
                        // occurrence may be in a part, and the parts are one series, so the whole file decides.
                        if property.value == key.classID { return nil }
                    case "RECURRENCE-ID":
                        ids += 1
                        if firstID == nil { firstID = property.value }
                    default: break
                    }
                }
                guard uids == 1, isClass else { continue }
                if ids == 0, c.name == "VEVENT", ofClass.master == nil {
                    ofClass.master = c
                } else if ids == 1, let id = firstID, let day = basicDate(String(id.prefix(8))) {
                    ofClass.instances.append((c, day))
                } else {
                    return nil
                }
            case "VJOURNAL":
                let uids = c.values("UID")
                if let uid = uids.first, uids.count == 1, uid.hasPrefix(SchedulingRecordNames.memberUIDPrefix), !escaped(uid) { journals[uid] = c }
            default:
                if SchedulingRecordNames.earlierForm.contains(c.name) { return nil }
            }
        }
        // A class with instances but no series: the whole file decides.
        guard ofClass.master != nil || ofClass.instances.isEmpty else { return nil }
        return (zones, journals, ofClass)
    }

    /// What a change of one occurrence reads: the records it needs, the
    /// book they hold, the occurrence's own instance, and a recurrence ID's
    /// date on the book's clock.
    private struct Reading {
        let imported: ImportResult
        let book: SchedulingBook
        let own: ICalendarOutline.Component?
        let day: (CalendarTime) -> LocalDate
    }

    /// Reads the book a change of `key` needs: first the class, to learn
    /// which instance is the occurrence's and whom its roster names; then
    /// with those members. `nil` when the whole file decides.
    private static func readBook(
        _ key: ClassOccurrence.ID, members wanted: [String], _ outline: ICalendarOutline,
        zones: [ICalendarOutline.Component], journals: [String: ICalendarOutline.Component], ofClass: ClassComponents
    ) -> Reading? {
        let master = ofClass.master.map { [$0] } ?? []
        // The instances written within a day of the occurrence: its own is one
        // of them whatever zone its RECURRENCE-ID is written in.
        let near = ofClass.instances.filter { abs($0.date.days(to: key.date)) <= 1 }.map(\.component)
        guard let first = read(outline, (zones + master + near).sorted { $0.range.lowerBound < $1.range.lowerBound }),
              first.calendar.items.count == master.count, (first.calendar.items.first?.overrides.count ?? 0) == near.count,
              let zone = try? first.calendar.zones.rules(forTZID: outline.calendarValues[zoneProperty]?.first ?? "")
        else { return nil }
        let series = first.calendar.items.first ?? CalendarItem(uid: key.classID, title: "", start: .date(key.date))
        let day = { (t: CalendarTime) in Self.day(of: t, in: zone, zones: first.calendar.zones) }
        let own = series.overrides.firstIndex { day($0.recurrenceID) == key.date }.map { near[$0] }
        var names = Set(wanted)
        for o in series.overrides where day(o.recurrenceID) == key.date {
            for line in o.item.properties where line.name == "ATTENDEE" {
                guard let id = line.parameter(SchedulingRecordNames.memberParameter) else { return nil }  // an attendee tied otherwise: the whole file decides
                names.insert(id)
            }
        }
        // The book is read from the series and the occurrence's own instance:
        // the others were read only to tell which instance is its own.
        var selected = zones + master + (own.map { [$0] } ?? [])
        for id in names {
            if let j = journals[SchedulingRecordNames.memberUIDPrefix + id] { selected.append(j) }
        }
        selected.sort { $0.range.lowerBound < $1.range.lowerBound }
        guard let imported = read(outline, selected), let book = try? imported.calendar.schedulingBook() else { return nil }
        return Reading(imported: imported, book: book, own: own, day: day)
    }

    /// Changes one occurrence in an outlined file (see CalendarStore's
    /// `SchedulingFile`): the change's result and the splice that writes it,
    /// or `nil` when the whole file decides.
    package static func change<T>(
        _ key: ClassOccurrence.ID, members wanted: [String], _ outline: ICalendarOutline,
        exporterFor: (ICalendar) throws -> ICalendarExporter, _ body: (inout SchedulingBook) throws -> T
    ) throws -> (result: T, splice: ICalendarSplice)? {
        guard outline.calendarValues[zoneProperty]?.count == 1, !escaped(key.classID),
              let found = components(for: key, in: outline),
              let reading = readBook(key, members: wanted, outline, zones: found.zones, journals: found.journals, ofClass: found.ofClass)
        else { return nil }
        let book = reading.book
        // A weekly limit counts the member's other bookings, which this book does not hold.
        if book.classPolicy?.weeklyLimit != nil { return nil }
        var changed = book
        let result: T
        do {
            result = try body(&changed)
        } catch let error as SchedulingError {
            // A move is checked against every other occurrence of the class
            // (it may not land on one, issue 28, 16), which this book does not
            // hold: the whole file decides, whether it refused or allowed it.
            if case .occurrenceOverlaps = error { return nil }
            throw error
        }
        if let moved = try? changed.occurrence(classID: key.classID, on: key.date), moved.isMoved,
           let was = try? book.occurrence(classID: key.classID, on: key.date), (moved.start, moved.duration) != (was.start, was.duration) {
            return nil
        }
        // As the file's records hold them: a reminder another program set stays.
        let own = reading.imported.calendar
        let before = own.keepingWhatTheBookDoesNotWrite(book.backupContent()), after = own.keepingWhatTheBookDoesNotWrite(changed.backupContent())
        // Only the class may change, and of it only the series and this occurrence.
        guard before.components == after.components, let master = found.ofClass.master, before.items.count == 1, after.items.count == 1,
              before.items[0].uid == key.classID, after.items[0].uid == key.classID else { return before == after ? (result, ICalendarSplice()) : nil }
        var calendar = reading.imported.calendar
        calendar.setScheduling(changed)
        let exporter = try exporterFor(calendar)
        let earlier = found.ofClass.instances.filter { $0.date < key.date }.last?.component
        let edit = Edit(key: key, master: master, own: reading.own, earlier: earlier, day: reading.day)
        return splice(edit, before: before.items[0], after: after.items[0], exporter).map { (result, $0) }
    }

    /// Where one occurrence's change goes in the file.
    private struct Edit {
        let key: ClassOccurrence.ID
        /// The class's series.
        let master: ICalendarOutline.Component
        /// The occurrence's instance, when it has one.
        let own: ICalendarOutline.Component?
        /// The last instance written on an earlier date, which a new instance follows.
        let earlier: ICalendarOutline.Component?
        /// A recurrence ID's date on the book's clock.
        let day: (CalendarTime) -> LocalDate
    }

    /// The splice of one occurrence's change: the series when it changed,
    /// and the occurrence's instance replaced, added or removed. `nil` when
    /// anything else changed.
    private static func splice(_ edit: Edit, before: CalendarItem, after: CalendarItem, _ exporter: ICalendarExporter) -> ICalendarSplice? {
        let mine = { (o: RecurrenceOverride) in edit.day(o.recurrenceID) == edit.key.date }
        guard before.overrides.filter({ !mine($0) }) == after.overrides.filter({ !mine($0) }) else { return nil }
        var splice = ICalendarSplice()
        var series = after, seriesBefore = before
        series.overrides = []
        seriesBefore.overrides = []
        if series != seriesBefore {
            guard let text = written(ICalendar(items: [series]), exporter) else { return nil }
            splice.replace(edit.master, with: text)
        }
        let old = before.overrides.first(where: mine), new = after.overrides.first(where: mine)
        guard old != new else { return splice }
        switch (edit.own, new) {
        case (let c?, let new?):
            guard let text = instanceText(after, new, exporter) else { return nil }
            splice.replace(c, with: text)
        case (let c?, nil):
            splice.remove(c)
        case (nil, let new?):
            guard let text = instanceText(after, new, exporter) else { return nil }
            // In date order among the class's instances, as the whole file writes them.
            splice.insert(text, after: edit.earlier ?? edit.master)
        case (nil, nil):
            return nil
        }
        return splice
    }

    /// One instance of a series as `exporter` writes it.
    private static func instanceText(_ series: CalendarItem, _ instance: RecurrenceOverride, _ exporter: ICalendarExporter) -> [UInt8]? {
        var only = series
        only.overrides = [instance]
        only.hasMaster = false
        return written(ICalendar(items: [only]), exporter)
    }

    /// The records, read as the whole file is read; `nil` unless they read cleanly.
    private static func read(_ outline: ICalendarOutline, _ components: [ICalendarOutline.Component]) -> ImportResult? {
        guard let imported = try? ICalendarImporter().importCalendar(from: Data(outline.calendarText(including: components))),
              !imported.hasErrors, imported.calendar.rejected.isEmpty else { return nil }
        return imported
    }

    /// A time's date on the book's clock.
    private static func day(of t: CalendarTime, in zone: ZoneRules, zones: ZoneTable) -> LocalDate {
        switch t {
        case .zoned(let wall, let id) where id == zone.identifier: return wall.date
        case .utc, .zoned:
            guard let seconds = try? t.epochSeconds(floatingZone: zone, zones: zones) else { return t.localDate }
            return LocalDateTime(localSeconds: zone.wall(atInstant: seconds)).date
        case .floating, .date: return t.localDate
        }
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
