import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit
import SchedulingICalendar

/// A gym's scheduling book where its calendar lives — one `.ics` file, a
/// folder of one `.ics` per `UID`, or a CalDAV collection — read and changed
/// with the same guarantees on each.
///
/// - **Capacity is exact under races**, across processes and machines: a
///   file changes under its lock, a folder under its lock, a collection with
///   conditional writes that are retried when another desk won the race.
/// - **A change writes only what it touches.** A booking, a cancellation or
///   a moved occurrence reads and writes the class's records and its
///   roster's members: in a file, those records are spliced in place; on a
///   collection, only their resources travel, so a booking costs the same
///   in a gym of ten members as in one of ten thousand. Anything else is a
///   change of the whole book.
/// - **Yearly class parts are handled inside.** In a folder or a collection
///   a class that met before this year keeps its history in parts of its
///   own (`ID@YEAR`), read back as one series.
/// - **The gym's booking rules travel with its calendar.** The book every
///   change works on carries the class booking policy the calendar records
///   (`SchedulingBook.classPolicy`, set with a change of the whole book), so
///   every desk applies the same rules. A weekly limit counts a member's
///   other bookings, so a booking under one is a change of the whole book.
///   On a CalDAV collection such a change first takes the book's lease
///   (`X-HORARI-LEASE` in the calendar's own resource, written only if no
///   one wrote it since, for 30 seconds at most) and gives it back when its
///   writes are made: a server's `If-Match` guards one resource, and two
///   desks booking one member into two classes of a week each wrote only
///   its class's, read the other's before it was made, and both passed the
///   limit (a file and a folder have a lock of their own).
///
/// The calls made through one store (and its copies) take turns, waiting
/// without blocking a thread; stores made
/// apart — two phones, two processes — are kept apart by the place's own
/// guarantees. It is a `Sendable` value rather than an actor so that the
/// changes an app passes in run in the app's own task (an actor would have
/// to send them to its own executor, and so demand `Sendable` closures of
/// every caller). The book a call returns is a value, a snapshot to read as
/// long as you like.
///
/// ```swift
/// let gym = SchedulingStore(CalendarStore(try CalendarLocation("https://dav.example.com/calendars/gym/")))
/// let outcome = try await gym.book(member: "marta", classID: "yoga", on: LocalDate(year: 2026, month: 11, day: 25))
/// let timetable = try await gym.load().timetable
/// ```
public struct SchedulingStore: Sendable {
    /// What a scheduling store needs to know besides where the calendar is.
    public struct Settings: Sendable {
        /// The time of a request, given the IANA name of the zone the book
        /// keeps (so a fixed time typed on the gym's clock can be read); it
        /// decides what is past, and is written as each changed record's
        /// `DTSTAMP`. Default: the system clock.
        public var now: @Sendable (_ bookZone: String) throws -> Date
        /// The IANA zone a new calendar is created on (`nil`: the system's).
        public var newCalendarZone: String?
        /// What a change does with a calendar that did not import cleanly.
        public var ifDamaged: CalendarFile.DamagePolicy
        /// Called once when another process has held a file's or folder's
        /// lock for a second; the call then goes on waiting.
        public var whileWaiting: (@Sendable () -> Void)?

        /// Settings.
        /// - Parameters:
        ///   - now: the time of a request; default the system clock.
        ///   - newCalendarZone: the zone a new calendar is created on; default the system's.
        ///   - ifDamaged: what a change does with a calendar that did not import cleanly.
        ///   - whileWaiting: called once when another process holds the lock.
        public init(now: @escaping @Sendable (_ bookZone: String) throws -> Date = { _ in Date() }, newCalendarZone: String? = nil,
                    ifDamaged: CalendarFile.DamagePolicy = .refuse, whileWaiting: (@Sendable () -> Void)? = nil) {
            self.now = now
            self.newCalendarZone = newCalendarZone
            self.ifDamaged = ifDamaged
            self.whileWaiting = whileWaiting
        }
    }

    /// Where the calendar lives.
    public let store: CalendarStore
    /// The clock, the new calendar's zone, and what to do with damage.
    public let settings: Settings
    /// The queue this store's calls wait in.
    let turns = Turns()

    /// A scheduling store on a calendar store.
    /// - Parameters:
    ///   - store: where the calendar lives.
    ///   - settings: the clock, the new calendar's zone, and what to do with damage.
    public init(_ store: CalendarStore, settings: Settings = Settings()) {
        self.store = store
        self.settings = settings
    }

