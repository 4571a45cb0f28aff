import CalendarCore
import Foundation
import ICalendarKit

/// A calendar where it lives — one `.ics` file, a folder of one `.ics` per
/// `UID`, a CalDAV collection, or a database — read whole, and changed under
/// that place's own guarantee: a file under its lock and saved atomically, a
/// folder under its lock with only the changed files written, a collection
/// with conditional writes, a database in one transaction
/// (``CalendarDatabase``).
///
/// ```swift
/// let store = CalendarStore(try CalendarLocation("calendars/gym/"))
/// let calendar = try await store.load().calendar
/// try await store.update { calendar in calendar.name = "Gimnàs Sants" }
/// ```
public struct CalendarStore: Sendable {
    /// Where the calendar lives.
    public let location: CalendarLocation
    /// How its text is read.
    public var options: ImportOptions
    /// The credentials for a collection; `nil` looks them up
    /// (``CalDAVCredentials/lookUp(for:environment:netrc:)``, in ``netrc``).
    public var credentials: CalDAVCredentials?
    /// The `.netrc` read for a collection's credentials when none are given:
    /// ``CalDAVCredentials/platformNetrc`` (`~/.netrc` on Linux and macOS,
    /// none on iOS and its kin); `nil` reads only the environment.
    public var netrc: URL? = CalDAVCredentials.platformNetrc
    /// Told, one line each, what a person should know that is not an error:
    /// for a collection, a change an earlier command could not write in full
    /// that is written now, or left because another client changed the same
    /// resource meanwhile. `nil` tells no one.
    public var notices: (@Sendable (String) -> Void)?
    /// Where a collection's cache folders live (one per collection, named by
    /// the digest of its URL); `nil` is ``defaultCacheFolder(environment:)``.
    public var cacheFolder: URL?
    /// The longest one request to a collection's server may take
    /// (``CalDAVClient/requestTimeout``).
    public var requestTimeout: Duration = .seconds(30)
    /// How a request a collection's server answers 423, 429, 500, 502, 503
    /// or 504 is sent again (``CalDAVClient/retryPolicy``).
    public var retryPolicy = RetryPolicy()
    /// The database a ``CalendarLocation/server(_:)`` (or an app's own
    /// backend) is read and changed through; `nil` for the other places,
    /// and for an SQLite ``CalendarLocation/database(_:)``, which the store
    /// opens itself.
    public let database: (any CalendarDatabase)?

    /// A store for a location.
    /// - Parameters:
    ///   - location: where the calendar lives.
    ///   - options: how its text is read.
    ///   - credentials: for a collection; `nil` takes them from
    ///     `HORARI_CALDAV_USER` and `HORARI_CALDAV_PASSWORD`, else `~/.netrc`.
    public init(_ location: CalendarLocation, options: ImportOptions = ImportOptions(), credentials: CalDAVCredentials? = nil) {
        self.location = location
        self.options = options
        self.credentials = credentials
        self.database = nil
    }

    /// A store for a calendar kept in a database the caller opened: a
    /// PostgreSQL server (`CalendarStorePostgres`), or an app's own backend.
    /// Every read and change goes to `database`, whatever `location` says.
    ///
    /// ```swift
    /// try await PostgresBookStorage.withStorage(url: "postgres://desk@127.0.0.1/gym") { database in
    ///     let store = CalendarStore(try CalendarLocation("postgres://desk@127.0.0.1/gym"), database: database)
    ///     print(try await store.load().calendar.items.count)
    /// }
    /// ```
    /// - Parameters:
    ///   - location: where it is, as messages name it (``CalendarLocation/server(_:)``).
    ///   - database: the database, open.
    ///   - options: how its text is read.
    public init(_ location: CalendarLocation, database: any CalendarDatabase, options: ImportOptions = ImportOptions()) {
        self.location = location
        self.options = options
        self.credentials = nil
        self.database = database
    }

    /// The database the calendar is kept in, for a database or a server:
    /// the one given, else an SQLite file opened (made when missing).
    /// - Throws: for a server the store was not given a database for.
    func calendarDatabase() throws(CalendarStoreError) -> (any CalendarDatabase)? {
        if let database { return database }
        switch location {
        case .database(let url): return try SQLiteBookStorage(path: url.path)
        case .server: throw CalendarStoreError(.invalidLocation, "\(location): a database server is read through its storage, which this store was not given",
                                               suggestion: "open it with CalendarStorePostgres (PostgresBookStorage.withStorage) and give it to CalendarStore(_:database:)")
        case .file, .folder, .collection: return nil
        }
    }

