import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit
import SchedulingICalendar

// A calendar kept in a database (`CalendarLocation.database`, SQLite, and
// `.server`, PostgreSQL or an app's own: any `CalendarDatabase`), for
// every caller of `CalendarStore` — the CLI's views, imports, exports and
// item edits as much as `SchedulingStore`'s changes. The book's records
// are the storage's versioned records; the calendar — its own
// properties and each top-level component (events, tasks, zones, and the
// records as last written with what other programs added to them) — is
// kept beside them as iCalendar text, one row a component. A read gives
// the calendar with the book's records written into it again
// (`ICalendar.setScheduling(_:)`, which keeps a record's VALARM or URL), as
// a file holds it; a change is read,
// made, cut back into the book and the rest, and committed with the
// messages it owes in one transaction, made only if no other change was
// committed meanwhile (else made again on what is there then).

/// A calendar in a database: the book's records and the calendar's other components.
struct DatabaseCalendar: Sendable {
    /// Opens the database, for one call: an SQLite file's pool is closed
    /// when the call ends, before a refused first change removes the file.
    let open: @Sendable () throws(CalendarStoreError) -> any CalendarDatabase
    /// How messages name it (no password).
    let place: String
    let options: ImportOptions
    /// The SQLite file a change makes, which a refused first change removes again.
    var newFile: URL?
    /// Whether ``newFile`` was there, empty, before: a refused first change leaves it empty again.
    var newFileWasEmpty = false

    /// The calendar, with the book written into it.
    func load() async throws -> ImportResult {
        try compose(try await open().loadCalendar())
    }

    /// The calendar for a view of the instants from `start` up to `end`
    /// (Unix seconds): the book, the calendar's own properties, its zones
    /// and every item that can touch the window (perhaps more); the
    /// others are not read.
    func load(touchingFrom start: Int64, to end: Int64) async throws -> (ImportResult, unreadUIDs: [String]) {
        let read = try await open().loadCalendar(touchingFrom: start, to: end)
        return (try compose(read), read.unreadUIDs)
    }

    /// The calendar a snapshot and the calendar's text make.
    private func compose(_ read: StoredCalendar) throws -> ImportResult {
        let snapshot = read.snapshot
        var result = ImportResult(calendar: ICalendar(), diagnostics: [])
        if let stored = read.text {
            let text = Data(ICalendarOutline.joined(header: stored.header, components: stored.components.map(\.text)))
            // Whole, whatever the caller asked: a record is known by properties a
            // schedule-only reading leaves out, and must be, to be written again.
            var whole = options
            whole.detail = .complete
            result = try ICalendarImporter(options: whole).importCalendar(from: text)
        }
        if !snapshot.records.isEmpty {
            let book: SchedulingBook
            do { book = try BookRecords.book(from: snapshot.records, newZone: result.calendar.timesZoneName) } catch {
                throw CalendarStoreError(.badResponse, "\(place): the book's records do not make a book (\(error)); nothing was changed")
            }
            result.calendar.setScheduling(book)
        }
        return result
    }