    /// A scheduling store on an app's own backend that keeps a book's
    /// records and the messages owed, and no calendar: a ``BookStorage``
    /// (its ``store`` is a ``CalendarStore`` on a ``RecordsOnlyDatabase``
    /// of it). A storage that keeps a calendar's text too (a
    /// ``CalendarDatabase``: SQLite, PostgreSQL, memory) is used as one. Every call works as on SQLite: each change one commit of the
    /// records it wrote and the messages it owes, made again when another
    /// desk committed first. A new book is made on
    /// ``Settings/newCalendarZone``.
    ///
    /// ```swift
    /// let gym = SchedulingStore(books: MemoryBookStorage(), at: URL(string: "https://api.example.com/gym")!,
    ///                           settings: .init(newCalendarZone: "Europe/Madrid"))
    /// try await gym.change { book in try book.addMember(Member(id: "marta", name: "Marta", email: "marta@example.com")) }
    /// ```
    /// - Parameters:
    ///   - storage: the backend.
    ///   - place: how messages name it (an `http(s)` or `postgres` URL, say); never a password.
    ///   - settings: the clock and the new book's zone.
    public init(books storage: some BookStorage, at place: URL, settings: Settings = Settings()) {
        let database: any CalendarDatabase = (storage as? any CalendarDatabase) ?? RecordsOnlyDatabase(storage)
        self.init(CalendarStore(.server(place), database: database), settings: settings)
    }

    // MARK: - Reading

    /// The book as the calendar keeps it now; an empty book on the new
    /// calendar's zone when there is no calendar there yet.
    ///
    /// - Throws: ``SchedulingStoreError``: `.calendar` for a calendar that
    ///   did not import cleanly where that damage keeps its book from being
    ///   read (its diagnostics say where), `.unreadableBook` naming every
    ///   record the book refuses.
    public func load() async throws(SchedulingStoreError) -> SchedulingBook {
        try await turns.run { () async throws(SchedulingStoreError) in try await read(allowingCache: false).book }
    }

    /// The book as the calendar keeps it now or, on a CalDAV collection whose
    /// server cannot be reached, as the store's cache last had it, with when
    /// that was (`CalendarStore.loadAllowingCache()`): for an app that shows
    /// the timetable offline. A change is never made on the cache.
    ///
    /// - Returns: the book, and when the cache last agreed with the server
    ///   for a book read from the cache (`nil` for one read now).
    public func loadAllowingCache() async throws(SchedulingStoreError) -> (book: SchedulingBook, asOf: Date?) {
        try await turns.run { () async throws(SchedulingStoreError) in try await read(allowingCache: true) }
    }

    /// ``load()`` or ``loadAllowingCache()``, in this call's turn.
    private func read(allowingCache: Bool) async throws(SchedulingStoreError) -> (book: SchedulingBook, asOf: Date?) {
        if store.isDatabase, let books = try await bookStore() { return (try await books.load(), nil) }
        let read = try await readCalendar(allowingCache: allowingCache)
        return (read.book, read.asOf)
    }

    /// The calendar (not a database) and the book it keeps, or the reason
    /// the book cannot be read: damage that keeps it from being read, a
    /// record the book refuses.
    func readCalendar(allowingCache: Bool) async throws(SchedulingStoreError) -> (calendar: ICalendar, book: SchedulingBook, asOf: Date?) {
        let read: CachedRead
        do {
            read = allowingCache ? try await store.loadAllowingCache() : CachedRead(result: try await store.load(), asOf: nil)
        } catch { throw .from(error.underlying) }
        let (loaded, asOf) = (read.result, read.asOf)
        let calendar = loaded.calendar
        if let first = loaded.damage.first,
           (try? calendar.schedulingCheck(defaultTimeZone: bookZone(of: calendar)))?.problems.contains(where: { $0.severity == .error }) ?? true {
            let count = loaded.damage.reduce(0) { $0 + $1.count }, problems = "\(count) problem\(count == 1 ? "" : "s")"
            throw .calendar(ICalendarError(
                .damaged, "\(store.location) did not import cleanly (\(problems), the first on line \(first.line): \(first.message)); nothing was changed",
                diagnostics: loaded.damage))
        }
        return (calendar, try readBook(calendar, lines: loaded.sourceLines), asOf)
    }

    // MARK: - Changing

