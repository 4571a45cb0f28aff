import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit
import SchedulingICalendar

/// A ``BookStorage`` where a calendar lives — one `.ics` file, a folder of
/// one `.ics` per `UID`, a CalDAV collection — keeping the book in the
/// calendar's own form, as ``SchedulingStore`` does: the classes are events
/// other calendar programs show, the members journals, the owed messages
/// journals of their own.
///
/// What the protocol asks beyond the book — the store's revision, each
/// record's version, the commits made — is one calendar property,
/// `X-HORARI-BOOK-STATE`, which every commit writes. A commit is made under
/// the place's own guarantee: a file's or a folder's lock; on a collection,
/// a conditional write of the calendar's own resource first (it holds that
/// property), made and confirmed before any other write, so that of two
/// desks committing on one revision only one writes anything more.
///
/// A collection's commit is several writes, so a desk may read one whose
/// first write is made and the others not yet: the property says which
/// records the last commit changed and what they were before, and a read
/// that finds exactly that waits for the rest (up to a minute by its own
/// clock: a desk that stopped half-way leaves its records as they are, then
/// taken as a change made otherwise), and a commit then is not made.
///
/// A change of the book made otherwise — through ``SchedulingStore`` (as
/// `horari` does), or by another program that edits the calendar — is seen
/// as a revision of its own: its records no longer match the digests the
/// property keeps. The next read or commit takes it in under the place's
/// guarantee, writing the property two revisions on (so that no snapshot
/// read while it was not taken in can commit over it), so every revision a
/// read says is one the calendar records; a commit then answers that the
/// store moved on, and ``BookStore`` reads and tries again.
///
/// Every commit reads and writes the whole calendar, and the property
/// holds a line for every record: this is a store for a small gym, and for
/// calendars exchanged as they are. A large book belongs in SQLite
/// (``SQLiteBookStorage``) or PostgreSQL. The last 200 commits are
/// remembered (``hasCommitted(_:)``), enough for a caller that lost an
/// answer and asks at once, as ``BookStore`` does.
///
/// ```swift
/// let storage = try CalendarBookStorage(CalendarStore(try CalendarLocation("gym.ics")))
/// let gym = BookStore(storage, newBookZone: "Europe/Madrid")
/// let told = try await gym.changeTelling(gym: nil) { book in
///     try book.book(member: "marta", classID: "yoga", on: try LocalDate(year: 2026, month: 11, day: 30), now: Date())
/// }
/// print(told.notices.notices.count, "messages owed")
/// ```
public struct CalendarBookStorage: BookStorage {
    /// The scheduling store the calendar is read and written through: its
    /// place, clock, new calendar's zone and what to do with damage. Calls
    /// through copies of one storage take its turns.
    public let scheduling: SchedulingStore

    /// How many commit IDs are remembered.
    static let commitsRemembered = 200

    /// A storage on a scheduling store's calendar.
    /// - Parameter scheduling: the calendar's scheduling store.
    /// - Throws: `CalendarStoreError` `.invalidLocation` for a database,
    ///   which is a `BookStorage` of its own; `.io` where SHA-256 digests,
    ///   which a commit records of each record, cannot be taken (libcrypto
    ///   missing, on Linux).
    public init(_ scheduling: SchedulingStore) throws(CalendarStoreError) {
        guard !scheduling.store.isDatabase else {
            throw CalendarStoreError(.invalidLocation, "\(scheduling.store.location) is a database, which keeps the book's records itself",
                                     suggestion: "use its own storage (SQLiteBookStorage, PostgresBookStorage)")
        }
        try Digest.requireLibrary()
        self.scheduling = scheduling
    }

    /// A storage on the calendar `store` keeps.
    /// - Parameters:
    ///   - store: a file, a folder or a collection.
    ///   - settings: the clock, the new calendar's zone, what to do with damage.
    /// - Throws: `CalendarStoreError` `.invalidLocation` for a database;
    ///   `.io` where digests cannot be taken, as ``init(_:)-(SchedulingStore)``.
    public init(_ store: CalendarStore, settings: SchedulingStore.Settings = SchedulingStore.Settings()) throws(CalendarStoreError) {
        try self.init(SchedulingStore(store, settings: settings))
    }

