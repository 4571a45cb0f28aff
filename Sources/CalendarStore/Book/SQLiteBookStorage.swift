import Foundation
import GRDB

/// A ``BookStorage`` in an SQLite database file, through GRDB: the
/// embedded default for an app on a device (SQLite is part of every Apple
/// platform; Debian's `libsqlite3-dev` here).
///
/// The database is in WAL mode, so readers never wait for a writer. A
/// commit is one `BEGIN IMMEDIATE` transaction: it checks the revision,
/// writes the records, the owed messages and the commit's ID, and raises
/// the revision — all or nothing, whatever kills the process. Processes
/// sharing the file wait for each other's transactions (up to
/// ``init(path:waitingAtMost:readOnly:)``'s deadline), so twenty desks on
/// one file book exactly the places there are.
///
/// The schema is versioned (GRDB's `DatabaseMigrator`, the migrations in
/// order: `v1`); a file written by a newer Horari, with migrations this one
/// does not know, is refused, not changed.
///
/// ```swift
/// let storage = try SQLiteBookStorage(path: "gym.sqlite")
/// let gym = BookStore(storage, newBookZone: "Europe/Madrid")
/// let book = try await gym.load()
/// ```
public struct SQLiteBookStorage: CalendarDatabase {
    /// The database file.
    public let path: String
    private let pool: DatabasePool

    /// Opens (or makes) the database at `path`, bringing its schema up to date.
    /// - Parameters:
    ///   - path: the database file; made, with its schema, when missing.
    ///   - seconds: how long a call waits for another process's transaction before it gives up (default 10 s).
    ///   - readOnly: open for reading only: ``commit(_:)`` and ``markDelivered(_:)`` are refused.
    /// - Throws: `CalendarStoreError`: `.notADatabase` for a file that is not
    ///   an SQLite database, `.newerSchema` for one a newer Horari wrote,
    ///   `.busy` when another process held it past the deadline, `.io` for a
    ///   file that cannot be read or made.
    public init(path: String, waitingAtMost seconds: TimeInterval = 10, readOnly: Bool = false) throws(CalendarStoreError) {
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(seconds)
        configuration.readonly = readOnly
        configuration.label = "Horari book"
        // Another program's database is refused before the pool opens it: opening a pool sets WAL
        // mode, which writes the file (its header, journal mode and schema version) even when the book
        // is then refused.
        try Self.refuseForeign(path)
        do {
            pool = try Self.open(path, configuration, waitingAtMost: seconds)
        } catch {
            throw Self.storeError(error, path: path, doing: "open")
        }
        do {
            try pool.read { db in try Self.checkSchema(db, path: path, readOnly: readOnly) }
            if !readOnly {
                try Self.migrate(pool)
                // A newer Horari that migrated the file meanwhile is refused as before.
                try pool.read { db in try Self.checkSchema(db, path: path, readOnly: readOnly) }
            }
        } catch {
            throw Self.storeError(error, path: path, doing: "open")
        }
    }