    /// Where collections' caches live when ``cacheFolder`` is `nil`, on this
    /// platform: `horari/caldav` in the user's cache folder.
    ///
    /// On Linux that is `$XDG_CACHE_HOME` (an absolute path), else
    /// `~/.cache` (the XDG base-directory rule); on Apple platforms the
    /// system's caches folder for the user (`~/Library/Caches` on macOS, the
    /// app container's `Library/Caches` on iOS and its kin), which the
    /// system may empty — as a cache may be.
    /// - Parameter environment: where `XDG_CACHE_HOME` and `HOME` are read (Linux).
    public static func defaultCacheFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        #if canImport(Darwin)
        let base = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("Library/Caches")
        #else
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        let base = URL(fileURLWithPath: environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.cache")
        #endif
        return base.appendingPathComponent("horari/caldav")
    }

    /// Whether there is a calendar there yet.
    public var exists: Bool {
        if database != nil { return true }
        switch location {
        case .file(let url):
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && !isFolder.boolValue
        case .database(let url):
            // An empty file is no database yet (SQLite takes it for a new one): a read says there is no
            // calendar, and does not write a schema into it; a change makes the book there.
            return SQLiteBookStorage.holdsDatabase(atPath: url.path)
        case .folder(let url):
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
        case .collection, .server:
            return true
        }
    }

    /// The calendar and what reading it found. A file or folder that does
    /// not exist reads as an empty calendar.
    /// - Throws: ``CalendarStoreFailure/store(_:)`` (the server, the cache,
    ///   a lock; ``CalendarStoreError/Code/cancelled`` when the calling task
    ///   is cancelled) or ``CalendarStoreFailure/calendar(_:)`` for a file
    ///   that is not iCalendar.
    public func load() async throws(CalendarStoreFailure<Never>) -> ImportResult {
        do { try requireDigests() } catch { throw .store(error) }
        if database != nil {
            do { return try await databaseCalendar().load() } catch { throw CalendarStoreFailure.classify(error) }
        }
        switch location {
        case .file(let url):
            do { return try CalendarFile.load(url, options: options) } catch { throw .calendar(error) }
        case .folder(let url):
            guard exists else { return ImportResult(calendar: ICalendar(), diagnostics: []) }
            do { return try FolderStore(folder: url, options: options).load() } catch { throw .store(error) }
        case .collection(let url):
            do { return try await collectionStore(url).load() } catch { throw CalendarStoreFailure.classify(error) }
        case .database, .server:
            guard exists else { return ImportResult(calendar: ICalendar(), diagnostics: []) }
            do { return try await databaseCalendar().load() } catch { throw CalendarStoreFailure.classify(error) }
        }
    }

    /// The calendar for a view of `window`: its own properties, its zones,
    /// the book, and every item that can touch the window — perhaps more,
    /// never fewer. A database (``CalendarDatabase/loadCalendar(touchingFrom:to:)``)
    /// reads only those, through SQLite's or PostgreSQL's index of each
    /// item's reach in time, so a month view of a 50,000-event calendar reads its month; a
    /// file, a folder and a collection are read whole, as ``load()`` does.
    ///
    /// The window is in instants: a view of local dates should widen it by
    /// a day either side for zones (a reach carries five days of margin
    /// already, for items in any zone or floating).
    ///
    /// ```swift
    /// let store = CalendarStore(try CalendarLocation("gym.sqlite"))
    /// let november = DateInterval(start: Date(timeIntervalSince1970: 1_793_491_200), duration: 30 * 86_400)
    /// let calendar = try await store.load(touching: november).result.calendar
    /// ```
    /// - Throws: ``CalendarStoreFailure``, as ``load()`` does.
    public func load(touching window: DateInterval) async throws(CalendarStoreFailure<Never>) -> WindowedRead {
        guard isDatabase, exists else { return WindowedRead(result: try await load(), unreadUIDs: []) }
        let start = Int64(max(min(window.start.timeIntervalSince1970.rounded(.down), 9e18), -9e18))
        let end = Int64(max(min(window.end.timeIntervalSince1970.rounded(.up), 9e18), -9e18))
        do {
            let (result, unread) = try await databaseCalendar().load(touchingFrom: start, to: end)
            return WindowedRead(result: result, unreadUIDs: unread)
        } catch { throw CalendarStoreFailure.classify(error) }
    }