    /// Reads, changes with `body`, and commits the book and the rest of the
    /// calendar with the messages `owing` says the change owes; again while
    /// another change came first.
    func update<T>(exporterFor: (ICalendar) throws -> ICalendarExporter, owing: ((T, ICalendar, _ commitID: String) -> [OwedMessage])? = nil,
                   _ body: (inout ICalendar) throws -> T) async throws -> T {
        // A change refused on an SQLite file that was not there leaves none behind, as on a file.
        do {
            return try await make(exporterFor: exporterFor, owing: owing, body)
        } catch {
            if let newFile {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: newFile.path + suffix) }
                // An empty file someone made for the book stays, empty, as it was.
                if newFileWasEmpty { _ = FileManager.default.createFile(atPath: newFile.path, contents: nil) }
            }
            throw error
        }
    }

    /// ``update(exporterFor:owing:_:)``, on a database made if missing.
    private func make<T>(exporterFor: (ICalendar) throws -> ICalendarExporter, owing: ((T, ICalendar, _ commitID: String) -> [OwedMessage])?,
                         _ body: (inout ICalendar) throws -> T) async throws -> T {
        let storage = try open()
        for attempt in 0..<200 {
            let read = try await storage.loadCalendar()
            var calendar = try compose(read).calendar
            let result = try body(&calendar)
            // The book, as the calendar now holds it: records only where there is a book.
            var records: [RecordKey: Data] = [:]
            if !read.snapshot.records.isEmpty || calendar.holdsBookRecords || calendar.calendarZone(namedBy: [ICalendar.bookZoneProperty]) != nil {
                records = try BookRecords.records(of: try calendar.schedulingBook(defaultTimeZone: calendar.timesZoneName))
            }
            // The calendar, as iCalendar text cut at its components: the book's
            // records with the rest, for what other programs add to a class or
            // a session (a VALARM, a URL), which the book does not keep and
            // `setScheduling` keeps on the records it writes again; the
            // records themselves are the book's (read from `records`).
            let rest = calendar
            if storage is any KeepsRecordsOnly {
                try keepsRecordsOnly(calendar, records: records, exporter: try exporterFor(rest))
                let writes = BookRecords.writes(from: read.snapshot.records, to: records)
                let commitID = UUID().uuidString.lowercased()
                let owed = owing?(result, calendar, commitID) ?? []
                if writes.isEmpty, owed.isEmpty { return result }
                if try await commit(BookCommit(id: commitID, basedOn: read.snapshot.revision, writes: writes, owed: owed), calendar: nil, on: storage) {
                    return result
                }
                if Task.isCancelled { throw CalendarStoreError(.cancelled, "cancelled while other changes were committed first; nothing was changed") }
                await BookStore<SomeCalendarDatabase>.pause(afterLosing: attempt)
                continue
            }
            let bytes = [UInt8](try exporterFor(rest).exportData(rest))
            guard let cut = ICalendarOutline.cut(bytes) else {
                throw CalendarStoreError(.io, "\(place): the calendar's text could not be cut into components; nothing was changed")
            }
            // Each item's reach in time, for a view's read of its window; the
            // book's records are read whole (the book is), and so is what
            // other programs added to them.
            var recordUIDs: Set<String> = Set(calendar.items.lazy.filter(SchedulingBook.isSchedulingItem).map(\.uid))
            for component in calendar.components where SchedulingBook.isSchedulingComponent(component) {
                if let uid = component.uid { recordUIDs.insert(uid) }
            }
            var reaches: [String: (from: Int64, to: Int64?)] = [:]
            var timeless: Set<String> = recordUIDs
            for item in calendar.items where !recordUIDs.contains(item.uid) {
                guard let reach = item.reach else {
                    timeless.insert(item.uid)
                    continue
                }
                if let held = reaches[item.uid] {
                    reaches[item.uid] = (min(held.from, reach.from), held.to.flatMap { a in reach.to.map { max(a, $0) } })
                } else {
                    reaches[item.uid] = reach
                }
            }
            let part = CalendarText(
                header: Data(cut.header),
                components: cut.components.map { c in
                    let reach = c.uid.flatMap { timeless.contains($0) ? nil : reaches[$0] }
                    return CalendarText.Component(name: c.name, uid: c.uid, text: Data(c.text), starts: reach?.from, ends: reach?.to)
                })
            let writes = BookRecords.writes(from: read.snapshot.records, to: records)
            let commitID = UUID().uuidString.lowercased()
            let owed = owing?(result, calendar, commitID) ?? []
            // Whether anything but the records' text changed: the records are
            // written again from the book each time, in the book's form, which
            // need not be the form they came in.
            let plain = { (uid: String?) in uid.map { !recordUIDs.contains($0) } ?? true }
            let held = read.text?.components ?? []
            let sameText = read.text?.header == part.header
                && held.filter { plain($0.uid) }.map(\.text) == part.components.filter { plain($0.uid) }.map(\.text)
            if writes.isEmpty, owed.isEmpty, sameText { return result }
            let change = BookCommit(id: commitID, basedOn: read.snapshot.revision, writes: writes, owed: owed)
            if try await commit(change, calendar: sameText ? nil : part, on: storage) { return result }
            if Task.isCancelled { throw CalendarStoreError(.cancelled, "cancelled while other changes were committed first; nothing was changed") }
            await BookStore<SomeCalendarDatabase>.pause(afterLosing: attempt)
        }
        throw CalendarStoreError(.conflict, "\(place): other changes were committed first 200 times in a row; nothing was changed, try again")
    }

    /// Commits `change` (with `calendar`, unless `nil`): whether it was made.
    /// A commit whose answer was lost may have been made: settled as
    /// `BookStore` settles it, and taken as made when it was.
    private func commit(_ change: BookCommit, calendar: CalendarText?, on storage: any CalendarDatabase) async throws -> Bool {
        do {
            return try await storage.commit(change, calendar: calendar)
        } catch {
            if let failure = await BookStore<SomeCalendarDatabase>.settle(error, commitID: change.id, in: storage) { throw failure }
            return true
        }
    }

    /// Refuses a change of a calendar whose database keeps the book's
    /// records only (``RecordsOnlyDatabase``) when the calendar it made is
    /// not the one its records make again — the one the next read gives:
    /// an event or a task of its own, a calendar property, a reminder
    /// another program set on a class would be lost.
    private func keepsRecordsOnly(_ calendar: ICalendar, records: [RecordKey: Data], exporter: ICalendarExporter) throws {
        let snapshot = BookSnapshot(revision: 0, records: records.sorted { $0.key < $1.key }.map { StoredRecord(key: $0.key, version: 1, body: $0.value) })
        let kept = try compose(StoredCalendar(snapshot: snapshot, text: nil)).calendar
        // Compared as the next read will give it: the records in the book's
        // order, and without `LAST-MODIFIED`, which a record does not keep
        // (an edit of a class's title through its event is the book's change).
        let normalised = { (calendar: ICalendar) -> Data in
            var calendar = calendar
            calendar.items = calendar.items.enumerated().sorted { ($0.element.uid, $0.offset) < ($1.element.uid, $1.offset) }.map { _, item in
                var item = item
                item.lastModified = nil
                return item
            }
            calendar.components = calendar.components.enumerated().sorted { ($0.element.uid ?? "", $0.offset) < ($1.element.uid ?? "", $1.offset) }.map(\.element)
            return exporter.exportData(calendar)
        }
        guard normalised(calendar) != normalised(kept) else { return }
        let keptUIDs = Set(kept.items.map(\.uid))
        let lost = calendar.items.map(\.uid).filter { !keptUIDs.contains($0) } + calendar.rejected.compactMap(\.uid)
        let what = lost.isEmpty ? "a calendar property, or what another program added to a record"
            : "\(lost.count == 1 ? "the item" : "\(lost.count) items") \(lost.prefix(3).joined(separator: ", "))\(lost.count > 3 ? ", …" : "")"
        throw CalendarStoreError(.recordsOnly, "\(place) keeps a book's records only, and the change would keep \(what) there; nothing was changed",
                                 suggestion: "keep that calendar in a store that holds calendar text (SQLite, PostgreSQL, a file)")
    }
}