    /// The schema's migrations, in order. Never change one that shipped: add the next.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE record (
                    kind TEXT NOT NULL,
                    id TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    body BLOB NOT NULL,
                    PRIMARY KEY (kind, id)
                ) WITHOUT ROWID;
                CREATE TABLE revision (
                    one INTEGER PRIMARY KEY CHECK (one = 1),
                    value INTEGER NOT NULL
                );
                INSERT INTO revision (one, value) VALUES (1, 0);
                CREATE TABLE "commit" (
                    id TEXT PRIMARY KEY NOT NULL,
                    revision INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE owed_message (
                    position INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    commit_id TEXT NOT NULL,
                    body BLOB NOT NULL,
                    delivered_at REAL
                );
                CREATE INDEX owed_message_undelivered ON owed_message (position) WHERE delivered_at IS NULL;
                -- The calendar the book is shown in, without the book's records
                -- (DatabaseCalendar): its own properties, and each other top-level
                -- component (an event, a task, a VTIMEZONE) as iCalendar text.
                CREATE TABLE calendar_header (
                    one INTEGER PRIMARY KEY CHECK (one = 1),
                    text BLOB NOT NULL
                );
                CREATE TABLE calendar_component (
                    position INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    uid TEXT,
                    text BLOB NOT NULL
                );
                """)
        }
        // Each component's reach in time (Unix seconds, with a margin), so a
        // view reads only what can touch its window: an open end is the largest
        // integer, a component with no time spans everything (the defaults,
        // which v1's rows get until a change writes them again).
        migrator.registerMigration("v2") { db in
            try db.execute(sql: """
                ALTER TABLE calendar_component ADD COLUMN starts INTEGER NOT NULL DEFAULT -9223372036854775808;
                ALTER TABLE calendar_component ADD COLUMN ends INTEGER NOT NULL DEFAULT 9223372036854775807;
                CREATE INDEX calendar_component_reach ON calendar_component (ends, starts);
                """)
        }
        return migrator
    }()

    /// Opens the pool, waiting up to `seconds` for other processes opening the same new file.
    ///
    /// Opening sets WAL mode (`PRAGMA journal_mode = WAL`), and SQLite answers
    /// that with `SQLITE_BUSY` at once, without its busy handler, while another
    /// connection is setting it on a new file (CI saw it once; here, 31 of
    /// 60 races of eight connections, with the migrations' reads below). The open is tried again after a pause
    /// that doubles from 1 ms to 100 ms, until the deadline.
    private static func open(_ path: String, _ configuration: Configuration, waitingAtMost seconds: TimeInterval) throws -> DatabasePool {
        let deadline = Date().addingTimeInterval(seconds)
        var pause = 0.001
        while true {
            do {
                return try DatabasePool(path: path, configuration: configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                Thread.sleep(forTimeInterval: pause)
                pause = min(pause * 2, 0.1)
            }
        }
    }

    /// Brings the schema up to date, alongside other processes opening the same new file.
    ///
    /// Each migration is a transaction of its own, and GRDB decides which
    /// are due before it takes the write lock: two processes opening a new
    /// file at once both set out to make `v1`, and the one that waited finds
    /// its table made (or `v1` made and `v2` under way). A failure after
    /// which more migrations are applied than before it was such a race, and
    /// the migrations are tried again; one after which none are is the
    /// file's own fault, and is thrown. Each try that fails so has seen at
    /// least one more migration applied, so there are at most as many as
    /// there are migrations.
    private static func migrate(_ pool: DatabasePool) throws {
        while true {
            let before = try pool.read { db in try migrator.appliedIdentifiers(db) }
            do {
                try migrator.migrate(pool)
                return
            } catch {
                // (A read that fails here says nothing of a race: the migration's own error is thrown.)
                let after = (try? pool.read { db in try migrator.appliedIdentifiers(db) }) ?? before
                guard after.count > before.count else { throw error }
            }
        }
    }

    /// Refuses an existing file that is another program's database, or a
    /// newer Horari's, read through a connection that cannot write (no WAL,
    /// no journal). A file this connection cannot open is left to the pool,
    /// whose error says why.
    private static func refuseForeign(_ path: String) throws(CalendarStoreError) {
        guard holdsDatabase(atPath: path) else { return }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "Horari book, checked before it is opened"
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.read { db in try checkSchema(db, path: path, readOnly: false) }
            try queue.close()
        } catch let error as CalendarStoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw storeError(error, path: path, doing: "open")
        } catch {
            return
        }
    }

    /// Whether a file is there with something in it: an empty (or missing) one SQLite takes for a new database.
    static func holdsDatabase(atPath path: String) -> Bool {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0) > 0
    }

    /// Refuses a database a newer Horari wrote (migrations this one does not know).
    private static func checkSchema(_ db: Database, path: String, readOnly: Bool) throws {
        guard try db.tableExists("grdb_migrations") else {
            // A database with tables of someone else's is not a book.
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            if !tables.isEmpty {
                throw CalendarStoreError(.notADatabase, "\(path) is an SQLite database of another program (tables \(tables.prefix(3).joined(separator: ", "))), not a Horari book; nothing was changed")
            }
            if readOnly { throw CalendarStoreError(.notFound, "\(path) holds no book yet, and it is open for reading only") }
            return
        }
        // Another GRDB app's database has migrations of its own, and none of our tables.
        for table in ["record", "revision", "owed_message"] where try !db.tableExists(table) {
            let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
            guard applied.isEmpty else {
                throw CalendarStoreError(.notADatabase, "\(path) is an SQLite database of another program (no \(table) table), not a Horari book; nothing was changed")
            }
        }
        if try migrator.hasBeenSuperseded(db) {
            throw CalendarStoreError(.newerSchema, "\(path) was written by a newer Horari (its schema has changes this one does not know); nothing was changed",
                                     suggestion: "use that version, or a newer one")
        }
    }

    /// Every record, with the store's revision, read in one transaction.
    public func load() async throws -> BookSnapshot {
        do {
            return try await pool.read { db in
                let revision = try Int64.fetchOne(db, sql: "SELECT value FROM revision") ?? 0
                let rows = try Row.fetchAll(db, sql: "SELECT kind, id, version, body FROM record ORDER BY kind, id")
                return BookSnapshot(revision: revision, records: rows.map {
                    StoredRecord(key: RecordKey(kind: $0["kind"], id: $0["id"]), version: $0["version"], body: $0["body"])
                })
            }
        } catch { throw Self.storeError(error, path: path, doing: "read") }
    }

    /// The records of these keys, with the store's revision, read in one transaction by key.
    public func load(_ keys: Set<RecordKey>) async throws -> BookSnapshot {
        do {
            return try await pool.read { db in
                let revision = try Int64.fetchOne(db, sql: "SELECT value FROM revision") ?? 0
                var records: [StoredRecord] = []
                for key in keys.sorted() {
                    if let row = try Row.fetchOne(db, sql: "SELECT version, body FROM record WHERE kind = ? AND id = ?", arguments: [key.kind, key.id]) {
                        records.append(StoredRecord(key: key, version: row["version"], body: row["body"]))
                    }
                }
                return BookSnapshot(revision: revision, records: records)
            }
        } catch { throw Self.storeError(error, path: path, doing: "read") }
    }

    /// Makes a commit, in one `BEGIN IMMEDIATE` transaction, if the store is
    /// still at its ``BookCommit/basedOn``, with the calendar's new text
    /// when `calendar` is given.
    public func commit(_ change: BookCommit, calendar: CalendarText?) async throws -> Bool {
        let commit = change
        let messages = try commit.owed.map { ($0.id, try $0.storedBody()) }
        do {
            return try await pool.writeWithoutTransaction { db in
                var made = false
                try db.inTransaction(.immediate) {
                    let revision = try Int64.fetchOne(db, sql: "SELECT value FROM revision") ?? 0
                    guard revision == commit.basedOn else { return .rollback }
                    // Each statement prepared once for all its rows (a 10,000-member import writes as many; preparing each
                    // one again, with GRDB's authorizer, was a tenth of it: perf, Benchmarks/RESULTS.md).
                    let upsert = try db.cachedStatement(sql: """
                        INSERT INTO record (kind, id, version, body) VALUES (?, ?, 1, ?)
                        ON CONFLICT (kind, id) DO UPDATE SET version = version + 1, body = excluded.body
                        """)
                    let delete = try db.cachedStatement(sql: "DELETE FROM record WHERE kind = ? AND id = ?")
                    for write in commit.writes {
                        if let body = write.body {
                            try upsert.execute(arguments: [write.key.kind, write.key.id, body])
                        } else {
                            try delete.execute(arguments: [write.key.kind, write.key.id])
                        }
                    }
                    for (id, body) in messages {
                        try db.execute(sql: "INSERT INTO owed_message (id, commit_id, body) VALUES (?, ?, ?)", arguments: [id, commit.id, body])
                    }
                    if let calendar {
                        try db.execute(sql: "INSERT OR REPLACE INTO calendar_header (one, text) VALUES (1, ?)", arguments: [calendar.header])
                        try db.execute(sql: "DELETE FROM calendar_component")
                        let insert = try db.cachedStatement(sql: "INSERT INTO calendar_component (position, name, uid, text, starts, ends) VALUES (?, ?, ?, ?, ?, ?)")
                        for (i, c) in calendar.components.enumerated() {
                            try insert.execute(arguments: [i, c.name, c.uid, c.text, c.storedReach.starts, c.storedReach.ends])
                        }
                    }
                    try db.execute(sql: #"INSERT INTO "commit" (id, revision) VALUES (?, ?)"#, arguments: [commit.id, revision + 1])
                    try db.execute(sql: "UPDATE revision SET value = ?", arguments: [revision + 1])
                    made = true
                    return .commit
                }
                return made
            }
        } catch { throw Self.storeError(error, path: path, doing: "write") }
    }

    /// The book's records and the calendar's text, read in one transaction.
    public func loadCalendar() async throws -> StoredCalendar {
        try await loadCalendar(touchingFrom: .min, to: .max)
    }

    /// The book's records, the calendar's own text and the components that
    /// can touch the window, read in one transaction through the index of
    /// their reach: a month of a 50,000-event calendar reads its month.
    public func loadCalendar(touchingFrom start: Int64, to end: Int64) async throws -> StoredCalendar {
        do {
            return try await pool.read { db in
                let revision = try Int64.fetchOne(db, sql: "SELECT value FROM revision") ?? 0
                let rows = try Row.fetchAll(db, sql: "SELECT kind, id, version, body FROM record ORDER BY kind, id")
                let header = try Data.fetchOne(db, sql: "SELECT text FROM calendar_header")
                let snapshot = BookSnapshot(revision: revision, records: rows.map {
                    StoredRecord(key: RecordKey(kind: $0["kind"], id: $0["id"]), version: $0["version"], body: $0["body"])
                })
                guard let header else { return StoredCalendar(snapshot: snapshot, text: nil) }
                let whole = start == .min && end == .max
                let components = try Row.fetchAll(
                    db, sql: "SELECT name, uid, text, starts, ends FROM calendar_component"
                        + (whole ? "" : " WHERE ends > ? AND starts < ?") + " ORDER BY position",
                    arguments: whole ? [] : [start, end]
                ).map { row in
                    CalendarText.Component(name: row["name"], uid: row["uid"], text: row["text"], storedStarts: row["starts"], storedEnds: row["ends"])
                }
                let unread = whole ? [] : try String.fetchAll(
                    db, sql: "SELECT uid FROM calendar_component WHERE uid IS NOT NULL AND NOT (ends > ? AND starts < ?) ORDER BY position", arguments: [start, end])
                return StoredCalendar(snapshot: snapshot, text: CalendarText(header: header, components: components), unreadUIDs: unread)
            }
        } catch { throw Self.storeError(error, path: path, doing: "read") }
    }

    /// Whether a commit with this ID was made.
    public func hasCommitted(_ commitID: String) async throws -> Bool {
        do {
            return try await pool.read { db in try Bool.fetchOne(db, sql: #"SELECT 1 FROM "commit" WHERE id = ?"#, arguments: [commitID]) ?? false }
        } catch { throw Self.storeError(error, path: path, doing: "read") }
    }

    /// The messages owed, in commit order.
    public func owedMessages() async throws -> [OwedMessage] {
        let bodies: [Data]
        do {
            bodies = try await pool.read { db in try Data.fetchAll(db, sql: "SELECT body FROM owed_message WHERE delivered_at IS NULL ORDER BY position") }
        } catch { throw Self.storeError(error, path: path, doing: "read") }
        return try OwedMessage.owed(fromStored: bodies, in: path)
    }

    /// A message the store holds, and when it was delivered.
    public struct LoggedMessage: Hashable, Sendable {
        /// The message.
        public var message: OwedMessage
        /// When it was marked delivered; `nil` while it is owed.
        public var deliveredAt: Date?
    }

    /// Every message committed, delivered or still owed, in commit order:
    /// what the gym told whom.
    public func messageLog() async throws -> [LoggedMessage] {
        let rows: [(Data, Double?)]
        do {
            rows = try await pool.read { db in
                try Row.fetchAll(db, sql: "SELECT body, delivered_at FROM owed_message ORDER BY position").map { ($0["body"], $0["delivered_at"]) }
            }
        } catch { throw Self.storeError(error, path: path, doing: "read") }
        return try rows.map { body, at in
            do { return LoggedMessage(message: try OwedMessage(storedBody: body), deliveredAt: at.map(Date.init(timeIntervalSince1970:))) } catch {
                throw CalendarStoreError(.badResponse, "\(path): a message cannot be read (\(error))")
            }
        }
    }

    /// Takes delivered messages off the owed list. The message stays in the
    /// database, with when it was delivered (`owed_message.delivered_at`):
    /// what the gym told whom, for as long as the app keeps it.
    public func markDelivered(_ messageIDs: [String]) async throws {
        guard !messageIDs.isEmpty else { return }
        let now = Date().timeIntervalSince1970
        do {
            try await pool.write { db in
                for id in messageIDs {
                    try db.execute(sql: "UPDATE owed_message SET delivered_at = ? WHERE id = ? AND delivered_at IS NULL", arguments: [now, id])
                }
            }
        } catch { throw Self.storeError(error, path: path, doing: "write") }
    }

    /// A GRDB or SQLite error as one line a person can act on.
    static func storeError(_ error: any Error, path: String, doing: String) -> CalendarStoreError {
        if let error = error as? CalendarStoreError { return error }
        guard let error = error as? DatabaseError else {
            if error is CancellationError { return CalendarStoreError(.cancelled, "cancelled; nothing was changed") }
            return CalendarStoreError(.io, "\(path): could not \(doing) the database (\(error)); nothing was changed")
        }
        switch error.resultCode {
        case .SQLITE_NOTADB:
            return CalendarStoreError(.notADatabase, "\(path) is not an SQLite database; nothing was changed", suggestion: "give a .sqlite file Horari made, or a new name")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return CalendarStoreError(.busy, "\(path) is held by another process past the deadline; nothing was changed", suggestion: "try again when it is done")
        case .SQLITE_FULL:
            return CalendarStoreError(.io, "\(path): the disk is full; nothing was changed", suggestion: "free some space and try again")
        case .SQLITE_READONLY:
            return CalendarStoreError(.io, "\(path) is read-only here; nothing was changed", suggestion: "check the file's and its folder's permissions")
        case .SQLITE_CANTOPEN:
            return CalendarStoreError(.io, "\(path) cannot be opened or made; nothing was changed", suggestion: "check that its folder exists and is writable")
        case .SQLITE_CORRUPT:
            return CalendarStoreError(.notADatabase, "\(path) is damaged (SQLite says it is corrupt); nothing was changed", suggestion: "restore it from a backup or an export")
        default:
            return CalendarStoreError(.io, "\(path): could not \(doing) the database (\(error.message ?? "SQLite error \(error.resultCode.rawValue)")); nothing was changed")
        }
    }
}