    /// The calendar, and when it was as read: for a CalDAV collection whose
    /// server cannot be reached (no connection, no answer within
    /// ``requestTimeout``), the calendar as horari's cache last saw it,
    /// with the time of that sync in ``CachedRead/asOf``, and this device's
    /// changes kept since (``updateOwnItems(now:exporterFor:whileWaiting:ifDamaged:_:)``)
    /// made on it; otherwise what ``load()`` reads, with `asOf` `nil`. A
    /// server that answers with an error is never passed over, and a
    /// collection never read has no cache to answer from. A change other
    /// than to a person's own items is never made from the cache
    /// (``update(exporterFor:whileWaiting:ifDamaged:_:)`` needs the server).
    /// - Throws: ``CalendarStoreFailure``, as ``load()`` does.
    public func loadAllowingCache() async throws(CalendarStoreFailure<Never>) -> CachedRead {
        do { try requireDigests() } catch { throw .store(error) }
        guard database == nil, case .collection(let url) = location else { return CachedRead(result: try await load(), asOf: nil) }
        do {
            let (result, asOf) = try await collectionStore(url).load(offline: true)
            return CachedRead(result: result, asOf: asOf)
        } catch {
            throw CalendarStoreFailure.classify(error)
        }
    }

    /// Changes part of the calendar: the resources that hold `uids` (and the
    /// calendar's own properties), then those that hold what `alsoHolding`
    /// names in what was read — for a change that needs a few records of a
    /// large calendar, such as a booking (its class and the members on its
    /// roster), whose cost should not follow the calendar's size.
    ///
    /// Only a CalDAV collection is read in part (its cache knows which
    /// resource holds which UID); for a file or a folder, and when the
    /// cache cannot tell, this returns `nil` having done nothing: make the
    /// change with ``update(exporterFor:whileWaiting:ifDamaged:_:)``. `body`
    /// gets a calendar of just those resources, may run more than once, and
    /// must change nothing but it; a change that would add a UID another
    /// resource already holds is not made here either (`nil`).
    ///
    /// - Parameters:
    ///   - uids: the UIDs whose resources to read.
    ///   - alsoHolding: given what was read, the UIDs whose resources to read as well.
    ///   - exporterFor: the exporter the changed resources are written with.
    ///   - whileWaiting: called once when another process has held the cache's lock for a second.
    ///   - ifDamaged: what to do with a resource that did not import cleanly.
    ///   - body: the change.
    /// - Returns: what `body` returns, or `nil` when the change must be made on the whole calendar.
    /// - Throws: ``CalendarStoreFailure``, as ``update(exporterFor:whileWaiting:ifDamaged:_:)`` does.
    public func update<T, Failure: Error>(
        holding uids: Set<String>, alsoHolding: (ICalendar) -> Set<String> = { _ in [] },
        exporterFor: (ICalendar) throws -> ICalendarExporter = { _ in ICalendarExporter(options: .init(includeRejected: true)) },
        whileWaiting: (() -> Void)? = nil, ifDamaged: CalendarFile.DamagePolicy = .refuse,
        _ body: (inout ICalendar) throws(Failure) -> T
    ) async throws(CalendarStoreFailure<Failure>) -> T? {
        guard database == nil, case .collection(let url) = location else { return nil }
        do { try requireDigests() } catch { throw .store(error) }
        do {
            return try await collectionStore(url).update(
                holding: uids, alsoHolding: alsoHolding, exporterFor: { c throws in try Boxed<Failure>.exporting { try exporterFor(c) } },
                whileWaiting: whileWaiting, ifDamaged: ifDamaged) { c throws in try Boxed.run { () throws(Failure) in try body(&c) } }
        } catch {
            throw CalendarStoreFailure.classify(error)
        }
    }