    /// Reads the whole book, changes it with `body`, and writes it back, as
    /// one change under the place's guarantee; a refusal (anything `body`
    /// throws) writes nothing.
    ///
    /// `body` may run more than once (on a collection, when another desk
    /// changed the calendar meanwhile), on the book as it is then: it must
    /// change nothing but the book. From the main actor, write it
    /// `{ @Sendable book in … }` (it runs off the caller's actor).
    ///
    /// - Parameter body: the change.
    /// - Returns: what `body` returns.
    /// - Throws: ``SchedulingStoreError``: `.refused` for a `SchedulingError`
    ///   from `body`, `.failed` for anything else it throws.
    public func change<T: Sendable>(_ body: (inout SchedulingBook) throws -> T) async throws(SchedulingStoreError) -> T {
        try await turns.run { () async throws(SchedulingStoreError) in try await changeWhole(body) }
    }

    /// A change of a book in a database, with the messages it owes, in one
    /// commit: on its records (`BookStore`: the whole book, or one
    /// occurrence's records), or, while the database holds no book yet, on
    /// the calendar it is shown in, whose clock the new book takes.
    func changeInDatabase<T: Sendable>(scope: BookStore<SomeCalendarDatabase>.Scope = .whole, _ body: (inout SchedulingBook) throws -> T,
                                       owing: ((T, String) -> [OwedMessage])?) async throws(SchedulingStoreError) -> T {
        if let books = try await bookStore() {
            return try await books.commit(scope) { book, commitID in
                let result = try body(&book)
                return (result, owing?(result, commitID) ?? [])
            }
        }
        let newZone = settings.newCalendarZone ?? TimeZone.current.identifier
        do {
            return try await store.databaseCalendar().update(
                exporterFor: exporter, owing: owing.map { owing in { result, _, commitID in owing(result, commitID) } }
            ) { calendar in
                if calendar.calendarZone(namedBy: ICalendar.bookZoneProperties) == nil, calendar.items.isEmpty { calendar.timeZone = newZone }
                return try changeBook(in: &calendar, inParts: false, body)
            }
        } catch { throw .from(error) }
    }

    /// The book's records in a database, once it holds a book; `nil` before
    /// (the first change is made on the calendar, whose zone the book
    /// takes). A database that keeps records only (`RecordsOnlyDatabase`)
    /// has no calendar of its own: its records are changed from the first.
    private func bookStore() async throws(SchedulingStoreError) -> BookStore<SomeCalendarDatabase>? {
        guard let storage = try openedDatabase() else { return nil }
        if storage.base is any KeepsRecordsOnly { return BookStore(storage, newBookZone: settings.newCalendarZone, now: settings.now) }
        let gym: BookSnapshot
        do { gym = try await storage.load([BookRecords.gymKey]) } catch { throw BookStore<SomeCalendarDatabase>.storageFailure(error) }
        guard !gym.records.isEmpty else { return nil }
        return BookStore(storage, newBookZone: settings.newCalendarZone, now: settings.now)
    }

    /// The calendar's database, when there is one to read (an SQLite file
    /// that is not there yet is not made by a read).
    func openedDatabase() throws(SchedulingStoreError) -> SomeCalendarDatabase? {
        guard store.isDatabase, store.exists else { return nil }
        do { return try store.calendarDatabase().map(SomeCalendarDatabase.init(base:)) } catch { throw .store(error) }
    }

    /// ``change(_:)``, in this call's turn (the caller takes it): under a
    /// weekly limit on a collection, holding the book's lease; keeping what
    /// `owing` says the change owes with it, in the same commit or save.
    func changeWhole<T: Sendable>(_ body: (inout SchedulingBook) throws -> T,
                                  owing: ((T, _ commitID: String) -> [OwedMessage])? = nil) async throws(SchedulingStoreError) -> T {
        if store.isDatabase { return try await changeInDatabase(body, owing: owing) }
        do {
            return try await changeWhole(body, lease: nil, owing: owing)
        } catch let error where error.isLeaseNeeded {
            let token = UUID().uuidString
            try await takeLease(token)
            do {
                let result = try await changeWhole(body, lease: token, owing: owing)
                try? await giveBackLease(token)
                return result
            } catch {
                try? await giveBackLease(token)
                throw error
            }
        }
    }