    /// Every record of the book the calendar keeps, with the store's revision.
    /// - Throws: ``SchedulingStoreError`` for a calendar whose book cannot
    ///   be read (damage, a record the book refuses), with what to do.
    ///
    /// Every revision a read says is one the calendar records: a book
    /// changed otherwise is taken in first (as a commit takes it in), under
    /// the place's guarantee, and a commit another desk is writing on a
    /// collection (its first write made, the others on their way) is waited
    /// for, up to a minute by this desk's own clock. Where it cannot be
    /// taken in (a place this desk cannot write), the book is given as read,
    /// at a negative revision, which no commit is made on.
    public func load() async throws -> BookSnapshot {
        try await scheduling.turns.run { () async throws -> BookSnapshot in
            let started = ContinuousClock.now
            for wait in 0... {
                let patient = ContinuousClock.now - started < .seconds(Self.inFlightLength) && wait < 3000
                if wait > 0 { try await Task.sleep(for: .milliseconds(Int.random(in: 20...60))) }
                guard let (calendar, book) = try await read() else { return BookSnapshot(revision: 0, records: []) }
                let now = try ledger(calendar, book, at: Date())
                if !now.drifted { return now.snapshot }
                if now.inFlight, patient { continue }
                let settled: BookSnapshot?
                do { settled = try await takeIn(waitingForACommit: patient) } catch let error as CalendarStoreError where error.code == .cancelled {
                    throw error
                } catch {
                    // A place this desk cannot write (a read-only share or file, damage a change refuses): the book
                    // as read, at a revision no commit is made on.
                    return BookSnapshot(revision: -1 - now.stored.revision, records: now.snapshot.records)
                }
                if let settled { return settled }
            }
            throw CalendarStoreError(.io, "\(scheduling.store.location): the book could not be read")  // (not reached)
        }
    }

    /// Makes a commit if the calendar is still at its ``BookCommit/basedOn``:
    /// the book its records make written into the calendar, its messages
    /// kept with it, in one save.
    /// - Throws: `CalendarStoreError` `.badResponse` when the records
    ///   would not make a book (a calendar keeps one), or what the place
    ///   throws; nothing is written then.
    public func commit(_ commit: BookCommit) async throws -> Bool {
        try await scheduling.turns.run { () async throws -> Bool in
            let inParts = scheduling.store.location.isResourcePerUID
            do {
                return try await GatedWrites.$firstConfirmed.withValue(true) {
                    try await scheduling.store.update(exporterFor: scheduling.exporter(for:), whileWaiting: scheduling.settings.whileWaiting,
                                                      ifDamaged: scheduling.settings.ifDamaged) { calendar throws -> Bool in
                        try made(commit, in: &calendar, inParts: inParts)
                    }
                }
            } catch let error as CalendarStoreFailure<any Error> {
                if case .body(let inside) = error, inside is NotMade { return false }
                if case .body(let inside) = error, inside is AlreadyMade { return true }
                // Refused before anything was written (damage, a record the book refuses, records that make no book).
                if case .body(let inside) = error, let refused = inside as? SchedulingStoreError { throw refused }
                throw Self.unwrapped(error.underlying)
            }
        }
    }

    /// Whether a commit with this ID was made (one of the last 200).
    public func hasCommitted(_ commitID: String) async throws -> Bool {
        try await scheduling.turns.run { () async throws -> Bool in
            guard scheduling.store.exists else { return false }
            let loaded: ImportResult
            do { loaded = try await scheduling.store.load() } catch let error as CalendarStoreFailure<Never> { throw Self.unwrapped(error.underlying) }
            return try BookState.read(from: loaded.calendar, in: scheduling.store.location)?.commits.contains(commitID) ?? false
        }
    }

    /// The messages the calendar keeps owed, in commit order.
    public func owedMessages() async throws -> [OwedMessage] {
        try await scheduling.turns.run { () async throws(SchedulingStoreError) -> [OwedMessage] in try await scheduling.owedInCalendar() }
    }

    /// Takes delivered messages off the calendar.
    public func markDelivered(_ messageIDs: [String]) async throws {
        try await scheduling.turns.run { () async throws(SchedulingStoreError) in try await scheduling.removeOwed(Set(messageIDs)) }
    }

    // MARK: - Inside