    /// Loads, changes and saves the calendar, as the location allows:
    /// see ``CalendarStore``. A change to a calendar that did not import
    /// cleanly is refused unless `ifDamaged` says otherwise
    /// (`CalendarFile.DamagePolicy`).
    ///
    /// The errors are typed by whose they are: the store's own
    /// (``CalendarStoreFailure/store(_:)``: the place, the server, the
    /// cache), the calendar's (``CalendarStoreFailure/calendar(_:)``: a
    /// damaged or unreadable calendar, a file that cannot be written), or
    /// what `body` or `exporterFor` threw (``CalendarStoreFailure/body(_:)``,
    /// as thrown; nothing is written then). A body that throws nothing
    /// typed is `any Error`.
    ///
    /// - Parameters:
    ///   - exporterFor: the exporter the changed calendar is written with.
    ///   - whileWaiting: called once when another process has held the lock for a second.
    ///   - ifDamaged: what to do with a calendar that did not import cleanly.
    ///   - body: the change.
    /// - Returns: what `body` returns.
    /// - Throws: ``CalendarStoreFailure``.
    public func update<T, Failure: Error>(
        exporterFor: (ICalendar) throws -> ICalendarExporter = { _ in ICalendarExporter(options: .init(includeRejected: true)) },
        whileWaiting: (() -> Void)? = nil, ifDamaged: CalendarFile.DamagePolicy = .refuse,
        _ body: (inout ICalendar) throws(Failure) -> T
    ) async throws(CalendarStoreFailure<Failure>) -> T {
        do { try requireDigests() } catch { throw .store(error) }
        do {
            if database != nil {
                return try await databaseCalendar().update(
                    exporterFor: { c throws in try Boxed<Failure>.exporting { try exporterFor(c) } }
                ) { c throws in try Boxed.run { () throws(Failure) in try body(&c) } }
            }
            switch location {
            case .file(let url):
                return try CalendarFile.update(url, options: options, exporterFor: { c throws in try Boxed<Failure>.exporting { try exporterFor(c) } },
                                               whileWaiting: whileWaiting, ifDamaged: ifDamaged) { c throws in try Boxed.run { () throws(Failure) in try body(&c) } }
            case .folder(let url):
                return try FolderStore(folder: url, options: options).update(
                    exporterFor: { c throws in try Boxed<Failure>.exporting { try exporterFor(c) } },
                    whileWaiting: whileWaiting, ifDamaged: ifDamaged) { c throws in try Boxed.run { () throws(Failure) in try body(&c) } }
            case .collection(let url):
                return try await collectionStore(url).update(
                    exporterFor: { c throws in try Boxed<Failure>.exporting { try exporterFor(c) } },
                    whileWaiting: whileWaiting, ifDamaged: ifDamaged) { c throws in try Boxed.run { () throws(Failure) in try body(&c) } }
            case .database, .server:
                return try await databaseCalendar().update(
                    exporterFor: { c throws in try Boxed<Failure>.exporting { try exporterFor(c) } }
                ) { c throws in try Boxed.run { () throws(Failure) in try body(&c) } }
            }
        } catch {
            throw CalendarStoreFailure.classify(error)
        }
    }

    /// Changes a person's own events and tasks, as
    /// ``update(exporterFor:whileWaiting:ifDamaged:_:)`` does — and, for a
    /// CalDAV collection whose server cannot be reached at all (no
    /// connection, no answer), on this device: the change is made on the
    /// calendar as the cache last saw it, kept (``KeptChange``), shown by
    /// ``loadAllowingCache()``, and sent, in order, by the next call on this
    /// calendar that reaches the server.
    ///
    /// A kept change is made then only on the item as the change found it:
    /// one changed on the server since is not overwritten, and one deleted
    /// there is not brought back (``KeptChangeOutcome``, each said through
    /// ``notices`` and returned in ``OwnItemsUpdate/sent`` or by
    /// ``sendKeptChanges()``). A change to anything else — the gym's book
    /// (bookings, places, sessions), the calendar's own properties — is
    /// refused while the server is out of reach, and nothing is kept.
    ///
    /// ```swift
    /// let ticked = try await store.updateOwnItems { calendar in
    ///     try calendar.markDone(uid: "essay-plan")
    /// }
    /// if ticked.isKept { print("kept on this phone; \(ticked.waiting) waiting for the server") }
    /// ```
    ///
    /// - Parameters:
    ///   - now: when the change is made (a kept change is made with this time).
    ///   - exporterFor: the exporter the changed calendar is written with.
    ///   - whileWaiting: called once when another process has held the lock for a second.
    ///   - ifDamaged: what to do with a calendar that did not import cleanly.
    ///   - body: the change; run on the calendar the server holds, or on the cache's.
    /// - Returns: what `body` returned, whether the change was kept, and the
    ///   earlier kept changes sent first.
    /// - Throws: ``CalendarStoreFailure``, as ``update(exporterFor:whileWaiting:ifDamaged:_:)`` does.
    public func updateOwnItems<T, Failure: Error>(
        now: Date = Date(),
        exporterFor: (ICalendar) throws -> ICalendarExporter = { _ in ICalendarExporter(options: .init(includeRejected: true)) },
        whileWaiting: (() -> Void)? = nil, ifDamaged: CalendarFile.DamagePolicy = .refuse,
        _ body: (inout ICalendar) throws(Failure) -> T
    ) async throws(CalendarStoreFailure<Failure>) -> OwnItemsUpdate<T> {
        guard database == nil, case .collection(let url) = location else {
            let value = try await update(exporterFor: exporterFor, whileWaiting: whileWaiting, ifDamaged: ifDamaged, body)
            return OwnItemsUpdate(value: value, isKept: false, waiting: 0, sent: [])
        }
        do { try requireDigests() } catch { throw .store(error) }
        do {
            return try await collectionStore(url).updateOwn(
                now: now, exporterFor: { c throws in try Boxed<Failure>.exporting { try exporterFor(c) } }, whileWaiting: whileWaiting,
                ifDamaged: ifDamaged
            ) { c throws in try Boxed.run { () throws(Failure) in try body(&c) } }
        } catch {
            throw CalendarStoreFailure.classify(error)
        }
    }