    private func changeWhole<T: Sendable>(_ body: (inout SchedulingBook) throws -> T, lease: String?,
                                          owing: ((T, _ commitID: String) -> [OwedMessage])?) async throws(SchedulingStoreError) -> T {
        let newZone = settings.newCalendarZone ?? TimeZone.current.identifier
        // In yearly parts where a class's one resource would hold its whole history.
        let inParts = store.location.isResourcePerUID
        do {
            return try await HeldLease.$token.withValue(lease) {
                try await store.update(exporterFor: exporter, whileWaiting: settings.whileWaiting, ifDamaged: settings.ifDamaged) { calendar in
                if calendar.calendarZone(namedBy: ICalendar.bookZoneProperties) == nil, calendar.items.isEmpty { calendar.timeZone = newZone }
                // Asked of the calendar's properties before the book is read: without the lease, it is not read twice.
                if case .collection = store.location, lease == nil || calendar.bookLease?.token != lease,
                   (try? calendar.classBookingPolicy())??.weeklyLimit != nil {
                    throw LeaseNeeded()
                }
                let result = try changeBook(in: &calendar, inParts: inParts, body)
                // The messages the change owes, in the same save (a new commit ID each time the change runs).
                if let owing { try calendar.owe(owing(result, UUID().uuidString.lowercased())) }
                return result
                }
            }
        } catch let error as CalendarStoreFailure<any Error> {
            throw await withLine(.from(error.underlying))
        } catch {
            throw await withLine(.from(error))
        }
    }

    /// Reads the book a calendar keeps, changes it with `body`, and writes it
    /// back into the calendar — unless `body` left it as it was (a member's
    /// TENTATIVE, say): written, every record would take the save's
    /// `DTSTAMP` though none changed (issue 41, 11).
    private func changeBook<T>(in calendar: inout ICalendar, inParts: Bool, _ body: (inout SchedulingBook) throws -> T) throws -> T {
        var book = try readBook(calendar, lines: ICalendarSourceLines())
        let before = book
        let result = try body(&book)
        guard book != before else { return result }
        // A new session may not take the UID of another item of the
        // calendar (an event, a task, a class): two components with one UID
        // are one item to every reader.
        let (sessions, old) = (book.coachSessions.sessionsByID, before.coachSessions.sessionsByID)
        let new = sessions.keys.filter { old[$0] == nil }
        if !new.isEmpty {
            let others = Set(calendar.items.lazy.map(\.uid).filter { old[$0] == nil })
            if let taken = new.sorted().first(where: others.contains) {
                throw SchedulingError.duplicateID(taken, kind: "calendar item (an event, a task or a class of this calendar)")
            }
        }
        try write(book, into: &calendar, inParts: inParts)
        return result
    }

    /// A change of the whole book under a weekly limit on a collection: it must hold the book's lease.
    struct LeaseNeeded: Error {}
    /// Another desk holds the book's lease, until then.
    private struct LeaseHeld: Error { let until: Date }

    /// How long a lease lasts: a desk that stops holding one (a crash, a
    /// lost connection) blocks the others this long at most.
    static let leaseLength: TimeInterval = 30

    /// Takes the book's lease, waiting while another desk holds it (a
    /// minute at most): written only if no one wrote the calendar's own
    /// resource since it was read, so one desk of those racing gets it.
    private func takeLease(_ token: String) async throws(SchedulingStoreError) {
        let deadline = Date().addingTimeInterval(60)
        while true {
            do {
                try await store.update(exporterFor: exporter, whileWaiting: settings.whileWaiting, ifDamaged: settings.ifDamaged) { (calendar: inout ICalendar) throws(LeaseHeld) in
                    let now = Date()
                    if let other = calendar.bookLease, other.token != token, other.until > now { throw LeaseHeld(until: other.until) }
                    calendar.setBookLease((token, now.addingTimeInterval(Self.leaseLength)))
                }
                return
            } catch {
                guard case .body(let held) = error else { throw .from(error.underlying) }
                guard Date() < deadline else {
                    throw .store(CalendarStoreError(.conflict, "\(store.location): another desk has held the book for a minute (until \(held.until)); nothing was changed, try again"))
                }
                try? await Task.sleep(for: .milliseconds(Int.random(in: 20...120)))
                if Task.isCancelled { throw .store(CalendarStoreError(.cancelled, "cancelled while waiting for another desk; nothing was changed")) }
            }
        }
    }

    /// Gives the lease back, if this desk still holds it.
    private func giveBackLease(_ token: String) async throws(SchedulingStoreError) {
        do {
            try await store.update(exporterFor: exporter, whileWaiting: settings.whileWaiting, ifDamaged: settings.ifDamaged) { calendar in
                if calendar.bookLease?.token == token { calendar.setBookLease(nil) }
            }
        } catch { throw .from(error.underlying) }
    }