    /// Said by a commit's body that found the calendar moved on: nothing is written.
    private struct NotMade: Error {}
    /// Said by a commit's body that found the commit made already: nothing is written.
    private struct AlreadyMade: Error {}
    /// Said by a read that found nothing to take in: this snapshot, nothing written.
    private struct Settled: Error { let snapshot: BookSnapshot }
    /// Said by a read that found a commit still being written.
    private struct StillInFlight: Error {}

    /// A book changed otherwise taken in as two revisions, under the
    /// place's guarantee, and the snapshot then; the snapshot as it is when
    /// the calendar read under that guarantee was not changed otherwise;
    /// `nil` when it holds a commit still being written and `waiting` says
    /// to wait for it.
    private func takeIn(waitingForACommit waiting: Bool) async throws -> BookSnapshot? {
        do {
            return try await scheduling.store.update(exporterFor: scheduling.exporter(for:), whileWaiting: scheduling.settings.whileWaiting,
                                                     ifDamaged: scheduling.settings.ifDamaged) { calendar throws -> BookSnapshot in
                let now = try ledger(calendar, try scheduling.readBook(calendar, lines: ICalendarSourceLines()), at: Date())
                if !now.drifted { throw Settled(snapshot: now.snapshot) }
                if now.inFlight, waiting { throw StillInFlight() }
                let (state, snapshot) = now.takenIn()
                calendar.setBookState(state)
                return snapshot
            }
        } catch {
            if case .body(let inside) = error, let settled = inside as? Settled { return settled.snapshot }
            if case .body(let inside) = error, inside is StillInFlight { return nil }
            if case .body(let inside) = error, let refused = inside as? SchedulingStoreError { throw refused }
            throw Self.unwrapped(error.underlying)
        }
    }

    /// How long a commit another desk is writing (its first write made, the
    /// others not yet: a collection's) is waited for, before its records
    /// are taken as they are (a desk that stopped half-way): longer than a
    /// request may take (30 seconds).
    static let inFlightLength: TimeInterval = 60

    /// The calendar and its book; `nil` when there is no calendar there yet.
    private func read() async throws -> (ICalendar, SchedulingBook)? {
        guard scheduling.store.exists else { return nil }
        let read = try await scheduling.readCalendar(allowingCache: false)
        return (read.calendar, read.book)
    }