    /// The changes this device keeps for the calendar's CalDAV server, in
    /// the order they were made; empty for any other location.
    public func keptChanges() -> [KeptChange] {
        guard database == nil, case .collection(let url) = location else { return [] }
        return collectionStore(url).keptChanges()
    }

    /// Sends the changes this device keeps for the calendar's CalDAV server
    /// (``updateOwnItems(now:exporterFor:whileWaiting:ifDamaged:_:)``), in
    /// order, each command's made or refused together; every other call on
    /// the calendar that reaches the server sends them first too, and says
    /// what became of each through ``notices`` (and ``updateOwnItems(now:exporterFor:whileWaiting:ifDamaged:_:)``
    /// in ``OwnItemsUpdate/sent``): set `notices` to hear of those.
    /// - Returns: what became of each sent by this call, in order; empty when none waited.
    /// - Throws: ``CalendarStoreFailure``: the server still cannot be
    ///   reached (they stay kept), or refused the writes.
    public func sendKeptChanges() async throws(CalendarStoreFailure<Never>) -> [KeptChangeOutcome] {
        guard database == nil, case .collection(let url) = location else { return [] }
        do { try requireDigests() } catch { throw .store(error) }
        var sent: [KeptChangeOutcome] = []
        let collection = collectionStore(url)
        do {
            _ = try await collection.change(selecting: { _, _ in [] }, creating: false,
                                            exporterFor: { _ in ICalendarExporter(options: .init(includeRejected: true)) },
                                            whileWaiting: nil, ifDamaged: .refuse, keeping: true, sent: { sent.append($0) }) { _ in () }
        } catch let unreached as CollectionStore.Unreached {
            let waiting = collection.keptChanges().count
            throw CalendarStoreFailure.classify(CalendarStoreError(unreached.error.code, status: unreached.error.status, unreached.error.message
                + "; the \(waiting == 1 ? "change" : "\(waiting) changes") kept on this device \(waiting == 1 ? "waits" : "wait") for it"))
        } catch {
            throw CalendarStoreFailure.classify(error)
        }
        return sent
    }

    /// Whether the calendar is kept in a database (SQLite, a server, an app's own).
    var isDatabase: Bool {
        switch location {
        case .database, .server: true
        case .file, .folder, .collection: database != nil
        }
    }

    /// The calendar in this store's database.
    func databaseCalendar() throws(CalendarStoreError) -> DatabaseCalendar {
        // Looked at before it is opened, which makes an SQLite file.
        let newFile: URL? = if self.database == nil, case .database(let url) = location, !exists { url } else { nil }
        guard isDatabase else { throw CalendarStoreError(.invalidLocation, "\(location) is not a database") }
        let store = self
        return DatabaseCalendar(open: { () throws(CalendarStoreError) in
            guard let database = try store.calendarDatabase() else { throw CalendarStoreError(.invalidLocation, "\(store.location) is not a database") }
            return database
        }, place: location.description, options: options, newFile: newFile,
           newFileWasEmpty: newFile.map { FileManager.default.fileExists(atPath: $0.path) } ?? false)
    }

    /// The store of a collection, as this store is set up.
    /// For a CalDAV collection: the lost updates this machine's changes
    /// found there (a server that took two writes with one `If-Match`), as
    /// its cache records them; `nil` when none was found, or for any other
    /// location. `horari doctor` says bookings are not safe on such a server.
    public func lostUpdatesSeen() -> LostUpdatesSeen? {
        guard database == nil, case .collection(let url) = location else { return nil }
        return collectionStore(url).lostUpdatesSeen()
    }