    /// Changes one occurrence of a class — its roster, or its time, or
    /// whether it meets — reading and writing only the records it touches
    /// where the place allows: in a file, the class's records and the
    /// members' spliced in place; on a collection, their resources alone.
    /// Otherwise, and when the records cannot be read apart (a file not in
    /// the form Horari writes, a date within a day of New Year), it is a
    /// change of the whole book, as ``change(_:)``.
    ///
    /// The book `body` gets holds the class, the occurrence's roster, the
    /// members it names and `members`, and may hold nothing else: it must
    /// read and change nothing but those.
    ///
    /// - Parameters:
    ///   - classID: the class.
    ///   - date: the occurrence's date by the series (its identity, even if moved).
    ///   - members: the members `body` needs besides those on the roster (the one it books, say).
    ///   - body: the change.
    /// - Returns: what `body` returns.
    public func changeOccurrence<T: Sendable>(of classID: String, on date: LocalDate, members: [String] = [],
                                              _ body: (inout SchedulingBook) throws -> T) async throws(SchedulingStoreError) -> T {
        try await turns.run { () async throws(SchedulingStoreError) in
            try await changeOne(of: classID, on: date, members: members, body)
        }
    }

    /// ``changeOccurrence(of:on:members:_:)``, in this call's turn.
    private func changeOne<T: Sendable>(of classID: String, on date: LocalDate, members: [String],
                                        _ body: (inout SchedulingBook) throws -> T) async throws(SchedulingStoreError) -> T {
        do {
            if store.isDatabase {
                return try await changeInDatabase(scope: .occurrence(classID: classID, date: date, members: members), body, owing: nil)
            }
            switch store.location {
            case .file(let url) where store.exists:
                if let done = try await changeOccurrence(of: classID, on: date, members: members, inFile: url, body) { return done }
            case .collection:
                if let done = try await changeOccurrenceOnCollection(of: classID, on: date, members: members, body) { return done }
            default:
                break
            }
        } catch where Self.mayBeInAPart(error) {
            // Made again below, on the whole book.
        }
        return try await changeWhole(body)
    }

    /// Whether a change made on one class's records may belong to another
    /// series: a class changed from a date on keeps its earlier dates in a
    /// part of its own (`ClassSeries.partOf`), which the class's records
    /// alone do not hold, so such a date is refused there. The change is
    /// then made on the whole book, which answers for it by the class's own
    /// ID, or refuses the date as before (issue 41, 1).
    static func mayBeInAPart(_ error: SchedulingStoreError) -> Bool {
        if case .refused(.notAnOccurrence) = error { return true }
        return false
    }

    // MARK: - Inside

    /// Said by a partial change that cannot be made on the part it read.
    private struct WholeCalendar: Error {}

    /// A change of one occurrence spliced into a calendar file (`SchedulingFile`).
    private func changeOccurrence<T: Sendable>(of classID: String, on date: LocalDate, members: [String], inFile url: URL,
                                              _ body: (inout SchedulingBook) throws -> T) async throws(SchedulingStoreError) -> T? {
        do {
            return try SchedulingFile.changeOccurrence(classID: classID, on: date, members: members, in: url, exporterFor: exporter,
                                                       whileWaiting: settings.whileWaiting, body)
        } catch let error as SchedulingError {
            // A record the book cannot read is said with its line, whatever the change was.
            _ = try await read(allowingCache: false)
            throw .refused(error)
        } catch {
            throw .from(error)
        }
    }

    /// A change of one occurrence on a CalDAV collection, made on the
    /// resources it needs (`ICalendar.changeOccurrence(of:on:defaultTimeZone:year:_:)`);
    /// `nil` when it must be made on the whole calendar.
    private func changeOccurrenceOnCollection<T: Sendable>(of classID: String, on date: LocalDate, members: [String],
                                                           _ body: (inout SchedulingBook) throws -> T) async throws(SchedulingStoreError) -> T? {
        do {
            return try await store.update(
                holding: ICalendar.resources(forOccurrenceOf: classID, on: date, members: members),
                alsoHolding: { $0.rosterMemberRecords(of: classID, near: date) },
                exporterFor: exporter, whileWaiting: settings.whileWaiting, ifDamaged: settings.ifDamaged
            ) { calendar in
                let zone = bookZone(of: calendar)
                let onPart = { (book: inout SchedulingBook) throws -> T in
                    // A weekly limit counts the member's other bookings, which are in other resources.
                    if book.classPolicy?.weeklyLimit != nil { throw WholeCalendar() }
                    return try body(&book)
                }
                guard let result = try calendar.changeOccurrence(of: classID, on: date, defaultTimeZone: zone, year: year(of:), onPart) else {
                    throw WholeCalendar()
                }
                return result
            }
        } catch {
            if case .body(let error) = error, error is WholeCalendar { return nil }
            throw .from(error.underlying)
        }
    }