    /// The commit, made on the calendar as read under the place's guarantee;
    /// `false` when it has moved on (then only a change made otherwise is
    /// taken in); ``NotMade`` when nothing is to be written.
    private func made(_ commit: BookCommit, in calendar: inout ICalendar, inParts: Bool) throws -> Bool {
        let book = try scheduling.readBook(calendar, lines: ICalendarSourceLines())
        let now = try ledger(calendar, book, at: Date())
        // On a collection, this commit's property was written (its first write) and a later write lost to a
        // change another client made meanwhile, not through this storage: the commit is finished on the
        // calendar as it is now, if every record it writes is still as it was before it (or as it made it);
        // else it is taken back, and not made. Made and followed by others (a confirmation that saw their
        // later write of the property as a lost one): made.
        let finishing = now.stored.commits.last == commit.id
        if finishing {
            let ours = Set(commit.writes.map(\.key.description))
            let intact = now.stored.last.map { last in
                ours.allSatisfy { key in
                    let current = now.digests[key]
                    return (last.before.keys.contains(key) && (last.before[key] ?? nil) == current)
                        || (last.after?.keys.contains(key) == true && (last.after?[key] ?? nil) == current)
                }
            } ?? false
            if !intact {
                var (state, _) = now.takenIn()
                state.commits.removeAll { $0 == commit.id }
                calendar.setBookState(state)
                return false
            }
        } else {
            if now.stored.commits.contains(commit.id) { throw AlreadyMade() }
            // Another desk's commit half-written: not made now; BookStore reads again, and a read waits for it.
            if now.inFlight { throw NotMade() }
            if now.drifted {
                // Changed otherwise since the last commit: taken in as two revisions (a
                // snapshot read meanwhile said one more than the last), and the commit is not made.
                calendar.setBookState(now.takenIn().state)
                return false
            }
            guard now.stored.revision == commit.basedOn else { throw NotMade() }
        }
        var records = now.records
        for write in commit.writes { records[write.key] = write.body }
        let stored = records.map { StoredRecord(key: $0.key, version: 0, body: $0.value) }.sorted { $0.key < $1.key }
        let changed: SchedulingBook
        do { changed = try BookRecords.book(from: stored, newZone: scheduling.bookZone(of: calendar)) } catch {
            throw SchedulingStoreError.store(CalendarStoreError(
                .badResponse, "\(scheduling.store.location): the commit's records do not make a book (\(error)), which a calendar keeps; nothing was changed"))
        }
        if changed != book || now.stored.versions.isEmpty { try scheduling.write(changed, into: &calendar, inParts: inParts) }
        let owedAlready = finishing ? Set(try calendar.owedMessages(in: scheduling.store.location.description).map(\.id)) : []
        try calendar.owe(commit.owed.filter { !owedAlready.contains($0.id) })
        // The records as the calendar now gives them back: what the next read compares.
        let back = try Self.records(of: try scheduling.readBook(calendar, lines: ICalendarSourceLines()), keepingGym: records[BookRecords.gymKey] != nil)
        let written = Set(commit.writes.map(\.key))
        var versions: [String: BookState.Entry] = [:], backDigests: [String: String] = [:]
        for (key, body) in back {
            let old = now.versions[key] ?? 0, digest = BookState.digest(body)
            backDigests[key.description] = digest
            let changed = written.contains(key) || digest != now.digests[key.description]
            versions[key.description] = BookState.Entry(version: changed || old == 0 ? old + 1 : old, digest: digest)
        }
        // What each record changed was before and is after, for a read made while the commit's other writes are on their way.
        var before: [String: String?] = [:], after: [String: String?] = [:]
        for key in Set(now.digests.keys).union(backDigests.keys) where now.digests[key] != backDigests[key] {
            before.updateValue(now.digests[key], forKey: key)  // (a subscript would drop a nil)
            after.updateValue(backDigests[key], forKey: key)
        }
        let commits = finishing ? now.stored.commits : Array((now.stored.commits + [commit.id]).suffix(Self.commitsRemembered))
        calendar.setBookState(BookState(revision: now.stored.revision + 1, commits: commits, versions: versions,
                                        last: BookState.LastCommit(at: Int64(Date().timeIntervalSince1970), before: before, after: after)))
        return true
    }

    /// What the calendar's book and its state property say at `time`: the
    /// records, their versions, the revision, whether the book was changed
    /// otherwise since the last commit, and whether that commit is still
    /// being written.
    private func ledger(_ calendar: ICalendar, _ book: SchedulingBook, at time: Date) throws -> Ledger {
        let stored = try BookState.read(from: calendar, in: scheduling.store.location) ?? BookState(revision: 0, commits: [], versions: [:])
        let records = try Self.records(of: book, keepingGym: stored.versions[BookRecords.gymKey.description] != nil)
        var versions: [RecordKey: Int64] = [:]
        var digests: [String: String] = [:]
        for (key, body) in records {
            let digest = BookState.digest(body)
            digests[key.description] = digest
            guard let entry = stored.versions[key.description] else {
                versions[key] = 1
                continue
            }
            versions[key] = entry.digest == digest ? entry.version : entry.version + 1
        }
        let differing = Set(stored.versions.keys).union(digests.keys).filter { stored.versions[$0]?.digest != digests[$0] }
        // Every difference one the last commit makes, each record still as it was before it, and recently:
        // its first write is made and the others are on their way.
        // (Only on a collection: a file's and a folder's commits are whole when they can be read.)
        // (A time ahead of this desk's clock, another desk's, is taken as now.)
        var inFlight = false
        if case .collection = scheduling.store.location, let last = stored.last, !differing.isEmpty,
           time.timeIntervalSince1970 < min(Double(last.at), time.timeIntervalSince1970) + Self.inFlightLength {
            inFlight = differing.allSatisfy { key in last.before.keys.contains(key) && (last.before[key] ?? nil) == digests[key] }
        }
        return Ledger(stored: stored, records: records, versions: versions, digests: digests, drifted: !differing.isEmpty, inFlight: inFlight)
    }

    /// A book's records; none for an empty book (a new calendar, one of
    /// events alone) unless the store holds its `gym` record.
    private static func records(of book: SchedulingBook, keepingGym: Bool) throws -> [RecordKey: Data] {
        var records = try BookRecords.records(of: book)
        if !keepingGym, records.count == 1, book == SchedulingBook(timeZone: book.timeZone) { records = [:] }
        return records
    }