    /// A folder and a collection name their files by SHA-256 digest: on a
    /// machine where digests cannot be taken (libcrypto missing, on Linux),
    /// each call says so before it reads or writes anything.
    private func requireDigests() throws(CalendarStoreError) {
        guard database == nil else { return }
        switch location {
        case .folder, .collection: try Digest.requireLibrary()
        case .file, .database, .server: break
        }
    }

    private func collectionStore(_ url: URL) -> CollectionStore {
        CollectionStore(url, options: options, credentials: credentials, netrc: netrc, notices: notices, cacheFolder: cacheFolder, timeout: requestTimeout,
                        retryPolicy: retryPolicy)
    }
}

/// Why a ``CalendarStore`` call failed, typed by whose failure it is: the
/// store's own, the calendar's, or the caller's change.
///
/// ``CalendarStore/load()`` throws it with `BodyError` `Never`: only the
/// store and the calendar can fail a read. ``CalendarStore/update(exporterFor:whileWaiting:ifDamaged:_:)``
/// throws it with the change's own error type, so that a caller that
/// throws a typed error gets it back as it was thrown.
public enum CalendarStoreFailure<BodyError: Error>: HorariError {
    /// The place failed: the server, the network, the cache, a lock, a
    /// folder (``CalendarStoreError``).
    case store(CalendarStoreError)
    /// The calendar's text: damaged, not iCalendar, or a file that cannot be
    /// written (`ICalendarError`).
    case calendar(ICalendarError)
    /// What the change threw (or the exporter choice, when of the same
    /// type); nothing was written.
    case body(BodyError)

    /// The error inside, as it was thrown.
    public var underlying: any Error {
        switch self {
        case .store(let error): error
        case .calendar(let error): error
        case .body(let error): error
        }
    }

    /// The message of the error inside.
    public var description: String { "\(underlying)" }

    /// What to do about it, when the error inside says.
    public var recoverySuggestion: String? { (underlying as? any LocalizedError)?.recoverySuggestion }

    /// The case's number (Docs/Errors.md); the error inside is `NSUnderlyingErrorKey`.
    public var errorCode: Int {
        switch self {
        case .store: 1
        case .calendar: 2
        case .body: 3
        }
    }

    /// The sentence, the suggestion and the error inside, under Foundation's keys.
    public var errorUserInfo: [String: Any] { foundationUserInfo(underlying: underlying) }

    /// An error from the store's untyped layers, sorted by whose it is.
    static func classify(_ error: any Error) -> CalendarStoreFailure {
        if let boxed = error as? Boxed<BodyError> { return .body(boxed.error) }
        if let error = error as? CalendarStoreError { return .store(error) }
        if let error = error as? ICalendarError { return .calendar(error) }
        return .store(CalendarStoreError(.io, "\(error)"))
    }
}

/// A change's own error, carried through the store's untyped layers so that
/// ``CalendarStoreFailure/classify(_:)`` knows it for the change's.
struct Boxed<Failure: Error>: Error {
    /// The error the change threw.
    let error: Failure

    /// Runs an exporter choice, boxing what it throws when it is of the change's error type.
    static func exporting<R>(_ body: () throws -> R) throws -> R {
        do { return try body() } catch let error as Failure { throw Boxed(error: error) }
    }

    /// Runs `body`, boxing what it throws.
    static func run<R>(_ body: () throws(Failure) -> R) throws(Boxed) -> R {
        do { return try body() } catch { throw Boxed(error: error) }
    }
}

/// A calendar as ``CalendarStore/load(touching:)`` read it for a window.
public struct WindowedRead: Sendable {
    /// The calendar, with every item that can touch the window, and what reading it found.
    public var result: ImportResult
    /// The `UID`s of the items left unread, one per component left out (a
    /// series with overrides is named for each): IDs a view shows for its
    /// items (`ShortIDs`) must be unique among these too.
    public var unreadUIDs: [String]

    /// A read for a window.
    public init(result: ImportResult, unreadUIDs: [String]) {
        self.result = result
        self.unreadUIDs = unreadUIDs
    }
}

/// A calendar as ``CalendarStore/loadAllowingCache()`` read it.
public struct CachedRead: Sendable {
    /// The calendar and what reading it found.
    public var result: ImportResult
    /// When the cache last agreed with the server, for a calendar read from
    /// the cache because the server could not be reached; `nil` when it was
    /// read from the server (or a file or folder) now.
    public var asOf: Date?

    /// A read.
    public init(result: ImportResult, asOf: Date?) {
        self.result = result
        self.asOf = asOf
    }
}