    /// The zone a calendar's book is read on when it names none: the new
    /// calendar's for a calendar with no zone and nothing in it, else the
    /// zone its times are read on.
    func bookZone(of calendar: ICalendar) -> String {
        if calendar.calendarZone(namedBy: ICalendar.bookZoneProperties) == nil, calendar.items.isEmpty { return settings.newCalendarZone ?? TimeZone.current.identifier }
        return calendar.timesZoneName
    }

    /// The book a calendar keeps, or every record it refuses (the first with
    /// its line in a file, where the import noted it).
    func readBook(_ calendar: ICalendar, lines: ICalendarSourceLines) throws(SchedulingStoreError) -> SchedulingBook {
        let check: (book: SchedulingBook, problems: [SchedulingBook.RecordProblem])
        do { check = try calendar.schedulingCheck(defaultTimeZone: bookZone(of: calendar)) } catch { throw .unknownZone(error, line: lines.line(of: error)) }
        let errors = check.problems.filter { $0.severity == .error }
        guard let first = errors.first else { return check.book }
        throw .unreadableBook(errors, firstLine: lines.line(of: first.record))
    }

    /// A change refused because the book cannot be read, with the line a
    /// calendar file has it on: `update` hands the change a calendar without
    /// its text's lines, so the file is read once more, through the store
    /// (under its lock), on this path only.
    private func withLine(_ error: SchedulingStoreError) async -> SchedulingStoreError {
        guard store.location.file != nil else { return error }
        switch error {
        case .unreadableBook(let problems, nil):
            guard let first = problems.first, let read = try? await store.load() else { return error }
            return .unreadableBook(problems, firstLine: read.sourceLines.line(of: first.record))
        case .unknownZone(let refused, nil):
            // Only a calendar property (`X-HORARI-…`) has a line to name.
            guard case .invalid(let field, _) = refused, field.rawValue.hasPrefix("X-"), let read = try? await store.load() else { return error }
            return .unknownZone(refused, line: read.sourceLines.line(of: refused))
        default:
            return error
        }
    }

    /// Writes a book into its calendar: whole in a file; in yearly parts in a
    /// folder or a collection, so that a booking writes this year's resource,
    /// not the class's history.
    func write(_ book: SchedulingBook, into calendar: inout ICalendar, inParts: Bool) throws {
        if inParts {
            calendar.setScheduling(book, splittingClassesBefore: try year(of: book))
        } else {
            calendar.setScheduling(book)
        }
    }

    /// The current year on the book's clock.
    func year(of book: SchedulingBook) throws -> Int {
        LocalDate(try settings.now(book.timeZone.identifier), in: book.timeZone).year
    }

    /// The exporter changed records are written with: the request's time as their `DTSTAMP`.
    func exporter(for calendar: ICalendar) throws -> ICalendarExporter {
        ICalendarExporter(options: .init(timestamp: try settings.now(calendar.timesZoneName), includeRejected: true))
    }
}

extension CalendarLocation {
    /// Whether the calendar is kept one resource per UID: a folder or a collection.
    var isResourcePerUID: Bool {
        switch self {
        case .folder, .collection: true
        case .file, .database, .server: false
        }
    }

    /// The file, for a calendar kept in one file.
    var file: URL? {
        if case .file(let url) = self { return url }
        return nil
    }
}

/// The queue a scheduling store's calls wait in: one at a time, in the order
/// they came, each waiting without holding a thread.
final class Turns: Sendable {
    private let queue = Queue()

    /// Runs `body` when the calls before it are done.
    func run<T, Failure: Error>(_ body: () async throws(Failure) -> T) async throws(Failure) -> T {
        await queue.enter()
        do {
            let result = try await body()
            await queue.leave()
            return result
        } catch {
            await queue.leave()
            throw error
        }
    }

    private actor Queue {
        private var busy = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func enter() async {
            guard busy else {
                busy = true
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        func leave() {
            if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        }
    }
}