    /// A store's error, not wrapped in the scheduling store's.
    private static func unwrapped(_ error: any Error) -> any Error {
        if case .store(let inner) = error as? SchedulingStoreError { return inner }
        return error
    }
}

/// What a calendar's book and its state property say.
private struct Ledger {
    /// The property as it was written by the last commit.
    var stored: BookState
    /// The book's records now.
    var records: [RecordKey: Data]
    /// Their versions: as stored, one more where changed otherwise, 1 where new.
    var versions: [RecordKey: Int64]
    /// Their digests, by `kind:id`.
    var digests: [String: String]
    /// Whether the book differs from what the last commit wrote.
    var drifted: Bool
    /// Whether that is because the last commit is still being written (a collection's, by another desk).
    var inFlight: Bool

    /// The records at the stored revision (for a book not changed otherwise).
    var snapshot: BookSnapshot { snapshot(revision: stored.revision) }

    private func snapshot(revision: Int64) -> BookSnapshot {
        BookSnapshot(revision: revision, records: records.map { StoredRecord(key: $0.key, version: versions[$0.key] ?? 1, body: $0.value) }.sorted { $0.key < $1.key })
    }

    /// The book changed otherwise, taken in: the property that says so, two
    /// revisions on (a snapshot read while the change was not taken in may
    /// have said one more than the last), and the snapshot at it.
    func takenIn() -> (state: BookState, snapshot: BookSnapshot) {
        let revision = stored.revision + 2
        // The last commit is kept: its desk may still be finishing it, and judges its records by it.
        let state = BookState(revision: revision, commits: stored.commits,
                              versions: Dictionary(uniqueKeysWithValues: records.map { ($0.key.description, BookState.Entry(version: versions[$0.key] ?? 1, digest: BookState.digest($0.value))) }),
                              last: stored.last)
        return (state, snapshot(revision: revision))
    }
}

/// The calendar property of the book's state (`ICalendar.bookStateProperty`): the store's revision, the
/// last commits, and each record's version and digest, as base64 of JSON
/// (no character a text value escapes).
struct BookState: Codable, Equatable {
    struct Entry: Codable, Equatable {
        var version: Int64
        var digest: String
    }

    /// The last commit: when (Unix seconds, the desk's clock), and the digest each record it changed had
    /// before it (`nil`: none), so that a read made while its writes are on their way can tell.
    struct LastCommit: Codable, Equatable {
        var at: Int64
        var before: [String: String?]
        /// The digests it wrote (`nil`: removed), so that its desk can tell, after a read took the
        /// calendar in half-way, whether its records are as it made them.
        var after: [String: String?]? = nil
    }

    var revision: Int64
    var commits: [String]
    /// By `kind:id`.
    var versions: [String: Entry]
    /// The last commit made through the storage; `nil` after a change made otherwise was taken in.
    var last: LastCommit?

    init(revision: Int64, commits: [String], versions: [String: Entry], last: LastCommit? = nil) {
        self.revision = revision
        self.commits = commits
        self.versions = versions
        self.last = last
    }

    /// The state a calendar records; `nil` when it records none.
    /// - Throws: `CalendarStoreError` `.badResponse` for one that cannot be
    ///   read: taken for none, the revision would start again, and commits
    ///   made would be forgotten.
    static func read(from calendar: ICalendar, in place: CalendarLocation) throws(CalendarStoreError) -> BookState? {
        guard let value = calendar.bookStateText else { return nil }
        guard let data = Data(base64Encoded: value), let state = try? JSONDecoder().decode(BookState.self, from: data) else {
            throw CalendarStoreError(.badResponse, "\(place): the book's state (a calendar property another program changed?) cannot be read; nothing was changed",
                                     suggestion: "restore the calendar from a backup, or remove that property to start its revisions again")
        }
        return state
    }

    /// A record's digest: the first 16 hex digits of its SHA-256.
    static func digest(_ body: Data) -> String { String(Digest.sha256Hex(body).prefix(16)) }

    var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return ((try? encoder.encode(self)) ?? Data()).base64EncodedString()
    }
}

extension ICalendar {
    /// Records the book's state in place of any other.
    mutating func setBookState(_ state: BookState) { setBookStateText(state.text) }
}
